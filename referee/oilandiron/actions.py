"""The actions a Rig takes in its activation besides attacking and using equipment: Move, Ram,
Reload, Repair, Shut Down and Prepare. Each costs one action and its heat."""
from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.dice import roll
from ..core.errors import RuleError
from ..core.results import Modifier, Result
from ..core.words import counted
from .activation import EndActivationFacts, active_rig, paid_action, resolve_end_activation
from .attacks import ARC_BONUS, ARCS
from .damage import DamageContext, damage_rig, impact_roll, roll_location
from .equipment import plating, speed_bonus
from .heat import lower_heat, raise_heat
from .model import LOCATION_LABELS, LOCATIONS, RAM_STR, REPAIRED_BY, Engagement
from .odds import impact_damage_dist
from .writing import builder, rig_now, rig_set

# --- Move -------------------------------------------------------------------------------------

def movement(rig) -> dict:
    """How far the Rig may go with one Move action, and why."""
    mods = list(speed_bonus(rig))
    if rig.is_catastrophic("legs"):
        mods.append(Modifier(-2, "Legs catastrophic", "speed"))
    if "hydraulic_blowout" in rig.status:
        mods.append(Modifier(-2, "Hydraulic Blowout", "speed"))
    speed = max(0, rig.speed + sum(m.amount for m in mods))
    if "shock" in rig.status:
        mods.append(Modifier(-(speed - speed // 2), "Shock (half, rounded down)", "speed"))
        speed //= 2
    immobile = "immobilised" in rig.status or "legs_immobilised" in rig.status
    if immobile:
        speed = 0
    return {
        "forward": speed,
        "backpedal": 0 if rig.is_catastrophic("legs") else Fraction(speed, 2),
        "side_step": Fraction(speed, 2),
        "pivots": rig.pivot,
        "immobilised": immobile,
        "modifiers": mods,
    }


def _inches(v) -> str:
    v = Fraction(v)
    whole, half = divmod(v, 1)
    return f"{int(whole)}½\"" if half else f"{int(whole)}\""


class MoveFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})


def resolve_move(doc: dict, facts: MoveFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig = active_rig(eng, facts.rig)
    work, notes = paid_action(doc, rig.id, 1, "Move")
    m = movement(rig)
    if m["immobilised"]:
        lines = [f"{rig.name} is immobilised: it may only pivot, up to {m['pivots']} × 90°."]
    else:
        lines = [f"Forward up to {_inches(m['forward'])}.",
                 f"Backpedal up to {_inches(m['backpedal'])} (2\" of move per 1\")." if m["backpedal"] or not
                 rig.is_catastrophic("legs") else "No backpedalling: the Legs are lost.",
                 f"Side-step up to {_inches(m['side_step'])} (2\" of move per 1\").",
                 f"Pivot up to {counted(m['pivots'], 'time')}, 90° each."]
    return Result("move", f"{rig.name} moves: up to {_inches(m['forward'])} forward", modifiers=tuple(m["modifiers"]),
                  changes=work.changes, notes=tuple(lines + notes),
                  data={"forward": m["forward"], "backpedal": float(m["backpedal"]), "side_step": float(m["side_step"]),
                        "pivots": m["pivots"], "immobilised": m["immobilised"]})


# --- Ram --------------------------------------------------------------------------------------

class RamFacts(Facts):
    rig: str = Field(title="Ramming Rig", json_schema_extra={"ref": "rig", "side": "active"})
    target: str = Field(title="Rig rammed", json_schema_extra={"ref": "rig", "side": "enemy"})
    moved_2_inches: bool = Field(False, title="Moved at least 2\" straight into it?")
    target_arc: Literal[tuple(ARCS)] = Field("front", title="Rammer hits the target's … arc",
                                             json_schema_extra={"labels": ARCS})
    overflow_to: list[str] = Field([], title="Overflow damage goes to (defender's order of choice)",
                                   json_schema_extra={"ref": "location"})


def _ram_checks(eng: Engagement, facts: RamFacts):
    rig = active_rig(eng, facts.rig)
    target = eng.rig(facts.target)
    if target.player == rig.player:
        raise RuleError(f"{target.name} is on your own side.")
    if not target.in_play:
        raise RuleError(f"{target.name} is no longer on the table.")
    if not facts.moved_2_inches:
        raise RuleError("A Rig rams only after moving at least 2\" into its target.")
    if "immobilised" in rig.status or "legs_immobilised" in rig.status:
        raise RuleError(f"{rig.name} is immobilised: it cannot ram.")
    return rig, target


def ram_strengths(eng: Engagement, rig, target) -> tuple[int, int]:
    """STR of the hit on the target and on the rammer (setting: each takes the other's class, or
    both take the rammer's)."""
    if eng.settings.ram_strength_from == "rammer":
        return RAM_STR[rig.weight_class], RAM_STR[rig.weight_class]
    return RAM_STR[rig.weight_class], RAM_STR[target.weight_class]


def ram_modifiers(rig, target, arc: str) -> tuple[list[Modifier], list[Modifier]]:
    on_target = [Modifier(ARC_BONUS[arc], f"{ARCS[arc]} arc", "impact")] if ARC_BONUS[arc] else []
    on_target += plating(target, arc)
    return on_target, plating(rig, "front")


def resolve_ram(doc: dict, facts: RamFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig, target = _ram_checks(eng, facts)
    work, notes = paid_action(doc, rig.id, 1, "Ram")
    ctx = DamageContext(work, dice, tuple(facts.overflow_to), notes)
    str_target, str_rammer = ram_strengths(eng, rig, target)
    mods_target, mods_rammer = ram_modifiers(rig, target, facts.target_arc)
    loc = roll_location(ctx, target.name, target.player)
    imp = impact_roll(ctx, str_target, mods_target, target.armour, loc)
    notes.append(imp.line(target.name) + ".")
    damage_rig(ctx, target.id, loc, imp.damage, "ram")
    if rig.gear("ram_without_damage"):
        notes.append(f"Rig Bayonet: {rig.name} takes no hit from the ram.")
    else:
        loc2 = roll_location(ctx, rig.name, rig.player)
        imp2 = impact_roll(ctx, str_rammer, mods_rammer, rig.armour, loc2)
        notes.append(imp2.line(rig.name) + ".")
        damage_rig(ctx, rig.id, loc2, imp2.damage, "ram")
    return Result("ram", f"{rig.name} rams {target.name}", dice=tuple(ctx.rolled),
                  modifiers=tuple(mods_target + mods_rammer), changes=work.changes, notes=tuple(notes))


def odds_ram(doc: dict, facts: RamFacts) -> list[str]:
    eng = Engagement.from_doc(doc)
    rig, target = _ram_checks(eng, facts)
    str_target, str_rammer = ram_strengths(eng, rig, target)
    mods_target, mods_rammer = ram_modifiers(rig, target, facts.target_arc)
    out = []
    for who, strength, mods, armour in ((target, str_target, mods_target, target.armour),
                                          (rig, str_rammer, mods_rammer, rig.armour)):
        if who is rig and rig.gear("ram_without_damage"):
            out.append(f"{rig.name} takes no damage (Rig Bayonet)")
            continue
        dist = impact_damage_dist(strength, sum(m.amount for m in mods), armour, False, False)
        mean = sum(k * p for k, p in dist.items())
        out.append(f"{who.name}: damaged {float(1 - dist.get(0, 0)):.1%}, expected {float(mean):.2f} SP")
    return out


# --- Reload, Repair, Shut Down, Prepare --------------------------------------------------------

class RigOnlyFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})


def resolve_reload(doc: dict, facts: RigOnlyFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig = active_rig(eng, facts.rig)
    empty = [w for w in rig.weapons.values() if not w.destroyed and not w.loaded]
    if not empty:
        raise RuleError(f"{rig.name}'s weapons are all loaded.")
    more, trait = rig.trait_rule("reload_heat")
    work, notes = paid_action(doc, rig.id, max(0, 1 + more), "Reload")
    if more:
        notes.append(f"{trait} (repair trait): the Reload costs {max(0, 1 + more)} heat.")
    for w in empty:
        work.set(("rigs", rig.id, "weapons", w.id, "loaded"), True, f"{rig.name}: {w.name} reloaded")
    return Result("reload", f"{rig.name} reloads: {', '.join(w.name for w in empty)}", changes=work.changes,
                  notes=tuple(notes))


class RepairFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})
    location: Literal[LOCATIONS] = Field(title="Location to repair",
                                         json_schema_extra={"ref": "location", "labels": LOCATION_LABELS})


