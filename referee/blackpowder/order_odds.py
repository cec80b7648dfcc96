"""The exact chances of an order test before it is rolled: each number of moves, a failure and a
blunder, re-rolls included.
"""
from __future__ import annotations

from functools import lru_cache

import icepool

from ..core.odds import Chances
from .blunders import BLUNDER, FAIL, OUTCOME_LABELS
from .model import Battle
from .order_tests import OrderPlan, prepare_order

# --- exact odds ----------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def outcome_distribution(plan: OrderPlan) -> icepool.Die:
    """The chance of each outcome (BLUNDER, FAIL, 1, 2, 3) with the declared re-rolls. It depends
    only on the plan (a frozen record of the rating and what changes the roll), so each plan's is
    worked out once: an army has a few ratings, and the form asks again at every change."""
    two_d6 = icepool.d6 + icepool.d6
    single = two_d6.map(plan.classify)
    fresh = single.map(lambda o: single if o == 3 else o) if plan.hesitant else single
    if plan.general_reroll:
        return fresh.map(lambda o: fresh if o in (FAIL, BLUNDER) else o)
    if plan.decisive_reroll:
        second = fresh.map(lambda o: (FAIL if plan.diffident else BLUNDER) if o == FAIL else o)
        return fresh.map(lambda o: second if o == FAIL else o)
    return fresh


def odds_lines(plan: OrderPlan) -> list[str]:
    die = outcome_distribution(plan)
    shown = [o for o in (FAIL, 1, 2, 3, BLUNDER) if die.probability(o) > 0]
    lines: list[str] = [f"{OUTCOME_LABELS[o]}: {percent(die.probability(o))}" for o in shown]
    lines[0] = Chances(lines[0], [(OUTCOME_LABELS[o], die.probability(o)) for o in shown], "Order test")
    lines.append(f"At least 1 move: {percent(die.probability('>=', 1))} (rating {plan.rating})")
    return lines


def percent(p) -> str:
    return f"{float(p) * 100:.1f}%"


def order_odds(battle: Battle, unit_ids: list[str], **kw) -> list[str]:
    """Exact chances of each outcome for an order test with the same facts as ``order_test``."""
    kw.setdefault("order", "move")
    defaults = dict(distance_steps=0, enemy_within_12=False, on_road=False, general_present=False,
                    use_general_reroll=False, use_decisive_reroll=False, purpose="order",
                    general_within_12=False, charge_target_in_range=False)
    return odds_lines(prepare_order(battle, unit_ids, **{**defaults, **kw}).plan)


def pass_chance(battle: Battle, unit_ids: list[str], **kw) -> float:
    """The chance an order with these facts gives at least one move (the Foe weighs orders by it)."""
    kw.setdefault("order", "move")
    defaults = dict(distance_steps=0, enemy_within_12=False, on_road=False, general_present=False,
                    use_general_reroll=False, use_decisive_reroll=False, purpose="order",
                    general_within_12=False, charge_target_in_range=False)
    return float(outcome_distribution(prepare_order(battle, unit_ids, **{**defaults, **kw}).plan).probability(">=", 1))
