"""Heat: raising and lowering it within its limits, the Maintenance phase Heat Threshold roll
(RULES-GAPS: D12 + (heat − threshold) for a Rig above its threshold, Exotic Engine Coolant −1,
an Extinguisher may cancel it) with the ten rows of the table, and Engine Exhaust."""
from __future__ import annotations

from typing import Optional

import icepool
from pydantic import Field

from ..core.changes import ChangeBuilder
from ..core.contract import ActionSpec, Facts
from ..core.errors import RuleError
from ..core.odds import Chances
from ..core.results import Modifier, Result
from .damage import DamageContext, damage_rig, destroy_rig
from .model import LOCATIONS, Engagement
from .writing import builder, engagement_now, rig_now, rig_set

HEAT_TABLE = (
    (5, "nothing", "Nothing happens"),
    (7, "system_stall", "System Stall"),
    (9, "hydraulic_blowout", "Hydraulic Blowout"),
    (11, "ammo_detonation", "Ammo Detonation"),
    (13, "fuel_line_rupture", "Fuel Line Rupture"),
    (15, "structural_buckling", "Structural Buckling"),
    (17, "emergency_shutdown", "Emergency Shutdown"),
    (18, "chain_reaction", "Chain Reaction"),
    (19, "engine_failure", "Engine Failure"),
    (10 ** 6, "catastrophic_failure", "Catastrophic Failure"),
)


def heat_row(total: int) -> tuple[str, str]:
    for top, key, label in HEAT_TABLE:
        if total <= top:
            return key, label
    raise ValueError(total)


def raise_heat(work: ChangeBuilder, rig_id: str, amount: int, why: str) -> int:
    """Add heat (the track ends at its last space); a negative amount lowers it. Returns the new heat."""
    rig = rig_now(work, rig_id)
    if amount < 0:
        return lower_heat(work, rig_id, rig.heat + amount, why)
    new = min(rig.heat_track, rig.heat + amount)
    rig_set(work, rig_id, "heat", new, f"{rig.name}: heat {rig.heat} → {new} ({why})")
    return new


def lower_heat(work: ChangeBuilder, rig_id: str, target: int, why: str) -> int:
    """Lower heat towards ``target``, never below the Rig's floor and never when it is locked."""
    rig = rig_now(work, rig_id)
    if rig.heat_locked or target >= rig.heat:
        return rig.heat
    new = max(target, rig.heat_floor, 0)
    rig_set(work, rig_id, "heat", new, f"{rig.name}: heat {rig.heat} → {new} ({why})")
    return new


def exhaust(work: ChangeBuilder, rig_id: str, notes: list[str]) -> None:
    rig = rig_now(work, rig_id)
    if not rig.in_play or rig.exhaust <= 0 or rig.heat == 0:
        return
    new = lower_heat(work, rig_id, rig.heat - rig.exhaust, f"Engine Exhaust {rig.exhaust}")
    if new == rig.heat:
        why = "heat cannot fall (engine failure)" if rig.heat_locked else f"held at {rig.heat_floor} (engine lost)"
        notes.append(f"{rig.name}: Exhaust does nothing — {why}.")
    else:
        notes.append(f"{rig.name}: Exhaust {rig.exhaust} lowers heat {rig.heat} → {new}.")


def heat_roll_modifiers(rig) -> list[Modifier]:
    mods = [Modifier(rig.heat - rig.heat_threshold, f"heat {rig.heat} over threshold {rig.heat_threshold}",
                     "heat roll")]
    if rig.gear("heat_roll_minus_1"):
        mods.append(Modifier(-1, "Exotic Engine Coolant", "heat roll"))
    return mods


def set_status(work: ChangeBuilder, rig_id: str, name: str, duration: str, label: str) -> None:
    rig = rig_now(work, rig_id)
    rig_set(work, rig_id, "status", dict(rig.status, **{name: duration}), f"{rig.name}: {label}")


