"""Exact odds of a round of hand-to-hand before it is fought: hits, casualties, the result and the
chance each struck unit breaks.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import comb, gcd

from ..core.odds import Chances, spread
from .attacks import AttackPlan, formation_bonuses
from .break_tests import break_modifiers, commander_modifiers, outcome_chances
from .combat_plan import CombatRound, check_round, plans_for, supports_by_side
from .combat_records import SIDE_KEYS, combat_record, names, other
from .model import (
    Battle,
    Unit,
)
from .morale import all_save_modifiers
from .supports import reckon_supports

# --- odds ------------------------------------------------------------------------------------

# The distributions below depend only on the dice (how many, what they need, which re-roll), so a
# 6-against-6 fight of like battalions works each out once, not once per unit. They are plain
# counts over ``Ways``: a denominator and each outcome's count of ways, lowest outcome first.
# Exact: counts are whole numbers, turned into chances only when read (the tests hold them to
# icepool's distributions of the same dice).
Ways = tuple[int, tuple[tuple[int, int], ...]]
NOTHING: Ways = (1, ((0, 1),))


def _lowest(whole: int, counts: dict[int, int]) -> Ways:
    common = gcd(whole, *counts.values())
    return whole // common, tuple(sorted((k, n // common) for k, n in counts.items() if n))


@lru_cache(maxsize=256)
def _unit_hits(count: int, need: int, reroll_all: bool, reroll_one: bool) -> Ways:
    """A unit's hits from ``count`` dice needing ``need``: of n dice, k hit in comb(n, k) ·
    hit^k · miss^(n − k) ways; re-rolling every miss makes a die hit in 6h + (6 − h)h of 36 ways;
    re-rolling one miss gives a roll with a miss one more die's chance."""
    h = max(0, min(6, 7 - need))
    hit, faces = (h * 6 + (6 - h) * h, 36) if reroll_all else (h, 6)
    counts = {k: comb(count, k) * hit ** k * (faces - hit) ** (count - k) for k in range(count + 1)}
    whole = faces ** count
    if reroll_one and not reroll_all and count:
        again: dict[int, int] = {}
        for k, n in counts.items():
            if k < count:  # a miss among them: that die is rolled once more
                again[k] = again.get(k, 0) + n * (6 - h)
                again[k + 1] = again.get(k + 1, 0) + n * h
            else:
                again[k] = again.get(k, 0) + n * 6
        counts, whole = again, whole * 6
    return _lowest(whole, counts)


@lru_cache(maxsize=256)
def _unit_casualties(count: int, need: int, reroll_all: bool, reroll_one: bool, fail_faces: int) -> Ways:
    """A unit's hits, each saved unless its save die shows one of ``fail_faces`` faces of six:
    of k hits, c casualties in comb(k, c) · fail^c · pass^(k − c) of the 6^k ways the saves fall."""
    whole, hits = _unit_hits(count, need, reroll_all, reroll_one)
    most = max(k for k, _ in hits)
    out: dict[int, int] = {}
    for k, n in hits:
        scale = n * 6 ** (most - k)  # every number of hits counted over 6^most ways of the saves
        for c in range(k + 1):
            ways = scale * comb(k, c) * fail_faces ** c * (6 - fail_faces) ** (k - c)
            if ways:
                out[c] = out.get(c, 0) + ways
    return _lowest(whole * 6 ** most, out)


@lru_cache(maxsize=1024)
def _combine(a: Ways, b: Ways, sign: int = 1) -> Ways:
    """The distribution of a + b (``sign`` 1) or a − b (``sign`` −1), in lowest terms."""
    out: dict[int, int] = {}
    for x, wx in a[1]:
        for y, wy in b[1]:
            k = x + sign * y
            out[k] = out.get(k, 0) + wx * wy
    return _lowest(a[0] * b[0], out)


def _mean(ways: Ways) -> float:
    return float(Fraction(sum(k * w for k, w in ways[1]), ways[0]))


def _plan_key(p: AttackPlan) -> tuple:
    return (p.dice, p.need, bool(p.reroll_all), bool(p.reroll_one))


def side_hits(plans: list[AttackPlan]) -> Ways:
    return _sum_of(_unit_hits, tuple(sorted(_plan_key(p) for p in plans)))


