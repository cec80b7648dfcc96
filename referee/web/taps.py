"""A tap's one-time token, as a write's form carries it.

``static/referee.js`` gives every form it posts a token of its own (the same one for the same form
posted again, and for the same tap repeated within a double tap's time); a form posted without
JavaScript carries the one its page was drawn with (``write_token``). The table keeps the token
with the log entry the tap made, and the same token again is answered with that entry
(``service.perform``): a re-tap after a lost answer never rolls again.

A write to a list or a campaign (``once``) keeps its token with whatever it commits, and where its
answer led (``table/tap_answers.py``): the same token again is led there too, told the tap was
already recorded, and nothing is changed again.
"""
from __future__ import annotations

import re
import secrets
import string
import threading
from functools import wraps

from flask import Flask, Response, make_response, redirect, request
from sqlalchemy.exc import IntegrityError

from ..table import tap_answers
from ..table.errors import TableError
from . import auth, notices
from .db import session
from .serving import refusals

# Letters, digits, "-" and "_": anything else is no token (the tap is not kept to be answered again).
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
# The answer to a tap already applied, its answer lost on the way (or tapped twice).
ALREADY_DONE = "That tap was already recorded: here is its result. Nothing was done or rolled again."


def tap_token() -> str | None:
    raw = request.form.get("token", "")
    return raw if TOKEN.fullmatch(raw) else None


LETTERS = string.ascii_letters
# Each byte made a letter: bytes 0-207 fall on each of the 52 letters four times, the 48 above
# once more on the first 48; some 5.7 bits a letter, about 113 bits a token of 20.
_AS_LETTERS = bytes.maketrans(bytes(range(256)), bytes(ord(LETTERS[b % len(LETTERS)]) for b in range(256)))


def write_token() -> str:
    """A fresh token for a form drawn for one tablet's page: letters only, as a long run of digits
    in a field is refused as a number nobody means (``input_limits.py``). One read of the system's
    random source, not twenty: a board's drawing carries a few and a form several."""
    return secrets.token_bytes(20).translate(_AS_LETTERS).decode("ascii")


# Two requests with one token in this process take turns (the second then finds the first's
# answer); in other worker processes the token's unique row refuses the second's commit.
_LOCKS = tuple(threading.Lock() for _ in range(16))


def _led_to(response: Response) -> str:
    return response.headers.get("HX-Redirect") or response.headers.get("Location") or ""


# The pages that show a message left for them (``notices``): the lists' and the campaigns'.
SAYING = ("/lists", "/campaigns")


def led_again(first: tap_answers.TapAnswer) -> Response:
    """The first answer's destination, said to be the first answer's: a redirect (or htmx's)."""
    where = first.location or request.referrer or "/"
    if where.startswith(SAYING):
        notices.say(ALREADY_DONE)
    if first.status == 204 or request.headers.get("HX-Request"):
        return Response(status=204, headers={"HX-Redirect": where})
    return redirect(where, 303)


def _again(replay, first: tap_answers.TapAnswer) -> Response:
    # A tap that took a seat: the same tablet is handed the token the lost answer set.
    auth.handed_again(first.handed_from, first.handed_to)
    return replay(first)


def once(replay=led_again):
    """A write outside a game's log (a list's, a campaign's, a game started or imported, a seat
    taken), done once per token: sent again, ``replay`` answers it with the first answer kept
    (``tap_answers.TapAnswer``) and nothing is done again."""
    def wrap(view):
        @wraps(view)
        def done_once(*args, **kwargs):
            token = tap_token() if request.method == "POST" else None
            if token is None:
                return view(*args, **kwargs)
            with _LOCKS[hash(token) % len(_LOCKS)]:
                s = session()
                first = tap_answers.answer_of(s, token)
                if first is not None:
                    return _again(replay, first)
                tap_answers.keep_with_the_write(s, token, request.path)
                try:
                    response = make_response(view(*args, **kwargs))
                except refusals.QUESTIONS:
                    raise
                except TableError as e:  # refused: drawn here, so its token is taken back below
                    response = make_response(refusals.answer(e))
                except IntegrityError:
                    # The same tap landed first in another worker: this one's write was refused whole.
                    s.rollback()
                    tap_answers.drop_pending(s)
                    first = tap_answers.answer_of(s, token)
                    if first is None:
                        raise
                    return _again(replay, first)
                if tap_answers.drop_pending(s) is not None:
                    if response.status_code < 400:
                        tap_answers.answered(s, token, response.status_code, _led_to(response))
                    else:
                        tap_answers.forget(s, token)
                return response
        return done_once
    return wrap


def init_app(app: Flask) -> None:
    app.add_template_global(write_token, "write_token")
