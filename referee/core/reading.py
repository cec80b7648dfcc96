"""Reading frozen dataclasses from a game's JSON document, shared by both games' models, and reading
them on demand (``ReadOnDemand``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import Any


@dataclass(frozen=True)
class _Shape:
    """What building a dataclass from a document needs to know of it, worked out once per class."""
    names: frozenset[str]
    defaults: dict[str, Any]
    factories: tuple[tuple[str, Any], ...]
    required: tuple[str, ...]
    plain: bool  # built by filling its fields directly (see ``from_fields``)


@cache
def _shape(cls) -> _Shape:
    fs = fields(cls)
    return _Shape(
        names=frozenset(f.name for f in fs),
        defaults={f.name: f.default for f in fs if f.default is not MISSING},
        factories=tuple((f.name, f.default_factory) for f in fs if f.default_factory is not MISSING),
        required=tuple(f.name for f in fs if f.default is MISSING and f.default_factory is MISSING),
        plain=all(f.init for f in fs) and not hasattr(cls, "__post_init__") and cls.__dictoffset__ != 0,
    )


def from_fields(cls, d: dict, **given):
    """Build a dataclass from the keys of ``d`` that are its fields, ``given`` (a field read into
    another type, such as a list into a tuple) taking the place of ``d``'s own:
    documents written by an older version (or carrying the web layer's extra keys) still load.

    A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, some
    11 µs for a unit's 28 fields, and a Waterloo day has 300 units to read: a class
    with nothing run at construction (no ``__post_init__``, every field in ``__init__``) has its
    fields filled directly instead, nearly four times quicker, with the same defaults and the same
    ``TypeError`` for a missing field."""
    shape = _shape(cls)
    if not shape.plain:
        return cls(**{**{name: d[name] for name in shape.names if name in d}, **given})
    values = dict(shape.defaults)
    names = shape.names
    for name, value in d.items():
        if name in names:
            values[name] = value
    values.update(given)
    for name, make in shape.factories:
        if name not in values:
            values[name] = make()
    for name in shape.required:
        if name not in values:
            raise TypeError(f"{cls.__name__} needs its field {name!r}")
    item = object.__new__(cls)
    item.__dict__.update(values)
    return item


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

    def __init__(self, raw: dict, read, earlier: Mapping | None = None):
        self._raw = raw
        self._readone = read
        # What an earlier view of the same action read (when it read on demand too), kept for each
        # item whose dictionary is still the very one it was read from (the change builder copies
        # what it writes, so an unchanged unit is the same object): a 300-unit turn's start reads
        # each unit once.
        self._read: dict[str, Any] = {} if not isinstance(earlier, ReadOnDemand) else {
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
