"""The board's poll answered before Flask does anything, when the answer is already known.

Thirty tablets each ask every 750 ms whether their game has moved on. Nearly every answer is
"no", an empty 204; after a change, each of the thirty is sent the same few kilobytes of what
changed (``web/live.py`` works that out once per version and tablet's version, and it carries no
tablet's own token). Through Flask either answer costs what every request costs (the session
cookie checked, the request and application contexts, the before- and after-request hooks). Here
it is one look at the database and the same headers and bytes: cheaper than a bare Flask app
serving a small fragment, so the polls no longer keep a tap waiting, nor wait behind it.

Only the plainest poll is answered here: htmx asking (not a history restore), no roll waiting for
another side's dice and none shown on the tablet, either the game's version (204) or what
changed between two versions the app has both drawn already (200: worked out once from the two
drawings, ``live.answer``, and the same bytes for every tablet showing that version), from a
tablet whose poll of that game the app itself answered a short while ago (``TRUST`` seconds), by
the same cookies: on a club server a game's pages are for the tablets seated at it
(``web/roles.py``), and that check stays the app's, made once in that while rather than on every
poll. Every other request, and every poll that is not that, goes on to Flask unchanged, where the
poll route (``games.poll``) answers it as before. Nothing here knows a rule or changes a thing.
Seats are never taken away (an umpire who hands the role on becomes a spectator, who still sees
the game); were they, a tablet could be answered here for at most ``TRUST`` seconds after.
"""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from urllib.parse import parse_qsl

from sqlalchemy import bindparam
from sqlalchemy.engine import Engine
from sqlmodel import select

from ..table import handover
from ..table.models import Game
from .input_limits import MAX_ID
from .live import DRAWINGS
from .security import behind_https, response_headers

POLL_PATH = re.compile(r"/games/([0-9]{1,10})/poll\Z")
# A version a tablet could show: ASCII digits, not too many of them.
VERSION = re.compile(r"[0-9]{1,12}\Z")
# The game's version and a roll waiting for another side's dice, in one look (built once; the poll
# route asks the same).
POLL_LOOK = (select(Game.version, handover.PendingRoll.id)
             .outerjoin(handover.PendingRoll, handover.PendingRoll.game_id == Game.id)
             .where(Game.id == bindparam("game_id")))
# How long the app's answer to a tablet's poll vouches for that tablet's later polls of the game,
# and how many (game, cookies) pairs are kept (thirty tablets on a few games need some dozens).
TRUST = 30.0
KEEP = 4096


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

    def __init__(self, app, engine: Engine, extensions: dict) -> None:
        self.app, self.engine, self.extensions = app, engine, extensions
        self.https = behind_https()
        self.lock = threading.Lock()
        self.vouched: OrderedDict[tuple[int, str], float] = OrderedDict()

    def vouch(self, game_id: int, cookies: str) -> None:
        """The app has just answered this tablet's poll of this game (its gates let it through)."""
        with self.lock:
            self.vouched[(game_id, cookies)] = time.monotonic() + TRUST
            self.vouched.move_to_end((game_id, cookies))
            while len(self.vouched) > KEEP:
                self.vouched.popitem(last=False)

    def _vouched(self, game_id: int, cookies: str) -> bool:
        until = self.vouched.get((game_id, cookies))
        return until is not None and until > time.monotonic()

    def __call__(self, environ: dict, start_response):
        asked = _asked(environ)
        if asked is None or not self._vouched(asked[0], environ.get("HTTP_COOKIE", "")):
            return self.app(environ, start_response)
        game_id, seen = asked
        with self.engine.connect() as conn:
            found = conn.execute(POLL_LOOK, {"game_id": game_id}).first()
        if found is None or found[1] is not None:  # no such game, or a roll waits for dice: the app's
            return self.app(environ, start_response)
        headers = response_headers(environ.get("HTTP_HOST") or environ.get("SERVER_NAME", ""),
                                   self.https or environ.get("wsgi.url_scheme") == "https")
        if found[0] == seen:
            start_response("204 NO CONTENT", headers)
            return []
        drawings = self.extensions.get(DRAWINGS)
        body = (drawings.known_answer(game_id, found[0], seen, "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""))
                if drawings is not None else None)
        if body is None:
            return self.app(environ, start_response)
        data, packed = body
        headers += [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(data)))]
        if packed:
            headers.append(("Content-Encoding", "gzip"))
        start_response("200 OK", headers)
        return [data]


def init_app(app) -> None:
    """Put the quick answer in front of the app (after every other part of it is set up)."""
    app.wsgi_app = app.extensions["referee.quick_poll"] = QuickPoll(app.wsgi_app, app.extensions["referee.engine"],
                                                                    app.extensions)


def vouch(game_id: int) -> None:
    """Called by the poll route as it answers: this tablet (by its cookies) may have its next
    polls of the game answered quickly for a while."""
    from flask import current_app, request

    quick = current_app.extensions.get("referee.quick_poll")
    if quick is not None:
        quick.vouch(game_id, request.headers.get("Cookie", ""))
