"""Charges: who may charge, how the target answers, and the contact that opens a combat.

The charge order itself is rolled with the order action (``command.py``); this action is the
moment the chargers go in. Steps, in the order the rules give them: the target's response
(evade, form square, countercharge, turn to face), the Terrifying Charge test on contact, closing
fire and the chargers' tests, then contact: both sides are in combat and a combat record opens
(``combat.py``). Each step is a child result, so the log reads in the order things happened.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.foe import FoeSettings
from ..core.results import Result, total
from . import closing_fire as closing_fire_rules
from .attacks import has_form_square, is_marauder
from .break_tests import break_modifiers, break_test, outcome_chances
from .combat_records import combat_title, new_combat_record, next_combat_id, open_combat_of
from .model import Battle, RuleError, Steps, Unit
from .order_odds import order_odds
from .order_tests import order_test
from .shooting import ShootFacts, odds_shoot, shoot

RESPONSES = {
    "stand": "Stand",
    "closing_fire": "Closing fire",
    "evade": "Evade",
    "countercharge": "Countercharge",
    "turn_to_face": "Turn to face",
    "form_square": "Form square",
}
FACINGS = {"front": "Front", "flank": "Flank", "rear": "Rear"}
HOW = {"order": "Charge order", "blunder": "Blunder: Charge!", "sweeping": "Sweeping advance and charge"}


class ChargeFacts(Facts):
    chargers: list[str] = Field(min_length=1, title="Charging units", json_schema_extra={"ref": "unit", "side": "acting"})
    target: str = Field(title="Unit charged", json_schema_extra={"ref": "unit", "side": "any", "of": "chargers"})
    facing: Literal["front", "flank", "rear"] = Field("front", title="Charged in its",
                                                      json_schema_extra={"labels": FACINGS})
    response: Literal[tuple(RESPONSES)] = Field("stand", title="The target's response",
                                                json_schema_extra={"labels": RESPONSES})
    how: Literal[tuple(HOW)] = Field("order", title="Why they charge", json_schema_extra={"labels": HOW})
    closing_fire_at: str = Field("", title="Charger that takes the closing fire",
                                 json_schema_extra={"ref": "unit", "side": "any", "help": "Blank: the first charger.",
                                                    "group": "Closing fire"})
    evaders_caught: bool = Field(False, title="Did the chargers catch the evaders?",
                                 json_schema_extra={"group": "Evade"})
    order_distance_steps: int = Field(0, ge=0, le=6, title="Full 12\" from its commander",
                                      json_schema_extra={"group": "Evade or form square order test"})
    enemy_within_12: bool = Field(True, title="Enemy within 12\" of it?",
                                  json_schema_extra={"group": "Evade or form square order test"})
    general_present: bool = Field(False, title="General with its commander?",
                                  json_schema_extra={"group": "Evade or form square order test"})
    use_general_reroll: bool = Field(False, title="Use the General's re-roll?",
                                     json_schema_extra={"group": "Evade or form square order test"})
    overrule_foe: bool = Field(False, title="Overrule Referee: the target answers as chosen above",
                               json_schema_extra={"group": "Playing alone",
                                                  "help": "Only when Referee plays the charged side."})


# --- who may charge and how the target may answer --------------------------------------------

def why_cannot_charge(battle: Battle, unit: Unit, target: Unit, how: str) -> str | None:
    side = battle.sides.get(unit.side)
    if not unit.in_play:
        return "it is no longer on the field"
    if unit.in_combat:
        return "it is already fighting"
    if side and side.army_broken:
        return "its army is broken"
    if unit.shaken:
        return "it is shaken"
    if unit.formation == "march_column":
        return "it is in march column"
    if unit.is_artillery:
        return "artillery never charges"
    if unit.formation == "square":
        return "it is in square"
    if unit.formation == "building":
        return "it is in a building"
    if unit.formation == "skirmish" and target.is_infantry and target.formation != "skirmish":
        return "skirmishers cannot charge formed infantry"
    if how == "order" and unit.disordered:
        return "it is disordered and takes no orders"
    if target.formation == "building" and not unit.is_infantry:
        return "only infantry assault a building"
    if unit.is_cavalry and target.formation == "square" and not (target.disordered or target.shaken):
        return "cavalry cannot charge a steady square (only a disordered or shaken one)"
    if how == "sweeping" and not unit.has_used("sweeping_charge"):
        return "it has not won a sweeping advance"
    return None


def form_square_required(target: Unit, chargers: list[Unit], facing: str) -> bool:
    return (has_form_square(target) and target.is_infantry and facing == "front"
            and target.formation not in ("square", "building") and any(c.is_cavalry for c in chargers))


def why_not_response(battle: Battle, target: Unit, chargers: list[Unit], facing: str, response: str) -> str | None:
    if response != "form_square" and form_square_required(target, chargers, facing):
        return (f"{target.name} has Form Square and is charged to its front by cavalry: it must try to "
                f"form square")
    if response == "stand":
        return None
    if response == "closing_fire":
        return closing_fire_rules.why_no_closing_fire(target, facing)
    if response == "evade":
        if target.in_combat:
            return "a unit already fighting cannot evade"
        cavalry_from_infantry = target.is_cavalry and all(c.is_infantry for c in chargers)
        skirmishers_from_formed = target.formation == "skirmish" and all(c.formation != "skirmish" for c in chargers)
        if not (cavalry_from_infantry or skirmishers_from_formed):
            return "only cavalry charged by infantry, or skirmishers charged by formed troops, evade"
        if target.is_cavalry and target.disordered and not is_marauder(target):
            return "disordered cavalry cannot evade (Marauders excepted)"
        return None
    if response == "countercharge":
        if not target.is_cavalry:
            return "only cavalry countercharge"
        if facing != "front":
            return "only cavalry charged to their front countercharge"
        if target.shaken or target.disordered:
            return "shaken or disordered cavalry cannot countercharge"
        if target.in_combat:
            return "a unit already fighting cannot countercharge"
        return None
    if response == "turn_to_face":
        if not target.is_cavalry:
            return "only cavalry turn to face"
        if target.disordered and not is_marauder(target):
            return "disordered cavalry cannot turn to face (Marauders excepted)"
        if facing == "front":
            return "it is charged to its front already"
        return None
    if response == "form_square":
        if not form_square_required(target, chargers, facing):
            return "only units with Form Square, charged to their front by cavalry, form square as a response"
        return None
    return f"“{response}” is not a response"


# --- when Referee plays the charged side (docs/foe.md) -----------------------------------------

def reaction(battle: Battle, target_id: str, charger_ids: list[str], facing: str) -> tuple[str, str]:
    """How the Foe's unit meets a charge, and why: it must form square when the rules force it,
    cavalry countercharge when they may, a unit that may give closing fire gives it; otherwise it
    stands."""
    target = battle.unit(target_id)
    chargers = [battle.unit(c) for c in charger_ids]
    if form_square_required(target, chargers, facing):
        return "form_square", "It must try to form square (cavalry charging its front)."
    if why_not_response(battle, target, chargers, facing, "countercharge") is None:
        return "countercharge", "Cavalry charged to their front countercharge."
    if closing_fire_rules.why_no_closing_fire(target, facing) is None and \
            why_not_response(battle, target, chargers, facing, "closing_fire") is None:
        return "closing_fire", "It gives closing fire whenever it may."
    return "stand", "It may do nothing else: it stands."


def foe_answer(doc: dict, battle: Battle, facts: ChargeFacts) -> tuple[ChargeFacts, str]:
    """The facts with the response Referee gives when it plays the charged side and the player has
    not overruled it, and the line that says so ("" when the player's response stands)."""
    side = FoeSettings.of(doc).side
    target = battle.units.get(facts.target)
    if not side or facts.overrule_foe or target is None or target.side != side or \
            any(c in battle.units and battle.units[c].side == side for c in facts.chargers):
        return facts, ""
    response, why = reaction(battle, facts.target, facts.chargers, facts.facing)
    name = battle.sides[side].name if side in battle.sides else side
    return (facts.model_copy(update={"response": response}),
            f"Referee answers for {name}: {target.name} — {RESPONSES[response].lower()}. {why}")


# --- the action ------------------------------------------------------------------------------

def _order_test(battle: Battle, target: Unit, facts: ChargeFacts, dice, order: str) -> Result:
    return order_test(battle, [target.id], dice, order=order, purpose=order,
                      distance_steps=facts.order_distance_steps, enemy_within_12=facts.enemy_within_12,
                      general_present=facts.general_present, use_general_reroll=facts.use_general_reroll)


def _last_pair(result: Result) -> tuple[int, int]:
    """The 2D6 that decided the order test (after any re-roll)."""
    if "pair" in result.data:
        return tuple(result.data["pair"])
    rolls = [d.value for d in result.dice if "blunder" not in d.purpose]
    return rolls[-2], rolls[-1]


def _validate(battle: Battle, facts: ChargeFacts) -> tuple[list[Unit], Unit]:
    target = battle.unit(facts.target)
    if len(set(facts.chargers)) != len(facts.chargers):
        raise RuleError("A unit is listed twice among the chargers.")
    chargers = [battle.unit(c) for c in facts.chargers]
    if not target.in_play:
        raise RuleError(f"{target.name} is no longer on the field.")
    for c in chargers:
        if c.side == target.side:
            raise RuleError(f"{c.name} and {target.name} are on the same side.")
        why = why_cannot_charge(battle, c, target, facts.how)
        if why:
            raise RuleError(f"{c.name} cannot charge: {why}.")
    if len({c.side for c in chargers}) > 1:
        raise RuleError("The chargers must be on the same side.")
    if facts.how == "sweeping":
        if battle.phase != "hand_to_hand":
            raise RuleError("A sweeping advance charge happens in the Hand-to-Hand phase.")
    else:
        if battle.phase != "command":
            raise RuleError("Charges are ordered in the Command phase.")
        if chargers[0].side != battle.active_side:
            raise RuleError("Only the side whose turn it is charges in its Command phase.")
    why = why_not_response(battle, target, chargers, facts.facing, facts.response)
    if why:
        raise RuleError(f"{target.name} cannot {RESPONSES[facts.response].lower()}: {why}.")
    if facts.closing_fire_at and facts.closing_fire_at not in facts.chargers:
        raise RuleError("Closing fire is aimed at one of the chargers.")
    return chargers, target


def resolve_charge(doc: dict, facts: ChargeFacts, dice) -> Result:
    battle = Battle.from_doc(doc)
    facts, answered = foe_answer(doc, battle, facts)
    chargers, target = _validate(battle, facts)
    steps = Steps(battle)
    notes: list[str] = [answered] if answered else []
    names = ", ".join(c.name for c in chargers)
    for c in chargers:
        if c.has("Determined Charge"):
            notes.append(f"{c.name} has Determined Charge: it had no choice but to charge.")
    if facts.how == "sweeping":
        ch = steps.changes()
        for c in chargers:
            ch.unit(c, "used", [k for k in c.used if k != "sweeping_charge"])
        steps.step("charge_step", "The sweeping advance charges home", ch)

    # The target answers before anyone touches.
    if facts.response == "evade":
        return _evade(steps, chargers, target, facts, dice, notes)
    countercharging: list[str] = []
    closing_fire = facts.response == "closing_fire"
    if facts.response == "form_square":
        _form_square(steps, target, facts, dice)
    elif facts.response == "countercharge":
        countercharging = [target.id]
        ch, cc_notes = steps.changes(), [f"{target.name} countercharges and meets the chargers to its front."]
        for c in chargers:
            if c.is_infantry:
                ch.unit(c.id, "disordered", True, f"{c.name}: disordered, countercharged by cavalry")
                cc_notes.append(f"{c.name} is infantry countercharged by cavalry: disordered, and no charge bonus.")
        steps.step("charge_step", f"{target.name} countercharges", ch, cc_notes)
    elif facts.response == "turn_to_face":
        steps.step("charge_step", f"{target.name} turns to face the chargers",
                   notes=["It now meets the charge with its front."])

    facing = "front" if facts.response in ("turn_to_face", "countercharge") else facts.facing
    if steps.battle.unit(target.id).formation == "square":
        facing = "front"  # a square has no flank or rear

    # Contact: a Terrifying Charge tests the target before any closing fire.
    if any(c.has("Terrifying Charge") for c in chargers):
        test = steps.add(break_test(steps.battle, target.id, "hand_to_hand", dice, reason="Terrifying Charge"))
        if test.data["outcome"] != "holds":
            notes.append(f"{target.name} gives way before the Terrifying Charge: no combat.")
            verb = "breaks" if test.data["outcome"] == "breaks" else "retires"
            return _finish(steps, f"{target.name} {verb} before the Terrifying Charge of {names}", notes, None)

    going_in = [c.id for c in chargers]
    if closing_fire:
        going_in = give_closing_fire(steps, chargers, target, facts.closing_fire_at, dice, notes)
        if not going_in:
            return _finish(steps, f"Closing fire stops the charge on {target.name}", notes, None)

    combat_id = _contact(steps, going_in, target.id, facing, countercharging,
                         [c.id for c in chargers if c.id in going_in and not (countercharging and c.is_infantry)])
    summary = f"{names} charge{'s' if len(chargers) == 1 else ''} {target.name}" + \
              (f" in the {facing}" if facing != "front" else "") + ": the combat is joined"
    return _finish(steps, summary, notes, combat_id)


def _finish(steps: Steps, summary: str, notes: list[str], combat_id: str | None) -> Result:
    return Result("charge", summary, notes=tuple(notes), children=tuple(steps.results),
                  data={"combat": combat_id, "contact": combat_id is not None})


def _evade(steps: Steps, chargers: list[Unit], target: Unit, facts: ChargeFacts, dice, notes: list[str]) -> Result:
    test = steps.add(_order_test(steps.battle, target, facts, dice, "evade"))
    moves = test.data["moves"] if test.data["passed"] else 1
    if not test.data["passed"]:
        notes.append(f"The evade order failed, but {target.name} still makes one free move away.")
    notes.append(f"{target.name} evades with {moves} move{'s' if moves != 1 else ''} away from the chargers.")
    names = ", ".join(c.name for c in chargers)
    if facts.evaders_caught:
        ch = steps.changes()
        ch.unit(target.id, "destroyed", True, f"{target.name}: caught evading, destroyed")
        steps.step("charge_step", f"{target.name} is caught and destroyed", ch)
        return _finish(steps, f"{names} catch the evading {target.name}: it is destroyed", notes, None)
    notes.append("The chargers end their move where the evaders were; no combat.")
    return _finish(steps, f"{target.name} evades {names}", notes, None)


def _form_square(steps: Steps, target: Unit, facts: ChargeFacts, dice) -> None:
    """The order test's own 2D6 decide: a double 6 forms the square in disorder, a double 1
    leaves the unit disordered and out of square; otherwise the order test's result stands."""
    test = steps.add(_order_test(steps.battle, target, facts, dice, "form_square"))
    pair = _last_pair(test)
    ch = steps.changes()
    if pair == (6, 6):
        ch.unit(target.id, "formation", "square")
        ch.unit(target.id, "disordered", True)
        steps.step("charge_step", f"{target.name} forms square in disorder (double 6)", ch)
    elif pair == (1, 1):
        ch.unit(target.id, "disordered", True)
        steps.step("charge_step", f"{target.name} fails to form square and is disordered (double 1)", ch)
    elif test.data["passed"]:
        ch.unit(target.id, "formation", "square")
        steps.step("charge_step", f"{target.name} forms square before the charge hits", ch)
    else:
        steps.step("charge_step", f"{target.name} fails to form square",
                   notes=["It meets the charge as it stands, without closing fire."])


def _contact(steps: Steps, going_in: list[str], target_id: str, facing: str, countercharging: list[str],
             charging: list[str]) -> str:
    battle = steps.battle
    flank_rear = [target_id] if facing != "front" else []
    ch = steps.changes()
    for u in going_in + [target_id]:
        ch.unit(u, "in_combat", True, f"{battle.unit(u).name}: in combat")
    existing = open_combat_of(battle, target_id)
    if existing:
        cid, rec = existing
        side_key = "attackers" if target_id in rec["defenders"] else "defenders"
        new = dict(rec)
        new[side_key] = rec[side_key] + [u for u in going_in if u not in rec[side_key]]
        new["charging"] = rec.get("charging", []) + charging
        new["flank_rear"] = sorted(set(rec.get("flank_rear", [])) | set(flank_rear))
        ch.at(("combats", cid), new, f"{combat_title(battle, new)}: more units join")
    else:
        cid = next_combat_id(battle)
        rec = new_combat_record(cid, going_in, [target_id], turn=battle.turn, charging=charging,
                                countercharging=countercharging, flank_rear=flank_rear)
        # A battle's first combat creates the table itself, so undo leaves the document as it was.
        if "combats" in battle.doc:
            ch.at(("combats", cid), rec, f"{combat_title(battle, rec)} begins")
        else:
            ch.at(("combats",), {cid: rec}, f"{combat_title(battle, rec)} begins")
    steps.step("contact", "Contact: the combat is joined", ch)
    return cid


# --- odds --------------------------------------------------------------------------------------

def odds_charge(doc: dict, facts: ChargeFacts) -> list[str]:
    battle = Battle.from_doc(doc)
    facts, answered = foe_answer(doc, battle, facts)
    chargers, target = _validate(battle, facts)
    lines = [answered] if answered else []
    if any(c.has("Terrifying Charge") for c in chargers) and facts.response != "evade":
        chances = outcome_chances(target, "hand_to_hand", total(break_modifiers(target)),
                                  valiant=target.has("Valiant") and not target.has_used("valiant"))
        lines.append(f"Terrifying Charge: {target.name} holds {chances['holds']:.1%}, "
                     f"retires {chances['retires']:.1%}, breaks {chances['breaks']:.1%}")
    if facts.response in ("evade", "form_square"):
        word = "Evade" if facts.response == "evade" else "Form square"
        lines += [f"{word} order: {line}" for line in order_odds(
            battle, [target.id], order=facts.response, purpose=facts.response,
            distance_steps=facts.order_distance_steps, enemy_within_12=facts.enemy_within_12,
            general_present=facts.general_present, use_general_reroll=facts.use_general_reroll)]
    if facts.response == "closing_fire":
        lines += closing_fire_odds(doc, chargers, target, facts.closing_fire_at)
    if facts.response == "form_square":
        lines.append("Double 6: square formed but disordered (2.8%); double 1: disordered, no square (2.8%).")
    return lines


CHARGE = ActionSpec("charge", "Charge", ChargeFacts, resolve_charge, odds_charge)


# --- closing fire, fired as the chargers come in ---------------------------------------------

def give_closing_fire(steps, chargers: list[Unit], target: Unit, closing_fire_at: str, dice,
                      notes: list[str]) -> list[str]:
    """The charged unit fires; the chargers still going in afterwards (a charger that breaks, or
    falls back when the setting says so, is out of the charge)."""
    aimed = closing_fire_rules.aimed_at(closing_fire_at, chargers)
    shot = steps.add(shoot(steps.battle, target.id, aimed, {"kind": "closing_fire", "range_band": "short"}, dice,
                           closing_fire=True))
    outcome = shot.data.get("break_test")
    going_in = [c.id for c in chargers]
    if outcome == "breaks" or (outcome == "retires" and steps.battle.settings.retiring_chargers_fail):
        going_in.remove(aimed)
        notes.append(f"{steps.battle.unit(aimed).name} " + ("breaks" if outcome == "breaks" else "falls back")
                     + " under the closing fire: its charge fails.")
    return [u for u in going_in if steps.battle.unit(u).in_play]


def closing_fire_odds(doc: dict, chargers: list[Unit], target: Unit, closing_fire_at: str) -> list[str]:
    shot = ShootFacts(shooter=target.id, target=closing_fire_rules.aimed_at(closing_fire_at, chargers),
                      kind="closing_fire", range_band="short")
    return [f"Closing fire: {line}" for line in odds_shoot(doc, shot)]
