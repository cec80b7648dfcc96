"""Supports in hand-to-hand combat: friends not fighting, close behind or beside an engaged unit,
add to their side's combat result.

Each engaged unit can be backed once from its rear, once from its left and once from its right
(+1 each, at most +3). The players say which friends stand where and whether another fight lies
within 6" of a quarter (that quarter then gives nothing); the app checks who may support and who
may be supported.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.results import Modifier
from ..core.words import counted as words_for
from .model import Battle, RuleError, Unit

QUARTERS = ("rear", "left", "right")
QUARTER_LABELS = {"rear": "Rear support", "left": "Left flank support", "right": "Right flank support"}
RESULT = "combat result"


def cannot_be_supported(unit: Unit, flank_or_rear: bool) -> str | None:
    """Why an engaged unit gets no supports, or None."""
    if unit.is_artillery:
        return "artillery"
    if unit.formation == "skirmish":
        return "in skirmish order"
    if unit.formation == "square":
        return "in square"
    if unit.formation == "building":
        return "in a building"
    if flank_or_rear:
        return "engaged to its flank or rear"
    return None


def cannot_support(supporter: Unit, side: str) -> str | None:
    if supporter.side != side:
        return "it is an enemy unit"
    if not supporter.in_play:
        return "it is no longer on the field"
    if supporter.in_combat:
        return "it is fighting itself"
    return None


@dataclass(frozen=True)
class SupportReckoning:
    modifiers: tuple[Modifier, ...]
    supporters: tuple[str, ...]  # units whose support counted (they test if a friend they back breaks)
    notes: tuple[str, ...]

    @property
    def bonus(self) -> int:
        return sum(m.amount for m in self.modifiers)


def reckon_supports(battle: Battle, engaged: list[str], flank_or_rear: set[str], side: str,
                    by_quarter: dict[str, list[str]], blocked: set[str] = frozenset()) -> SupportReckoning:
    """The side's support bonuses.

    ``by_quarter`` maps "rear"/"left"/"right" to the friends standing there; ``blocked`` names the
    quarters with another combat within 6". Each quarter gives +1 per engaged unit that can be
    supported, as long as enough friends stand there.
    """
    notes: list[str] = []
    supportable = []
    for uid in engaged:
        unit = battle.unit(uid)
        if not unit.in_play:
            continue
        why = cannot_be_supported(unit, uid in flank_or_rear)
        if why:
            notes.append(f"{unit.name} cannot be supported: {why}.")
        else:
            supportable.append(unit)
    mods, counted = [], []
    seen: set[str] = set()
    for quarter in QUARTERS:
        ids = by_quarter.get(quarter, [])
        if not ids:
            continue
        for uid in ids:
            if uid in seen:
                raise RuleError(f"{battle.unit(uid).name} can support from one quarter only.")
            seen.add(uid)
            if uid in engaged:
                raise RuleError(f"{battle.unit(uid).name} is fighting in this combat, not supporting it.")
            why = cannot_support(battle.unit(uid), side)
            if why:
                raise RuleError(f"{battle.unit(uid).name} cannot support: {why}.")
        if not supportable:
            raise RuleError("No unit on that side of the combat can be supported"
                            + (f" ({notes[0].rstrip('.')})" if notes else "") + ".")
        if quarter in blocked:
            notes.append(f"{QUARTER_LABELS[quarter]} does not count: another combat is within 6\" of that quarter.")
            continue
        n = min(len(ids), len(supportable))
        mods.append(Modifier(n, QUARTER_LABELS[quarter], RESULT))
        counted.extend(ids[:n])
        if len(ids) > n:
            notes.append(f"{QUARTER_LABELS[quarter]}: only {words_for(n, 'unit')} {'counts' if n == 1 else 'count'}, one per engaged unit.")
    return SupportReckoning(tuple(mods), tuple(counted), tuple(notes))
