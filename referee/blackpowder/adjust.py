"""The umpire's manual corrections: set casualties, formation, disorder and the other unit
states by hand. A correction is an action like any other (logged, undoable)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.results import Result
from .model import (
    ARTILLERY_FORMATIONS,
    CAVALRY_FORMATIONS,
    FORMATIONS,
    INFANTRY_FORMATIONS,
    SIZES,
    Battle,
    BattleChanges,
    RuleError,
)

UNIT_FIELDS = {
    "casualties": "Casualty markers",
    "formation": "Formation",
    "disordered": "Disordered",
    "in_combat": "In combat",
    "off_table": "Off table",
    "destroyed": "Destroyed (removed)",
    "stamina": "Stamina",
    "building_size": "Building size",
    "won_last_round": "Won the last combat round",
}


class AdjustUnit(Facts):
    unit: str = Field(title="Unit", json_schema_extra={"ref": "unit", "side": "any"})
    field: Literal[tuple(UNIT_FIELDS)] = Field(title="What to set", json_schema_extra={"labels": UNIT_FIELDS})
    value: str = Field(title="New value", max_length=40)
    reason: str = Field("", title="Why (for the log)", max_length=200)


def allowed_formations(unit) -> tuple[str, ...]:
    if unit.is_artillery:
        return ARTILLERY_FORMATIONS
    if unit.is_cavalry:
        return CAVALRY_FORMATIONS
    forms = INFANTRY_FORMATIONS
    if unit.has("Cannot Form Attack Column"):
        forms = tuple(f for f in forms if f != "attack_column")
    return forms


def _parse_value(unit, field: str, raw: str):
    raw = raw.strip()
    if field in ("casualties", "stamina"):
        if not raw.lstrip("-").isdigit():
            raise RuleError(f"{UNIT_FIELDS[field]} must be a whole number, not “{raw}”.")
        n = int(raw)
        if n < 0:
            raise RuleError(f"{UNIT_FIELDS[field]} cannot be negative.")
        if field == "stamina" and not 1 <= n <= 6:
            raise RuleError("Stamina is between 1 and 6.")
        if field == "casualties" and unit.stamina is not None and n > unit.stamina + 6:
            raise RuleError(f"{n} casualties is far beyond {unit.name}'s Stamina of {unit.stamina}.")
        return n
    if field == "formation":
        key = raw.lower().replace(" ", "_").replace("-", "_")
        by_label = {v.lower(): k for k, v in FORMATIONS.items()}
        key = by_label.get(raw.lower(), key)
        if key not in allowed_formations(unit):
            names = ", ".join(FORMATIONS[f] for f in allowed_formations(unit))
            raise RuleError(f"{unit.name} cannot be in “{raw}”; it can be in: {names}.")
        return key
    if field == "building_size":
        if raw.lower() in ("", "none", "-"):
            return None
        if raw.lower() not in SIZES:
            raise RuleError("Building size is small, standard or large.")
        return raw.lower()
    truthy = {"yes": True, "true": True, "1": True, "on": True, "no": False, "false": False, "0": False, "off": False}
    if raw.lower() not in truthy:
        raise RuleError(f"{UNIT_FIELDS[field]} is yes or no, not “{raw}”.")
    return truthy[raw.lower()]


def resolve_adjust_unit(doc: dict, facts: AdjustUnit, dice) -> Result:
    battle = Battle.from_doc(doc)
    unit = battle.unit(facts.unit)
    value = _parse_value(unit, facts.field, facts.value)
    ch = BattleChanges(battle)
    if not ch.unit(unit, facts.field, value):
        raise RuleError(f"{unit.name} already has {UNIT_FIELDS[facts.field].lower()} {facts.value}.")
    summary = f"Umpire set {unit.name}: {UNIT_FIELDS[facts.field].lower()} → {facts.value}"
    return Result("adjust", summary, changes=ch.changes,
                  notes=(f"Reason: {facts.reason}",) if facts.reason else ())


class AdjustBrigade(Facts):
    brigade: str = Field(title="Brigade", json_schema_extra={"ref": "brigade"})
    broken: bool = Field(title="Broken")
    reason: str = Field("", title="Why (for the log)", max_length=200)


def resolve_adjust_brigade(doc: dict, facts: AdjustBrigade, dice) -> Result:
    battle = Battle.from_doc(doc)
    if facts.brigade not in battle.brigades:
        raise RuleError(f"There is no brigade “{facts.brigade}” in this battle.")
    brigade = battle.brigades[facts.brigade]
    ch = BattleChanges(battle)
    if not ch.at(("brigades", brigade.id, "broken"), facts.broken,
                 f"{brigade.name}: broken {'yes' if facts.broken else 'no'}"):
        raise RuleError(f"{brigade.name} is already {'broken' if facts.broken else 'not broken'}.")
    return Result("adjust", f"Umpire marked {brigade.name} {'broken' if facts.broken else 'not broken'}",
                  changes=ch.changes, notes=(f"Reason: {facts.reason}",) if facts.reason else ())


ADJUST_UNIT = ActionSpec("adjust_unit", "Umpire's correction", AdjustUnit, resolve_adjust_unit, rolls_dice=False)
ADJUST_BRIGADE = ActionSpec("adjust_brigade", "Umpire's correction (brigade)", AdjustBrigade, resolve_adjust_brigade,
                            rolls_dice=False)
