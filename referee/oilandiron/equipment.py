"""Equipment cards (Tables A and C): the passive modifiers other steps ask for, and the Use
Equipment action for the cards that are used on their own, with once-per-game, once-per-activation
and discard bookkeeping. Campaign-only cards are recorded, and allowed only in a campaign game.

Cards used inside another step live there: Extinguisher (Heat Threshold roll), Ablative Armour
Plating and Advanced Ammo Storage (attack), Rig Bayonet (ram)."""
from __future__ import annotations

from typing import Optional

from pydantic import Field

from ..core.changes import ChangeBuilder
from ..core.contract import ActionSpec, Facts
from ..core.errors import RuleError
from ..core.results import Modifier, Result
from .activation import active_rig, spend_action
from .damage import DamageContext, damage_rig, impact_roll, roll_location
from .heat import set_status
from .model import LOCATION_LABELS, Engagement, Rig, Weapon
from .odds import impact_damage_dist
from .writing import builder, rig_now

ARTILLERY_STR = 8
ARTILLERY_NEEDS = 10
SCRAMBLER_RANGE = 18
WORKS_BY_ITSELF = {
    "front_plating_1", "front_plating_2", "speed_bonus_fuel_risk", "wide_firing_arc", "weapon_str_bonus",
    "heat_roll_minus_1", "acc_within_10", "acc_beyond_10", "ram_without_damage", "acc_vs_hot_targets",
}
USED_IN = {"cancel_heat_roll": "the Heat Threshold roll", "ignore_attack_damage": "an attack on this Rig",
           "reroll_missed_hits": "this Rig's attack"}


# --- passive modifiers ------------------------------------------------------------------------

def acc_from_equipment(attacker: Rig, target: Rig | None, distance: str) -> list[Modifier]:
    if target is None:
        return []
    mods = []
    if attacker.gear("acc_within_10") and distance in ("melee", "close", "mid"):
        mods.append(Modifier(1, "Sophisticated Periscopes (within 10\")", "ACC"))
    if attacker.gear("acc_beyond_10") and distance == "far":
        mods.append(Modifier(1, "Arc-Enhanced Targeting System (beyond 10\")", "ACC"))
    if attacker.gear("acc_vs_hot_targets") and target.above_threshold:
        mods.append(Modifier(1, "Thermal Sights (target above its Heat Threshold)", "ACC"))
    return mods


def weapon_strength_bonus(attacker: Rig, weapon: Weapon) -> list[Modifier]:
    card = attacker.gear("weapon_str_bonus")
    if card and card.weapon == weapon.id:
        return [Modifier(1, "High Calibre Ammunition", "impact")]
    return []


def plating(target: Rig, arc: str) -> list[Modifier]:
    """Reinforced plating takes STR off hits coming in through the front arc."""
    if arc != "front":
        return []
    mods = []
    if target.gear("front_plating_1"):
        mods.append(Modifier(-1, "Reinforced Iron Plating (front)", "impact"))
    if target.gear("front_plating_2"):
        mods.append(Modifier(-2, "Reinforced Iron Alloy Plating (front)", "impact"))
    return mods


def speed_bonus(rig: Rig) -> list[Modifier]:
    return [Modifier(2, "Concentrated Fuel", "speed")] if rig.gear("speed_bonus_fuel_risk") else []


def flare_is_lit(eng: Engagement) -> bool:
    return any("flare_lit" in r.status for r in eng.rigs.values())


# --- Use Equipment ----------------------------------------------------------------------------

class UseEquipmentFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})
    equipment: str = Field(title="Equipment", json_schema_extra={"ref": "equipment", "of": "rig"})
    # Each card's own questions sit in a group named after it, folded until needed, so using one
    # card does not mean scrolling past every other card's questions.
    location: Optional[str] = Field(None, title="Location to restore (Emergency Repair Kit)",
                                    json_schema_extra={"ref": "location", "group": "Emergency Repair Kit"})
    target: Optional[str] = Field(None, title="Enemy Rig (Radio Scrambler)",
                                  json_schema_extra={"ref": "rig", "side": "enemy", "group": "Radio Scrambler"})
    target_within_18: bool = Field(False, title="Enemy within 18\"? (Radio Scrambler)",
                                   json_schema_extra={"group": "Radio Scrambler"})
    point_in_sight: bool = Field(False, title="Barrage point in line of sight? (Artillery Spotting)",
                                 json_schema_extra={"group": "Artillery Spotting"})
    rigs_near_point: list[str] = Field([], title="Rigs within 6\" of the barrage point",
                                       json_schema_extra={"ref": "rig", "side": "any", "group": "Artillery Spotting"})
    overflow_to: list[str] = Field([], title="Overflow damage goes to (defender's order of choice)",
                                   json_schema_extra={"ref": "location", "group": "Artillery Spotting"})


