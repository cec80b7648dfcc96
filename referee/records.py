"""Reading frozen dataclasses from a game's JSON document, shared by both games' models, and reading
them on demand (``ReadOnDemand``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from typing import Any


@cache
def _names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def from_fields(cls, d: dict):
    """Build a dataclass from the keys of ``d`` that are its fields: documents written by an older
    version (or carrying the web layer's extra keys) still load."""
    return cls(**{name: d[name] for name in _names(cls) if name in d})


class SettingsRecord:
    """A game's rule settings: missing keys take the documented defaults."""

    @classmethod
    def from_dict(cls, d: dict | None):
        return from_fields(cls, d or {})

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class ReadOnDemand(Mapping):
    """Units (or brigades) by id, each read from the document the first time it is asked for: an
    action on a 300-unit battle reads the handful it touches, not all of them."""

    def __init__(self, raw: dict, read, earlier: "ReadOnDemand | None" = None):
        self._raw = raw
        self._readone = read
        # What an earlier view of the same action read, kept for each item whose dictionary is
        # still the very one it was read from (the change builder copies what it writes, so an
        # unchanged unit is the same object): a 300-unit turn's start reads each unit once.
        self._read: dict[str, Any] = {} if earlier is None else {
            k: v for k, v in earlier._read.items() if raw.get(k) is earlier._raw.get(k)}

    def __getitem__(self, key: str):
        item = self._read.get(key)
        if item is None:
            item = self._read[key] = self._readone(self._raw[key])
        return item

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, key) -> bool:
        return key in self._raw
