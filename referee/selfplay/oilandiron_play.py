"""An Of Oil and Iron engagement played by the Foe for both squadrons, from the first initiative
roll to its end: the last round, a squadron wiped out, or the engagement's scoring decided.

The player whose go it is decides first, then the other (a Heat Threshold roll of its own); the
table lands the supply drop and reports what each Rig holds when the round is scored, as the
players would.
"""
from __future__ import annotations

from ..data.oilandiron import load_engagements
from ..lists import example_lists
from ..lists.games import game_from_lists
from ..oilandiron import GAME
from ..oilandiron.engagements import needs_round_score
from ..oilandiron.foe import foe_step
from ..oilandiron.model import Engagement
from ..systems import OIL_AND_IRON
from .match import Match, Outcome, play_through, with_side
from .oilandiron_table import OilAndIronTable

PLAYERS = ("p1", "p2")
MOST_STEPS = 5000
SQUADRONS = ("example-sword-squadron", "example-sword-squadron")


def play_engagement(kind: str, seed: int, difficulty: dict[str, str], squadrons: tuple[str, str] = SQUADRONS,
                    repeat_check: bool = False, check: bool = True) -> Outcome:
    lists = example_lists()
    roles = next((tuple(e.roles) for e in load_engagements().engagements if e.key == kind and e.roles), None)
    doc = game_from_lists("Self-played", lists[squadrons[0]], lists[squadrons[1]], engagement_type=kind,
                          roles=roles)
    outcome = Outcome(OIL_AND_IRON, kind, seed, dict(difficulty),
                      names={p: doc["players"][p].get("name", p) for p in PLAYERS})
    match = Match(GAME, doc, seed, outcome)
    play_through(match, play, difficulty, check)
    eng = Engagement.from_doc(match.doc)
    outcome.turns = eng.round
    outcome.losses = {p: sum(1 for r in eng.rigs_of(p) if r.destroyed) for p in PLAYERS}
    if check and not outcome.exceptions:
        outcome.invariant_failures += match.check_log()
    if repeat_check and not outcome.exceptions:
        again = play_engagement(kind, seed, difficulty, squadrons, check=False)
        if (again.winner, again.turns, again.steps) != (outcome.winner, outcome.turns, outcome.steps):
            outcome.invariant_failures.append("the same seed gave a different engagement")
    return match.finish()


def play(match: Match, difficulty: dict[str, str], check: bool) -> None:
    for n, player in enumerate(PLAYERS):
        match.act("foe_settings", {"side": player, "difficulty": difficulty[player], "ties": "draw",
                                   "seed": match.seed + n})
    table = OilAndIronTable(match.doc)
    for _ in range(MOST_STEPS):
        doc = match.doc
        if doc.get("ended"):
            match.outcome.winner = doc.get("winner") or "draw"
            return
        eng = Engagement.from_doc(doc)
        if check:
            structure_kept(match, eng)
        rules = eng.rules
        if (rules and rules.airdrop and eng.round == rules.airdrop["round"] and eng.phase == "initiative"
                and "airdrop" not in eng.objectives):
            table.land(match.act("supply_airdrop", {}).dice[0].value)
            continue
        first = eng.current_player or PLAYERS[0]
        for player in (first, eng.other(first)):
            found, answers = match.ask(foe_step, with_side(doc, player), table.answer)
            if found is None:
                continue
            match.hand_to(player)
            before = match.doc
            result = match.decide(found, answers)
            if result is not None:
                table.carry_out(before, match.doc, found, result)
            break
        else:
            if eng.phase == "maintenance" and needs_round_score(eng):
                match.act("score_round", table.score(doc))
                continue
            raise RuntimeError(f"Round {eng.round}, {eng.phase}: neither Foe has anything to do, and the "
                               f"engagement has not ended.")
    raise RuntimeError(f"The engagement did not end in {MOST_STEPS} steps.")


def structure_kept(match: Match, eng: Engagement) -> None:
    """No location below no structure or above its most, no heat below none."""
    for rig in eng.rigs.values():
        for loc, sp in rig.structure.items():
            if sp < 0 or sp > rig.structure_max[loc]:
                match.outcome.invariant_failures.append(f"round {eng.round}: {rig.name}'s {loc} at {sp} SP")
        if rig.heat < 0:
            match.outcome.invariant_failures.append(f"round {eng.round}: {rig.name}'s heat at {rig.heat}")
