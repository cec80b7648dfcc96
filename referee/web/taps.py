"""A tap's one-time token, as a write's form carries it.

``static/referee.js`` gives every form it posts a token of its own (the same one for the same form
posted again, and for the same tap repeated within a double tap's time); a form posted without
JavaScript carries the one its page was drawn with (``write_token``). The table keeps the token
with the log entry the tap made, and the same token again is answered with that entry
(``service.perform``): a re-tap after a lost answer never rolls again.
"""
from __future__ import annotations

import re
import secrets
import string

from flask import Flask, request

# Letters, digits, "-" and "_": anything else is no token (the tap is not kept to be answered again).
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
# The answer to a tap already applied, its answer lost on the way (or tapped twice).
ALREADY_DONE = "That tap was already recorded: here is its result. Nothing was done or rolled again."


def tap_token() -> str | None:
    raw = request.form.get("token", "")
    return raw if TOKEN.fullmatch(raw) else None


LETTERS = string.ascii_letters


def write_token() -> str:
    """A fresh token for a form drawn for one tablet's page: letters only, as a long run of digits
    in a field is refused as a number nobody means (``input_limits.py``)."""
    return "".join(secrets.choice(LETTERS) for _ in range(20))


def init_app(app: Flask) -> None:
    app.add_template_global(write_token, "write_token")
