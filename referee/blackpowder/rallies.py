"""The start of the Command phase: Elite units shake off disorder and Brave shaken units rally.
"""
from __future__ import annotations

import icepool
from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.results import Result
from .model import Battle, BattleChanges, RuleError, Unit
from .order_odds import percent
from .turn_record import (
    command_phase_units,
    commanders_ordered_this_turn,
    record_turn,
    set_turn_list,
    this_turn,
    turn_entries,
)


def elite_value(unit: Unit) -> int:
    """The score an Elite unit needs: "Elite 4+" -> 4."""
    raw = (unit.rule_value("Elite") or "").rstrip("+").strip()
    if not raw.isdigit():
        raise RuleError(f"{unit.name}'s Elite rule has no score (write it as “Elite 4+”).")
    return int(raw)


class EliteRallyFacts(Facts):
    units: list[str] = Field(default_factory=list, title="Elite units to roll for (none picked: every one that may)",
                             json_schema_extra={"ref": "unit", "side": "active"})


def resolve_elite_rally(doc: dict, facts: EliteRallyFacts, dice) -> Result:
    """At the start of its Command phase each disordered Elite unit out of combat rolls a D6 and
    shakes off disorder on its Elite score or more."""
    battle = Battle.from_doc(doc)
    if commanders_ordered_this_turn(battle):
        raise RuleError("Elite units recover at the start of the Command phase, before any order.")
    done = {e["unit"] for e in this_turn(battle, "elite_rally", battle.active_side)}
    if facts.units:
        units = command_phase_units(battle, list(facts.units))
        for u in units:
            if not u.has("Elite"):
                raise RuleError(f"{u.name} is not Elite.")
            if not u.disordered:
                raise RuleError(f"{u.name} is not disordered.")
            if u.in_combat:
                raise RuleError(f"{u.name} is in combat: Elite units recover only out of combat.")
            if u.id in done:
                raise RuleError(f"{u.name} has already rolled to recover this turn.")
    else:
        command_phase_units(battle, [])
        units = [u for u in battle.units_of_side(battle.active_side)
                 if u.in_play and u.has("Elite") and u.disordered and not u.in_combat and u.id not in done]
        if not units:
            raise RuleError("No disordered Elite unit out of combat to roll for.")
    ch = BattleChanges(battle)
    rolled, notes, recovered = [], [], []
    for u in units:
        need = elite_value(u)
        (die,) = roll(dice, 1, 6, f"Elite {need}+: {u.name}")
        rolled.append(die)
        if die.value >= need:
            recovered.append(u.id)
            ch.unit(u, "disordered", False, f"{u.name}: disorder removed (Elite)")
            notes.append(f"{u.name} rolled {die.value} (needs {need}+): no longer disordered.")
        else:
            notes.append(f"{u.name} rolled {die.value} (needs {need}+): stays disordered.")
    entries = turn_entries(battle, "elite_rally") + [
        {"turn": battle.turn, "side": battle.active_side, "unit": u.id} for u in units]
    set_turn_list(ch, "elite_rally", entries, "Elite units have rolled this turn")
    summary = f"Elite recovery: {len(recovered)} of {len(units)} unit{'s' if len(units) > 1 else ''} recover"
    return Result("elite_rally", summary, dice=tuple(rolled), changes=ch.changes, notes=tuple(notes),
                  data={"recovered": recovered, "rolled_for": [u.id for u in units]})


def odds_elite_rally(doc: dict, facts: EliteRallyFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    ids = facts.units or [u.id for u in battle.units_of_side(battle.active_side)
                          if u.in_play and u.has("Elite") and u.disordered and not u.in_combat]
    lines = []
    for uid in ids:
        u = battle.unit(uid)
        try:
            need = elite_value(u)
        except RuleError as e:
            lines.append(str(e))
            continue
        lines.append(f"{u.name} recovers: {percent(icepool.d6.probability('>=', need))}")
    return lines


BRAVE_RALLY_NEED = 4


class BraveRallyFacts(Facts):
    unit: str = Field(title="Shaken Brave unit", json_schema_extra={"ref": "unit", "side": "active"})
    more_than_12_from_enemy: bool = Field(False, title="More than 12\" from every enemy unit?")


def resolve_brave_rally(doc: dict, facts: BraveRallyFacts, dice) -> Result:
    """A shaken Brave unit more than 12" from any enemy rallies on a D6 of 4 or more.

    Reading: rallying removes one casualty marker, so the unit is no longer shaken (its casualties
    drop below its Stamina); it may try again in later turns if shaken once more. One try per unit
    per turn.
    """
    battle = Battle.from_doc(doc)
    (unit,) = command_phase_units(battle, [facts.unit])
    if not unit.has("Brave"):
        raise RuleError(f"{unit.name} is not Brave.")
    if not unit.shaken:
        raise RuleError(f"{unit.name} is not shaken: there is nothing to rally from.")
    if not facts.more_than_12_from_enemy:
        raise RuleError(f"{unit.name} can rally only when more than 12\" from every enemy unit.")
    if unit.id in {e["unit"] for e in this_turn(battle, "brave_rally", battle.active_side)}:
        raise RuleError(f"{unit.name} has already tried to rally this turn.")
    (die,) = roll(dice, 1, 6, f"Brave rally: {unit.name}")
    ch = BattleChanges(battle)
    rallied = die.value >= BRAVE_RALLY_NEED
    if rallied:
        ch.unit(unit, "casualties", unit.casualties - 1,
                f"{unit.name}: rallies, casualties {unit.casualties} → {unit.casualties - 1}")
    record_turn(ch, "brave_rally", {"unit": unit.id}, f"{unit.name} has tried to rally this turn")
    if rallied:
        summary = f"{unit.name} rallies ({die.value}): one casualty marker removed, no longer shaken"
    else:
        summary = f"{unit.name} fails to rally ({die.value}, needs {BRAVE_RALLY_NEED}+) and stays shaken"
    return Result("brave_rally", summary, dice=(die,), changes=ch.changes,
                  data={"rallied": rallied})


def odds_brave_rally(doc: dict, facts: BraveRallyFacts) -> list[str]:
    return [f"Rallies: {percent(icepool.d6.probability('>=', BRAVE_RALLY_NEED))}"]


ELITE_RALLY = ActionSpec("elite_rally", "Elite units recover from disorder", EliteRallyFacts, resolve_elite_rally,
                         odds_elite_rally)
BRAVE_RALLY = ActionSpec("brave_rally", "Brave unit rallies", BraveRallyFacts, resolve_brave_rally, odds_brave_rally)
