"""The column that holds a game's (or a campaign's) state document, decoded once per version.

A 300-unit battle's state is about 200 kB of JSON. Every request that reads the game, and every
poll that draws a new version of its board, would decode it again; and every write would hand the
board a freshly decoded copy in which no unit is the same object as before, so nothing drawn
before could be recognised as unchanged without comparing it field by field.

So on SQLite (the default, where the document comes back as its text) each text written or read
is kept with the document it stands for, for the last few documents (``KEEP``): reading a text
already seen gives the same document back, and a write through the one write path (``keeping``,
``write_path.commit_state``) keeps the document the engine built, in which every unit the action
did not touch is still the very object it was in the version before (the engines change state
copy-on-write, ``referee.core.changes``). Views can then tell an unchanged
unit by identity and reuse what they drew for it. That write lays its text out in slots, one
per unit (``state_slots``), so that SQLite writes again only the pages a change touched.

The one rule that makes this safe: **a state document is never changed in place**; every change
goes through the change builder, which copies what it changes. ``REFEREE_CHECK_STATE=1`` (the test
suite sets it) checks that rule on every reuse: a document that no longer matches its text is a
bug, and is reported as one.

PostgreSQL keeps the same text: the column is ``json`` (not ``jsonb``), which stores the text as
written, and it is read back as that text (``CAST(state AS TEXT)``: the driver would otherwise
decode it afresh on every read, 3.85 ms for a Waterloo day against 0.24 on SQLite, and hand every
read a document in which nothing drawn before could be recognised). So there too a read of a
version already seen costs a lookup, and the version a write built is the one read after it.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar

import orjson
from sqlalchemy import JSON, Text, cast, type_coerce
from sqlalchemy.types import TypeDecorator

from ..core.recent import Recent
from . import playing, state_slots

# Documents kept decoded: a few versions of each of the games being played in this process
# (``referee/table/playing.py``), and never fewer than ``KEEP``.
KEEP = 16
PER_GAME = 3


class StateChangedInPlace(AssertionError):
    """A kept state document was changed in place: some code broke the copy-on-write rule."""


KEPT = Recent(lambda: playing.room_for(PER_GAME, KEEP))
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


# Documents by the row and version they were read at (a game: its id, version and the moment that
# version was written, so a write rolled back can never stand for the one that later took its
# number). A read of a version this process holds skips the 200 kB column altogether
# (``service.get_game``); every write makes a new version, so what is kept is never out of date.
BY_VERSION = Recent(lambda: playing.room_for(PER_GAME, KEEP))


def kept_version(key: tuple):
    """The document read before at this row and version, or None."""
    found = BY_VERSION.get(key)
    if found is None:
        return None
    doc, text = found
    if text is not None and orjson.dumps(doc) != text:
        raise StateChangedInPlace("a state document was changed in place after it was read")
    return doc


def keep_version(key: tuple, doc) -> None:
    if doc is not None:
        BY_VERSION.put(key, (doc, orjson.dumps(doc) if _checking() else None))


def encode(doc) -> str:
    """The document as compact JSON text (``state_slots.json_bytes``)."""
    return state_slots.json_bytes(doc).decode()


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


# The databases whose JSON column keeps the text as written, so that it can be read back as text.
AS_TEXT = ("sqlite", "postgresql")


class StateDocument(TypeDecorator):
    """JSON in the schema; on SQLite and PostgreSQL, encoded and decoded here through the kept
    documents (read as the column's text)."""

    impl = JSON
    cache_ok = True

    def column_expression(self, colexpr):
        # The text as stored (on SQLite it already is; on PostgreSQL json, not decoded by the
        # driver), still processed by this type.
        return type_coerce(cast(colexpr, Text), self)

    def bind_processor(self, dialect):
        if dialect.name not in AS_TEXT:
            return super().bind_processor(dialect)

        def process(value):
            if value is None:
                return None
            if not _KEEPING.get():
                return encode(value)
            # The engine's document: laid out in slots, so that SQLite rewrites only the pages
            # that changed (state_slots.py), and kept as the very object written.
            text = state_slots.encode(value)
            if _checking() and orjson.loads(text) != value:
                raise StateChangedInPlace("a unit kept with its text was changed in place after it was written")
            KEPT.put(text, value)
            return text
        return process

    def result_processor(self, dialect, coltype):
        if dialect.name not in AS_TEXT:
            return super().result_processor(dialect, coltype)

        def process(value):
            if value is None or not isinstance(value, str):
                return value
            return decode(value)
        return process
