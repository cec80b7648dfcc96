"""Exact chances for attacks, rams and barrages (icepool), from the same plan the resolution uses."""
from __future__ import annotations

from fractions import Fraction

import icepool

from ..core.odds import Chances, spread
from .damage import DAMAGE_BY_GRADE, grade
from .model import LOCATION_LABELS
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


def _survives(damage: dict[int, Fraction], top: int, most: int) -> list[Fraction]:
    """For k = 0..most hits on one location: the chance it is not brought to 0 SP (the damage of
    the k hits adds up to less than its ``top``; on a location already lost, no hit does damage)."""
    if top == 0:
        nil = damage.get(0, Fraction(0))
        return [nil ** k for k in range(most + 1)]
    out = [Fraction(1)]
    below = {0: Fraction(1)}  # damage so far, while still under ``top``
    for _ in range(most):
        nxt: dict[int, Fraction] = {}
        for total, p in below.items():
            for d, pd in damage.items():
                if total + d < top:
                    nxt[total + d] = nxt.get(total + d, Fraction(0)) + p * pd
        below = nxt
        out.append(sum(below.values(), Fraction(0)))
    return out


def catastrophic_chance(hits: dict[int, Fraction], damage: dict[int, Fraction], structure: dict,
                        locations: dict[str, Fraction], only: str | None = None) -> Fraction:
    """Chance the hits bring a location to 0 SP (or strike one already lost), ignoring overflow
    (which only follows a catastrophic result anyway). ``only``: count that location alone.

    Each hit picks its location on its own, so n hits fall k1, k2, ... on the locations with the
    multinomial chance, and each location survives its k hits on its own (``_survives``). The
    chance none is brought down after n hits is n! times the x^n coefficient of the product, over
    the locations, of sum_k p^k survive(k) / k! x^k: some hundred products of fractions for a ROF 6
    Full Auto burst with Sustained Fire (16 hits), where walking every combination of the four
    locations' damage took 26-103 ms."""
    most = max((n for n, p in hits.items() if p), default=0)
    if most == 0:
        return Fraction(0)
    product = [Fraction(1)] + [Fraction(0)] * most
    factorial = [1]
    for k in range(1, most + 1):
        factorial.append(factorial[-1] * k)
    for loc, p in locations.items():
        if not p:
            continue
        survive = _survives(damage, structure[loc], most) if only is None or only == loc else [Fraction(1)] * (most + 1)
        series = [p ** k * survive[k] / factorial[k] for k in range(most + 1)]
        product = [sum((product[i] * series[n - i] for i in range(n + 1)), Fraction(0)) for n in range(most + 1)]
    return sum((p * (1 - product[n] * factorial[n]) for n, p in hits.items() if n > 0), Fraction(0))


def attack_odds(plan) -> list[str]:
    if not plan.in_range:
        return ["Out of range: the attack will fail (the action and heat are still spent)."]
    w = plan.weapon
    storage = plan.facts.use_advanced_ammo_storage and plan.attacker.gear("reroll_missed_hits") is not None
    hits = hit_count_dist(plan.rof, plan.effective_aim, w, storage)
    expected_hits = sum(n * p for n, p in hits.items())
    out = [f"At least one hit: {float(1 - hits.get(0, 0)):.1%}",
           Chances(f"Expected hits: {float(expected_hits):.2f}", spread(hits), "Hits")]
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
