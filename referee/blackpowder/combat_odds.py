"""Exact odds of a round of hand-to-hand before it is fought: hits, casualties, the result and the
chance each struck unit breaks.
"""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from itertools import accumulate

from .attacks import AttackPlan, formation_bonuses
from .combat import CombatRound, _check_round, _supports_by_side, plans_for
from .combat_records import SIDE_KEYS, combat_record, names, other
from .model import (
    Battle,
    Unit,
)
from .supports import reckon_supports

# --- odds ------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _hit_die(need: int, reroll_all: bool):
    import icepool

    h = 7 - need
    if reroll_all:
        return icepool.Die({1: h * 6 + (6 - h) * h, 0: (6 - h) * (6 - h)})
    return icepool.Die({1: h, 0: 6 - h})


def unit_hits_die(p: AttackPlan):
    return _hits_die(p.dice, p.need, bool(p.reroll_all), bool(p.reroll_one))


# The distributions below depend only on the dice (how many, what they need, which re-roll), so a
# 6-against-6 fight of like battalions builds each once, not once per unit.
@lru_cache(maxsize=256)
def _hits_die(count: int, need: int, reroll_all: bool, reroll_one: bool):
    import icepool

    if not count:
        return icepool.Die([0])
    hits = count @ _hit_die(need, reroll_all)
    if reroll_one and not reroll_all:
        hits = hits.map(_one_more_try(count, _hit_die(need, False)))
    return hits


@lru_cache(maxsize=256)
def _casualties_die(count: int, need: int, reroll_all: bool, reroll_one: bool, fail_faces: int):
    import icepool

    fail = icepool.Die({1: fail_faces, 0: 6 - fail_faces})
    return _hits_die(count, need, reroll_all, reroll_one).map(_saves_failed(fail))


def _plan_key(p: AttackPlan) -> tuple:
    return (p.dice, p.need, bool(p.reroll_all), bool(p.reroll_one))


def side_hits_die(plans: list[AttackPlan]):
    return _sum_of(_hits_die, tuple(sorted(_plan_key(p) for p in plans)))


def side_casualties_die(battle: Battle, plans: list[AttackPlan], target: Unit):
    """Exact casualties one side causes: its attacks with their re-rolls, then the target's saves.
    Freshly Raised rolls are left out (they happen at the table)."""
    from .morale import all_save_modifiers

    keys = []
    for p in plans:
        if target.morale is None:
            fail_faces = 6
        else:
            bonus = sum(m.amount for m in all_save_modifiers(target, source="hand_to_hand", lancers=p.lancers))
            need = target.morale - bonus
            fail_faces = min(6, max(0, need - 1))
        keys.append(_plan_key(p) + (fail_faces,))
    return _sum_of(_casualties_die, tuple(sorted(keys)))


@lru_cache(maxsize=256)
def _sum_of(each, keys: tuple):
    """The sum of one distribution per key (a side's units), kept: the same fight asked again as
    the form's answers change is added up once."""
    import icepool

    total = icepool.Die([0])
    for key in keys:
        total = total + each(*key)
    return total


# icepool reads a mapping function's parameters, so the dice it needs are closed over, not defaults.
def _one_more_try(count: int, extra):
    return lambda k: k + extra if k < count else k


def _saves_failed(fail):
    return lambda k: k @ fail if k else 0


