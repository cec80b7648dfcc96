"""What the Of Oil and Iron Foe weighs, from the engine's own odds: the chance a Heat Threshold
roll does harm, and each way of firing at a target (a plain attack or a Called Shot at the most
damaged location) by its chance of a catastrophic result and its expected damage. Pure: no Flask,
no database, no ``random``.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ..core.errors import RuleError
from .attacks import AttackFacts, Plan
from .engagement_rules import WEIGHT_CLASSES
from .heat import heat_roll_modifiers, heat_row
from .model import LOCATIONS, Engagement, Rig
from .odds import LOCATION_CHANCE, catastrophic_chance, hit_count_dist, impact_damage_dist
from .offers import weapon_unready
from .perks import firing_heat

# The chance of a harmful Heat Threshold roll the Foe will not risk, by difficulty.
HEAT_RISK = {"easy": 0.5, "normal": 0.35, "hard": 0.2}
# Where overflow damage goes, the Engine last: the Foe's choice for its own Rigs, and its default
# for the player's (who may overrule it).
OVERFLOW = ("hull", "arms", "legs", "engine")
# The distance answers, as the attack form words them, with the farthest inches each may be.
DISTANCE_INCHES = {"melee": 1, "close": 6, "mid": 10, "far": 99}


def harmful_heat_chance(rig: Rig, heat: int) -> float:
    """The chance a Heat Threshold roll at ``heat`` gives anything but "nothing happens" (0 when
    the Rig would not be above its threshold), read off the engine's heat table."""
    if heat <= rig.heat_threshold:
        return 0.0
    probe = replace(rig, heat=heat)
    bonus = sum(m.amount for m in heat_roll_modifiers(probe))
    return sum(1 for face in range(1, 13) if heat_row(face + bonus)[0] != "nothing") / 12


def most_damaged_location(eng: Engagement, target: Rig, arc: str) -> str | None:
    """The location with the least structure left for its size, not yet lost (never the Engine
    from the front arc, which the rules forbid calling)."""
    options = [loc for loc in LOCATIONS if target.structure[loc] > 0 and not target.is_catastrophic(loc)
               and not (loc == "engine" and arc == "front")]
    if not options:
        return None
    return min(options, key=lambda loc: (Fraction(target.structure[loc], max(1, target.structure_max[loc])),
                                         LOCATIONS.index(loc)))


def ready_weapons(rig: Rig) -> list:
    return [w for w in rig.weapons.values() if weapon_unready(w) is None]


def weapon_range(w) -> int:
    return max(int(p.get("range", 0) or 0) for p in w.profiles) if w.profiles else 0


def shots(eng: Engagement, rig: Rig, target: Rig, distance: str, arc: str) -> list[dict]:
    """Every way the Rig may fire at the target now, each with its facts and the engine's odds,
    best first (catastrophic chance, then expected damage)."""
    out = []
    called_at = most_damaged_location(eng, target, arc)
    longest = max((weapon_range(w) for w in ready_weapons(rig)), default=0)
    for w in ready_weapons(rig):
        # "Far" is over 10" but within the Rig's longest reach: only the longest weapons reach it.
        reach = weapon_range(w) >= longest if distance == "far" else DISTANCE_INCHES[distance] <= weapon_range(w)
        if not reach and not w.has("melee") or (w.has("melee") and distance != "melee"):
            continue
        base = {"rig": rig.id, "weapon": w.id, "target": target.id, "in_front_arc": True, "in_range": True,
                "distance": distance, "line_of_sight": "clear", "target_arc": arc, "overflow_to": list(OVERFLOW)}
        for called in (None, called_at) if not w.has("full_auto") and called_at else (None,):
            try:
                plan = Plan(eng, AttackFacts(**base), called)
            except RuleError:
                continue
            hits = hit_count_dist(plan.rof, plan.effective_aim, w, False)
            modifier = sum(m.amount for m in plan.impact_mods)
            damage = impact_damage_dist(plan.profile["str"], modifier, plan.thresholds, w.has("armour_piercing"),
                                        w.has("flak"))
            where = {called: Fraction(1)} if called else LOCATION_CHANCE
            cat = float(catastrophic_chance(hits, damage, target.structure, where))
            expected = float(sum(n * p for n, p in hits.items()) * sum(d * p for d, p in damage.items()))
            out.append({"weapon": w, "called": called, "catastrophic": cat, "expected": expected,
                        "heat": firing_heat(w)[0],
                        "action": "called_shot" if called else "fire_weapon",
                        "facts": {**base, "location": called} if called else base})
    out.sort(key=lambda s: (-round(s["catastrophic"], 4), -round(s["expected"], 4), s["called"] is not None))
    return out


def objective_holders(eng: Engagement) -> set[str]:
    """The Rigs the players reported within scoring range of an objective when the last round was
    scored (``score_round``): what the game holds, so the Foe reads it rather than asks."""
    return set((eng.doc.get("objective_rigs") or {}).get("rigs") or ())


def target_order(eng: Engagement, player: str) -> list[Rig]:
    """The enemy Rigs in the Foe's order of preference: the High Value Target or an objective
    holder, then the most damaged, then the heaviest class, then the squadron's own order."""
    enemies = [r for r in eng.rigs.values() if r.player != player and r.in_play]
    holders = objective_holders(eng)

    def left(r: Rig) -> Fraction:
        return Fraction(sum(r.structure.values()), max(1, sum(r.structure_max.values())))
    order = {r.id: i for i, r in enumerate(enemies)}
    return sorted(enemies, key=lambda r: (not (r.hvt or r.id in holders), left(r), -WEIGHT_CLASSES.index(r.weight_class)
                                          if r.weight_class in WEIGHT_CLASSES else 0, order[r.id]))
