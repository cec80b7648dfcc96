"""A Black Powder battle played by the Foe on both sides, from its first turn to its end: the turn
limit (the scenario's questions answered from the simulated table), or an army broken.

The side whose turn it is decides first; the other side then decides what is its to decide in
that phase (a combat it won, a round it fights). When neither has anything left, the table moves
the phase on, as the umpire taps Next phase.
"""
from __future__ import annotations

from ..blackpowder import GAME
from ..blackpowder.brigades import unit_is_lost
from ..blackpowder.clock import time_is_up
from ..blackpowder.foe import foe_step
from ..blackpowder.model import Battle
from ..blackpowder.victory import terms
from ..data import new_battle_from_scenario
from ..systems import BLACK_POWDER
from .blackpowder_table import BlackPowderTable
from .match import Match, Outcome, play_through, with_side

SIDES = ("blue", "red")
MOST_STEPS = 20000


def play_battle(scenario: str, seed: int, difficulty: dict[str, str], repeat_check: bool = False,
                check: bool = True) -> Outcome:
    doc = new_battle_from_scenario(scenario)
    outcome = Outcome(BLACK_POWDER, scenario, seed, dict(difficulty),
                      names={s: doc["sides"][s]["name"] for s in SIDES})
    match = Match(GAME, doc, seed, outcome)
    play_through(match, play, difficulty, check)
    outcome.turns = int(match.doc.get("turn", 0))
    battle = Battle.from_doc(match.doc)
    outcome.losses = {s: sum(1 for u in battle.units_of_side(s) if unit_is_lost(u)) for s in SIDES}
    if check and not outcome.exceptions:
        outcome.invariant_failures += match.check_log()
    if repeat_check and not outcome.exceptions:
        again = play_battle(scenario, seed, difficulty, check=False)
        if (again.winner, again.turns, again.steps) != (outcome.winner, outcome.turns, outcome.steps):
            outcome.invariant_failures.append("the same seed gave a different battle")
    return match.finish()


def play(match: Match, difficulty: dict[str, str], check: bool) -> None:
    for n, side in enumerate(SIDES):
        match.act("foe_settings", {"side": side, "difficulty": difficulty[side], "ties": "draw", "seed": match.seed + n})
    table = BlackPowderTable(match.doc)
    answer = table.answer
    for _ in range(MOST_STEPS):
        doc = match.doc
        if doc.get("ended"):
            match.outcome.winner = doc.get("winner") or "draw"
            return
        battle = Battle.from_doc(doc)
        if any(battle.sides[s].army_broken for s in SIDES) or time_is_up(battle):
            end(match, table, early=not time_is_up(battle))
            continue
        active = battle.active_side
        for side in (active, battle.enemy_of(active)):
            found, answers = match.ask(foe_step, with_side(doc, side), answer)
            if found is None:
                continue
            match.hand_to(side)
            before = match.doc
            if check:
                broken_forward(match, battle, found)
            result = match.decide(found, answers)
            if result is not None:
                table.carry_out(before, match.doc, found, result)
            break
        else:
            before = match.doc
            if check:
                casualties_allowed(match, battle)
            table.carry_out(before, match.doc, None, match.act("next_phase", {}))
    raise RuntimeError(f"The battle did not end in {MOST_STEPS} steps.")


def end(match: Match, table: BlackPowderTable, early: bool) -> None:
    """The umpire ends the battle: the scenario's questions answered from the table, or the
    general rule when the scenario asks none."""
    if terms(match.doc):
        match.act("scenario_victory", {"answers": table.victory_answers(match.doc), "early": early})
    else:
        match.act("end_battle", {})


def broken_forward(match: Match, battle: Battle, decision) -> None:
    """A broken brigade is never ordered forward (an advance or a charge)."""
    bid = decision.piece.split(":", 1)[-1]
    brigade = battle.brigades.get(bid)
    forward = any(p.action == "charge" or p.facts.get("order") in ("move", "charge") for p in decision.plan)
    if brigade is not None and brigade.broken and forward:
        match.outcome.invariant_failures.append(f"turn {battle.turn}: broken {brigade.name} ordered forward "
                                                f"({decision.rung})")


def casualties_allowed(match: Match, battle: Battle) -> None:
    """As a phase ends, no unit has fewer than no casualties, and none still on the table and out of
    combat has more than its Stamina (a break test trims what passes it)."""
    for u in battle.units.values():
        if u.casualties < 0:
            match.outcome.invariant_failures.append(f"turn {battle.turn}: {u.name} has {u.casualties} casualties")
        elif u.in_play and not u.in_combat and u.stamina is not None and u.casualties > u.stamina:
            match.outcome.invariant_failures.append(
                f"turn {battle.turn} {battle.phase}: {u.name} has {u.casualties} casualties, Stamina {u.stamina}")
