"""The battle clock and the turn limit."""
import pytest

from referee.blackpowder.clock import clock_line, time_is_up, time_of_turn, turn_limit, turn_of_time
from referee.blackpowder.model import Battle, RuleError
from referee.blackpowder.turns import NEXT_PHASE, NextPhase
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes
from referee.data.scenarios import new_battle_from_scenario


def next_phase(doc):
    result = NEXT_PHASE.resolve(doc, NextPhase(), ScriptedDice([]))
    return apply_changes(doc, result.all_changes), result


@pytest.mark.parametrize("turn, time", [(1, "11:00"), (2, "11:30"), (12, "16:30"), (15, "18:00"), (20, "20:30")])
def test_the_waterloo_day_runs_in_half_hours_from_11(turn, time):
    doc = new_battle_from_scenario("waterloo")
    assert time_of_turn(doc, turn) == time and turn_of_time(doc, time) == turn


def test_no_clock_no_time():
    doc = new_battle_from_scenario("demo")
    assert time_of_turn(doc, 3) is None and clock_line(doc, 3) == "Turn 3 of 6"
    assert turn_of_time(doc, "11:00") is None


def test_clock_line_and_turn_summary_carry_the_time():
    doc = new_battle_from_scenario("waterloo")
    assert clock_line(doc, 12) == "Turn 12 of 20 · 16:30"
    for _ in range(6):
        doc, result = next_phase(doc)
    assert result.summary == "Turn 2: French Command (11:30)"


def test_the_battle_ends_at_its_turn_limit():
    doc = new_battle_from_scenario("demo")
    assert turn_limit(doc) == 6
    steps = 0
    while not time_is_up(Battle.from_doc(doc)):
        doc, _ = next_phase(doc)
        steps += 1
    assert steps == 6 * 6 - 1
    assert (doc["turn"], doc["active_side"], doc["phase"]) == (6, "red", "hand_to_hand")
    with pytest.raises(RuleError, match="Turn 6 was the last turn: the battle is over"):
        next_phase(doc)


def test_a_battle_without_a_limit_goes_on():
    doc = new_battle_from_scenario("demo")
    doc["turn_limit"] = None
    doc["scenario"]["turns"] = None
    doc.update(turn=40, active_side="red", phase="hand_to_hand")
    doc, _ = next_phase(doc)
    assert doc["turn"] == 41
