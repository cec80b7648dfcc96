"""Every shipped scenario plays to its end: the turns run to the limit, every reserve comes on
when its time comes (entry rolls with fixed dice), and the umpire's scripted answers reach the
scenario's victory with its reason."""
import pytest

from referee.blackpowder.brigades import END_BATTLE, EndBattle
from referee.blackpowder.clock import time_is_up, time_of_turn
from referee.blackpowder.model import Battle
from referee.blackpowder.reserves import ARRIVE, ENTRY_ROLL, Arrive, EntryRoll, can_roll, may_arrive
from referee.blackpowder.turns import NEXT_PHASE, NextPhase
from referee.blackpowder.victory import SCENARIO_VICTORY, ScenarioVictory
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes
from referee.data.scenarios import load_scenarios, new_battle_from_scenario

# Per scenario: the umpire's answers at the checkpoint, the winner and the reason they give.
ANSWERS = {
    "ligny-saint-amand": ({"village": "blue"}, "blue", "French units are within 9\" of Saint-Amand"),
    "quatre-bras": ({"crossroads": "red", "gemioncourt": "blue", "bossu": "red", "pireaumont": "blue"}, "red",
                    "French 2 points, Allied Army 3"),
    "hougoumont": ({"main_building": "red", "orchard_cleared": True}, "draw",
                   "The garrison kept the château but the French cleared the orchard."),
    "derlons-attack": ({"beyond_lane": 0, "haye_sainte": "red"}, "red", "No French unit stands beyond the sunken lane"),
    "plancenoit": ({"church": "blue", "village": "blue"}, "blue", "The Prussians hold the church and most of the village."),
    "waterloo": ({"ridge": "red", "hougoumont": "red", "haye_sainte": "blue", "papelotte": "red",
                  "plancenoit": "red"}, "red", "French 1 point, Allied and Prussian armies 6 points"),
    "wavre": ({"wavre_bridges": "red", "bierges": "blue", "limale": "blue", "rear": 1}, "blue",
              "The French are across the Dyle at Bierges and Limale."),
}


def act(doc, spec, facts, dice=()):
    result = spec.resolve(doc, facts, ScriptedDice(dice))
    return apply_changes(doc, result.all_changes), result


def play_to_the_end(doc):
    """Every phase of every turn; each reserve comes on as soon as it may (a failed entry roll
    first, then all 6s), the umpire calling his reserves on their first turn."""
    arrivals, rolls = {}, {}
    while True:
        battle = Battle.from_doc(doc)
        for gid, g in (doc.get("reserves") or {}).items():
            if g["side"] != battle.active_side or battle.phase != "command":
                continue
            if can_roll(doc, g, battle.turn) is None:
                die = 1 if gid not in rolls else 6
                rolls.setdefault(gid, battle.turn)
                doc, _ = act(doc, ENTRY_ROLL, EntryRoll(reserve=gid), [die] * g["schedule"]["dice"])
                g = doc["reserves"][gid]
            if may_arrive(doc, g, battle.turn) is None:
                doc, _ = act(doc, ARRIVE, Arrive(reserve=gid))
                arrivals[gid] = battle.turn
        if time_is_up(Battle.from_doc(doc)):
            return doc, arrivals, rolls
        doc, _ = act(doc, NEXT_PHASE, NextPhase())


@pytest.mark.parametrize("sid", sorted(load_scenarios()))
def test_each_scenario_plays_to_its_end(sid):
    doc = new_battle_from_scenario(sid)
    start = doc
    doc, arrivals, rolls = play_to_the_end(doc)
    assert doc["turn"] == start["turn_limit"]
    # Every reserve came on: fixed ones on their turn, rolled ones the turn after their first roll.
    for gid, g in start["reserves"].items():
        s = g["schedule"]
        expected = s.get("turn") or s.get("from_turn") or 1
        if s["kind"] == "roll":
            expected = rolls[gid] + 1
            assert rolls[gid] == s["from_turn"]
        assert arrivals[gid] == expected, gid
        assert doc["reserves"][gid]["status"] == "arrived"
    assert not any(u["awaiting"] for u in doc["units"].values())
    if sid == "demo":
        doc, result = act(doc, END_BATTLE, EndBattle())
        assert doc["ended"] and result.notes[0].startswith("Because intact brigades")
        return
    answers, winner, reason = ANSWERS[sid]
    doc, result = act(doc, SCENARIO_VICTORY, ScenarioVictory(answers=answers))
    assert doc["ended"] and doc["winner"] == winner
    assert result.notes[0].startswith(reason) and doc["victory_result"]["reason"].startswith(reason)


def test_waterloo_reserves_come_on_the_day_they_did():
    doc, arrivals, rolls = play_to_the_end(new_battle_from_scenario("waterloo"))
    assert time_of_turn(doc, arrivals["red-bulows-vanguard"]) == "16:30"
    assert arrivals["red-ii-corps"] == 17 and rolls["red-ii-corps"] == 16
    assert arrivals["blue-old-guard"] == 12
