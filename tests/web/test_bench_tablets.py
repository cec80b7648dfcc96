"""The benchmark's simulated tablets (``bench/tablets.py``) and its in-process harness
(``bench/in_process.py``).

A simulated tablet reads an action form with a tag scanner (``read_form``), not Python's HTML
parser, so that it does not take the processor from the server it measures. It must read every
real form as the HTML parser does, field for field. Its first load counts every file the page
names, and stops at one that is missing."""
from __future__ import annotations

import importlib
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from _web_helpers import start_form
from werkzeug.datastructures import MultiDict

from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
from referee.systems import system_for
from referee.table import service

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _bench_module(name: str):
    """A module of ``bench/``, imported by its own name as the benchmark imports it (so the
    harness and the tests share one ``tablets``)."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def tablets():
    return _bench_module("tablets")


class Reference(HTMLParser):
    """The first action form's fields as a browser submits them, read by the standard HTML parser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.action, self.odds_url, self.fields, self.depth, self.found = "", "", [], 0, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not self.found and "action-form" in (a.get("class") or "").split():
            self.found, self.depth, self.action = True, 1, a.get("action", "")
            return
        if not self.depth:
            return
        if tag == "form":
            self.depth += 1
        if tag == "div" and a.get("id") == "odds":
            self.odds_url = a.get("hx-get", "")
        if tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a or kind in ("submit", "button"):
                return
            self.fields.append((a["name"], a.get("value") or ("on" if kind == "checkbox" else "")))

    def handle_endtag(self, tag):
        if tag == "form" and self.depth:
            self.depth -= 1


def reference(page: str) -> tuple[str, str, list]:
    r = Reference()
    r.feed(page)
    return r.action, r.odds_url, r.fields


def _same_as_reference(tablets, page: str) -> None:
    form = tablets.read_form(page)
    assert (form.action, form.odds_url, form.fields) == reference(page)


def _every_form(client, game_id: int, system: str) -> int:
    seen = 0
    for name in system_for(system).actions:
        answer = client.get(f"/games/{game_id}/act/{name}", headers={"HX-Request": "true", "HX-Target": "panel"})
        page = answer.get_data(as_text=True)
        if answer.status_code != 200 or "action-form" not in page:
            continue
        seen += 1
        yield name, page
    assert seen


def test_every_black_powder_form_is_read_as_the_html_parser_reads_it(tablets, client, game_id):
    forms = list(_every_form(client, game_id, "blackpowder"))
    assert len(forms) > 10
    for _name, page in forms:
        _same_as_reference(tablets, page)


def test_every_of_oil_and_iron_form_is_read_as_the_html_parser_reads_it(tablets, client, db):
    doc = build_engagement(start_form(), {side: len(rigs) for side, rigs in EXAMPLE_SQUADRONS.items()})
    game_id = service.create_game(db, doc["name"], "oilandiron", doc, seed=3).id
    forms = list(_every_form(client, game_id, "oilandiron"))
    assert len(forms) > 5
    for _name, page in forms:
        _same_as_reference(tablets, page)


@pytest.mark.parametrize("page", [
    # entities in values, single quotes, a bare attribute, upper-case names
    '<FORM class="x action-form" action="/a?b=1&amp;c=2"><INPUT Name=\'who\' value="A &quot;B&quot; &lt;C&gt;">'
    '<input type=checkbox name=on checked><input type="radio" name="r" value="1"></FORM>',
    # ">" inside a quoted value, a comment holding an input, a nested form, a second action form
    '<p><form class="action-form" action="/x"><div id="odds" hx-get="/o" hx-on="if (a > b) go()"></div>'
    '<!-- <input name="hidden-in-comment" value="1"> --><input name="n" data-x="1>2" value="v">'
    '<form><input name="inner" value="i"></form><input type="submit" name="go" value="Go">'
    '<input type="checkbox" name="plain" class="checked-look"><input type="checkbox" name="t" checked="checked">'
    '</form><form class="action-form" action="/second"><input name="later" value="l"></form></p>',
])
def test_awkward_markup_is_read_as_the_html_parser_reads_it(tablets, page):
    _same_as_reference(tablets, page)


