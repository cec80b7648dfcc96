"""A scenario's own victory, computed from the umpire's answers, with the general rule behind it."""
import pytest

from referee.blackpowder.model import Battle, RuleError
from referee.blackpowder.victory import SCENARIO_VICTORY, ScenarioVictory, decide
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes
from referee.data.scenarios import new_battle_from_scenario


def at_end(sid):
    doc = new_battle_from_scenario(sid)
    doc.update(turn=doc["turn_limit"], active_side="red", phase="hand_to_hand")
    return doc


def end(doc, **facts):
    result = SCENARIO_VICTORY.resolve(doc, ScenarioVictory(**facts), ScriptedDice([]))
    return apply_changes(doc, result.all_changes), result


@pytest.mark.parametrize("village, winner, reason", [
    ("blue", "blue", "French units are within 9\" of Saint-Amand and no Prussians are."),
    ("red", "red", "Prussian units are within 9\" of Saint-Amand and no French are."),
    ("both", None, "Both sides have units within 9\" of Saint-Amand."),
])
def test_ligny_is_decided_by_who_is_within_9_inches_of_saint_amand(village, winner, reason):
    found = decide(Battle.from_doc(at_end("ligny-saint-amand")), {"village": village})
    assert (found["winner"], found["reason"], found["by"]) == (winner, reason, "scenario")


def test_where_the_scenario_is_silent_the_general_rule_decides():
    doc = at_end("ligny-saint-amand")
    doc["brigades"]["blue-7th-division"]["broken"] = True
    found = decide(Battle.from_doc(doc), {"village": "neither"})
    assert found["by"] == "general" and found["winner"] == "red"
    assert found["reason"].startswith("No condition of the scenario was met: intact brigades")


def test_a_broken_army_decides_before_the_questions():
    doc = at_end("ligny-saint-amand")
    doc["sides"]["red"]["army_broken"] = True
    doc["first_army_broken"] = "red"
    found = decide(Battle.from_doc(doc), {"village": "red"})
    assert (found["winner"], found["by"]) == ("blue", "general")
    assert found["reason"] == "An army has broken: the Prussians army broke first"


def test_points_decide_and_the_allies_win_a_tie_at_quatre_bras():
    battle = Battle.from_doc(at_end("quatre-bras"))
    found = decide(battle, {"crossroads": "blue", "gemioncourt": "red", "bossu": "red", "pireaumont": "neither"})
    assert found["winner"] == "red" and found["reason"].startswith("Equal points (French 2 points, Allied Army 2 points)")
    found = decide(battle, {"crossroads": "blue", "gemioncourt": "blue", "bossu": "red", "pireaumont": "both"})
    assert (found["winner"], found["reason"]) == ("blue", "French 3 points, Allied Army 1 point")


def test_counts_and_thresholds_in_derlons_attack():
    battle = Battle.from_doc(at_end("derlons-attack"))
    assert decide(battle, {"beyond_lane": 3, "haye_sainte": "red"})["winner"] == "blue"
    assert decide(battle, {"beyond_lane": 1, "haye_sainte": "blue"})["winner"] == "blue"
    assert decide(battle, {"beyond_lane": 0, "haye_sainte": "blue"})["winner"] == "red"
    found = decide(battle, {"beyond_lane": 2, "haye_sainte": "red"})
    assert found["winner"] is None and found["reason"] == "No other condition of the scenario was met"


def test_answers_are_checked():
    battle = Battle.from_doc(at_end("hougoumont"))
    with pytest.raises(RuleError, match="Answer the question: Have the French cleared the orchard"):
        decide(battle, {"main_building": "red"})
    with pytest.raises(RuleError, match="“french” does not answer"):
        decide(battle, {"main_building": "french", "orchard_cleared": True})
    assert decide(battle, {"main_building": "red", "orchard_cleared": "yes"})["winner"] is None


def test_ending_the_battle_logs_the_reason_and_undoes():
    doc = at_end("hougoumont")
    after, result = end(doc, answers={"main_building": "red", "orchard_cleared": False})
    assert after["ended"] and after["winner"] == "red"
    assert result.summary == "The battle goes to Allied Army: Allied victory"
    assert result.notes[0] == "The garrison kept the château and the orchard."
    assert after["victory_result"]["answers"] == {"main_building": "red", "orchard_cleared": False}
    assert revert_changes(after, result.all_changes) == doc


def test_the_umpire_may_override_and_the_log_keeps_the_scenarios_result():
    doc = at_end("hougoumont")
    after, result = end(doc, answers={"main_building": "blue", "orchard_cleared": True}, decision="draw",
                        reason="the château burned down")
    assert after["winner"] == "draw" and after["victory_result"]["overridden"]
    assert result.notes[0] == ("Decided by the umpire; the scenario gave French win "
                               "(The French hold the main building of the château.).")
    assert "Reason: the château burned down" in result.notes


def test_questions_wait_for_the_checkpoint_unless_the_umpire_ends_early():
    doc = new_battle_from_scenario("plancenoit")
    with pytest.raises(RuleError, match="answered at the end of turn 9; this is turn 1"):
        end(doc, answers={"church": "red", "village": "red"})
    after, result = end(doc, answers={"church": "red", "village": "red"}, early=True)
    assert after["winner"] == "red" and "before the checkpoint (turn 9)" in result.notes[-1]
    with pytest.raises(RuleError, match="already ended"):
        end(after, answers={"church": "red", "village": "red"})


def test_a_battle_without_questions_is_ended_by_the_general_rule():
    with pytest.raises(RuleError, match="no victory questions"):
        end(at_end("demo"), answers={})
