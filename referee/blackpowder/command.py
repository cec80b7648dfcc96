"""The Command phase's actions: give an order to a unit or a brigade (move, change formation,
mount or dismount) and the initiative move a unit makes without orders.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.results import Result
from .adjust import allowed_formations
from .model import FORMATIONS, Battle, BattleChanges, RuleError, Unit
from .order_odds import order_odds
from .order_tests import ORDER_KINDS, order_test
from .turn_record import (
    command_phase_units,
    commanders_ordered_this_turn,
    record_turn,
    this_turn,
    units_ordered_this_turn,
)

# --- the "order" action --------------------------------------------------------------------------

MOUNTING = {"": "No change", "mount": "Mount", "dismount": "Dismount"}
PROFILE_FIELDS = ("type", "hand_to_hand", "shooting", "morale", "stamina", "weapon_range")


class OrderFacts(Facts):
    units: list[str] = Field(title="Units to order (one, or a group of one brigade)", min_length=1,
                             json_schema_extra={"ref": "unit", "side": "active"})
    order: Literal[tuple(ORDER_KINDS)] = Field("move", title="Order", json_schema_extra={"labels": ORDER_KINDS})
    distance_steps: int = Field(0, ge=0, le=8, title="Full 12\" steps from the commander to the unit",
                                json_schema_extra={"group": "Situation",
                                                   "help": "0 within 12\", 1 from 12\" to under 24\", …"})
    enemy_within_12: bool = Field(False, title="Enemy within 12\"?", json_schema_extra={"group": "Situation"})
    on_road: bool = Field(False, title="On a road or track?", json_schema_extra={
        "group": "Situation", "help": "Counts for march columns and limbered guns"})
    charge_target_in_range: bool = Field(False, title="Charge target within reach?", json_schema_extra={
        "group": "Situation", "help": "For an Aggressive commander ordering a charge"})
    general_within_12: bool = Field(False, title="General within 12\" of the commander?", json_schema_extra={
        "group": "The General", "help": "Matters to a Diffident commander"})
    general_present: bool = Field(False, title="General with this commander?", json_schema_extra={"group": "The General"})
    use_general_reroll: bool = Field(False, title="Use the General's re-roll if the order fails or blunders",
                                     json_schema_extra={"group": "The General"})
    use_decisive_reroll: bool = Field(False, title="Decisive: re-roll a failed order", json_schema_extra={
        "group": "Re-rolls", "help": "A second failure is a blunder"})
    new_formation: Literal[("",) + tuple(FORMATIONS)] = Field(
        "", title="New formation (needs at least 1 move)",
        json_schema_extra={"labels": {"": "No change", **FORMATIONS}, "group": "Formation"})
    mount: Literal[tuple(MOUNTING)] = Field("", title="Mounted Infantry", json_schema_extra={
        "labels": MOUNTING, "group": "Formation"})


def _order_kwargs(facts: OrderFacts) -> dict:
    return dict(order=facts.order, distance_steps=facts.distance_steps, enemy_within_12=facts.enemy_within_12,
                on_road=facts.on_road, general_present=facts.general_present,
                use_general_reroll=facts.use_general_reroll, use_decisive_reroll=facts.use_decisive_reroll,
                general_within_12=facts.general_within_12, charge_target_in_range=facts.charge_target_in_range)


def _switched_type(unit: Unit, mount: str) -> str:
    if mount and unit.alternate_profile:
        return unit.alternate_profile.get("type", unit.type)
    return unit.type


def _check_order_facts(battle: Battle, facts: OrderFacts) -> None:
    if battle.phase != "command":
        raise RuleError("Orders are given in the Command phase.")
    if facts.order == "change_formation" and not facts.new_formation and not facts.mount:
        # Otherwise the order is rolled and the board keeps the old formation, silently.
        raise RuleError("Pick the new formation (under Formation) for a Change formation order.")
    ordered = units_ordered_this_turn(battle)
    for uid in facts.units:
        unit = battle.unit(uid)
        if unit.side != battle.active_side:
            raise RuleError(f"{unit.name} is not on the side whose Command phase this is.")
        if uid in ordered and battle.settings.one_order_a_turn:
            raise RuleError(f"{unit.name} has had its order this turn: a unit takes one order a turn "
                            "(setting “One order a unit each turn”).")
        if facts.mount:
            if not unit.has("Mounted Infantry"):
                raise RuleError(f"{unit.name} is not Mounted Infantry: it cannot mount or dismount.")
            if not unit.alternate_profile:
                raise RuleError(f"{unit.name} has no second profile to switch to; set it on the unit first.")
            if (facts.mount == "mount") == unit.mounted:
                raise RuleError(f"{unit.name} is already {'mounted' if unit.mounted else 'on foot'}.")
        if facts.new_formation:
            probe = Unit.from_dict({**unit.to_dict(), "type": _switched_type(unit, facts.mount)})
            if facts.new_formation not in allowed_formations(probe):
                names = ", ".join(FORMATIONS[f] for f in allowed_formations(probe))
                raise RuleError(f"{unit.name} cannot form {FORMATIONS[facts.new_formation]}; it can take: {names}.")
            if facts.new_formation == unit.formation and not facts.mount:
                raise RuleError(f"{unit.name} is already in {FORMATIONS[unit.formation]}.")


def _mount(ch: BattleChanges, unit: Unit, mount: str) -> None:
    """Swap the current profile with the stored one; the unit keeps its casualties and status."""
    alt = dict(unit.alternate_profile or {})
    current = unit.to_dict()
    for k in PROFILE_FIELDS:
        if k in alt:
            ch.unit(unit, k, alt[k])
    stored = {k: current[k] for k in PROFILE_FIELDS if k in alt}
    ch.unit(unit, "alternate_profile", stored,
            f"{unit.name}: {'horses' if mount == 'dismount' else 'foot'} profile stored")
    ch.unit(unit, "mounted", mount == "mount", f"{unit.name}: {'mounts' if mount == 'mount' else 'dismounts'}")
    new_type = alt.get("type", unit.type)
    probe = Unit.from_dict({**current, "type": new_type})
    if unit.formation not in allowed_formations(probe):
        ch.unit(unit, "formation", "line")


def resolve_order(doc: dict, facts: OrderFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    _check_order_facts(battle, facts)
    result = order_test(battle, list(facts.units), dice, **_order_kwargs(facts))
    ch = BattleChanges(battle)
    ch.extend(result.changes)
    notes = list(result.notes)
    again = [battle.unit(uid).name for uid in facts.units if uid in units_ordered_this_turn(battle)]
    if again:  # only when the setting lets a unit take a second order
        notes.append(f"{', '.join(again)} had an order already this turn; this one is given as the settings allow.")
    moved = [battle.unit(uid) for uid, n in result.data["moves_by_unit"].items() if n]
    if facts.mount:
        for unit in moved:
            _mount(ch, unit, facts.mount)
        if moved:
            notes.append(f"{'Mounting' if facts.mount == 'mount' else 'Dismounting'} is part of the move; "
                         "the unit now uses its other profile.")
    if facts.new_formation:
        for unit in moved:
            ch.unit(unit, "formation", facts.new_formation)
        if moved:
            notes.append(f"Forming {FORMATIONS[facts.new_formation]} uses one whole move of those given.")
        else:
            notes.append("No move given, so the formation does not change.")
    data = {**result.data, "new_formation": facts.new_formation if moved else "",
            "mount": facts.mount if moved else ""}
    return Result(result.kind, result.summary, dice=result.dice, modifiers=result.modifiers,
                  changes=ch.changes, notes=tuple(notes), children=result.children, data=data)


def odds_order(doc: dict, facts: OrderFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    try:
        _check_order_facts(battle, facts)
        return order_odds(battle, list(facts.units), **_order_kwargs(facts))
    except RuleError as e:
        return [str(e)]


class InitiativeFacts(Facts):
    unit: str = Field(title="Unit using its initiative", json_schema_extra={"ref": "unit", "side": "active"})
    enemy_within_12: bool = Field(False, title="Enemy within 12\" of the unit?")


def resolve_initiative_move(doc: dict, facts: InitiativeFacts, dice) -> Result:
    """A unit within 12" of the enemy may act on its own initiative before any order is given.
    No dice; the move is recorded (RULES-GAPS: the umpire judges what it may do)."""
    battle = Battle.from_doc(doc)
    (unit,) = command_phase_units(battle, [facts.unit])
    if not facts.enemy_within_12:
        raise RuleError(f"Only units within 12\" of the enemy may use initiative; {unit.name} needs an order.")
    if unit.disordered:
        raise RuleError(f"{unit.name} is disordered and cannot use initiative.")
    if unit.in_combat:
        raise RuleError(f"{unit.name} is in combat.")
    if commanders_ordered_this_turn(battle):
        raise RuleError("Initiative moves come first in the Command phase, before any order.")
    if unit.id in {e["unit"] for e in this_turn(battle, "initiative_moves", battle.active_side)}:
        raise RuleError(f"{unit.name} has already used its initiative this turn.")
    ch = BattleChanges(battle)
    record_turn(ch, "initiative_moves", {"unit": unit.id}, f"{unit.name}: initiative move")
    notes = ("Within 12\" of the enemy: advance within the front quarter or retire within the rear quarter.",
             "The summary does not detail initiative moves: the umpire judges what the unit may do.")
    return Result("initiative_move", f"{unit.name} moves on its own initiative", changes=ch.changes, notes=notes,
                  data={"unit": unit.id})


ORDER = ActionSpec("order", "Give an order", OrderFacts, resolve_order, odds_order)
INITIATIVE_MOVE = ActionSpec("initiative_move", "Initiative move", InitiativeFacts, resolve_initiative_move,
                             rolls_dice=False)
