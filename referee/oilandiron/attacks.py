"""The attack sequence (Fire Weapon and Called Shot), every step in one resolution:
1 declare (front arc), 2 range, 3 line of sight, 4 to hit (ROF D6 against Aim − ACC, a 6 always
hits; Prepare tokens), 5 perks, 6 hit location (the target rolls; a Called Shot chooses), 7 impact
(D6 + STR against Direct / Severe / Critical), 8 structure, catastrophic damage and overflow.
Objectives with structure (Sabotage, Siege) can be attacked too.
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..core.contract import ActionSpec, Facts
from ..core.errors import RuleError
from ..core.results import Modifier, Result
from ..core.words import counted
from .activation import active_rig, spend_action
from .damage import DamageContext, damage_objective, damage_rig, impact_roll, roll_location
from .equipment import acc_from_equipment, flare_is_lit, plating, weapon_strength_bonus
from .heat import raise_heat
from .model import LOCATION_LABELS, LOCATIONS, Engagement
from .odds import attack_odds
from .perks import firing_heat, hits_from_die, on_hit_effects, ones_heat, perk_names, rate_of_fire, strength_modifiers
from .writing import builder, engagement_now, rig_now, rig_set

DISTANCES = {"melee": "Within 1\"", "close": "Under 6\"", "mid": "6\" to 10\"", "far": "Over 10\""}
# Each band's nearest and farthest, in inches (None: no end): a weapon reaching the band's far end
# is in range without measuring; one short of its near end cannot attack at all.
BANDS = {"melee": (0, 1), "close": (1, 6), "mid": (6, 10), "far": (10, None)}
SIGHT = {"clear": "Clear", "obscured_25": "25% hidden", "obscured_50": "50% hidden", "none": "Not in sight"}
ARCS = {"front": "Front", "side": "Side", "rear": "Rear"}
ARC_BONUS = {"front": 0, "side": 2, "rear": 4}


class AttackFacts(Facts):
    rig: str = Field(title="Attacking Rig", json_schema_extra={"ref": "rig", "side": "active", "group": "Declare"})
    weapon: str = Field(title="Weapon", json_schema_extra={"ref": "weapon", "of": "rig", "group": "Declare"})
    profile: int = Field(0, ge=0, le=1, title="Range profile (first or second)",
                         json_schema_extra={"group": "Declare", "help": "0: the card's first range line; "
                                            "1: its second, for a weapon with two"})
    target: Optional[str] = Field(None, title="Target Rig",
                                  json_schema_extra={"ref": "rig", "side": "enemy", "group": "Declare"})
    target_objective: Optional[str] = Field(None, title="…or target objective",
                                            json_schema_extra={"ref": "objective", "group": "Declare"})
    in_front_arc: bool = Field(True, title="Target in the attacker's front arc?", json_schema_extra={
        "group": "Declare", "ask": True, "help": "90°, or 180° with Stabilised Weapon Joints. If not, turn first: "
                                                 "nothing is spent"})
    in_range: bool = Field(True, title="In range? (measure after declaring)", json_schema_extra={
        "group": "Range", "ask": True, "help": "Asked only when the distance band leaves it open (the weapon reaches "
                                               "into the band but not past it)"})
    distance: Literal[tuple(DISTANCES)] = Field("close", title="How far is the target?",
                                                json_schema_extra={"labels": DISTANCES, "group": "Range"})
    line_of_sight: Literal[tuple(SIGHT)] = Field("clear", title="Line of sight",
                                                 json_schema_extra={"labels": SIGHT, "group": "Range"})
    target_arc: Literal[tuple(ARCS)] = Field("front", title="Attacker is in the target's … arc",
                                             json_schema_extra={"labels": ARCS, "group": "Range"})
    near_flare: bool = Field(False, title="Attacker within 12\" of a lit flare?", json_schema_extra={"group": "Range"})
    use_advanced_ammo_storage: bool = Field(False, title="Use Advanced Ammo Storage (re-roll misses)?",
                                            json_schema_extra={"group": "Choices"})
    target_uses_ablative_plating: bool = Field(False, title="Target uses Ablative Armour Plating?",
                                               json_schema_extra={"group": "Choices"})
    reveal_token: str = Field("", max_length=40, title="Prepare token the target reveals",
                              json_schema_extra={"group": "Choices", "help": "Its effect is applied by the umpire"})
    explosive_also_hits: list[str] = Field([], title="Other Rigs within the Explosive range",
                                           json_schema_extra={"ref": "rig", "side": "any", "group": "Choices"})
    overflow_to: list[str] = Field([], title="Overflow damage goes to (defender's order of choice)",
                                   json_schema_extra={"ref": "location", "group": "Choices"})


class CalledShotFacts(AttackFacts):
    location: Literal[LOCATIONS] = Field(title="Called location", json_schema_extra={
        "ref": "location", "labels": LOCATION_LABELS, "group": "Declare"})


# --- the plan: everything decided before a die is rolled ---------------------------------------

class Plan:
    """The declared attack, checked, with its modifiers: shared by resolve and odds."""

    def __init__(self, eng: Engagement, facts: AttackFacts, called: str | None):
        self.eng, self.facts, self.called = eng, facts, called
        self.attacker = active_rig(eng, facts.rig)
        a = self.attacker
        self.weapon = a.weapon(facts.weapon)
        w = self.weapon
        if w.destroyed:
            raise RuleError(f"{w.name} has been destroyed.")
        if w.disabled:
            raise RuleError(f"{w.name} is disabled until the Arms are repaired.")
        if facts.profile >= len(w.profiles):
            raise RuleError(f"{w.name} has only one range profile.")
        self.profile = w.profiles[facts.profile]
        if w.has("limited_ammo") and w.ammo_left <= 0:
            raise RuleError(f"{w.name} has used all {w.x('limited_ammo')} of its Limited Ammo.")
        if eng.settings.reload_after_firing and not w.has("melee") and not w.loaded:
            raise RuleError(f"{w.name} is empty: Reload first.")
        if (facts.target is None) == (facts.target_objective is None):
            raise RuleError("Pick one target: a Rig or an objective.")
        self.target = self.objective = None
        if facts.target is not None:
            self.target = eng.rig(facts.target)
            if self.target.player == a.player:
                raise RuleError(f"{self.target.name} is on your own side.")
            if not self.target.in_play:
                raise RuleError(f"{self.target.name} is no longer on the table.")
        else:
            self.objective = eng.objective(facts.target_objective)
            if not self.objective.attackable:
                raise RuleError(f"{self.objective.name} cannot be attacked in this engagement.")
            if self.objective.destroyed:
                raise RuleError(f"{self.objective.name} is already destroyed.")
            if called:
                raise RuleError("An objective has no locations to call.")
        wide = a.gear("wide_firing_arc") is not None
        if not facts.in_front_arc:
            arc = "180°" if wide else "90°"
            raise RuleError(f"The target must be in {a.name}'s front {arc} arc: turn to face it first.")
        # What the distance band says of range, before anything is spent.
        near, far = BANDS[facts.distance]
        reach = self.profile.get("range")
        if w.has("melee") and facts.distance != "melee":
            raise RuleError(f"{w.name} is a Melee weapon: the target must be within 1\" "
                            f"(it is {DISTANCES[facts.distance].lower()} away). Nothing is spent.")
        if isinstance(reach, (int, float)) and reach <= near and facts.distance != "melee":
            raise RuleError(f"{w.name} reaches {reach}\" and the target is {DISTANCES[facts.distance].lower()} "
                            "away: it cannot be attacked from here. Nothing is spent.")
        # Known in range when the weapon reaches past the band; else as measured after declaring.
        self.in_range = (far is not None and isinstance(reach, (int, float)) and reach >= far) or facts.in_range
        if called:
            if w.has("full_auto"):
                raise RuleError(f"{w.name} is Full Auto: it cannot make a Called Shot.")
            if called == "engine" and facts.target_arc == "front":
                raise RuleError("The Engine cannot be targeted from the front arc: call another location, "
                                "or attack from the side or rear.")
        if facts.line_of_sight == "none" and not w.has("bombardment"):
            raise RuleError(f"{a.name} cannot see the target (at least half of it must be visible), and "
                            f"{w.name} is not a Bombardment weapon.")
        if facts.use_advanced_ammo_storage and a.gear("reroll_missed_hits") is None:
            raise RuleError(f"{a.name} has no Advanced Ammo Storage left.")
        if facts.target_uses_ablative_plating and (self.target is None or
                                                   self.target.gear("ignore_attack_damage") is None):
            raise RuleError(f"{self.target_name} has no Ablative Armour Plating left.")
        if facts.explosive_also_hits:
            if not w.has("explosive"):
                raise RuleError(f"{w.name} is not Explosive: no other Rig is hit.")
            if self.target is not None and self.target.id in facts.explosive_also_hits:
                raise RuleError("The Explosive list is for the other Rigs near the target.")
            for rid in facts.explosive_also_hits:
                if not eng.rig(rid).in_play:
                    raise RuleError(f"{eng.rig(rid).name} is no longer on the table.")
        if facts.reveal_token:
            tokens = self.target.prepare_tokens if self.target is not None else ()
            if not tokens:
                raise RuleError(f"{self.target_name} has no Prepare token to reveal.")
            if facts.reveal_token not in tokens:
                raise RuleError(f"{self.target.name} has no “{facts.reveal_token}” token (it has: {', '.join(tokens)}).")
        self.acc = self._acc()
        self.effective_aim = a.aim - sum(m.amount for m in self.acc)
        self.rof, self.rof_mods = rate_of_fire(w, self.profile)
        self.impact_mods = self._impact_mods()

    def _acc(self) -> list[Modifier]:
        f, a, w = self.facts, self.attacker, self.weapon
        mods = []
        if self.profile["acc"]:
            mods.append(Modifier(self.profile["acc"], f"{w.name} ACC", "ACC"))
        if f.line_of_sight == "obscured_25":
            mods.append(Modifier(-1, "25% obscured", "ACC"))
        elif f.line_of_sight == "obscured_50":
            mods.append(Modifier(-2, "50% obscured", "ACC"))
        elif f.line_of_sight == "none":
            mods.append(Modifier(-2, "Bombardment without line of sight", "ACC"))
        if self.called and not w.has("precision"):
            mods.append(Modifier(-2, "Called Shot", "ACC"))
        if a.is_catastrophic("hull"):
            mods.append(Modifier(-1, "Hull catastrophic (−1 Aim)", "ACC"))
        warped, trait = a.trait_rule("left_mount_acc")
        if warped and w.mount == "left":
            mods.append(Modifier(warped, f"{trait} (repair trait, left mount)", "ACC"))
        if "vent_primed" in a.status:
            mods.append(Modifier(-1, "Supplementary Heat Vent", "ACC"))
        if self.target is not None and "smoke" in self.target.status and f.distance in ("mid", "far"):
            mods.append(Modifier(-2, "Smokescreen (attack from 6\"+)", "ACC"))
        if f.near_flare:
            if not flare_is_lit(self.eng):
                raise RuleError("No flare is burning now.")
            mods.append(Modifier(2, "Flare within 12\"", "ACC"))
        mods.extend(acc_from_equipment(a, self.target, f.distance))
        return mods

    def _impact_mods(self) -> list[Modifier]:
        # The blast of an Explosive weapon has no arc or plating: only the weapon's own STR changes.
        self.weapon_mods = strength_modifiers(self.weapon) + weapon_strength_bonus(self.attacker, self.weapon)
        mods = list(self.weapon_mods)
        if self.target is not None:
            bonus = ARC_BONUS[self.facts.target_arc]
            if bonus:
                mods.append(Modifier(bonus, f"{ARCS[self.facts.target_arc]} arc", "impact"))
        if self.target is not None:
            mods.extend(plating(self.target, self.facts.target_arc))
        return mods

    @property
    def thresholds(self) -> dict:
        if self.objective is not None:
            o = self.objective
            return {"direct": o.direct, "severe": o.severe, "critical": o.critical}
        return self.target.armour

    @property
    def target_name(self) -> str:
        return self.target.name if self.target is not None else self.objective.name


def _attack_heat(plan: Plan, notes: list[str]) -> tuple[int, str]:
    heat, why = firing_heat(plan.weapon)
    if "vent_primed" in plan.attacker.status:
        notes.append("Supplementary Heat Vent: this attack lowers heat by 1 instead.")
        return -1, "vented attack"
    return heat, why


def _to_hit(ctx: DamageContext, plan: Plan, use_storage: bool) -> tuple[list[int], int, bool]:
    aim = plan.effective_aim
    shown_need = min(6, max(1, aim))  # a 6 always hits
    values = ctx.roll(plan.rof, 6, f"to hit ({aim}+)", shown_need)
    used_storage = False
    if use_storage:
        misses = [i for i, v in enumerate(values) if hits_from_die(v, aim, plan.weapon) == 0]
        if misses:
            again = ctx.roll(len(misses), 6, "re-roll misses (Advanced Ammo Storage)", shown_need)
            for i, v in zip(misses, again):
                values[i] = v
            used_storage = True
    hits = sum(hits_from_die(v, aim, plan.weapon) for v in values)
    return values, hits, used_storage


def resolve_attack(doc: dict, facts: AttackFacts, dice, called: str | None = None) -> Result:
    eng = Engagement.from_doc(doc)
    plan = Plan(eng, facts, called)
    a, w = plan.attacker, plan.weapon
    work = builder(doc)
    notes: list[str] = []
    ctx = DamageContext(work, dice, tuple(facts.overflow_to), notes)
    kind = "called_shot" if called else "fire_weapon"
    verb = f"Called Shot at the {LOCATION_LABELS[called]}" if called else "attack"
    steps = [f"1 Declare: {a.name} — {w.name} ({plan.profile['label']}, perks: {perk_names(w)}) → {plan.target_name}."]
    heat, why = _attack_heat(plan, notes)
    waived = spend_action(work, a.id, heat, why, notes)
    if "vent_primed" in a.status:
        status = {k: v for k, v in rig_now(work, a.id).status.items() if k != "vent_primed"}
        rig_set(work, a.id, "status", status)
    if not plan.in_range:
        steps.append(f"2 Range: beyond {plan.profile['range']}\" — the attack fails (the action and heat are spent).")
        return _done(kind, f"{plan.target_name} is out of range: {a.name}'s {verb} fails", ctx, steps, notes, plan,
                     {"in_range": False, "hits": 0})
    steps.append(f"2 Range: within {plan.profile['range']}\".")
    steps.append(f"3 Line of sight: {SIGHT[facts.line_of_sight]}.")
    if w.has("limited_ammo"):
        left = w.ammo_left - 1
        work.set(("rigs", a.id, "weapons", w.id, "ammo_used"), w.ammo_used + 1,
                   f"{a.name}: {w.name} ammo left {w.ammo_left} → {left}")
    if eng.settings.reload_after_firing and not w.has("melee"):
        work.set(("rigs", a.id, "weapons", w.id, "loaded"), False, f"{a.name}: {w.name} fired, empty")

    if plan.target is not None and plan.target.prepare_tokens:
        tokens = list(plan.target.prepare_tokens)
        steps.append(f"4 Prepare tokens on {plan.target.name}: {len(tokens)} ({', '.join(tokens)}).")
        if facts.reveal_token:
            tokens.remove(facts.reveal_token)
            rig_set(work, plan.target.id, "prepare_tokens", tokens,
                           f"{plan.target.name}: {facts.reveal_token} token revealed")
            notes.append(f"{plan.target.name} reveals {facts.reveal_token}: the umpire applies its effect.")

    storage = a.gear("reroll_missed_hits") if facts.use_advanced_ammo_storage else None
    values, hits, used_storage = _to_hit(ctx, plan, storage is not None)
    if used_storage:
        work.set(("rigs", a.id, "equipment", storage.key, "used"), True)
        work.set(("rigs", a.id, "equipment", storage.key, "discarded"), True,
                   f"{a.name}: Advanced Ammo Storage discarded")
    steps.append(f"4 To hit: {plan.rof} D6 needing {min(max(plan.effective_aim, 1), 6)}+ (Aim {a.aim}, ACC "
                 f"{sum(m.amount for m in plan.acc):+d}; a 6 always hits): {' '.join(map(str, values))} → "
                 f"{hits} hit{'s' if hits != 1 else ''}.")
    extra, extra_why = ones_heat(w, values)
    if extra and not waived:
        raise_heat(work, a.id, extra, extra_why)
        notes.append(f"{extra_why}: +{extra} heat to {a.name}.")

    if hits == 0:
        steps.append("5–8: no hits, nothing more happens.")
        return _done(kind, f"{a.name}'s {verb} on {plan.target_name} misses", ctx, steps, notes, plan,
                     {"in_range": True, "hits": 0, "to_hit": values})

    impacts = _resolve_hits(ctx, plan, hits, steps)
    _splash(ctx, plan, hits, steps)
    summary = f"{a.name}'s {verb} hits {plan.target_name} {hits} time{'s' if hits != 1 else ''}"
    dealt = sum(i["damage"] for i in impacts)
    summary += f": {dealt} damage" if dealt else ": no damage"
    return _done(kind, summary, ctx, steps, notes, plan,
                 {"in_range": True, "hits": hits, "to_hit": values, "impacts": impacts})


def _resolve_hits(ctx: DamageContext, plan: Plan, hits: int, steps: list[str]) -> list[dict]:
    f, w = plan.facts, plan.weapon
    impacts = []
    ablative = plan.target.gear("ignore_attack_damage") if f.target_uses_ablative_plating else None
    per_hit_perks = engagement_now(ctx.work).settings.on_hit_perks_per == "hit"
    if plan.target is not None and not per_hit_perks:
        effects = on_hit_effects(ctx, w, plan.target.id)
        if effects:
            steps.append("5 Perks on hit: " + " ".join(e.line for e in effects))
    ignored = 0
    for n in range(1, hits + 1):
        if plan.target is not None and rig_now(ctx.work, plan.target.id).destroyed:
            steps.append(f"Hit {n}: {plan.target.name} is already destroyed.")
            break
        if plan.objective is not None and engagement_now(ctx.work).objective(plan.objective.id).destroyed:
            steps.append(f"Hit {n}: {plan.objective.name} is already destroyed.")
            break
        if plan.target is not None and per_hit_perks:
            for effect in on_hit_effects(ctx, w, plan.target.id):
                steps.append(f"   Hit {n}: {effect.line}")
        location = None
        if plan.target is not None:
            location = plan.called or roll_location(ctx, plan.target.name, plan.target.player)
            how = "called" if plan.called else f"rolled {ctx.rolled[-1].value}"
            steps.append(f"6 Hit {n} location: {LOCATION_LABELS[location]} ({how}).")
        imp = impact_roll(ctx, plan.profile["str"], plan.impact_mods, plan.thresholds, location,
                          w.has("armour_piercing"), w.has("flak"))
        steps.append(f"7 {imp.line(plan.target_name)}.")
        impacts.append({"location": location, "die": imp.die, "total": imp.total, "grade": imp.grade,
                        "damage": imp.damage})
        if imp.damage == 0:
            continue
        if ablative is not None:
            ignored += imp.damage
            steps.append(f"8 Ablative Armour Plating: {imp.damage} damage ignored.")
            continue
        if plan.target is not None:
            damage_rig(ctx, plan.target.id, location, imp.damage, f"{w.name} hit")
        else:
            damage_objective(ctx, plan.objective.id, imp.damage)
        steps.append(f"8 {imp.damage} damage dealt.")
    if ablative is not None and ignored:
        ctx.work.set(("rigs", plan.target.id, "equipment", ablative.key, "used"), True)
        ctx.work.set(("rigs", plan.target.id, "equipment", ablative.key, "discarded"), True,
                       f"{plan.target.name}: Ablative Armour Plating discarded")
    return impacts


def _splash(ctx: DamageContext, plan: Plan, hits: int, steps: list[str]) -> None:
    w = plan.weapon
    for rig_id in plan.facts.explosive_also_hits:
        other = rig_now(ctx.work, rig_id)
        steps.append(f"Explosive {w.x('explosive')}: {other.name} takes {counted(hits, 'hit')} too.")
        for _ in range(hits):
            if rig_now(ctx.work, rig_id).destroyed:
                break
            loc = roll_location(ctx, other.name, other.player)
            imp = impact_roll(ctx, plan.profile["str"], plan.weapon_mods, other.armour, loc, w.has("armour_piercing"),
                              w.has("flak"))
            steps.append(f"   {imp.line(other.name)}.")
            if imp.damage:
                damage_rig(ctx, rig_id, loc, imp.damage, f"{w.name} blast")


def _done(kind: str, summary: str, ctx: DamageContext, steps: list[str], notes: list[str], plan: Plan,
          data: dict) -> Result:
    data = dict(data, effective_aim=plan.effective_aim, rof=plan.rof)
    # An attack that never reached the dice (out of range, out of reach) shows no modifiers: none applied.
    mods = tuple(plan.acc + plan.rof_mods + plan.impact_mods) if ctx.rolled else ()
    return Result(kind, summary, dice=tuple(ctx.rolled), modifiers=mods,
                  changes=ctx.work.changes, notes=tuple(steps + notes), data=data)


def resolve_fire_weapon(doc: dict, facts: AttackFacts, dice) -> Result:
    return resolve_attack(doc, facts, dice)


def resolve_called_shot(doc: dict, facts: CalledShotFacts, dice) -> Result:
    return resolve_attack(doc, facts, dice, called=facts.location)


def odds_fire_weapon(doc: dict, facts: AttackFacts) -> list[str]:
    return attack_odds(Plan(Engagement.from_doc(doc), facts, None))


def odds_called_shot(doc: dict, facts: CalledShotFacts) -> list[str]:
    return attack_odds(Plan(Engagement.from_doc(doc), facts, facts.location))


FIRE_WEAPON = ActionSpec("fire_weapon", "Fire Weapon", AttackFacts, resolve_fire_weapon, odds_fire_weapon)
CALLED_SHOT = ActionSpec("called_shot", "Called Shot", CalledShotFacts, resolve_called_shot, odds_called_shot)
