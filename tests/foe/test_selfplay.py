"""Referee playing itself (issue 50): the simulated table answers the Foe truthfully from its
positions, and whole games played by the Foe on both sides end with no exception, no refusal and
every invariant kept (the log replays to the document, undoing it gives the first one, the same
seed the same game). A short property run: a few games of a few scenarios and engagements; the
long run is ``make selfplay``."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.blackpowder import GAME
from referee.blackpowder.foe import brigade_decision
from referee.blackpowder.model import Battle
from referee.core.dice import SeededDice
from referee.core.errors import RuleError
from referee.core.foe import CANT_TELL, FoeSettings, Question, band, pick, run
from referee.data.scenarios import new_battle_from_scenario
from referee.selfplay.blackpowder_play import play_battle
from referee.selfplay.blackpowder_table import BlackPowderTable
from referee.selfplay.command import main
from referee.selfplay.lone_player import engagement
from referee.selfplay.match import Match, Outcome
from referee.selfplay.oilandiron_play import play_engagement
from referee.selfplay.oilandiron_table import OilAndIronTable, distance_band
from referee.selfplay.table import Spot, arc_of, band_answer
from tests.foe._bp_play import act

LEVELS = st.sampled_from(["easy", "normal", "hard"])


def clean(outcome: Outcome) -> None:
    assert not outcome.exceptions, outcome.exceptions
    assert not outcome.refused, outcome.refused
    assert not outcome.invariant_failures, outcome.invariant_failures
    assert outcome.finished and outcome.winner is not None
    assert outcome.unanswered == 0  # the table knew every question the Foe put


# --- whole games, every invariant --------------------------------------------------------------

@pytest.mark.parametrize("scenario", ["demo", "hougoumont"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # a whole game is slow to shrink: its seed says it all
@given(seed=st.integers(1, 10_000), blue=LEVELS, red=LEVELS)
def test_a_battle_played_by_the_foe_on_both_sides_ends_and_keeps_every_invariant(scenario, seed, blue, red):
    outcome = play_battle(scenario, seed, {"blue": blue, "red": red}, repeat_check=True)
    clean(outcome)
    assert outcome.turns <= 12 and outcome.steps > 10
    assert all(n >= 0 for n in outcome.losses.values())


@pytest.mark.parametrize("kind", ["iron_clash", "point_of_control", "supply_airdrop", "hold_the_line"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # a whole game is slow to shrink: its seed says it all
@given(seed=st.integers(1, 10_000), first=LEVELS, second=LEVELS)
def test_an_engagement_played_by_the_foe_on_both_sides_ends_and_keeps_every_invariant(kind, seed, first, second):
    outcome = play_engagement(kind, seed, {"p1": first, "p2": second}, repeat_check=True)
    clean(outcome)
    assert 1 <= outcome.turns <= 6


def test_the_log_check_catches_a_document_the_log_does_not_give():
    outcome = play_battle("demo", 3, {"blue": "normal", "red": "normal"})
    clean(outcome)
    doc = new_battle_from_scenario("demo")
    match = Match(GAME, doc, 3, Outcome(GAME.name, "demo", 3, {}))
    match.act("foe_settings", {"side": "blue"})
    match.doc = {**match.doc, "turn": 5}  # changed behind the log's back
    assert match.check_log() == ["the log does not replay to the same document",
                                 "undoing every entry does not give the starting document"]


# --- the Foe handed either side ---------------------------------------------------------------

def test_each_side_keeps_the_difficulty_it_was_declared_with():
    doc = new_battle_from_scenario("demo")
    doc, _ = act(doc, "foe_settings", {"side": "red", "difficulty": "easy", "seed": 4}, SeededDice(0))
    doc, _ = act(doc, "foe_settings", {"side": "blue", "difficulty": "hard", "seed": 3}, SeededDice(0))
    doc["foe"] = {**doc["foe"], "decided": [{"at": [1, "blue", "command"], "piece": "phase", "rung": "x"}]}
    doc, _ = act(doc, "foe_settings", {"side": "red", "difficulty": "easy", "seed": 4}, SeededDice(0))
    assert FoeSettings.of(doc) == FoeSettings("red", "easy", "player", 4)
    with pytest.raises(RuleError, match="declared before the game"):
        act(doc, "foe_settings", {"side": "red", "difficulty": "hard", "seed": 4}, SeededDice(0))


# --- a broken brigade, found by the self-played battles ----------------------------------------

def test_a_broken_brigade_is_never_ordered_forward_even_with_the_enemy_in_reach():
    doc = new_battle_from_scenario("quatre-bras")
    doc, _ = act(doc, "foe_settings", {"side": "blue", "difficulty": "hard"}, SeededDice(0))
    battle = Battle.from_doc(doc)
    b = battle.brigades_of_side("blue")[0]
    doc["brigades"] = {**doc["brigades"], b.id: {**doc["brigades"][b.id], "broken": True}}
    battle = Battle.from_doc(doc)
    settings = FoeSettings.of(doc)
    for near, rung in (("6", "retire (brigade broken)"), ("beyond", "hold (brigade broken)")):
        answers: dict[str, str] = {}
        found = run(lambda a: brigade_decision(a, doc, battle, settings, battle.brigades[b.id]), answers)
        while isinstance(found, Question):
            values = [v for v, _ in found.options if v != CANT_TELL]
            answers[found.key] = near if found.kind == "band" else values[0]
            found = run(lambda a: brigade_decision(a, doc, battle, settings, battle.brigades[b.id]), answers)
        assert found.rung == rung
        assert not any(p.action == "charge" or p.facts.get("order") in ("move", "charge") for p in found.plan)


# --- the table measures truthfully -------------------------------------------------------------

def test_bands_and_arcs_are_read_as_a_tape_reads_them():
    q = band("x:near", "How far?")
    assert [band_answer(q.options, d) for d in (0, 6, 6.1, 24, 25, None)] == ["6", "6", "12", "24", "beyond", "none"]
    custom = (("36", "Within 36\""), ("48", "Within 48\""), ("beyond", "Beyond"))
    assert band_answer(custom, 40) == "48"
    me = Spot(0, 0, 90)
    assert [arc_of(me, Spot(x, y, 0)) for x, y in ((0, 5), (5, 1), (0, -5))] == ["front", "side", "rear"]
    far = (("melee", "Within 1\""), ("close", "Under 6\""), ("mid", "6\" to 10\""),
           ("far", "Over 10\", within 24\""), ("beyond", "Beyond 24\""))
    assert [distance_band(far, d) for d in (0.5, 5, 10, 20, 30)] == ["melee", "close", "mid", "far", "beyond"]


def test_the_black_powder_table_names_the_nearest_enemy_and_its_brigade():
    doc = new_battle_from_scenario("demo")
    table = BlackPowderTable(doc)
    battle = Battle.from_doc(doc)
    mine = battle.brigades_of_side("blue")[0]
    lead = table.lead(battle, mine.id)
    enemies = [u for u in battle.units_of_side("red") if u.in_play]
    target = enemies[-1]
    for u in enemies:  # every enemy far off but one, 5" in front of the lead
        table.spots[u.id] = Spot(1, 47, 270)
    here = table.spots[lead.id]
    table.spots[target.id] = Spot(here.x, here.y + 5, 270)
    near = table.answer(doc, band(f"{mine.id}:near", "?"), {})
    which = table.answer(doc, pick(f"{mine.id}:which", "?", [(b.id, b.name) for b in
                                                              battle.brigades_of_side("red")]), {})
    assert (near, which) == ("6", target.brigade)
    reach = pick(f"{mine.id}:reach", f"Would a charge by {lead.name} reach {target.name}? If so, which face?",
                 [("front", "Front"), ("flank", "Flank"), ("rear", "Rear"), ("no", "Out of reach")])
    assert table.answer(doc, reach, {}) == "front"  # it faces the lead: the charge strikes its front
    table.spots[target.id] = Spot(here.x, here.y + 5, 90)
    assert table.answer(doc, reach, {}) == "rear"


def test_the_oil_and_iron_table_finds_the_first_enemy_in_the_front_arc():
    doc = engagement("iron_clash", "p2")
    table = OilAndIronTable(doc)
    mine, theirs = "p1-r1", [r for r in doc["rigs"] if r.startswith("p2")]
    table.spots[mine] = Spot(18, 3, 90)
    table.spots[theirs[0]] = Spot(30, 3, 270)  # beside it: outside the front arc
    for rid in theirs[1:]:
        table.spots[rid] = Spot(18, 11, 270)  # 8" straight ahead
    q = pick(f"{mine}:1:m0:target", "Which?", [(r, r) for r in theirs] + [("none", "None")])
    assert table.answer(doc, q, {}) == theirs[1]
    arc = pick(f"{mine}:1:arc:{theirs[1]}", "Which arc?", [("side", "Side"), ("rear", "Rear"), ("front", "Front")])
    assert table.answer(doc, arc, {}) == "front"


# --- the command ---------------------------------------------------------------------------------

def test_the_command_prints_a_summary_and_fails_on_an_unknown_scenario(capsys):
    assert main(["--game", "oilandiron", "--scenario", "iron_clash", "--battles", "2", "--seed", "7",
                 "--difficulty", "hard,easy", "--swap", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["battles"] == 2 and out["finished"] == 2
    assert out["exceptions"] == out["refused"] == out["invariant_failures"] == 0
    assert sum(out["wins"]["by_difficulty"].values()) == 2
    assert {"wins", "mean_turns", "mean_losses", "games_per_second"} <= set(out)
    with pytest.raises(SystemExit, match="No blackpowder scenario named nowhere"):
        main(["--game", "blackpowder", "--scenario", "nowhere", "--battles", "1"])
