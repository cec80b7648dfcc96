"""Hit location, the impact roll and what damage does: structure per location, catastrophic
damage by location (RULES-GAPS: Legs, Hull, Arms, Engine), damage to a location already lost,
overflow to a location the defender chose, and a Rig's destruction.

Everything writes through one :class:`DamageContext` (work, dice, the defender's overflow
choices), because one hit can set off a chain: Arms lost, the weapon's munitions hit Hull and
Engine, the Hull is lost, and so on.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.changes import ChangeBuilder
from ..core.dice import d3, roll
from ..core.errors import ChoiceNeeded
from ..core.results import Die, Modifier
from .model import LOCATION_LABELS, LOCATIONS
from .writing import engagement_now, rig_now, rig_set

HIT_LOCATIONS = ((4, "hull"), (7, "arms"), (10, "legs"), (12, "engine"))
DAMAGE_BY_GRADE = {"none": 0, "direct": 1, "severe": 2, "critical": 3}
GRADE_LABELS = {"none": "no damage", "direct": "Direct (−1 SP)", "severe": "Severe (−2 SP)",
                "critical": "Critical (−3 SP)"}


def location_for(d12: int) -> str:
    for top, loc in HIT_LOCATIONS:
        if d12 <= top:
            return loc
    raise ValueError(d12)


def grade(total: int, direct: int, severe: int, critical: int) -> str:
    if total >= critical:
        return "critical"
    if total >= severe:
        return "severe"
    if total >= direct:
        return "direct"
    return "none"


@dataclass
class DamageContext:
    work: ChangeBuilder
    dice: object
    overflow_to: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    rolled: list[Die] = field(default_factory=list)

    def roll(self, count: int, sides: int, purpose: str, need: int = 0, side: str | None = None) -> list[int]:
        got = roll(self.dice, count, sides, purpose, need, side=side)
        self.rolled.extend(got)
        return [d.value for d in got]


def roll_location(ctx: DamageContext, target_name: str, player: str | None = None) -> str:
    """The target's player rolls the hit location (``player``: theirs, when it is not the acting one)."""
    value = ctx.roll(1, 12, f"hit location ({target_name} rolls)", side=player)[0]
    return location_for(value)


@dataclass(frozen=True)
class Impact:
    die: int
    strength: int
    modifiers: tuple[Modifier, ...]
    total: int
    grade: str
    damage: int
    location: str | None

    def line(self, who: str) -> str:
        mods = "".join(f" {m}" for m in self.modifiers)
        where = f" to the {LOCATION_LABELS[self.location]}" if self.location else ""
        return (f"Impact on {who}{where}: D6 {self.die} + STR {self.strength}{mods} = {self.total} → "
                f"{GRADE_LABELS[self.grade]}")


def impact_roll(ctx: DamageContext, strength: int, modifiers: list[Modifier], thresholds: dict,
                location: str | None, armour_piercing: bool = False, flak: bool = False) -> Impact:
    """D6 + STR (+ modifiers) against Direct / Severe / Critical; below Direct does nothing."""
    mods = list(modifiers)
    die = ctx.roll(1, 6, "impact")[0]
    if flak and die == 1:
        die = ctx.roll(1, 6, "impact re-roll (Flak)")[0]
    if armour_piercing and die == 6:
        extra = d3(ctx.roll(1, 6, "Armour Piercing D3")[0])
        mods.append(Modifier(extra, "Armour Piercing (impact 6: +D3)", "impact"))
    total = die + strength + sum(m.amount for m in mods)
    g = grade(total, thresholds["direct"], thresholds["severe"], thresholds["critical"])
    return Impact(die, strength, tuple(mods), total, g, DAMAGE_BY_GRADE[g], location)


# --- Rigs ------------------------------------------------------------------------------------

def damage_rig(ctx: DamageContext, rig_id: str, location: str, amount: int, source: str) -> None:
    """Take ``amount`` SP from one location, with every consequence the rules give."""
    rig = rig_now(ctx.work, rig_id)
    if rig.destroyed or amount <= 0:
        return
    name, where = rig.name, LOCATION_LABELS[location]
    sp = rig.structure[location]
    if sp == 0:
        ctx.notes.append(f"{name}: {where} was already lost — further damage there ({source}).")
        _further_damage(ctx, rig_id, location)
        if not rig_now(ctx.work, rig_id).destroyed:
            _overflow(ctx, rig_id, location, amount, source)
        return
    left = max(0, sp - amount)
    ctx.work.set(("rigs", rig_id, "structure", location), left, f"{name}: {where} SP {sp} → {left}")
    ctx.notes.append(f"{name}: {where} loses {min(amount, sp)} SP ({source}), {left} left.")
    if left == 0:
        _catastrophic(ctx, rig_id, location)
    excess = amount - sp
    if excess > 0 and not rig_now(ctx.work, rig_id).destroyed:
        _overflow(ctx, rig_id, location, excess, source)
    _check_all_lost(ctx, rig_id)


def destroy_rig(ctx: DamageContext, rig_id: str, why: str) -> None:
    rig = rig_now(ctx.work, rig_id)
    if rig.destroyed:
        return
    rig_set(ctx.work, rig_id, "destroyed", True, f"{rig.name}: destroyed")
    rig_set(ctx.work, rig_id, "actions_left", 0)
    ctx.notes.append(f"{rig.name} is DESTROYED: {why}.")


def _check_all_lost(ctx: DamageContext, rig_id: str) -> None:
    rig = rig_now(ctx.work, rig_id)
    if not rig.destroyed and all(rig.structure[loc] == 0 for loc in LOCATIONS):
        destroy_rig(ctx, rig_id, "every location is at 0 SP")


