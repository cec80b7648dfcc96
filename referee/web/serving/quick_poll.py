"""The board's poll answered before Flask does anything, when the answer is already known.

Thirty tablets each ask about every 750 ms whether their game has moved on. Nearly every answer is
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
tablet whose poll of that game, or that game's board page, the app itself answered a short while
ago (``TRUST`` seconds), by the same session (its session and remember-me cookies, which are all
the app knows a tablet's account and seat by): on a club server a game's pages are for the
tablets seated at it (``web/roles.py``), and that check stays the app's, made once in that while
rather than on every poll. A tablet that has just opened the board has passed it, so even its
first poll is quick (the cookies the page's answer sets are the ones it will send). Every other
request, and every poll that is not that, goes on to Flask unchanged, where the poll route
(``games.poll``) answers it as before. Nothing here knows a rule or changes a thing.
Seats are never taken away (an umpire who hands the role on becomes a spectator, who still sees
the game); were they, a tablet could be answered here for at most ``TRUST`` seconds after. A
signed-in tablet is vouched for with its sign-in, which the same one look checks still stands:
signing out ends the quick answers at once, whichever server process answers the next poll.
"""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from functools import lru_cache
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qsl

from flask import current_app, request
from flask_login import current_user
from sqlalchemy.engine import Engine

from ...table.poll_look import Look
from .folds import named
from .input_limits import MAX_ID
from .live import DRAWINGS
from .security import behind_https, response_headers

POLL_PATH = re.compile(r"/games/([0-9]{1,10})/poll\Z")
BOARD_PATH = re.compile(r"/games/([0-9]{1,10})\Z")
# A version a tablet could show: ASCII digits, not too many of them.
VERSION = re.compile(r"[0-9]{1,12}\Z")
# How long the app's answer to a tablet's poll vouches for that tablet's later polls of the game,
# and how many (game, cookies) pairs are kept (thirty tablets on a few games need some dozens).
TRUST = 30.0
KEEP = 4096
# How long a poll waits here for the drawing another request is making of the version it asks
# about (a 300-unit board takes some 10 ms; at most this, then it goes to Flask as before).
WAIT_FOR_DRAWING = 2.0
# Cookie headers whose reading is remembered, and the longest remembered (a browser's cookies for
# this app are well under it): at most some 4 MB, whatever a client sends.
REMEMBERED = 1024
REMEMBER_UP_TO = 4096
# Where the app leaves the signed-in tablet's sign-in token for the board page's vouching.
SIGN_IN = "referee.sign_in"


def _read_cookies(cookies: str, set_cookies: tuple[str, ...], names: tuple[str, ...]) -> tuple[str, ...]:
    jar = SimpleCookie()
    try:
        jar.load(cookies)
        for header in set_cookies:
            jar.load(header)
    except CookieError:
        return ("?",)  # not cookies a browser sends: known by nothing, vouched for never
    return tuple(jar[n].value if n in jar else "" for n in names)