def side_casualties(battle: Battle, plans: list[AttackPlan], target: Unit) -> Ways:
    """Exact casualties one side causes: its attacks with their re-rolls, then the target's saves.
    Freshly Raised rolls are left out (they happen at the table)."""
    keys = []
    for p in plans:
        if target.morale is None:
            fail_faces = 6
        else:
            bonus = sum(m.amount for m in all_save_modifiers(target, source="hand_to_hand", lancers=p.lancers))
            need = target.morale - bonus
            fail_faces = min(6, max(0, need - 1))
        keys.append(_plan_key(p) + (fail_faces,))
    return _sum_of(_unit_casualties, tuple(sorted(keys)))


@lru_cache(maxsize=256)
def _sum_of(each, keys: tuple) -> Ways:
    """The sum of one distribution per key (a side's units), kept: the same fight asked again as
    the form's answers change is added up once."""
    total = NOTHING
    for key in keys:
        total = _combine(total, each(*key))
    return total


@lru_cache(maxsize=64)
def _heavy(d3s: int, plus: int) -> Ways:
    """Heavy cavalry's extra casualties: a D3 for each unit that rolls one, 1 for each that adds one."""
    total: Ways = (1, ((plus, 1),))
    for _ in range(d3s):
        total = _combine(total, (3, ((1, 1), (2, 1), (3, 1))))
    return total


def odds_combat_round(doc: dict, facts: CombatRound) -> list[str]:
    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    sides = check_round(battle, rec, facts)
    plans = plans_for(battle, rec, facts)
    dice, fixed, lines = {}, {}, []
    caused, heavy_bonus, struck = {}, {}, {}
    support_bonus = {}
    for key, (by_quarter, blocked) in supports_by_side(facts).items():
        support_bonus[key] = reckon_supports(battle, [u.id for u in sides[key]], set(rec.get("flank_rear", [])),
                                             sides[key][0].side, by_quarter, blocked).bonus
    for key in SIDE_KEYS:
        chosen = facts.attackers_strike if key == "attackers" else facts.defenders_strike
        target = battle.unit(chosen) if chosen else sides[other(key)][0]
        cas = side_casualties(battle, plans[key], target)
        heavy = _heavy(sum(1 for p in plans[key] if p.heavy == "D3"), sum(1 for p in plans[key] if p.heavy == "+1"))
        dice[key] = _combine(cas, heavy)
        caused[key], heavy_bonus[key], struck[other(key)] = cas, heavy, target
        fixed[key] = sum(m.amount for m in formation_bonuses(battle, sides[key], sides[other(key)]))
        hits = side_hits(plans[key])
        spread_text = " · ".join(f"{k}: {p:.0%}" for k, p in _probabilities(hits) if p >= 0.005)
        lines.append(Chances(f"{names(sides[key])} hits — {spread_text} (expected {_mean(hits):.2f}); "
                             f"expected casualties after saves {_mean(cas):.2f}",
                             spread(dict(_probabilities(hits))), f"{names(sides[key])}: hits"))
    diff = _probabilities(_combine(dice["attackers"], dice["defenders"], -1))

    def chances(shift: int) -> str:
        win, draw = _win_draw(diff, shift)
        return f"{win:.0%} / {draw:.0%} / {1 - win - draw:.0%}"

    base = fixed["attackers"] - fixed["defenders"]
    lines.append(f"Chargers win / draw / lose before supports: {chances(base)}")
    if support_bonus["attackers"] or support_bonus["defenders"]:
        lines.append(f"With supports (+{support_bonus['attackers']} / +{support_bonus['defenders']}): "
                     f"{chances(base + support_bonus['attackers'] - support_bonus['defenders'])}")
    shift = base + support_bonus["attackers"] - support_bonus["defenders"]
    for key in SIDE_KEYS:
        unit = struck[key]
        chance = _struck_unit_breaks(battle, facts, unit, key, caused, heavy_bonus, shift)
        lines.append(f"{unit.name} tests and breaks: {chance:.1%}")
    return lines


def _win_draw(diff: list[tuple[int, float]], shift: int) -> tuple[float, float]:
    """The chargers' chance to win and to draw, from the difference of the sides' scores."""
    return sum(p for d, p in diff if d + shift > 0), sum(p for d, p in diff if d + shift == 0)


