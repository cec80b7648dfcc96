"""Broken brigades, broken armies and who won.

A brigade is checked at the start of its side's turn (entering that side's Command phase, see
``turns.py``); once broken it stays broken. The army breaks when half its brigades have.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.results import Result
from ..core.words import counted
from .model import SIDES, Battle, BattleChanges, Brigade, RuleError, shaken_by

RETIRE_BROKEN_NOTES = (
    "Its units take no more orders and cannot use initiative.",
    "Each Command phase every unit makes a retire-broken move: one full move away from the enemy, "
    "towards its own table edge.",
    "Units already fighting finish the combat as normal and fall back afterwards.",
    "Shaken units cannot rally and disordered units stay disordered.",
    "A unit that leaves the table is gone for good.",
)


def unit_is_lost(unit) -> bool:
    """A unit that counts towards breaking its brigade: destroyed, shaken or off the table
    (one that has not arrived yet is none of these: see reserves.py)."""
    return not unit.awaiting and (unit.destroyed or unit.off_table or unit.shaken)


def may_be_lost(raw: dict) -> bool:
    """True for every unit that ``unit_is_lost`` counts, read from its document without reading the
    unit (destroyed, off the table or shaken there; whether it has arrived is left to
    ``unit_is_lost``): a brigade none of whose units may be lost cannot break, and a turn's start
    need not read its units to know it."""
    return bool(raw.get("destroyed") or raw.get("off_table")
                or shaken_by(raw.get("casualties", 0), raw.get("stamina")))


def brigade_present(battle: Battle, brigade_id: str) -> bool:
    """A brigade counts towards its army once any of its units has arrived (read from the
    document: a turn's start asks it of every brigade of the side)."""
    units = battle.unit_documents_of_brigade(brigade_id)
    return not units or any(not raw.get("awaiting", False) for raw in units)


def brigade_should_break(battle: Battle, brigade_id: str) -> bool:
    """Half or more of the brigade's units lost; a brigade of two needs both. Units not yet
    arrived are not counted at all."""
    if not any(may_be_lost(raw) for raw in battle.unit_documents_of_brigade(brigade_id)):
        return False  # no unit lost: it cannot break, and its units need not be read
    units = [u for u in battle.units_of_brigade(brigade_id) if not u.awaiting]
    if not units:
        return False
    return sum(1 for u in units if unit_is_lost(u)) >= break_point(len(units))


def break_point(arrived: int) -> int:
    """How many of a brigade's arrived units must be lost for it to break: half, rounded up; both
    of a brigade of two."""
    return 2 if arrived == 2 else (arrived + 1) // 2


def strip_state(unit) -> str:
    """A unit as its brigade's strip shows it, a letter each: R not yet arrived, L lost
    (destroyed or off the table), S shaken, D disordered, F fresh. L and S count towards breaking."""
    if unit.awaiting:
        return "R"
    if unit.destroyed or unit.off_table:
        return "L"
    return "S" if unit.shaken else "D" if unit.disordered else "F"


def army_should_break(battle: Battle, side: str, newly_broken: set[str] = frozenset()) -> bool:
    brigades = [b for b in battle.brigades_of_side(side) if brigade_present(battle, b.id)]
    if not brigades:
        return False
    broken = sum(1 for b in brigades if b.broken or b.id in newly_broken)
    return broken * 2 >= len(brigades)


def check_side(battle: Battle, side: str) -> Result:
    """The start-of-turn check: which of the side's brigades break now, and whether the army does."""
    ch = BattleChanges(battle)
    notes, newly = [], set()
    for brigade in battle.brigades_of_side(side):
        if not brigade.broken and brigade_should_break(battle, brigade.id):
            newly.add(brigade.id)
            ch.at(("brigades", brigade.id, "broken"), True, f"{brigade.name}: broken")
            notes.append(f"{brigade.name} is broken: half or more of its units are lost.")
    side_obj = battle.sides.get(side)
    army_breaks = side_obj is not None and not side_obj.army_broken and army_should_break(battle, side, newly)
    if army_breaks:
        ch.at(("sides", side, "army_broken"), True, f"{side_obj.name}: army broken")
        if battle.doc.get("first_army_broken") is None:
            ch.at(("first_army_broken",), side, f"{side_obj.name} broke first")
        notes.append(f"The {side_obj.name} army is broken: half its brigades are.")
    if side_obj is not None and (side_obj.army_broken or army_breaks):
        notes.extend(f"Broken army: {n}" for n in RETIRE_BROKEN_NOTES)
    name = side_obj.name if side_obj else side
    if newly or army_breaks:
        summary = f"{name}: {counted(len(newly), 'brigade')} broke" + (", and the army is broken" if army_breaks else "")
    else:
        summary = f"{name}: no brigade breaks"
    return Result("brigade_check", summary, changes=ch.changes, notes=tuple(notes),
                  data={"broken_brigades": sorted(newly), "army_broken": bool(army_breaks)})


def battle_standing(battle: Battle) -> dict:
    """Per side: intact and broken brigades and the proportion still intact.

    A brigade counts as broken when it is marked broken or would break if checked now, so the
    standing at the end of play reflects the table even between start-of-turn checks.
    """
    out = {}
    for side in SIDES:
        brigades: list[Brigade] = [b for b in battle.brigades_of_side(side) if brigade_present(battle, b.id)]
        broken = [b.id for b in brigades if b.broken or brigade_should_break(battle, b.id)]
        intact = [b.id for b in brigades if b.id not in broken]
        side_obj = battle.sides.get(side)
        out[side] = {
            "intact": intact,
            "broken": broken,
            "proportion_intact": (len(intact) / len(brigades)) if brigades else 0.0,
            "army_broken": bool(side_obj and side_obj.army_broken),
        }
    return out


def decide_winner(battle: Battle) -> tuple[str | None, str]:
    """(winner or None for a draw, why). The side whose army broke first loses; otherwise the
    larger proportion of intact brigades wins."""
    first = battle.doc.get("first_army_broken")
    broken = [s for s in SIDES if battle.sides.get(s) and battle.sides[s].army_broken]
    if first in SIDES:
        loser = first
    elif len(broken) == 1:
        loser = broken[0]
    else:
        loser = None
    if loser:
        return battle.enemy_of(loser), f"the {_name(battle, loser)} army broke first"
    standing = battle_standing(battle)
    blue, red = standing["blue"]["proportion_intact"], standing["red"]["proportion_intact"]
    why = f"intact brigades: {_name(battle, 'blue')} {blue:.0%}, {_name(battle, 'red')} {red:.0%}"
    if blue == red:
        return None, why
    return ("blue" if blue > red else "red"), why


def _name(battle: Battle, side: str) -> str:
    return battle.sides[side].name if side in battle.sides else side


WINNER_CHOICES = {"by_rules": "As the rules say", "blue": "Blue wins", "red": "Red wins", "draw": "Draw"}


class EndBattle(Facts):
    decision: Literal[tuple(WINNER_CHOICES)] = Field(
        "by_rules", title="Result", json_schema_extra={"labels": WINNER_CHOICES,
                                                       "help": "A scenario's own victory terms may override."})
    reason: str = Field("", title="Why (for the log)", max_length=200)


def resolve_end_battle(doc: dict, facts: EndBattle, dice) -> Result:
    battle = Battle.from_doc(doc)
    if doc.get("ended"):
        raise RuleError("The battle has already ended.")
    computed, why = decide_winner(battle)
    if facts.decision == "by_rules":
        winner = computed
    else:
        winner = None if facts.decision == "draw" else facts.decision
        why = f"decided by the umpire (the rules give {_name(battle, computed) if computed else 'a draw'}: {why})"
    ch = BattleChanges(battle)
    ch.at(("ended",), True, "Battle ended")
    ch.at(("winner",), winner if winner else "draw", f"Winner: {_name(battle, winner) if winner else 'draw'}")
    summary = f"The battle goes to {_name(battle, winner)}" if winner else "The battle is a draw"
    notes = [f"Because {why}."] + ([f"Reason: {facts.reason}"] if facts.reason else [])
    return Result("end_battle", summary, changes=ch.changes, notes=tuple(notes),
                  data={"winner": winner, "standing": battle_standing(battle)})


END_BATTLE = ActionSpec("end_battle", "End the battle", EndBattle, resolve_end_battle, rolls_dice=False)
