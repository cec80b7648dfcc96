"""Exact odds of a shot before it is rolled: hits, casualties after saves, a 6 that disorders, and
the chance the target must test and breaks. Every distribution that depends only on the dice is
kept, and the joint chances are counted in whole numbers over them.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from math import lcm

import icepool

from ..core.odds import Chances, spread
from ..core.results import total
from .break_tests import OUTCOMES, break_modifiers, commander_modifiers, outcome_fractions
from .model import Battle
from .morale import all_save_modifiers, casualty_weights, untested_stamina
from .shot_plan import ShootFacts, ShotPlan, break_test_reasons, fact, plan_shot


def _face(need: int, rerolled: bool = False):
    """One to-hit die as a vector (hit, six, hit if it was the re-rolled die, six if so)."""
    faces = []
    for v in range(1, 7):
        h, s = int(v >= need), int(v == 6)
        faces.append(icepool.Vector((h, s, h if rerolled else 0, s if rerolled else 0)))
    return icepool.Die(faces)


def _hits_die(sharp_shooters: bool, poor_shooters: bool, count: int, need: int):
    """The exact (hits, sixes, ...) distribution of the to-hit dice with the re-roll rules."""
    face, fresh = _face(need), _face(need, rerolled=True)
    shot = count @ face
    if sharp_shooters:
        shot = shot.map(lambda v: v if v[0] == count else v + fresh)
    if poor_shooters:
        def poor(v):
            hits, sixes = v[0] - v[2], v[1] - v[3]  # the Sharp Shooters die is never re-rolled again
            if hits <= 0:
                return v
            drop = icepool.Vector((-1, 0, 0, 0)) if hits > sixes else icepool.Vector((-1, -1, 0, 0))
            return v + drop + face
        shot = shot.map(poor)
    return shot


@lru_cache(maxsize=256)
def _hit_weights(sharp_shooters: bool, poor_shooters: bool, count: int, need: int) -> tuple[int, tuple]:
    """``_hits_die`` as its denominator and ((hits, sixes, ...), ways) pairs, kept: they depend only
    on the dice and the re-roll rules, and every form asking for a shot's odds asks for one of a
    few dozen."""
    die = _hits_die(sharp_shooters, poor_shooters, count, need)
    return die.denominator(), tuple((tuple(v), q) for v, q in die.items())


def scenarios(plan: ShotPlan):
    """(weight, dice, need, shooter disordered by Terror) for each Freshly Raised result."""
    need = plan.target_score()
    if not plan.freshly_raised:
        return [(6, plan.dice, need)]
    return [(1, plan.dice, 6), (2, plan.dice, 6), (2, plan.dice, need), (1, plan.dice + 1, need)]


def outcome_odds(battle: Battle, plan: ShotPlan, facts) -> tuple["Joint", tuple[str, ...]]:
    """The exact joint chances of (hits, casualties, result code, target disordered) for the shot,
    where the code is 0 for no break test and 1 + the index of the test's outcome otherwise."""
    target = plan.target
    save_bonus = total(all_save_modifiers(target, plan.save_modifiers,
                                          source="artillery" if plan.by_artillery else "shooting"), "save")
    extra = commander_modifiers(battle, target,
                                commander_within_12=fact(facts, "target_commander_within_12", False),
                                von_zieten_within_12=fact(facts, "target_von_zieten_within_12", False))
    hit_by_art = plan.by_artillery or fact(facts, "target_hit_by_artillery", False)
    column = "hand_to_hand" if plan.closing_fire else "shooting"
    valiant = fact(facts, "use_valiant", True) and target.has("Valiant") and not target.has_used("valiant")
    steady = target.has("Steady") and not target.has_used("steady")
    cannot_retire = fact(facts, "target_cannot_retire", False)
    if target.stamina is not None:
        stamina_ways, stamina_whole = {target.stamina: 1}, 1
    else:  # untested: its Stamina is rolled when it first takes casualties
        stamina_ways, stamina_whole = {}, 6
        for r in range(1, 7):
            s = untested_stamina(r, target.size)
            stamina_ways[s] = stamina_ways.get(s, 0) + 1

    tests: dict[tuple, tuple[int, dict]] = {}

    def after_saves(sixes, casualties, stamina) -> tuple[int, dict]:
        """The denominator and (result code, disorders) -> ways, once the saves are made: the break
        test's outcomes, or no test. Worked out once for each way the saves can end."""
        if casualties == 0 or target.stamina is not None:
            stamina = target.stamina
        disorders = int(sixes > 0)
        key = (casualties, stamina, disorders)
        if key in tests:
            return tests[key]
        total_cas = target.casualties + casualties
        shaken = stamina is not None and total_cas >= stamina
        saves = {"casualties": casualties, "shaken": shaken, "became_shaken": shaken and not target.shaken,
                 "excess": 0 if stamina is None else max(0, total_cas - stamina),
                 "wavering_test": bool(casualties) and target.has("Wavering")}
        if not break_test_reasons(plan, saves):
            found = (1, {(0, disorders): 1})
        elif steady:  # the first break test is passed for certain
            found = (1, {(1, disorders): 1})
        else:
            tested = replace(target, casualties=total_cas, stamina=stamina, disordered=target.disordered or sixes > 0)
            bonus = total(break_modifiers(tested, hit_by_artillery=hit_by_art, extra_modifiers=extra))
            test = outcome_fractions(tested, column, bonus, valiant=valiant, cannot_retire=cannot_retire)
            whole = lcm(*(p.denominator for p in test.values()))
            found = (whole, {(1 + OUTCOMES.index(name), disorders): int(p * whole) for name, p in test.items() if p})
        tests[key] = found
        return found

    # The joint chances are added up over every way the dice fall: the to-hit dice and the saves
    # from kept distributions that depend only on the dice, the Stamina and the break test worked
    # out once for each way the saves can end. Exact: each way is counted in whole numbers over
    # the product of its denominators, and the counts become fractions once, at the end.
    ways: dict[tuple, int] = {}
    scenario_list = scenarios(plan)
    whole = sum(w for w, _, _ in scenario_list)
    for weight, count, need in scenario_list:
        hit_whole, hit_ways = _hit_weights(plan.sharp_shooters, plan.poor_shooters, count, need)
        for v, n_shot in hit_ways:
            cas_whole, cas_ways = casualty_weights(target, v[0], save_bonus)
            for c, n_cas in cas_ways:
                n = weight * n_shot * n_cas
                for s, n_stamina in stamina_ways.items():
                    test_whole, outcomes = after_saves(v[1], c, s)
                    of = whole * hit_whole * cas_whole * stamina_whole * test_whole
                    for (code, disorders), n_test in outcomes.items():
                        key = (v[0], c, code, disorders, of)
                        ways[key] = ways.get(key, 0) + n * n_stamina * n_test
    # Every way over one common denominator: whole-number counts throughout, a fraction per line.
    common = lcm(*{of for *_, of in ways})
    joint: dict[tuple, int] = {}
    for (*key, of), n in ways.items():
        key = tuple(key)
        joint[key] = joint.get(key, 0) + n * (common // of)
    return Joint(common, joint), OUTCOMES


class Joint:
    """The joint chances of (hits, casualties, result code, disorders): each a count of ways over
    ``whole``."""

    def __init__(self, whole: int, ways: dict[tuple, int]) -> None:
        self.whole, self.ways = whole, ways

    def chance(self, where) -> Fraction:
        return Fraction(sum(n for k, n in self.ways.items() if where(k)), self.whole)

    def marginal(self, at: int) -> dict[int, Fraction]:
        """The chance of each value of one part of the key (hits 0…N)."""
        counts: dict[int, int] = {}
        for k, n in self.ways.items():
            counts[k[at]] = counts.get(k[at], 0) + n
        return {v: Fraction(n, self.whole) for v, n in counts.items()}

    def mean(self, at: int) -> Fraction:
        return Fraction(sum(n * k[at] for k, n in self.ways.items()), self.whole)


def odds_shoot(doc: dict, facts: ShootFacts) -> list[str]:
    """The odds line of a shot, as the form shows it."""
    battle = Battle.from_doc(doc)
    plan = plan_shot(battle, facts.shooter, facts.target, facts)
    joint, outcomes = outcome_odds(battle, plan, facts)
    lines = [f"At least one hit: {float(joint.chance(lambda k: k[0] >= 1)):.1%}",
             Chances(f"Expected hits: {float(joint.mean(0)):.2f}", spread(joint.marginal(0)), "Hits"),
             f"Expected casualties after saves: {float(joint.mean(1)):.2f}",
             f"A 6 disorders {plan.target.name}: {float(joint.chance(lambda k: k[3] == 1)):.1%}"]
    must_test = float(joint.chance(lambda k: k[2] >= 1))
    if must_test:
        breaks = 1 + outcomes.index("breaks")
        lines.append(f"{plan.target.name} must take a break test: {must_test:.1%}")
        lines.append(f"{plan.target.name} breaks: {float(joint.chance(lambda k: k[2] == breaks)):.1%}")
    else:
        # Said outright, so a missing line is never read as "not worked out".
        lines.append(f"{plan.target.name} breaks: 0% (this shot cannot force a break test)")
    if plan.rocket:
        lines.append(f"Rocket misfires and destroys its own team: {float(Fraction(5, 6) / 36):.1%}")
    return lines