def _catastrophic(ctx: DamageContext, rig_id: str, location: str) -> None:
    rig = rig_now(ctx.work, rig_id)
    if location not in rig.catastrophic:
        rig_set(ctx.work, rig_id, "catastrophic", list(rig.catastrophic) + [location],
                           f"{rig.name}: {LOCATION_LABELS[location]} catastrophically damaged")
    name = rig.name
    if location == "legs":
        ctx.notes.append(f"{name}: Legs catastrophic — Speed −2\", can no longer backpedal.")
        if "arms" in rig.catastrophic:
            destroy_rig(ctx, rig_id, "Legs and Arms both lost")
    elif location == "hull":
        ctx.notes.append(f"{name}: Hull catastrophic — 2 fewer actions per activation, −1 Aim.")
    elif location == "arms":
        ctx.notes.append(f"{name}: Arms catastrophic — roll for which weapon goes.")
        _arm_weapon_lost(ctx, rig_id)
        if "legs" in rig_now(ctx.work, rig_id).catastrophic:
            destroy_rig(ctx, rig_id, "Arms and Legs both lost")
    elif location == "engine":
        rig = rig_now(ctx.work, rig_id)
        floor = rig.first_numbered_heat_space
        ctx.notes.append(f"{name}: Engine catastrophic — heat can no longer drop below {floor}.")
        if rig.heat < floor:
            rig_set(ctx.work, rig_id, "heat", floor, f"{name}: heat {rig.heat} → {floor} (engine lost)")


def _further_damage(ctx: DamageContext, rig_id: str, location: str) -> None:
    rig = rig_now(ctx.work, rig_id)
    if location == "legs":
        if rig.status.get("legs_immobilised") != "permanent":
            status = dict(rig.status, legs_immobilised="permanent")
            rig_set(ctx.work, rig_id, "status", status, f"{rig.name}: immobilised (Legs)")
        ctx.notes.append(f"{rig.name} is immobilised for good: it may only pivot.")
    elif location == "arms":
        _arm_weapon_lost(ctx, rig_id)
    elif location == "hull":
        destroy_rig(ctx, rig_id, "further damage to a lost Hull")
    elif location == "engine":
        destroy_rig(ctx, rig_id, "further damage to a lost Engine")


def arm_side(d12: int, colossal: bool) -> str:
    if colossal:
        return "left" if d12 <= 4 else "hull" if d12 <= 8 else "right"
    return "left" if d12 <= 6 else "right"


def _arm_weapon_lost(ctx: DamageContext, rig_id: str) -> None:
    rig = rig_now(ctx.work, rig_id)
    side = arm_side(ctx.roll(1, 12, f"which weapon ({rig.name}, Arms lost)")[0], rig.weight_class == "colossal")
    if side in rig.arm_weapons_lost:
        ctx.notes.append(f"{rig.name}: the {side} mount is hit again — 3 damage to the Hull.")
        damage_rig(ctx, rig_id, "hull", 3, f"{side} mount hit again")
        return
    rig_set(ctx.work, rig_id, "arm_weapons_lost", list(rig.arm_weapons_lost) + [side])
    weapon = next((w for w in rig.weapons.values() if w.mount == side), None)
    if weapon is None:
        ctx.notes.append(f"{rig.name}: the {side} mount is empty — nothing more happens.")
        return
    ctx.work.set(("rigs", rig_id, "weapons", weapon.id, "destroyed"), True, f"{rig.name}: {weapon.name} destroyed")
    ctx.notes.append(f"{rig.name}: {weapon.name} ({side}) is destroyed; its munitions go off — 1 damage to Hull "
                     "and Engine.")
    damage_rig(ctx, rig_id, "hull", 1, f"{weapon.name} munitions")
    damage_rig(ctx, rig_id, "engine", 1, f"{weapon.name} munitions")


def _overflow(ctx: DamageContext, rig_id: str, from_location: str, amount: int, source: str) -> None:
    rig = rig_now(ctx.work, rig_id)
    open_locations = [loc for loc in LOCATIONS if loc != from_location and rig.structure[loc] > 0]
    if not open_locations:
        _check_all_lost(ctx, rig_id)
        return
    choice = next((loc for loc in ctx.overflow_to if loc in open_locations), None)
    if choice is None:
        raise ChoiceNeeded(f"{amount} damage overflows from {rig.name}'s {LOCATION_LABELS[from_location]}: "
                           f"{engagement_now(ctx.work).player_name(rig.player)}, where does it go? "
                           "The dice rolled so far stay as they are.",
                           "overflow_to", [(x, LOCATION_LABELS[x]) for x in open_locations])
    ctx.notes.append(f"{rig.name}: {amount} damage overflows from {LOCATION_LABELS[from_location]} to "
                     f"{LOCATION_LABELS[choice]} (defender's choice).")
    damage_rig(ctx, rig_id, choice, amount, f"overflow from {LOCATION_LABELS[from_location]}")


# --- objectives ------------------------------------------------------------------------------

def damage_objective(ctx: DamageContext, objective_id: str, amount: int) -> None:
    obj = engagement_now(ctx.work).objective(objective_id)
    if obj.destroyed or amount <= 0:
        return
    left = max(0, obj.structure - amount)
    ctx.work.set(("objectives", objective_id, "structure"), left, f"{obj.name}: SP {obj.structure} → {left}")
    ctx.notes.append(f"{obj.name} loses {obj.structure - left} SP, {left} left.")
    if left == 0:
        ctx.work.set(("objectives", objective_id, "destroyed"), True, f"{obj.name}: destroyed")
        ctx.notes.append(f"{obj.name} is DESTROYED.")
