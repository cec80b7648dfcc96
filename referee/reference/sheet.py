"""What each game's printable quick-reference sheet holds: the tables a table needs most, in
the order a turn meets them. Each item is an entry (its tables, or its list when it has none)
or a table built from the engines' data."""
from __future__ import annotations

from dataclasses import dataclass

from ..systems import BLACK_POWDER, OIL_AND_IRON
from .entries import Book, Entry, Table
from .tables import TABLES


@dataclass(frozen=True)
class Panel:
    title: str
    tables: tuple[Table, ...]
    entry: Entry | None = None
    lines: tuple[str, ...] = ()


CONTENTS = {
    BLACK_POWDER: ["turn-sequence", "issuing-orders", "command-modifiers", "blunders", "move-distances",
                   "shooting-dice", "to-hit-modifiers", "artillery-fire", "weapon-ranges", "save-modifiers",
                   "break-test", "break-test-modifiers", "combat-modifiers", "charge-responses", "fighting-buildings",
                   ("special_rules", "Special rules")],
    OIL_AND_IRON: ["actions", "heat-threshold", "attack-sequence", "hit-location", "impact", "damage", "ram",
                    "legs-catastrophic", "hull-catastrophic", "arms-catastrophic", "engine-catastrophic",
                    "engagement-length", "victory-points", ("perks", "Perks"), ("equipment", "Equipment"),
                    "choosing-an-engagement"],
}


def panels(book: Book) -> list[Panel]:
    out = []
    for item in CONTENTS[book.game]:
        if isinstance(item, tuple):
            key, title = item
            out.append(Panel(title, tuple(TABLES[(book.game, key)](book))))
            continue
        e = book.entries[item]
        lines = () if e.tables else tuple(x for kind, v in e.blocks() if kind == "ul" for x in v)
        out.append(Panel(e.title, e.tables, e, lines))
    return out


SHEETS = {game: panels for game in CONTENTS}