def apply_heat_row(ctx: DamageContext, rig_id: str, key: str, detonation_weapon: str | None) -> None:
    """What one row of the Heat Threshold table does to the Rig."""
    work = ctx.work
    rig = rig_now(work, rig_id)
    if key == "nothing":
        return
    if key == "system_stall":
        damage_rig(ctx, rig_id, "hull", 1, "System Stall")
    elif key == "hydraulic_blowout":
        set_status(work, rig_id, "hydraulic_blowout", "until_repaired", "Speed −2\" until the Legs are repaired")
        damage_rig(ctx, rig_id, "legs", 2, "Hydraulic Blowout")
    elif key == "ammo_detonation":
        working = [w for w in rig.weapons.values() if not w.destroyed and not w.disabled]
        weapon = rig.weapons.get(detonation_weapon) if detonation_weapon else (working[0] if working else None)
        if weapon is not None and not weapon.destroyed:
            work.set(("rigs", rig_id, "weapons", weapon.id, "disabled"), True,
                       f"{rig.name}: {weapon.name} disabled until the Arms are repaired")
            ctx.notes.append(f"{rig.name}: {weapon.name} is disabled until the Arms are repaired.")
        damage_rig(ctx, rig_id, "arms", 2, "Ammo Detonation")
        damage_rig(ctx, rig_id, "hull", 1, "Ammo Detonation")
    elif key == "fuel_line_rupture":
        set_status(work, rig_id, "fuel_line_rupture", "until_repaired", "fuel line ruptured until the Hull is repaired")
        extra = 2 if rig.gear("speed_bonus_fuel_risk") else 0
        if extra:
            ctx.notes.append(f"{rig.name}: Concentrated Fuel — the rupture deals 2 more damage.")
        damage_rig(ctx, rig_id, "hull", 1 + extra, "Fuel Line Rupture")
        ctx.notes.append(f"{rig.name} takes more damage at the start of each activation until the Hull is repaired.")
    elif key in ("structural_buckling", "chain_reaction"):
        for loc in LOCATIONS:
            damage_rig(ctx, rig_id, loc, 1, "Structural Buckling" if key == "structural_buckling" else "Chain Reaction")
    elif key == "emergency_shutdown":
        lower_heat(work, rig_id, 0, "Emergency Shutdown")
        set_status(work, rig_id, "skip_activation", "next_activation", "skips its next activation")
        ctx.notes.append(f"{rig.name} shuts down: heat reset, and it skips its next activation.")
    elif key == "engine_failure":
        repairable = engagement_now(work).settings.engine_failure_repairable
        set_status(work, rig_id, "engine_failure", "until_repaired" if repairable else "permanent",
                   "heat can no longer fall")
        damage_rig(ctx, rig_id, "engine", 2, "Engine Failure")
        ctx.notes.append(f"{rig.name}: heat can no longer fall" + (" until the Engine is repaired." if repairable
                                                                   else " for the rest of the engagement."))
    elif key == "catastrophic_failure":
        set_status(work, rig_id, "catastrophic_failure", "permanent", "heat can no longer fall")
        for loc in LOCATIONS:
            work.set(("rigs", rig_id, "structure", loc), 0)
        rig_set(work, rig_id, "catastrophic", list(LOCATIONS), f"{rig.name}: every location catastrophic")
        ctx.notes.append(f"{rig.name}: every component fails at once.")
        destroy_rig(ctx, rig_id, "Catastrophic Failure")


class HeatRollFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "any"})
    use_extinguisher: bool = Field(False, title="Use the Extinguisher first?")
    detonation_weapon: Optional[str] = Field(
        None, title="Weapon to disable on an Ammo Detonation",
        json_schema_extra={"ref": "weapon", "of": "rig", "help": "Left empty: the first working weapon."})
    overflow_to: list[str] = Field(
        [], title="Overflow damage goes to (defender's order of choice)", json_schema_extra={"ref": "location"})