@lru_cache(maxsize=REMEMBERED)
def _remembered_cookies(cookies: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """``_read_cookies`` worked out once per Cookie header: a tablet sends the same one with every
    poll until a cookie changes."""
    return _read_cookies(cookies, (), names)


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

    def __init__(self, app, engine: Engine, extensions: dict, cookie_names: tuple[str, ...]) -> None:
        self.app, self.engine, self.extensions = app, engine, extensions
        self.https = behind_https()
        self.look = Look(engine)
        self.lock = threading.Lock()
        # (game, cookies) -> (until when, the sign-in it was vouched with, "" for none)
        self.vouched: OrderedDict[tuple[int, tuple[str, ...]], tuple[float, str]] = OrderedDict()
        self.names = cookie_names

    def session_of(self, cookies: str, set_cookies: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The values of the cookies a tablet is known by (``cookie_names``) in a Cookie header,
        as the Set-Cookie headers of an answer leave them ("" for one it does not hold)."""
        if len(cookies) > REMEMBER_UP_TO or set_cookies:
            return _read_cookies(cookies, tuple(set_cookies), self.names)
        return _remembered_cookies(cookies, self.names)

    def vouch(self, game_id: int, cookies: str, set_cookies: tuple[str, ...] = (), sign_in: str = "") -> None:
        """The app has just answered this tablet's poll or board page of this game (its gates let
        it through); ``set_cookies``: the cookies that answer set, which the tablet sends next;
        ``sign_in``: the tablet's sign-in token when signed in (checked on every quick answer)."""
        key = (game_id, self.session_of(cookies, set_cookies))
        with self.lock:
            self.vouched[key] = (time.monotonic() + TRUST, sign_in)
            self.vouched.move_to_end(key)
            while len(self.vouched) > KEEP:
                self.vouched.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """A deleted game's tablets are vouched for no more: the next game may be given its number."""
        with self.lock:
            for key in [k for k in self.vouched if k[0] == game_id]:
                del self.vouched[key]

    def _vouched(self, game_id: int, cookies: str) -> str | None:
        """The sign-in ("" for none) this tablet was vouched for with, None when it is not."""
        found = self.vouched.get((game_id, self.session_of(cookies)))
        return found[1] if found is not None and found[0] > time.monotonic() else None

    def _board_page(self, game_id: int, environ: dict, start_response):
        """The game's board page through the app; once it is sent (200), the tablet is vouched for."""
        def noting(status, headers, *exc):
            if status.startswith("200"):
                self.vouch(game_id, environ.get("HTTP_COOKIE", ""),
                           tuple(v for k, v in headers if k.lower() == "set-cookie"), environ.get(SIGN_IN, ""))
            return start_response(status, headers, *exc)
        return self.app(environ, noting)

    def __call__(self, environ: dict, start_response):
        asked = _asked(environ)
        if asked is None:
            board = BOARD_PATH.match(environ.get("PATH_INFO", "")) if environ.get("REQUEST_METHOD") == "GET" else None
            if board is not None and 0 < int(board.group(1)) <= MAX_ID:
                return self._board_page(int(board.group(1)), environ, start_response)
            return self.app(environ, start_response)
        sign_in = self._vouched(asked[0], environ.get("HTTP_COOKIE", ""))
        if sign_in is None:
            return self.app(environ, start_response)
        game_id, seen = asked
        found = self.look(game_id, sign_in)
        # No such game, a roll waiting for dice, or the tablet's sign-in ended: the app's to answer.
        if found is None or found[1] is not None or (sign_in and found[2] is None):
            return self.app(environ, start_response)
        headers = response_headers(environ.get("HTTP_HOST") or environ.get("SERVER_NAME", ""),
                                   self.https or environ.get("wsgi.url_scheme") == "https")
        if found[0] == seen:
            start_response("204 NO CONTENT", headers)
            return []
        drawings = self.extensions.get(DRAWINGS)
        gzip = "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "")
        # The brigades whose cards the tablet was not sent: their cards are left out (web/serving/folds.py).
        lacking = named(environ.get("HTTP_X_BOARD_LACKING"))
        body = (drawings.known_answer(game_id, found[0], seen, gzip, lacking) if drawings is not None else None)
        # The tablets that ask while the first of them has the new version drawn wait for it here,
        # then are answered from it, rather than each going through Flask to wait for it there.
        if body is None and drawings is not None and drawings.wait_for(game_id, found[0], WAIT_FOR_DRAWING):
            body = drawings.known_answer(game_id, found[0], seen, gzip, lacking)
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
    # The cookies the app knows a tablet by: its session, and Flask-Login's remember-me cookie.
    names = (app.config.get("SESSION_COOKIE_NAME") or "session",
             app.config.get("REMEMBER_COOKIE_NAME") or "remember_token")

    @app.after_request
    def _signed_in(response):
        request.environ[SIGN_IN] = _sign_in()
        return response

    app.wsgi_app = app.extensions["referee.quick_poll"] = QuickPoll(app.wsgi_app, app.extensions["referee.engine"],
                                                                    app.extensions, names)


def look(game_id: int) -> tuple | None:
    """The poll's one look at the database (``Look``), for the poll route as for the quick answer."""
    return current_app.extensions["referee.quick_poll"].look(game_id)


def forget(game_id: int) -> None:
    """A deleted game: nothing this process vouched for it holds for a game given its number."""
    quick = current_app.extensions.get("referee.quick_poll")
    if quick is not None:
        quick.forget(game_id)


def vouch(game_id: int) -> None:
    """Called by the poll route as it answers: this tablet (by its cookies) may have its next
    polls of the game answered quickly for a while."""
    quick = current_app.extensions.get("referee.quick_poll")
    if quick is not None:
        quick.vouch(game_id, request.headers.get("Cookie", ""), sign_in=_sign_in())


def _sign_in() -> str:
    """The signed-in tablet's sign-in token ("" when not signed in)."""
    token = getattr(current_user, "token", "") if getattr(current_user, "is_authenticated", False) else ""
    return token if isinstance(token, str) else ""
