"""From a rule's name as the app prints it to the entry that explains it.

Results name their modifiers as the players would ("Heavy Cavalry (2nd Dragoons, D3 rolled 4)",
"Attackers: Rear support", "Hull catastrophic (−1 Aim)"), cards print special rules as the lists
write them ("Elite 4+", "Lancer") and statuses with their effect ("Hydraulic Blowout: Speed −2\"").
:class:`Resolver` tries the whole name, then the name without what a result adds to it (a unit's
name before a colon, a note in brackets, a number after it), each first against the entries'
names (for the roll it changes, then for any roll) and then against their patterns.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.errors import DataError
from ..core.recent import Recent
from .entries import Book, Entry

_QUOTES = str.maketrans({"“": '"', "”": '"', "″": '"', "’": "'", "‘": "'", "−": "-", "–": "-", "×": "x"})
# Names whose entries are kept found (``Resolver.resolve``), the most recently asked.
KEEP = 4096
_VALUE = re.compile(r"\s+(?:[+-]?\d+\+?|d\d+|x)$", re.I)
_PARENS = re.compile(r"\s*\(([^()]*)\)")


def normal(name: str) -> str:
    """Case, curly quotes, minus signs and spacing do not matter when names are compared."""
    return " ".join(str(name).translate(_QUOTES).lower().split()).strip(" .")


def candidates(name: str) -> list[str]:
    """The name, then the shorter names a result may have built it from, best first."""
    out: list[str] = []

    def add(text: str) -> None:
        text = normal(text)
        if text and text not in out:
            out.append(text)

    def variants(text: str) -> list[str]:
        bare = _PARENS.sub("", text).strip()
        inner = [m.group(1) for m in _PARENS.finditer(text)]
        return [text, bare, _VALUE.sub("", bare)] + inner

    base = normal(name)
    pieces = [base]
    if ": " in base:
        parts = base.split(": ")
        pieces += [": ".join(parts[i:]) for i in range(1, len(parts))]  # "Unit: rule", "Side: Unit: rule"
        pieces.append(parts[0])  # "Hydraulic Blowout: Speed -2""
    for piece in pieces:
        for v in variants(piece):
            add(v)
    return out


@dataclass
class Resolver:
    """Every name, name-for-a-roll and pattern of one game's entries."""

    game: str
    exact: dict[str, str]
    for_roll: dict[tuple[str, str], str]
    patterns: list[tuple[re.Pattern, str]]
    _found: Recent = field(default_factory=lambda: Recent(KEEP), repr=False, compare=False)

    @classmethod
    def build(cls, book: Book) -> "Resolver":
        exact: dict[str, str] = {}
        for_roll: dict[tuple[str, str], str] = {}
        patterns: list[tuple[re.Pattern, str]] = []
        claimed: dict[str, str] = {}

        def claim(key, entry: Entry, strong: bool) -> None:
            table = for_roll if isinstance(key, tuple) else exact
            owner = table.get(key)
            if owner and owner != entry.id:
                if strong and claimed.get(str(key)) == "strong":
                    raise DataError(f"rulebook/{book.game}", entry.id, "names",
                                    f"“{key}” already names the entry “{owner}”")
                if not strong:
                    return
            table[key] = entry.id
            claimed[str(key)] = "strong" if strong else "weak"

        for e in book.entries.values():
            for n in e.names:
                if ": " in n and normal(n.split(": ", 1)[0]) in ROLLS:
                    roll, rest = n.split(": ", 1)
                    claim((normal(roll), normal(rest)), e, True)
                else:
                    claim(normal(n), e, True)
            for key in (normal(e.title), e.id.replace("-", " ")):
                claim(key, e, False)
            patterns.extend((re.compile(p, re.I), e.id) for p in e.patterns)
        return cls(book.game, exact, for_roll, patterns)

    def resolve(self, name: str, applies_to: str = "") -> str | None:
        """The id of the entry that explains ``name``, or None. Each answer is kept (``Recent``, the last
        ``KEEP`` names): a result's modifiers are named again at every tap, and a name found only
        through the patterns (a unit's name before it) was tried against all of them each time."""
        key = (str(name), applies_to or "")
        kept = self._found.get(key)  # (id or None,): a name with no entry is kept too
        if kept is None:
            kept = (self._resolve(*key),)
            self._found.put(key, kept)
        return kept[0]

    def _resolve(self, name: str, applies_to: str) -> str | None:
        if not name or not str(name).strip():
            return None
        roll = normal(applies_to or "")
        raw = " ".join(str(name).translate(_QUOTES).split())
        for text in candidates(name):
            if roll and (roll, text) in self.for_roll:
                return self.for_roll[(roll, text)]
            if text in self.exact:
                return self.exact[text]
            for pattern, eid in self.patterns:
                if pattern.search(text) or (text == normal(raw) and pattern.search(raw)):
                    return eid
        return None


# The rolls a modifier can change (its ``applies_to``), as names in a section file write them:
# "save: Attack Column" is the Attack Column of a save, not of an order.
ROLLS = {"staff rating", "to hit", "save", "break test", "combat dice", "combat result", "attacks", "fire",
         "formation", "acc", "impact", "speed", "heat roll", "rof"}
