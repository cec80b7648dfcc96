"""The benchmark's yardstick: a bare Flask app on the same server Referee runs on (waitress, the
same threads, the same interpreter switch interval) doing the work every tap must do whatever the
code around it, and nothing else. Whatever Referee costs above this is Referee's own.

    python bench/bare_app.py PORT [FOLDER]

GET /board: a small page with a form and the page's CSRF token, so a simulated tablet reads it as
it reads a game page; GET /fragment: a small fragment (the yardstick for a poll, a form or the
odds); POST /fragment (the yardstick for an action): Flask's session and CSRF check, the game's
turn taken (a lock per game, as ``table/write_lock.py``), the ~200 kB row read (version and state
text, not decoded: Referee keeps decoded documents), the same-size UPDATE on the version read and
one INSERT of a log row, committed in an SQLite file in WAL mode (``synchronous=NORMAL``, as
Referee's), and a small fragment from a template compiled once.
"""
from __future__ import annotations

import sqlite3
import sys
import tempfile
import threading
from pathlib import Path

from flask import Flask, render_template_string, request, session
from flask_wtf.csrf import CSRFProtect, generate_csrf

FRAGMENT = ('<section id="panel" class="panel"><p class="summary">{{ what }}</p>'
            '<ul class="dice">{% for d in dice %}<li class="die">{{ d }}</li>{% endfor %}</ul>'
            '</section><div id="poll" hidden hx-get="/fragment?v={{ v }}" hx-trigger="every 1s" '
            'hx-swap="outerHTML" data-version="{{ v }}"></div>')
BOARD = ('<!doctype html><html><head><title>Bare</title></head>'
         '<body hx-headers=\'{"X-CSRFToken": "{{ token }}"}\'>'
         '<form class="action-form" method="post" action="/fragment">'
         '<input type="hidden" name="csrf_token" value="{{ token }}">'
         '<input type="hidden" name="version" value="1"><input type="text" name="unit" value="a">'
         '</form>' + FRAGMENT + '</body></html>')
# A Waterloo day's state is some 200 kB of JSON.
STATE_BYTES = 200_000


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=15, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=15000")
    return conn


def make_app(folder: Path) -> Flask:
    app = Flask("bare")
    app.config.update(SECRET_KEY="yardstick", WTF_CSRF_TIME_LIMIT=None)
    CSRFProtect(app)
    db = folder / "bare.sqlite"
    with _connect(db) as c:
        c.execute("CREATE TABLE IF NOT EXISTS game (id INTEGER PRIMARY KEY, version INTEGER, state TEXT)")
        c.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, game_id INTEGER, seq INTEGER, facts TEXT)")
        c.execute("INSERT OR REPLACE INTO game VALUES (1, 1, ?)", ('{"units": "' + "x" * STATE_BYTES + '"}',))
    local = threading.local()
    turn = threading.Lock()
    fragment = app.jinja_env.from_string(FRAGMENT)  # compiled once

    def conn() -> sqlite3.Connection:
        if getattr(local, "conn", None) is None:
            local.conn = _connect(db)
        return local.conn

    @app.get("/board")
    def board():
        session["seat"] = "umpire"
        return render_template_string(BOARD, token=generate_csrf(), what="A small page", v=1, dice=(4, 6, 2))

    @app.get("/fragment")
    def get_fragment():
        return fragment.render(what="A small fragment", v=request.args.get("v", "1"), dice=(4, 6, 2))

    @app.post("/fragment")
    def act():
        facts = request.form.to_dict()
        seat = session.get("seat", "")
        with turn:
            c = conn()
            c.execute("BEGIN IMMEDIATE")
            try:
                version, state = c.execute("SELECT version, state FROM game WHERE id = 1").fetchone()
                changed = state[:-3] + ("ab" if state[-3:-1] != "ab" else "cd") + state[-1:]
                c.execute("UPDATE game SET state = ?, version = ? WHERE id = 1 AND version = ?",
                          (changed, version + 1, version))
                c.execute("INSERT INTO log (game_id, seq, facts) VALUES (1, ?, ?)", (version + 1, repr(facts)))
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
        return fragment.render(what=f"Done by {seat}: {len(facts)} facts", v=version + 1, dice=(4, 6, 2))

    return app


def main() -> None:
    import waitress

    from referee.web.serving.serve import DEFAULT_THREADS, SWITCH_INTERVAL

    port = int(sys.argv[1])
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp(prefix="referee-bare-"))
    sys.setswitchinterval(SWITCH_INTERVAL)  # the same server settings as Referee's
    waitress.serve(make_app(folder), host="127.0.0.1", port=port, threads=DEFAULT_THREADS,
                   connection_limit=max(100, DEFAULT_THREADS * 4), ident="bare", _quiet=True)


if __name__ == "__main__":
    main()
