"""Rolling on a campaign table: one die plus modifiers read against rows, with the exact odds of
each row before anything is rolled. Every campaign roll goes through a :mod:`referee.core.dice`
source, so the app can roll it, the players can type it, and a test can script it."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..core.dice import DiceSource, d3, roll
from ..core.errors import RuleError
from ..core.odds import Chances
from ..core.results import Die, Modifier


@dataclass(frozen=True)
class Row:
    """One row of a table: it covers totals up to ``top`` (the last row covers everything above)."""

    top: int
    key: str
    text: str


def row_for(rows: Sequence[Row], total: int) -> Row:
    if not rows:
        raise RuleError("The table has no rows: fill it in on the campaign's settings page.")
    for r in rows:
        if total <= r.top:
            return r
    return rows[-1]


def table_odds(rows: Sequence[Row], sides: int, modifier: int = 0) -> list[tuple[Row, Fraction]]:
    """The chance of landing on each row with one die of ``sides`` plus ``modifier``."""
    counts: dict[int, int] = {}
    order: list[Row] = []
    for face in range(1, sides + 1):
        r = row_for(rows, face + modifier)
        if id(r) not in counts:
            counts[id(r)] = 0
            order.append(r)
        counts[id(r)] += 1
    return [(r, Fraction(counts[id(r)], sides)) for r in order]


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def odds_line(what: str, rows: Sequence[Row], sides: int, modifiers: Sequence[Modifier] = ()) -> str:
    mod = sum(m.amount for m in modifiers)
    mods = "".join(f" {m}" for m in modifiers)
    found = table_odds(rows, sides, mod)
    parts = ", ".join(f"{r.text} {percent(p)}" for r, p in found)
    return Chances(f"{what} (D{sides}{mods}): {parts}", [(r.text, p) for r, p in found], what)


@dataclass(frozen=True)
class TableRoll:
    die: Die
    total: int
    row: Row


def roll_on(source: DiceSource, rows: Sequence[Row], sides: int, purpose: str,
            modifiers: Sequence[Modifier] = ()) -> TableRoll:
    (die,) = roll(source, 1, sides, purpose)
    total = die.value + sum(m.amount for m in modifiers)
    return TableRoll(die, total, row_for(rows, total))


def roll_d3(source: DiceSource, purpose: str) -> tuple[Die, int]:
    (die,) = roll(source, 1, 6, f"{purpose} (D3: a D6 halved, rounding up)")
    return die, d3(die.value)
