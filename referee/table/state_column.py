"""The column that holds a game's (or a campaign's) state document, decoded once per version.

A 300-unit battle's state is about 200 kB of JSON. Every request that reads the game, and every
poll that draws a new version of its board, would decode it again; and every write would hand the
board a freshly decoded copy in which no unit is the same object as before, so nothing drawn
before could be recognised as unchanged without comparing it field by field.

So on SQLite (the default, where the document comes back as its text) each text written or read
is kept with the document it stands for, for the last few documents (``KEEP``): reading a text
already seen gives the same document back, and a write through the one write path (``keeping``,
``service._commit_state``) keeps the document the engine built, in which every unit the action
did not touch is still the very object it was in the version before (the engines change state
copy-on-write, ``referee.changes``). Views can then tell an unchanged
unit by identity and reuse what they drew for it.

The one rule that makes this safe: **a state document is never changed in place**; every change
goes through the change builder, which copies what it changes. ``REFEREE_CHECK_STATE=1`` (the test
suite sets it) checks that rule on every reuse: a document that no longer matches its text is a
bug, and is reported as one. On other databases (PostgreSQL decodes JSON itself) the column is
plain JSON.
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from contextvars import ContextVar

import orjson
from sqlalchemy import JSON
from sqlalchemy.types import TypeDecorator

from ..recent import Recent

# Documents kept decoded: a few versions of each of the games being played in the room.
KEEP = 16


class StateChangedInPlace(AssertionError):
    """A kept state document was changed in place: some code broke the copy-on-write rule."""


KEPT = Recent(KEEP)
# Set while the one write path stores a document the engine built (``keeping``): only that
# document is kept as written. A document a caller hands in otherwise (a new game) may still be
# the caller's to change, so it is kept only once it is read back from its text.
_KEEPING: ContextVar[bool] = ContextVar("keeping_state", default=False)


@contextmanager
def keeping():
    """Within this, a state document written is kept as the very object written."""
    token = _KEEPING.set(True)
    try:
        yield
    finally:
        _KEEPING.reset(token)


def _checking() -> bool:
    return os.environ.get("REFEREE_CHECK_STATE", "") == "1"


def encode(doc) -> str:
    """The document as JSON text (orjson; a key that is not a string through orjson's slower way
    of taking one, which more than doubled every write of a 200 kB document whose keys are all
    strings; the standard library for what orjson will not take, such as a whole number beyond
    64 bits)."""
    for option in (None, orjson.OPT_NON_STR_KEYS):
        try:
            return orjson.dumps(doc, option=option).decode()
        except TypeError:
            continue
    return json.dumps(doc)


def decode(text: str):
    """The document this text stands for: the one kept for it, or decoded now and kept."""
    found = KEPT.get(text)
    if found is not None:
        if _checking() and orjson.loads(text) != found:
            raise StateChangedInPlace("a state document was changed in place after it was stored")
        return found
    doc = orjson.loads(text)
    KEPT.put(text, doc)
    return doc


class StateDocument(TypeDecorator):
    """JSON in the schema; on SQLite, encoded and decoded here through the kept documents."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect):
        if dialect.name != "sqlite":
            return super().bind_processor(dialect)

        def process(value):
            if value is None:
                return None
            text = encode(value)
            if _KEEPING.get():
                KEPT.put(text, value)
            return text
        return process

    def result_processor(self, dialect, coltype):
        if dialect.name != "sqlite":
            return super().result_processor(dialect, coltype)

        def process(value):
            if value is None or not isinstance(value, str):
                return value
            return decode(value)
        return process