def _repair_checks(eng: Engagement, facts: RepairFacts):
    rig = active_rig(eng, facts.rig)
    loc = facts.location
    if rig.is_catastrophic(loc) or rig.structure[loc] == 0:
        raise RuleError(f"{rig.name}'s {LOCATION_LABELS[loc]} is catastrophically damaged: it cannot be repaired.")
    lasting = [s for s, where in REPAIRED_BY.items() if where == loc and s in rig.status
               and (s != "engine_failure" or eng.settings.engine_failure_repairable)]
    disabled = [w for w in rig.weapons.values() if w.disabled] if loc == "arms" else []
    if rig.structure[loc] >= rig.structure_max[loc] and not lasting and not disabled:
        raise RuleError(f"{rig.name}'s {LOCATION_LABELS[loc]} needs no repair.")
    return rig, lasting, disabled


def repair_penalty(rig) -> Modifier | None:
    """A repair trait's change to this roll: only the Rig's first repair roll of the engagement."""
    amount, trait = rig.trait_rule("first_repair")
    if not amount or rig.campaign.get("repair_rolled"):
        return None
    return Modifier(amount, f"{trait} (repair trait, first repair roll)", "repair")


def repair_gain(total: int) -> int:
    return 2 if total >= 10 else 1 if total >= 6 else 0