def test_a_write_refused_as_stale_shows_a_form_the_tablet_can_post_again(tablets, client, table):
    """The benchmark's umpire taps again on the form a stale write's answer shows (as a player
    does): that form carries the fresh version and what the umpire had chosen."""
    unit = next(iter(table.state["units"]))
    seen = table.version
    first = client.post(f"/games/{table.id}/act/adjust_unit", headers={"HX-Request": "true"},
                        data={"version": seen, "unit": unit, "field": "casualties", "value": "1"})
    assert first.status_code == 200
    stale = client.post(f"/games/{table.id}/act/adjust_unit", headers={"HX-Request": "true"},
                        data={"version": seen, "unit": unit, "field": "casualties", "value": "2"})
    assert stale.status_code == 409
    form = tablets.read_form(stale.get_data(as_text=True))
    fields = dict(form.fields)
    assert form.action == f"/games/{table.id}/act/adjust_unit"
    assert fields["version"] == str(table.version) == str(seen + 1)
    assert (fields["unit"], fields["field"], fields["value"]) == (unit, "casualties", "2")
    again = client.post(form.action, headers={"HX-Request": "true"}, data=MultiDict(form.fields))
    assert again.status_code == 200
    assert table.unit(unit)["casualties"] == 2



@pytest.fixture(scope="module")
def in_process():
    """``bench/in_process.py``, with the bench modules it imports by name."""
    return _bench_module("in_process")


def test_a_first_load_counts_every_style_sheet_and_script_and_stops_at_a_missing_one(in_process, app, table):
    """The benchmark's first load is the page and each file it names; a file that does not answer
    (a script not installed) stops the run instead of counting as a smaller first load."""
    tablet = in_process.InProcess(app)
    answers = []
    tablet.request = _recording(tablet.request, answers)
    page, total = tablet.open_page(f"/games/{table.id}")
    assert [path for _, path, _ in answers[1:]] == list(dict.fromkeys(a[1] for a in answers[1:]))
    assert any(path.endswith("htmx.min.js") and a.status == 200 for _, path, a in answers)
    assert total == sum(a.wire + a.header_bytes for _, _, a in answers) > page.wire

    class Broken(in_process.InProcess):
        def _send(self, method, path, body, headers):
            if path.startswith("/static/"):
                return super()._send(method, path, body, headers)
            status, seconds, raw, pairs = super()._send(method, path, body, {**headers, "Accept-Encoding": "identity"})
            return status, seconds, raw + b'<script src="/static/v-0/not-there.js"></script>', pairs

    with pytest.raises(RuntimeError, match="not-there.js, which answered 404"):
        Broken(app).open_page(f"/games/{table.id}")


def test_the_in_process_harness_plays_the_benchmarks_battle_through_the_real_requests(in_process, tmp_path):
    """``bench/in_process.py`` starts the benchmark's battle through the start form and plays a
    turn through the forms, odds lines, writes (CSRF token and version) and polls, and times
    each kind of request."""
    app = in_process.make_app(tmp_path)
    t = in_process.InProcess(app)
    game_id = in_process.start_battle(t, "In process", 2, in_process.BRIGADE_LINES)
    board = in_process.Board(str(tmp_path / "referee.sqlite"))
    answers = []
    t.request = _recording(t.request, answers)
    in_process.play(t, board, game_id, turns=1)
    version, state = board.state(game_id)
    assert (state["active_side"], state["phase"]) == ("red", "shooting")  # four phases on from Blue's command
    posts = [a for method, _, a in answers if method == "POST"]
    # Every write is taken (its token and version good) or refused by a rule (a unit that the
    # turn's shots left disordered, say), and most land.
    assert {a.status for a in posts} <= {200, 422}
    assert sum(a.status == 200 for a in posts) > 0.9 * len(posts)
    assert all(t.times[k] for k in ("form", "odds", "post", "poll", "next"))
    assert "bare post" in in_process.report({**t.times, **in_process.yardstick(0, 3)})


def _recording(request, answers):
    """``request``, each answer kept with its method and address."""
    def record(method, path, *args, **kwargs):
        answer = request(method, path, *args, **kwargs)
        answers.append((method, path, answer))
        return answer
    return record