def odds_combat_round(doc: dict, facts: CombatRound) -> list[str]:
    import icepool

    battle = Battle.from_doc(doc)
    rec = combat_record(battle, facts.combat)
    sides = _check_round(battle, rec, facts)
    plans = plans_for(battle, rec, facts)
    dice, fixed, lines = {}, {}, []
    caused, heavy_bonus, struck = {}, {}, {}
    support_bonus = {}
    for key, (by_quarter, blocked) in _supports_by_side(facts).items():
        support_bonus[key] = reckon_supports(battle, [u.id for u in sides[key]], set(rec.get("flank_rear", [])),
                                             sides[key][0].side, by_quarter, blocked).bonus
    for key in SIDE_KEYS:
        chosen = facts.attackers_strike if key == "attackers" else facts.defenders_strike
        target = battle.unit(chosen) if chosen else sides[other(key)][0]
        cas = side_casualties_die(battle, plans[key], target)
        d3s = sum(1 for p in plans[key] if p.heavy == "D3")
        heavy = (d3s @ icepool.d(3) if d3s else icepool.Die([0])) + sum(1 for p in plans[key] if p.heavy == "+1")
        dice[key] = cas + heavy
        caused[key], heavy_bonus[key], struck[other(key)] = cas, heavy, target
        fixed[key] = sum(m.amount for m in formation_bonuses(battle, sides[key], sides[other(key)]))
        hits = side_hits_die(plans[key])
        spread = " · ".join(f"{k}: {p:.0%}" for k, p in _probabilities(hits) if p >= 0.005)
        lines.append(f"{names(sides[key])} hits — {spread} (expected {float(hits.mean()):.2f}); "
                     f"expected casualties after saves {float(cas.mean()):.2f}")
    diff = _probabilities(dice["attackers"] - dice["defenders"])

    def chances(shift: int) -> str:
        win = sum(p for d, p in diff if d + shift > 0)
        draw = sum(p for d, p in diff if d + shift == 0)
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


def _struck_unit_breaks(battle: Battle, facts: CombatRound, unit, key: str, caused: dict, heavy: dict,
                        shift: int) -> float:
    """Exact chance that the unit taking ``key``'s side's hits ends the round broken: it tests when
    its side loses, when the round is drawn and it is left shaken, or (Wavering) when it takes any
    casualty; the test counts the casualties just taken. Supporters' tests are left out."""
    from dataclasses import replace

    from .break_tests import break_modifiers, commander_modifiers, outcome_chances

    if unit.has("Steady") and not unit.has_used("steady"):
        return 0.0
    extra = commander_modifiers(battle, unit,
                                commander_within_12=unit.id in facts.commander_within_12
                                or unit.id in facts.commander_with,
                                von_zieten_within_12=unit.id in facts.von_zieten_within_12)
    valiant = unit.has("Valiant") and not unit.has_used("valiant")
    breaks_after: dict[int, float] = {}
    shaken_after: dict[int, bool] = {}
    for taken in caused[other(key)].outcomes():
        hurt = replace(unit, casualties=unit.casualties + taken)
        shaken_after[taken] = hurt.shaken
        bonus = sum(m.amount for m in break_modifiers(hurt, extra_modifiers=extra))
        breaks_after[taken] = outcome_chances(hurt, "hand_to_hand", bonus, valiant=valiant,
                                              cannot_retire=unit.id in facts.cannot_retire)["breaks"]

    # This side loses when its own score is below the enemy's by more than the shift allows and
    # draws when it is level with it: the score it must beat is ``level`` (the chargers' shift
    # counts for them, against the defenders), so the chance of each is read off its distribution.
    own = _probabilities(caused[key] + heavy[key])
    scores = [score for score, _ in own]
    below = list(accumulate((p for _, p in own), initial=0.0))
    at = dict(own)
    chance = 0.0
    for taken, p_taken in _probabilities(caused[other(key)]):
        for enemy_bonus, p_bonus in _probabilities(heavy[other(key)]):
            level = taken + enemy_bonus + (-shift if key == "attackers" else shift)
            lost = below[bisect_left(scores, level)]
            drawn = at.get(level, 0.0)
            tests = lost + (drawn if shaken_after[taken] else 0.0)
            if unit.has("Wavering") and taken > 0:
                tests = 1.0
            chance += p_taken * p_bonus * tests * breaks_after[taken]
    return chance


def _probabilities(die) -> list[tuple[int, float]]:
    """Each outcome with its chance, lowest outcome first."""
    whole = die.denominator()
    return [(outcome, q / whole) for outcome, q in sorted(die.items())]
