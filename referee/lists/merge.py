"""Two tablets saving one list: the version a builder was opened from (the base), the version
saved meanwhile (theirs) and the builder's form (mine), merged part by part.

A part only one side changed takes that side's value; a part both changed alike is that value; a
part both changed differently is a clash, named in the players' words and by the builder field's
path, so the builder can mark it. Rows of a list (brigades, units, Rigs, weapons) are merged row by
row while both sides keep as many; a row added or taken out on both sides is one clash.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .forms import spoken

_MISSING = object()


@dataclass
class Merged:
    value: dict
    clashes: list[str] = field(default_factory=list)  # dotted paths ("rigs.1.name")

    def words(self) -> list[str]:
        """Each clash as a player reads it ("Rig 2 › name")."""
        return [spoken(tuple(int(p) if p.isdigit() else p for p in path.split("."))) for path in self.clashes]


def merge(base: dict, theirs: dict, mine: dict) -> Merged:
    clashes: list[str] = []
    value = _merge(base, theirs, mine, (), clashes)
    return Merged(value if isinstance(value, dict) else mine, clashes)


def _merge(base: Any, theirs: Any, mine: Any, path: tuple, clashes: list[str]) -> Any:
    if mine == theirs or theirs == base:
        return mine
    if mine == base:
        return theirs
    if isinstance(base, dict) and isinstance(theirs, dict) and isinstance(mine, dict):
        out = {}
        for key in [*mine, *(k for k in theirs if k not in mine), *(k for k in base if k not in mine and k not in theirs)]:
            got = _merge(base.get(key, _MISSING), theirs.get(key, _MISSING), mine.get(key, _MISSING),
                         (*path, str(key)), clashes)
            if got is not _MISSING:
                out[key] = got
        return out
    if (isinstance(base, list) and isinstance(theirs, list) and isinstance(mine, list)
            and len(base) == len(theirs) == len(mine)):
        return [_merge(b, t, m, (*path, str(i)), clashes) for i, (b, t, m) in enumerate(zip(base, theirs, mine))]
    clashes.append(".".join(path))
    return mine
