"""Exact chances for attacks, rams and barrages (icepool), from the same plan the resolution uses."""
from __future__ import annotations

from fractions import Fraction
from math import lcm

import icepool

from .damage import DAMAGE_BY_GRADE, grade
from .model import LOCATION_LABELS, LOCATIONS
from .perks import hits_from_die

LOCATION_CHANCE = {"hull": Fraction(4, 12), "arms": Fraction(3, 12), "legs": Fraction(3, 12),
                   "engine": Fraction(2, 12)}


def _dist(die: icepool.Die) -> dict:
    total = die.denominator()
    return {o: Fraction(q, total) for o, q in die.items()}


def impact_damage_dist(strength: int, modifier: int, thresholds: dict, armour_piercing: bool,
                       flak: bool) -> dict[int, Fraction]:
    """SP one hit takes: D6 (Flak re-rolls a 1 once; Armour Piercing adds D3 to a 6) + STR + modifiers."""
    die = icepool.d6
    if flak:
        die = die.reroll([1], depth=1)
    if armour_piercing:
        die = die.map(lambda v: v + icepool.d3 if v == 6 else v)
    dmg = (die + strength + modifier).map(
        lambda t: DAMAGE_BY_GRADE[grade(t, thresholds["direct"], thresholds["severe"], thresholds["critical"])])
    return _dist(dmg)


def hit_count_dist(rof: int, aim: int, weapon, reroll_misses: bool) -> dict[int, Fraction]:
    die = icepool.d6
    if reroll_misses:
        misses = [v for v in range(1, 7) if hits_from_die(v, aim, weapon) == 0]
        if misses:
            die = die.reroll(misses, depth=1)
    per_die = die.map(lambda v: hits_from_die(v, aim, weapon))
    return _dist(rof @ per_die)


def catastrophic_chance(hits: dict[int, Fraction], damage: dict[int, Fraction], structure: dict,
                        locations: dict[str, Fraction], only: str | None = None) -> Fraction:
    """Chance the hits bring a location to 0 SP (or strike one already lost), ignoring overflow
    (which only follows a catastrophic result anyway). ``only``: count that location alone."""
    # Exact, in whole numbers: each hit's (location, damage) outcomes weighed out of ``whole``, so
    # the chances after n hits are counts out of whole ** n, divided once per number of hits.
    chances = [(LOCATIONS.index(loc), loc, d, pl * pd) for loc, pl in locations.items() for d, pd in damage.items()]
    whole = lcm(*(p.denominator for *_, p in chances))
    outcomes = [(i, loc, d, int(p * whole)) for i, loc, d, p in chances if p]
    states: dict[tuple, int] = {tuple(0 for _ in LOCATIONS): 1}
    done, scale = 0, 1
    result = Fraction(0)
    for n in range(1, max(hits, default=0) + 1):
        nxt: dict[tuple, int] = {}
        done *= whole
        scale *= whole
        for state, w in states.items():
            for i, loc, d, wo in outcomes:
                top = structure[loc]
                now = state[i] + d
                hit_lost = d > 0 and top == 0
                reached = top > 0 and state[i] < top <= now
                if (hit_lost or reached) and (only is None or only == loc):
                    done += w * wo
                    continue
                key = state[:i] + (min(now, top),) + state[i + 1:]
                nxt[key] = nxt.get(key, 0) + w * wo
        states = nxt
        result += hits.get(n, Fraction(0)) * Fraction(done, scale)
    return result


def attack_odds(plan) -> list[str]:
    if not plan.in_range:
        return ["Out of range: the attack will fail (the action and heat are still spent)."]
    w = plan.weapon
    storage = plan.facts.use_advanced_ammo_storage and plan.attacker.gear("reroll_missed_hits") is not None
    hits = hit_count_dist(plan.rof, plan.effective_aim, w, storage)
    expected_hits = sum(n * p for n, p in hits.items())
    out = [f"At least one hit: {float(1 - hits.get(0, 0)):.1%}", f"Expected hits: {float(expected_hits):.2f}"]
    modifier = sum(m.amount for m in plan.impact_mods)
    damage = impact_damage_dist(plan.profile["str"], modifier, plan.thresholds, w.has("armour_piercing"), w.has("flak"))
    per_hit = sum(d * p for d, p in damage.items())
    out.append(f"Expected damage: {float(expected_hits * per_hit):.2f} SP")
    if plan.target is not None:
        if plan.called:
            p = catastrophic_chance(hits, damage, plan.target.structure, {plan.called: Fraction(1)})
            out.append(f"Catastrophic result to the {LOCATION_LABELS[plan.called]}: {float(p):.1%}")
        else:
            p = catastrophic_chance(hits, damage, plan.target.structure, LOCATION_CHANCE)
            out.append(f"A catastrophic result somewhere: {float(p):.1%}")
    else:
        left = plan.objective.structure
        p = catastrophic_chance(hits, damage, {"hull": left, "arms": 1, "legs": 1, "engine": 1},
                                {"hull": Fraction(1)}, only="hull")
        out.append(f"{plan.objective.name} destroyed: {float(p):.1%}")
    return out