def resolve_repair(doc: dict, facts: RepairFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig, lasting, disabled = _repair_checks(eng, facts)
    loc = facts.location
    work, notes = paid_action(doc, rig.id, 1, "Repair")
    die = roll(dice, 1, 12, "repair (6+: 1 SP, 10+: 2 SP)")
    mod = repair_penalty(rig)
    mods = (mod,) if mod else ()
    if mod:
        rig_set(work, rig.id, "campaign", {**rig.campaign, "repair_rolled": True}, f"{rig.name}: first repair roll made")
    value = die[0].value + (mod.amount if mod else 0)
    gained = repair_gain(value)
    if gained == 0:
        return Result("repair", f"{rig.name}'s repair of the {LOCATION_LABELS[loc]} fails ({value})", dice=die,
                      modifiers=mods, changes=work.changes, notes=tuple(notes), data={"restored": 0})
    sp, top = rig.structure[loc], rig.structure_max[loc]
    new = min(top, sp + gained)
    work.set(("rigs", rig.id, "structure", loc), new, f"{rig.name}: {LOCATION_LABELS[loc]} SP {sp} → {new}")
    if lasting:
        now = rig_now(work, rig.id)
        rig_set(work, rig.id, "status", {k: v for k, v in now.status.items() if k not in lasting},
                       f"{rig.name}: {', '.join(s.replace('_', ' ') for s in lasting)} repaired")
        notes.append(f"Repaired: {', '.join(s.replace('_', ' ') for s in lasting)}.")
    for w in disabled:
        work.set(("rigs", rig.id, "weapons", w.id, "disabled"), False, f"{rig.name}: {w.name} working again")
        notes.append(f"{w.name} works again.")
    return Result("repair", f"{rig.name} repairs the {LOCATION_LABELS[loc]} ({value}): SP {sp} → {new}", dice=die,
                  modifiers=mods, changes=work.changes, notes=tuple(notes), data={"restored": new - sp})


def odds_repair(doc: dict, facts: RepairFacts) -> list[str]:
    rig, _, _ = _repair_checks(Engagement.from_doc(doc), facts)
    mod = repair_penalty(rig)
    shift = mod.amount if mod else 0
    counts = [0, 0, 0]
    for face in range(1, 13):
        counts[repair_gain(face + shift)] += 1
    lines = [f"Fails: {counts[0] / 12:.1%}", f"1 SP back: {counts[1] / 12:.1%}", f"2 SP back: {counts[2] / 12:.1%}"]
    return lines + ([f"With {mod.rule}: {mod.amount:+d}"] if mod else [])


def resolve_shut_down(doc: dict, facts: RigOnlyFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig = active_rig(eng, facts.rig)
    work = builder(doc)
    notes: list[str] = []
    new = lower_heat(work, rig.id, 0, "Shut Down")
    if new > 0:
        notes.append(f"Heat stays at {new}: " + ("it cannot fall (engine failure)." if rig.heat_locked else
                                                 "the lost Engine holds it there."))
    leak, trait = rig.trait_rule("shutdown_heat")
    if leak:
        new = raise_heat(work, rig.id, leak, f"{trait}, repair trait")
        notes.append(f"{trait} (repair trait): heat {new} after the Shut Down.")
    rig_set(work, rig.id, "actions_left", 0, f"{rig.name}: remaining actions forfeited")
    end = resolve_end_activation(work.doc, EndActivationFacts(), dice)
    return Result("shut_down", f"{rig.name} shuts down: heat {rig.heat} → {new}, activation over",
                  changes=work.changes, notes=tuple(notes), children=(end,))


class PrepareFacts(Facts):
    rig: str = Field(title="Rig", json_schema_extra={"ref": "rig", "side": "active"})
    token: str = Field(title="Token type (kept face down)", min_length=1, max_length=40,
                       json_schema_extra={"help": "e.g. Brace; its effect is applied when revealed"})


def resolve_prepare(doc: dict, facts: PrepareFacts, dice) -> Result:
    eng = Engagement.from_doc(doc)
    rig = active_rig(eng, facts.rig)
    work, notes = paid_action(doc, rig.id, 1, "Prepare")
    rig_set(work, rig.id, "prepare_tokens", list(rig.prepare_tokens) + [facts.token.strip()],
                   f"{rig.name}: Prepare token placed")
    return Result("prepare", f"{rig.name} places a face-down Prepare token", changes=work.changes,
                  notes=tuple(notes + [f"Recorded as {facts.token.strip()} (hidden from the opponent on the table)."]))


MOVE = ActionSpec("move", "Move", MoveFacts, resolve_move, rolls_dice=False)
RAM = ActionSpec("ram", "Ram", RamFacts, resolve_ram, odds_ram)
RELOAD = ActionSpec("reload", "Reload", RigOnlyFacts, resolve_reload, rolls_dice=False)
REPAIR = ActionSpec("repair", "Repair", RepairFacts, resolve_repair, odds_repair)
SHUT_DOWN = ActionSpec("shut_down", "Shut Down", RigOnlyFacts, resolve_shut_down, rolls_dice=False)
PREPARE = ActionSpec("prepare", "Prepare", PrepareFacts, resolve_prepare, rolls_dice=False)
