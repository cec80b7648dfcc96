"""The benchmark's yardstick: a bare Flask app on the same server Referee runs on (waitress, the
same threads, the same interpreter switch interval), serving a small fragment. Whatever Referee costs above this is Referee's own.

    python bench/bare_app.py PORT

GET /board: a small page with a form, so a simulated tablet reads it as it reads a game page;
GET /fragment: a small fragment (the yardstick for a poll, a form or the odds);
POST /fragment: reads a form and answers a small fragment (the yardstick for an action).
"""
from __future__ import annotations

import sys

from flask import Flask, request

FRAGMENT = ('<section id="panel" class="panel"><p class="summary">{what}</p>'
            '<ul class="dice"><li class="die">4</li><li class="die">6</li><li class="die">2</li></ul>'
            '</section><div id="poll" hidden hx-get="/fragment?v={v}" hx-trigger="every 1s" '
            'hx-swap="outerHTML" data-version="{v}"></div>')
BOARD = ('<!doctype html><html><head><title>Bare</title></head><body>'
         '<form class="action-form" method="post" action="/fragment">'
         '<input type="hidden" name="version" value="1"><input type="text" name="unit" value="a">'
         '</form>' + FRAGMENT + '</body></html>')


def make_app() -> Flask:
    app = Flask("bare")

    @app.get("/board")
    def board():
        return BOARD.format(what="A small page", v=1)

    @app.get("/fragment")
    def fragment():
        return FRAGMENT.format(what="A small fragment", v=request.args.get("v", "1"))

    @app.post("/fragment")
    def act():
        facts = request.form.to_dict()
        return FRAGMENT.format(what=f"Done: {len(facts)} facts", v=facts.get("version", "1"))

    return app


def main() -> None:
    import waitress

    from referee.web.serve import DEFAULT_THREADS, SWITCH_INTERVAL

    port = int(sys.argv[1])
    sys.setswitchinterval(SWITCH_INTERVAL)  # the same server settings as Referee's
    waitress.serve(make_app(), host="127.0.0.1", port=port, threads=DEFAULT_THREADS,
                   connection_limit=max(100, DEFAULT_THREADS * 4), ident="bare", _quiet=True)


if __name__ == "__main__":
    main()
