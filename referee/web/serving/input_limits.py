"""Input that can never break the server, checked before any route reads it.

- Numbers in addresses (``/games/<int:game_id>``) are ASCII digits, at most ten of them, and
  within what the database can store (1 to 2,147,483,647); anything else is simply not a page
  (404), so ``/games/99999999999999999999999`` never reaches the database.
- A number in a short box (a version, a count, typed dice, a field's name such as
  ``rigs.0.name``) must be one a person could mean: digits 0 to 9 only (not ``²`` or ``٣``,
  which Python's ``isdigit`` accepts and ``int`` then refuses), at most 12 of them.
- No single field is longer than 300,000 characters (a pasted list or squadron is far smaller);
  the whole body's limit is in ``referee.web.serving.security``.
- A form or an address holds at most ``MAX_FIELDS`` fields (the largest builder form has a few
  hundred): more is refused with a 413 before they are parsed, counted in the raw bytes. Werkzeug
  holds a multipart form to the same number (``MAX_FORM_PARTS``) and a URL-encoded one to none.

A refusal is a 422 (or 404) with a sentence; nothing is changed.
"""
from __future__ import annotations

import re

from flask import Flask, abort, request
from werkzeug.routing import IntegerConverter

MAX_ID = 2**31 - 1
MAX_DIGITS = 12
MAX_FIELD = 300_000
MAX_FIELDS = 5000
TOO_MANY_FIELDS = (f"That form holds more than {MAX_FIELDS:,} fields: no page of Referee sends so many. "
                   "Reload the page and try again.")


class IdConverter(IntegerConverter):
    """``<int:…>`` in every route: ASCII digits, at most 10, from 0 to ``MAX_ID``."""

    regex = r"[0-9]{1,10}"

    def __init__(self, map, fixed_digits=0, min=0, max=MAX_ID, signed=False):
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


# A run of characters Python calls digits: "²", "٣" and "12" alike.
DIGIT_RUN = re.compile(r"[^\W_]+")
SHORT = 80  # names, numbers, ids, codes; longer boxes hold pasted lists (checked when parsed)
LONG_RUN_DIGITS = 15
LONG_RUN = re.compile(r"[0-9]{%d,}" % (LONG_RUN_DIGITS + 1))


# In ASCII, the only numbers refused are a run of more than LONG_RUN_DIGITS digits anywhere, or a
# word that is all digits and longer than MAX_DIGITS (a word: a run of letters and digits).
ASCII_REFUSED = re.compile(r"[0-9]{%d,}|(?<![A-Za-z0-9])[0-9]{%d,}(?![A-Za-z0-9])" % (LONG_RUN_DIGITS + 1, MAX_DIGITS + 1))


def problem_with(value: str) -> str | None:
    """Why a field's value (or name) is refused, or None. A plain ASCII value, what nearly every
    field holds, is cleared by one look (``ASCII_REFUSED``); anything else is read word by word."""
    if len(value) <= MAX_FIELD and value.isascii() and ASCII_REFUSED.search(value) is None:
        return None
    return _problem(value)


def _problem(value: str) -> str | None:
    if len(value) > MAX_FIELD:
        return f"One box holds more than {MAX_FIELD:,} characters: that is not something to type here."
    bare = value.strip()
    if bare.isdigit() and (not bare.isascii() or len(bare) > MAX_DIGITS):
        return "Numbers are typed with the digits 0 to 9." if not bare.isascii() else \
            f"A number here has at most {MAX_DIGITS} digits."
    if LONG_RUN.search(value):
        return f"One box holds a number of more than {LONG_RUN_DIGITS} digits: that is not a number anyone means."
    if len(value) <= SHORT:
        for word in DIGIT_RUN.findall(value):
            digits = "".join(c for c in word if c.isdigit())
            if not digits:
                continue
            if not digits.isascii():
                return "Numbers are typed with the digits 0 to 9."
            if word.isdigit() and len(word) > MAX_DIGITS:
                return f"A number here has at most {MAX_DIGITS} digits."
    return None


def _count_fields() -> None:
    """Refuse (413) a query string or URL-encoded body of more than ``MAX_FIELDS`` fields, counted
    in the bytes before anything parses them (the body is kept for the parser that follows)."""
    if request.query_string.count(b"&") >= MAX_FIELDS:
        abort(413, TOO_MANY_FIELDS)
    if request.method != "GET" and request.mimetype == "application/x-www-form-urlencoded":
        if request.get_data(cache=True).count(b"&") >= MAX_FIELDS:
            abort(413, TOO_MANY_FIELDS)


def check_request() -> None:
    """Every query and form value of the request, before a route sees it."""
    if request.routing_exception is not None:  # not a page: nothing will read the fields
        return
    _count_fields()
    for source in (request.args, request.form) if request.method != "GET" else (request.args,):
        for key, value in source.items(multi=True):
            if not isinstance(key, str) or not isinstance(value, str):
                abort(400, "The form could not be read. Reload the page and try again.")
            if not key.isprintable():
                abort(422, "The form holds a field Referee does not know. Reload the page and try again.")
            problem = problem_with(key) or problem_with(value)
            if problem:
                abort(422, problem)


def init_app(app: Flask) -> None:
    """Call before the blueprints are registered: their ``<int:…>`` rules use the converter."""
    app.url_map.converters["int"] = IdConverter
    app.before_request(check_request)
