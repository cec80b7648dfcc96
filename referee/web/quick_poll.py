"""The board's "nothing changed" answered before Flask does anything.

Thirty tablets each ask every 750 ms whether their game has moved on, and nearly every answer is
"no": an empty 204. Through Flask that answer costs what every request costs (the session cookie
checked, the request and application contexts, the before- and after-request hooks) for one
look at the database. Here it is one look at the database and the same headers: cheaper than a
bare Flask app serving a small fragment, so the quick answers are no longer kept waiting behind
a board being drawn in another thread.

Only the plainest poll is answered here: htmx asking (not a history restore), a version that is
the game's version, no roll waiting for another side's dice and none shown on the tablet. Every
other request, and every poll that is not that, goes on to Flask unchanged, where the poll route
(``games.poll``) answers it as before. Nothing here knows a rule or changes a thing; a 204 tells
only what a tablet already showed.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qsl

from sqlalchemy import bindparam
from sqlalchemy.engine import Engine
from sqlmodel import select

from ..table import handover
from ..table.models import Game
from .input_limits import MAX_ID
from .security import behind_https, response_headers

POLL_PATH = re.compile(r"/games/([0-9]{1,10})/poll\Z")
# A version a tablet could show: ASCII digits, not too many of them.
VERSION = re.compile(r"[0-9]{1,12}\Z")
# The game's version and a roll waiting for another side's dice, in one look (built once; the poll
# route asks the same).
POLL_LOOK = (select(Game.version, handover.PendingRoll.id)
             .outerjoin(handover.PendingRoll, handover.PendingRoll.game_id == Game.id)
             .where(Game.id == bindparam("game_id")))


def _asked(environ: dict) -> tuple[int, int] | None:
    """(game id, version shown) when this is a poll the quick answer may take, else None."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_HX_REQUEST") != "true" \
            or environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") == "true":
        return None
    m = POLL_PATH.match(environ.get("PATH_INFO", ""))
    if m is None:
        return None
    try:
        query = parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True, max_num_fields=4)
    except ValueError:  # more fields than a poll sends: Flask reads it and says what is wrong
        return None
    seen = [v for k, v in query if k == "v"]
    if len(seen) != 1 or not VERSION.match(seen[0]) or any(k not in ("v", "p") or (k == "p" and v)
                                                           for k, v in query):
        return None
    game_id = int(m.group(1))
    return (game_id, int(seen[0])) if 0 < game_id <= MAX_ID else None


class QuickPoll:
    """WSGI middleware around the Flask app: the unchanged board's 204, or on to the app."""

    def __init__(self, app, engine: Engine) -> None:
        self.app, self.engine = app, engine
        self.https = behind_https()

    def __call__(self, environ: dict, start_response):
        asked = _asked(environ)
        if asked is not None and self._unchanged(*asked):
            secure = self.https or environ.get("wsgi.url_scheme") == "https"
            start_response("204 NO CONTENT", response_headers(environ.get("HTTP_HOST") or environ.get("SERVER_NAME", ""), secure))
            return []
        return self.app(environ, start_response)

    def _unchanged(self, game_id: int, seen: int) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(POLL_LOOK, {"game_id": game_id}).first()
        return found is not None and found[0] == seen and found[1] is None


def init_app(app) -> None:
    """Put the quick answer in front of the app (after every other part of it is set up)."""
    app.wsgi_app = QuickPoll(app.wsgi_app, app.extensions["referee.engine"])
