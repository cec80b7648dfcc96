"""A state document's text laid out in slots, so that writing a new version rewrites only the
pages that changed (the state column's one write path, ``state_column.keeping``).

SQLite writes an UPDATE of a record that keeps its length by comparing it page by page and
writing again only the pages whose bytes differ; a record whose length changes is written whole.
A 300-unit battle's document is some 200 kB, some fifty pages. An order changes one unit's line
by a few bytes and adds a name to the turn's list of ordered units: written as compact JSON, the
length changes and every byte after the first change moves, so every tap wrote the whole record
again (some ninety pages of write-ahead log, about 0.6 ms of its commit).

So the engine's document is written with each entry of each top-level collection (each unit,
each brigade, each Rig) in a slot of a whole number of ``GRAIN`` bytes, its JSON followed by
spaces, and the whole text padded with spaces to a whole number of ``WHOLE`` bytes before its
closing brace. A unit whose line grows or shrinks within its slot moves nothing else, and a
list that grows at the end uses up the padding. The text is JSON for the same document (JSON
allows spaces between its parts), so it decodes to equal values; only how it is laid out is
new, and a document written before this is read as it always was.

Each entry's slot is kept by the entry's identity, with the entry itself, so that its id is not
taken by another object while it is kept: the engines change state copy-on-write
(``referee.core.changes``), so a unit an action did not touch is the very object of the version
before, and its text is not made again; a collection none of whose entries changed is the very
collection of the version before, and is kept whole (``COLLECTIONS``, a few only: each is some
200 kB). That rests on the rule the state column already keeps
(a stored document is never changed in place), which ``REFEREE_CHECK_STATE`` checks on every
write as well as on every read.
"""
from __future__ import annotations

import json

import orjson

from . import playing

GRAIN = 64
WHOLE = 4096
# Slots kept in the newer of two generations before the older is let go: a few whole battles
# (each slot a unit's few hundred bytes), or a Waterloo day's units for each game being played.
KEEP = 2048
SLOTS_PER_GAME = 320
# Whole collections laid out (each the size of a battle's units): the newest for each game.
COLLECTIONS_KEEP = 8


def json_bytes(value) -> bytes:
    """The value as compact JSON (orjson; a key that is not a string through orjson's slower way
    of taking one, which more than doubled every write of a 200 kB document whose keys are all
    strings; the standard library for what orjson will not take, such as a whole number beyond
    64 bits)."""
    for option in (None, orjson.OPT_NON_STR_KEYS):
        try:
            return orjson.dumps(value, option=option)
        except TypeError:
            continue
    return json.dumps(value).encode()


class _Slots:
    """Slot texts by their entry's identity, in two generations: a slot used while in either
    stays, and once the newer one holds ``per_game`` slots for each game being played (at least
    ``least``) the older one is let go. No lock: two
    threads racing can at worst lose a slot, which is then made again."""

    def __init__(self, per_game: int, least: int) -> None:
        self.per_game, self.least = per_game, least
        self.newer: dict[int, tuple[object, str, bytes]] = {}
        self.older: dict[int, tuple[object, str, bytes]] = {}

    def get(self, key: str, value) -> bytes | None:
        found = self.newer.get(id(value))
        if found is None:
            found = self.older.get(id(value))
            if found is None:
                return None
            self.newer[id(value)] = found
        return found[2] if found[0] is value and found[1] == key else None

    def put(self, key: str, value, text: bytes) -> None:
        if len(self.newer) >= playing.room_for(self.per_game, self.least):
            self.older, self.newer = self.newer, {}
        self.newer[id(value)] = (value, key, text)

    def clear(self) -> None:
        self.newer, self.older = {}, {}


SLOTS = _Slots(SLOTS_PER_GAME, KEEP)
# Whole collections laid out: each is the size of a battle's units (some 200 kB), and only the
# newest versions' are handed over again.
COLLECTIONS = _Slots(1, COLLECTIONS_KEEP)


def forget() -> None:
    """Let every kept slot and collection go."""
    SLOTS.clear()
    COLLECTIONS.clear()


def _slot(value) -> bytes:
    text = json_bytes(value)
    return text + b" " * (-len(text) % GRAIN)


def _entry(key: str, value) -> bytes:
    """``"key":value`` with the value in its slot (kept when the value is a unit, a list...)."""
    found = SLOTS.get(key, value)
    if found is not None:
        return found
    text = json_bytes(key) + b":" + _slot(value)
    if isinstance(value, (dict, list)):
        SLOTS.put(key, value, text)
    return text


def _strings(keys) -> bool:
    return all(isinstance(k, str) for k in keys)


def _collection(key: str, value: dict) -> bytes | None:
    """``"key":{...}`` with each entry in its slot; kept whole too, since a write that changed
    none of a collection's entries (an order changes the turn's list, not the units) hands over
    the very collection of the version before. None for a collection with a key that is not a
    string (its keys looked at only when it is laid out, not at every write)."""
    found = COLLECTIONS.get(key, value)
    if found is None:
        if not _strings(value):
            return None
        found = json_bytes(key) + b":{" + b",".join([_entry(k, v) for k, v in value.items()]) + b"}"
        COLLECTIONS.put(key, value, found)
    return found


def encode(doc: dict) -> str:
    """The document's JSON laid out in slots: each entry of each top-level collection in its
    own, the whole padded to ``WHOLE`` bytes. An empty document, or one with a key that is not
    a string, is written compact (no engine makes either)."""
    if not doc or not _strings(doc):
        return json_bytes(doc).decode()
    parts = []
    for key, value in doc.items():
        laid_out = _collection(key, value) if isinstance(value, dict) else None
        parts.append(laid_out if laid_out is not None else json_bytes(key) + b":" + _slot(value))
    # The braces and the padding go on the first and last parts (a few bytes each), so that the
    # 200 kB text is put together once: every copy of it costs a fresh allocation's page faults.
    length = sum(map(len, parts)) + len(parts) + 1  # the parts, a comma between each, two braces
    parts[0] = b"{" + parts[0]
    parts[-1] += b" " * (-length % WHOLE) + b"}"
    return b",".join(parts).decode()