def _check_heat_roll(eng: Engagement, facts: HeatRollFacts):
    eng.require_phase("maintenance", "Heat Threshold rolls are made in the Maintenance phase.")
    rig = eng.rig(facts.rig)
    if not rig.in_play:
        raise RuleError(f"{rig.name} is out of the engagement.")
    if not rig.above_threshold:
        raise RuleError(f"{rig.name}'s heat {rig.heat} is not above its threshold {rig.heat_threshold}: no roll.")
    if rig.heat_rolled == eng.round:
        raise RuleError(f"{rig.name} has already made its Heat Threshold roll this round.")
    if facts.use_extinguisher and not rig.gear("cancel_heat_roll"):
        raise RuleError(f"{rig.name} has no Extinguisher left.")
    if facts.detonation_weapon is not None:
        weapon = rig.weapon(facts.detonation_weapon)
        if weapon.destroyed:
            raise RuleError(f"{weapon.name} is already destroyed: pick a working weapon to disable.")
    return rig


def resolve_heat_roll(doc: dict, facts: HeatRollFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig = _check_heat_roll(eng, facts)
    work = builder(doc)
    ctx = DamageContext(work, dice, tuple(facts.overflow_to))
    rig_set(work, rig.id, "heat_rolled", eng.round, f"{rig.name}: Heat Threshold roll made for round {eng.round}")
    mods = heat_roll_modifiers(rig)
    if facts.use_extinguisher:
        ext = rig.gear("cancel_heat_roll")
        value = ctx.roll(1, 12, "Extinguisher (4+ cancels the heat roll)")[0]
        if value >= 4:
            work.set(("rigs", rig.id, "equipment", ext.key, "used"), True)
            work.set(("rigs", rig.id, "equipment", ext.key, "discarded"), True, f"{rig.name}: Extinguisher discarded")
            return Result("heat_roll", f"{rig.name}: the Extinguisher works ({value}) — no Heat Threshold roll",
                          dice=tuple(ctx.rolled), changes=work.changes,
                          data={"rig": rig.id, "cancelled": True})
        ctx.notes.append(f"The Extinguisher fails ({value}); the heat roll goes ahead.")
    rows = []
    limit = eng.settings.chain_reaction_limit
    while True:
        value = ctx.roll(1, 12, "Heat Threshold roll")[0]
        total = value + sum(m.amount for m in mods)
        key, label = heat_row(total)
        rows.append({"die": value, "total": total, "row": key})
        ctx.notes.append(f"Heat roll {value} {' '.join(str(m) for m in mods)} = {total}: {label}.")
        apply_heat_row(ctx, rig.id, key, facts.detonation_weapon)
        if key != "chain_reaction" or rig_now(work, rig.id).destroyed:
            break
        if len(rows) > limit:
            ctx.notes.append(f"Chain Reaction limit of {limit} re-rolls reached.")
            break
        ctx.notes.append("Chain Reaction: roll again.")
    labels = " → ".join(heat_row(r["total"])[1] for r in rows)
    return Result("heat_roll", f"{rig.name}: Heat Threshold roll — {labels}", dice=tuple(ctx.rolled),
                  modifiers=tuple(mods), changes=work.changes, notes=tuple(ctx.notes),
                  data={"rig": rig.id, "rolls": rows, "cancelled": False})


def odds_heat_roll(doc: dict, facts: HeatRollFacts) -> list[str]:
    eng = Engagement.from_doc(doc)
    rig = _check_heat_roll(eng, facts)
    modifier = sum(m.amount for m in heat_roll_modifiers(rig))
    die = icepool.d12 + modifier
    out: list[str] = []
    rows: list[tuple[str, float]] = []
    if facts.use_extinguisher:
        out.append("Extinguisher cancels the roll: 75.0%")
    low = -100
    for top, _key, label in HEAT_TABLE:
        p = float(die.probability(">", low)) - float(die.probability(">", top))
        low = top
        if p > 0:
            out.append(f"{label}: {p:.1%}")
            rows.append((label, p))
    first = 1 if facts.use_extinguisher else 0
    out[first] = Chances(out[first], rows, f"{rig.name}'s Heat Threshold roll")
    return out


HEAT_ROLL = ActionSpec("heat_roll", "Heat Threshold roll", HeatRollFacts, resolve_heat_roll, odds_heat_roll)
