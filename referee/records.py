"""Reading frozen dataclasses from a game's JSON document, shared by both games' models."""
from __future__ import annotations

from dataclasses import fields
from functools import cache


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