def chargers_chances(doc: dict, facts: CombatRound) -> tuple[float, float]:
    """The chargers' chance to win the round and to draw it, supports counted: what the odds
    line "Chargers win / draw / lose" says, as numbers (the Foe weighs a charge by it)."""
    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    sides = check_round(battle, rec, facts)
    plans = plans_for(battle, rec, facts)
    score, shift = {}, 0
    for key in SIDE_KEYS:
        chosen = facts.attackers_strike if key == "attackers" else facts.defenders_strike
        target = battle.unit(chosen) if chosen else sides[other(key)][0]
        heavy = _heavy(sum(1 for p in plans[key] if p.heavy == "D3"), sum(1 for p in plans[key] if p.heavy == "+1"))
        score[key] = _combine(side_casualties(battle, plans[key], target), heavy)
        by_quarter, blocked = supports_by_side(facts)[key]
        sign = 1 if key == "attackers" else -1
        shift += sign * sum(m.amount for m in formation_bonuses(battle, sides[key], sides[other(key)]))
        shift += sign * reckon_supports(battle, [u.id for u in sides[key]], set(rec.get("flank_rear", [])),
                                        sides[key][0].side, by_quarter, blocked).bonus
    return _win_draw(_probabilities(_combine(score["attackers"], score["defenders"], -1)), shift)


def _struck_unit_breaks(battle: Battle, facts: CombatRound, unit, key: str, caused: dict, heavy: dict,
                        shift: int) -> float:
    """Exact chance that the unit taking ``key``'s side's hits ends the round broken: it tests when
    its side loses, when the round is drawn and it is left shaken, or (Wavering) when it takes any
    casualty; the test counts the casualties just taken. Supporters' tests are left out."""
    if unit.has("Steady") and not unit.has_used("steady"):
        return 0.0
    extra = commander_modifiers(battle, unit,
                                commander_within_12=unit.id in facts.commander_within_12
                                or unit.id in facts.commander_with,
                                von_zieten_within_12=unit.id in facts.von_zieten_within_12)
    valiant = unit.has("Valiant") and not unit.has_used("valiant")
    shaken_after, breaks_after = _after_taking(unit, tuple(extra), valiant, unit.id in facts.cannot_retire,
                                               tuple(taken for taken, _ in caused[other(key)][1]))

    # This side loses when its own score is below the enemy's by more than the shift allows and
    # draws when it is level with it: the score it must beat is ``level`` (the chargers' shift
    # counts for them, against the defenders), so the chance of each is read off its distribution.
    own = _probabilities(_combine(caused[key], heavy[key]))
    scores = [score for score, _ in own]
    below = list(accumulate((p for _, p in own), initial=0.0))
    at = dict(own)
    chance = 0.0
    enemy_heavy = _probabilities(heavy[other(key)])
    for taken, p_taken in _probabilities(caused[other(key)]):
        for enemy_bonus, p_bonus in enemy_heavy:
            level = taken + enemy_bonus + (-shift if key == "attackers" else shift)
            lost = below[bisect_left(scores, level)]
            drawn = at.get(level, 0.0)
            tests = lost + (drawn if shaken_after[taken] else 0.0)
            if unit.has("Wavering") and taken > 0:
                tests = 1.0
            chance += p_taken * p_bonus * tests * breaks_after[taken]
    return chance


@lru_cache(maxsize=256)
def _after_taking(unit: Unit, extra: tuple, valiant: bool, cannot_retire: bool,
                  takens: tuple[int, ...]) -> tuple[dict[int, bool], dict[int, float]]:
    """For each number of casualties the unit might take this round: whether it is then shaken,
    and its chance to break if it tests. Kept: the form asks again as its other answers change."""
    shaken_after, breaks_after = {}, {}
    for taken in takens:
        hurt = replace(unit, casualties=unit.casualties + taken)
        shaken_after[taken] = hurt.shaken
        bonus = sum(m.amount for m in break_modifiers(hurt, extra_modifiers=extra))
        breaks_after[taken] = outcome_chances(hurt, "hand_to_hand", bonus, valiant=valiant,
                                              cannot_retire=cannot_retire)["breaks"]
    return shaken_after, breaks_after


def _probabilities(ways: Ways) -> list[tuple[int, float]]:
    """Each outcome with its chance, lowest outcome first."""
    whole = ways[0]
    return [(outcome, n / whole) for outcome, n in ways[1]]
