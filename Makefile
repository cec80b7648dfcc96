# Referee: the two commands a newcomer needs are `make run` and `make test` (see README.md).
# Every target installs what it needs first and skips what is already installed, so a second
# run starts at once.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Stamps: a file newer than its inputs means that install step is done.
PY_STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.package-lock.json
HTMX := referee/static/vendor/htmx.min.js
PYTEST := $(PY) -m pytest -p no:cacheprovider
# The whole suite on two processes (pytest-xdist): the end-to-end tests keep to one of them, in
# file order, as one group (one browser and its servers at a time, as they were written for), while
# the other takes the rules, web and table tests.
SUITE := $(PYTEST) -n 2 --dist loadgroup
# Then the race and lost-answer tests again on a real PostgreSQL, started by the run itself in a
# temporary folder (scripts/with-postgresql.sh), with several gunicorn workers among them: the
# promises the README makes hold on both databases. About two minutes on two cores.
POSTGRES_TESTS := tests/table/test_several_workers.py tests/table/test_two_tablets.py \
	tests/security/test_lost_answers.py tests/security/test_quick_poll_seats.py \
	tests/lists/test_list_taps.py tests/campaigns/test_campaign_taps.py tests/test_migrations.py

.PHONY: run test test-rules test-web test-e2e test-postgres install browser postgresql bench lighthouse migration clean fuzz selfplay

# Serve the app on the local network through waitress (SQLite in instance/, the demo battle seeded).
run: install
	$(PY) -m referee

# The linter first (ruff: pyflakes and import order, [tool.ruff] in pyproject.toml), then the
# whole suite, end-to-end tests in Debian's Chromium included, then the race and lost-answer tests
# on PostgreSQL (``test-postgres``). pytest's own exit code is the result; exit 5 (no test
# collected) fails the run, it is never taken for success.
test: install browser postgresql
	$(PY) -m ruff check .
	@$(SUITE) || { status=$$?; \
	  if [ $$status -eq 5 ]; then echo "pytest collected no tests: that counts as a failure." >&2; fi; \
	  exit $$status; }
	@$(MAKE) --no-print-directory test-postgres

# The race and lost-answer tests on a PostgreSQL of their own (Debian's, installed when missing).
test-postgres: install postgresql
	scripts/with-postgresql.sh $(PYTEST) -q $(POSTGRES_TESTS)

# The rules engines alone: no browser, no web server.
test-rules: install
	$(PYTEST) tests/rules

test-web: install
	$(PYTEST) tests/web

test-e2e: install browser
	$(PYTEST) -m e2e tests/e2e

install: $(PY_STAMP) $(HTMX)

$(PY):
	scripts/make-venv.sh $(PYTHON) $(VENV)

$(PY_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# htmx is served from our own static folder: the tablets may have no internet at the table.
$(HTMX): $(NPM_STAMP)
	mkdir -p $(dir $@)
	cp node_modules/htmx.org/dist/htmx.min.js $@

browser:
	@scripts/ensure-chromium.sh

postgresql:
	@scripts/ensure-postgresql.sh

# What a player waits for, on the real server with 30 tablets watching (bench/bench_server.py):
# prints a Markdown table of figures against a bare Flask fragment, and the machine's load.
# Then the browser part (bench/browser.py): the Battle of Waterloo in Chromium with the CPU slowed x4;
# 1, 5 and 12 games on one server (several_games.py); two tablets acting at once, counting stale
# refusals (bench_tablets.py); the Foe deciding for a whole Waterloo side (bench_foe.py); whole
# games the Foe plays against itself, Quatre Bras, Waterloo and an Iron Clash (bench_selfplay.py);
# the rules reference answering searches and questions (bench_reference.py); what each picture
# costs to draw and weighs (bench_pictures.py).
bench: install browser
	$(PY) bench/bench_server.py
	$(PY) bench/browser.py
	$(PY) bench/several_games.py
	$(PY) bench/bench_tablets.py
	$(PY) bench/bench_foe.py
	$(PY) bench/bench_selfplay.py
	$(PY) bench/bench_reference.py
	$(PY) bench/bench_pictures.py

# Lighthouse (an npm development dependency) in Debian's Chromium on the server `make run` starts:
# performance, accessibility, best practices and SEO on the home page and three boards (the demo
# battle, Waterloo at about 300 units, an Of Oil and Iron engagement), desktop and a 1024x768 tablet
# (bench/lighthouse.py, about five minutes). Prints the scores and the load average; fails if
# performance is under 95 or any other score under 100. Not part of `make test`.
# Lighthouse is installed here, on demand (not a project dependency: `make test` never needs it).
lighthouse: install browser $(NPM_STAMP)
	test -x node_modules/.bin/lighthouse || npm install --no-save --no-audit --no-fund --loglevel=error lighthouse@12.8.2
	CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(PY) bench/lighthouse.py

# The long fuzz run: 10,000 generated bad requests to every route of a club server, 2,000 from each
# of five actors (the umpire, a side's player, a signed-in stranger, a spectator, an anonymous
# client); fails on any server error or any refused request that changed the database, and prints
# the counts (tests/security/test_fuzz.py). `make test` sends 150 each, and 150 on a laptop table.
fuzz: install
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-2000} $(PYTEST) -s -q tests/security/test_fuzz.py -k never_breaks

# Referee playing itself (issue 50; docs/foe.md, "Referee against itself"): the Foe plays both
# sides of every shipped Waterloo scenario and of four engagements on the simulated table, every
# invariant checked; fails on any exception, refusal, unfinished game or broken invariant. Prints
# each run's JSON summary. SELFPLAY_BATTLES games each (default 4; the day of Waterloo 2).
SELFPLAY_BATTLES ?= 4
selfplay: install
	$(PY) -m referee selfplay --game blackpowder --battles $(SELFPLAY_BATTLES) --seed 1 --json \
	  --scenario demo,ligny-saint-amand,quatre-bras,hougoumont,derlons-attack,plancenoit,wavre
	$(PY) -m referee selfplay --game blackpowder --battles 2 --seed 1 --json --scenario waterloo
	$(PY) -m referee selfplay --game oilandiron --battles $(SELFPLAY_BATTLES) --seed 1 --json \
	  --scenario iron_clash,point_of_control,total_command,supply_airdrop
	$(PY) -m referee selfplay --game oilandiron --battles $(SELFPLAY_BATTLES) --seed 1 --json \
	  --scenario iron_clash --difficulty hard,easy --swap

# After changing referee/table/models.py: make migration m="what changed"
migration: install
	$(VENV)/bin/alembic revision --autogenerate -m "$(m)"

clean:
	rm -rf $(VENV) node_modules $(HTMX)