def _mark(work: ChangeBuilder, rig: Rig, card, discard: bool) -> None:
    work.set(("rigs", rig.id, "equipment", card.key, "used"), True, f"{rig.name}: {card.name} used")
    if discard:
        work.set(("rigs", rig.id, "equipment", card.key, "discarded"), True, f"{rig.name}: {card.name} discarded")


def _card(eng: Engagement, facts: UseEquipmentFacts):
    rig = eng.rig(facts.rig)
    card = rig.equipment.get(facts.equipment)
    if card is None:
        raise RuleError(f"{rig.name} does not carry “{facts.equipment}”.")
    if card.discarded:
        raise RuleError(f"{rig.name}'s {card.name} has been discarded.")
    if card.once_per_game and card.used:
        raise RuleError(f"{card.name} can be used once per game, and {rig.name} has used it.")
    if card.effect_key in WORKS_BY_ITSELF:
        raise RuleError(f"{card.name} works by itself: the app applies it where it counts.")
    if card.effect_key in USED_IN:
        raise RuleError(f"{card.name} is used as part of {USED_IN[card.effect_key]}: tick it there.")
    return rig, card


def resolve_use_equipment(doc: dict, facts: UseEquipmentFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig, card = _card(eng, facts)
    work = builder(doc)
    notes: list[str] = []
    if card.campaign_only:
        if not eng.campaign:
            raise RuleError(f"{card.name} is for campaigns only, and this engagement is not part of one.")
        _mark(work, rig, card, card.discard)
        return Result("use_equipment", f"{rig.name}: {card.name} noted for the Aftermath", changes=work.changes,
                      notes=("Campaign card: its effect is applied in the Aftermath.",))
    rig = active_rig(eng, facts.rig)
    if card.once_per_activation and card.used_in_activation == str(eng.round):
        raise RuleError(f"{card.name} can be used once per activation.")
    if card.action:
        spend_action(work, rig.id, card.heat, card.name, notes)
    ctx = DamageContext(work, dice, tuple(facts.overflow_to), notes)
    handler = HANDLERS[card.effect_key]
    summary, success = handler(ctx, eng, rig, card, facts)
    if success:
        _mark(work, rig, card, card.discard)
    if card.once_per_activation:
        work.set(("rigs", rig.id, "equipment", card.key, "used_in_activation"), str(eng.round))
    return Result("use_equipment", summary, dice=tuple(ctx.rolled), changes=work.changes, notes=tuple(notes),
                  data={"equipment": card.key, "success": success})


def _smoke(ctx, eng, rig, card, facts):
    set_status(ctx.work, rig.id, "smoke", "until_next_activation", "smokescreen laid")
    return f"{rig.name} lays a smokescreen: attacks on it from 6\" or more are at −2 ACC until it activates again", True


def _repair_kit(ctx, eng, rig, card, facts):
    loc = facts.location
    if loc not in LOCATION_LABELS:
        raise RuleError("Pick the location the Emergency Repair Kit restores.")
    now = rig_now(ctx.work, rig.id)
    sp, top = now.structure[loc], now.structure_max[loc]
    if sp >= top:
        raise RuleError(f"{rig.name}'s {LOCATION_LABELS[loc]} is undamaged.")
    new = min(top, sp + 3)
    ctx.work.set(("rigs", rig.id, "structure", loc), new, f"{rig.name}: {LOCATION_LABELS[loc]} SP {sp} → {new}")
    if loc in now.catastrophic:
        ctx.notes.append("The structure is back, but the catastrophic damage effects remain.")
    return f"{rig.name}: Emergency Repair Kit restores the {LOCATION_LABELS[loc]} to {new} SP", True


def _fuel_tanks(ctx, eng, rig, card, facts):
    set_status(ctx.work, rig.id, "no_heat_next_action", "next_action", "next action adds no heat")
    return f"{rig.name} opens its External Fuel Tanks: its next action adds no heat", True


def _flare(ctx, eng, rig, card, facts):
    set_status(ctx.work, rig.id, "flare_lit", "until_next_activation", "flare burning")
    ctx.notes.append("Place a flare marker: until this Rig activates again, Rigs within 12\" of it attack at +2 ACC.")
    return f"{rig.name} fires a flare", True


def _scrambler(ctx, eng, rig, card, facts):
    if not facts.target:
        raise RuleError("Pick the enemy Rig to scramble.")
    target = eng.rig(facts.target)
    if target.player == rig.player or not target.in_play:
        raise RuleError(f"{target.name} is not an enemy Rig on the table.")
    if not facts.target_within_18:
        raise RuleError(f"The Radio Scrambler reaches {SCRAMBLER_RANGE}\": {target.name} must be within it.")
    mine = ctx.roll(1, 12, f"Radio Scrambler: {rig.name}")[0]
    theirs = ctx.roll(1, 12, f"Radio Scrambler: {target.name}")[0]
    if mine > theirs:
        set_status(ctx.work, target.id, "scrambled", "next_activation", "loses 2 actions next activation")
        return f"Radio Scrambler {mine} v {theirs}: {target.name} loses 2 actions in its next activation", True
    return f"Radio Scrambler {mine} v {theirs}: no effect (the card is kept)", False


def _vent(ctx, eng, rig, card, facts):
    set_status(ctx.work, rig.id, "vent_primed", "this_activation", "heat vent primed")
    return f"{rig.name} vents heat: its next attack lowers heat by 1 but is at −1 ACC", True


def _artillery(ctx, eng, rig, card, facts):
    if not facts.point_in_sight:
        raise RuleError("The barrage must be called on a point in line of sight.")
    hit_any = []
    for rid in facts.rigs_near_point:
        target = rig_now(ctx.work, rid)
        if not target.in_play:
            raise RuleError(f"{target.name} is no longer on the table.")
        value = ctx.roll(1, 12, f"barrage on {target.name} ({ARTILLERY_NEEDS}+)")[0]
        if value < ARTILLERY_NEEDS:
            ctx.notes.append(f"Barrage on {target.name}: {value}, missed.")
            continue
        hit_any.append(target.name)
        loc = roll_location(ctx, target.name, target.player)
        imp = impact_roll(ctx, ARTILLERY_STR, [], target.armour, loc)
        ctx.notes.append(f"Barrage on {target.name}: {value}, hit. {imp.line(target.name)}.")
        if imp.damage:
            damage_rig(ctx, rid, loc, imp.damage, "artillery barrage")
    names = ", ".join(hit_any) or "nobody"
    return f"{rig.name} calls in artillery: {names} hit", True


HANDLERS = {
    "smokescreen": _smoke, "restore_3_sp": _repair_kit, "next_action_no_heat": _fuel_tanks, "flare": _flare,
    "scramble_actions": _scrambler, "vent_heat": _vent, "artillery_strike": _artillery,
}


def odds_use_equipment(doc: dict, facts: UseEquipmentFacts) -> list[str]:
    eng = Engagement.from_doc(doc)
    rig, card = _card(eng, facts)
    if card.effect_key == "scramble_actions":
        return [f"Scrambler works (yours higher): {11 / 24:.1%}"]
    if card.effect_key == "artillery_strike":
        per = [f"Each Rig near the point is hit: {3 / 12:.1%}"]
        for rid in facts.rigs_near_point:
            t = eng.rig(rid)
            dist = impact_damage_dist(ARTILLERY_STR, 0, t.armour, False, False)
            mean = sum(k * p for k, p in dist.items())
            per.append(f"Expected damage to {t.name}: {0.25 * float(mean):.2f}")
        return per
    return []


USE_EQUIPMENT = ActionSpec("use_equipment", "Use Equipment", UseEquipmentFacts, resolve_use_equipment,
                           odds_use_equipment)
