"""The umpire's manual corrections: structure, heat, actions, weapon and equipment state, status
effects, VP and objectives set by hand. Each is an action like any other (logged, undoable)."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.errors import RuleError
from ..core.results import Result
from .model import LOCATION_LABELS, LOCATIONS, STATUS_DURATIONS, STATUS_LABELS, Engagement
from .writing import builder, rig_set

RIG_FIELDS = {
    "structure": "Structure points (one location)",
    "heat": "Heat",
    "actions_left": "Actions left",
    "destroyed": "Destroyed",
    "exited": "Left the table",
    "catastrophic": "Catastrophic damage (one location)",
    "status": "Status effect",
    "prepare_tokens": "Prepare tokens (comma-separated, or none)",
    "weapon_loaded": "Weapon loaded",
    "weapon_disabled": "Weapon disabled",
    "weapon_destroyed": "Weapon destroyed",
    "weapon_ammo_used": "Weapon Limited Ammo used",
    "equipment_used": "Equipment used",
    "equipment_discarded": "Equipment discarded",
}
TRUTHY = {"yes": True, "true": True, "on": True, "1": True, "no": False, "false": False, "off": False, "0": False}


class AdjustRigFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "any"})
    field: Literal[tuple(RIG_FIELDS)] = Field(title="What to set", json_schema_extra={"labels": RIG_FIELDS})
    value: str = Field(title="New value", max_length=40,
                       json_schema_extra={"help": "a number, yes/no, or for a status: off or its duration"})
    location: Optional[Literal[LOCATIONS]] = Field(None, title="Location",
                                                   json_schema_extra={"ref": "location", "labels": LOCATION_LABELS})
    weapon: Optional[str] = Field(None, title="Weapon", json_schema_extra={"ref": "weapon", "of": "rig"})
    equipment: Optional[str] = Field(None, title="Equipment", json_schema_extra={"ref": "equipment", "of": "rig"})
    status: Optional[Literal[tuple(STATUS_LABELS)]] = Field(None, title="Status effect",
                                                            json_schema_extra={"labels": STATUS_LABELS})
    reason: str = Field("", title="Why (for the log)", max_length=200)


def _number(raw: str, low: int, high: int, what: str) -> int:
    raw = raw.strip()
    if not raw.lstrip("-").isdigit():
        raise RuleError(f"{what} is a whole number, not “{raw}”.")
    n = int(raw)
    if not low <= n <= high:
        raise RuleError(f"{what} is between {low} and {high}.")
    return n


def _flag(raw: str, what: str) -> bool:
    if raw.strip().lower() not in TRUTHY:
        raise RuleError(f"{what} is yes or no, not “{raw}”.")
    return TRUTHY[raw.strip().lower()]


def resolve_adjust_rig(doc: dict, facts: AdjustRigFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig = eng.rig(facts.rig)
    work = builder(doc)
    f, raw = facts.field, facts.value
    base = ("rigs", rig.id)
    if f in ("structure", "catastrophic"):
        if facts.location is None:
            raise RuleError("Pick the location.")
        loc = facts.location
        if f == "structure":
            value = _number(raw, 0, rig.structure_max[loc], f"{LOCATION_LABELS[loc]} SP")
            work.set(base + ("structure", loc), value, f"{rig.name}: {LOCATION_LABELS[loc]} SP → {value}")
        else:
            on = _flag(raw, "Catastrophic damage")
            marks = [x for x in rig.catastrophic if x != loc] + ([loc] if on else [])
            rig_set(work, rig.id, "catastrophic", marks, f"{rig.name}: {LOCATION_LABELS[loc]} catastrophic {raw}")
    elif f == "heat":
        value = _number(raw, 0, rig.heat_track, "Heat")
        rig_set(work, rig.id, "heat", value, f"{rig.name}: heat → {value}")
    elif f == "actions_left":
        rig_set(work, rig.id, "actions_left", _number(raw, 0, 5, "Actions left"))
    elif f in ("destroyed", "exited"):
        rig_set(work, rig.id, f, _flag(raw, RIG_FIELDS[f]), f"{rig.name}: {RIG_FIELDS[f].lower()} {raw}")
    elif f == "prepare_tokens":
        tokens = [] if raw.strip().lower() in ("", "none", "-") else [t.strip() for t in raw.split(",") if t.strip()]
        rig_set(work, rig.id, "prepare_tokens", tokens, f"{rig.name}: Prepare tokens → {', '.join(tokens) or 'none'}")
    elif f == "status":
        if facts.status is None:
            raise RuleError("Pick the status effect.")
        status = dict(rig.status)
        if raw.strip().lower() in ("off", "no", "none", "0", "false"):
            status.pop(facts.status, None)
        else:
            duration = raw.strip() if raw.strip() in set(STATUS_DURATIONS.values()) else STATUS_DURATIONS[facts.status]
            status[facts.status] = duration
        rig_set(work, rig.id, "status", status, f"{rig.name}: {STATUS_LABELS[facts.status]} {raw}")
    elif f.startswith("weapon_"):
        if facts.weapon is None:
            raise RuleError("Pick the weapon.")
        w = rig.weapon(facts.weapon)
        key = f.removeprefix("weapon_")
        value = _number(raw, 0, max(w.x("limited_ammo"), 0), "Ammo used") if key == "ammo_used" \
            else _flag(raw, RIG_FIELDS[f])
        work.set(base + ("weapons", w.id, key), value, f"{rig.name}: {w.name} {key.replace('_', ' ')} → {raw}")
    else:
        if facts.equipment is None or facts.equipment not in rig.equipment:
            raise RuleError("Pick one of the Rig's equipment cards.")
        card = rig.equipment[facts.equipment]
        key = f.removeprefix("equipment_")
        work.set(base + ("equipment", card.key, key), _flag(raw, RIG_FIELDS[f]),
                   f"{rig.name}: {card.name} {key} → {raw}")
    if not work.changes:
        raise RuleError(f"{rig.name} already has that value.")
    return Result("adjust", f"Umpire set {rig.name}: {RIG_FIELDS[f].lower()} → {raw}", changes=work.changes,
                  notes=(f"Reason: {facts.reason}",) if facts.reason else ())


class AdjustScoreFacts(Facts):
    player: Literal["p1", "p2"] = Field(title="Player", json_schema_extra={"labels": {"p1": "First", "p2": "Second"}})
    vp: int = Field(ge=0, le=200, title="Victory points (scored round by round)")
    reason: str = Field("", title="Why (for the log)", max_length=200)


def resolve_adjust_score(doc: dict, facts: AdjustScoreFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    work = builder(doc)
    work.set(("players", facts.player, "vp"), facts.vp, f"{eng.player_name(facts.player)}: VP → {facts.vp}")
    if not work.changes:
        raise RuleError("That is already the score.")
    return Result("adjust", f"Umpire set {eng.player_name(facts.player)}'s VP to {facts.vp}", changes=work.changes,
                  notes=(f"Reason: {facts.reason}",) if facts.reason else ())


class AdjustObjectiveFacts(Facts):
    objective: str = Field(title="Objective", json_schema_extra={"ref": "objective"})
    structure: Optional[int] = Field(None, ge=0, le=50, title="Structure points")
    destroyed: Optional[bool] = Field(None, title="Destroyed")
    reason: str = Field("", title="Why (for the log)", max_length=200)


def resolve_adjust_objective(doc: dict, facts: AdjustObjectiveFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    obj = eng.objective(facts.objective)
    work = builder(doc)
    if facts.structure is not None:
        if not obj.attackable:
            raise RuleError(f"{obj.name} has no structure points.")
        work.set(("objectives", obj.id, "structure"), min(facts.structure, obj.structure_max),
                   f"{obj.name}: SP → {facts.structure}")
    if facts.destroyed is not None:
        work.set(("objectives", obj.id, "destroyed"), facts.destroyed, f"{obj.name}: destroyed {facts.destroyed}")
    if not work.changes:
        raise RuleError(f"{obj.name} already has those values.")
    return Result("adjust", f"Umpire corrected {obj.name}", changes=work.changes,
                  notes=(f"Reason: {facts.reason}",) if facts.reason else ())


ADJUST_RIG = ActionSpec("adjust_rig", "Umpire's correction (Rig)", AdjustRigFacts, resolve_adjust_rig,
                        rolls_dice=False)
ADJUST_SCORE = ActionSpec("adjust_score", "Umpire's correction (VP)", AdjustScoreFacts, resolve_adjust_score,
                          rolls_dice=False)
ADJUST_OBJECTIVE = ActionSpec("adjust_objective", "Umpire's correction (objective)", AdjustObjectiveFacts,
                              resolve_adjust_objective, rolls_dice=False)
