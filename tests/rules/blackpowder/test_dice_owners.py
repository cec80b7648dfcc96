"""Dice know whose they are: when typed dice run out, the request names the side that rolls the
next ones (a target's saves, each side's attacks in a combat round, a testing unit's break test,
an Of Oil and Iron target's hit location), so the table can hand the tablet over. None is the
acting side's own dice."""
from __future__ import annotations

import pytest

from referee.blackpowder.combat import CombatRound, resolve_combat_round
from referee.blackpowder.combat_records import new_combat_record
from referee.core.dice import DiceNeeded, NotYourDice, ScriptedDice, SeededDice, roll
from referee.data.scenarios import new_battle_from_scenario
from referee.systems import system_for

SHOT_BP = {"shooter": "11th-leger", "target": "1-7th-musketeers"}


def asked(resolve, dice) -> DiceNeeded:
    with pytest.raises(DiceNeeded) as e:
        resolve(ScriptedDice(dice))
    return e.value


def test_a_die_without_a_side_is_the_acting_sides_and_a_named_side_is_carried():
    assert asked(lambda d: roll(d, 2, 6, "to hit"), []).side is None
    need = asked(lambda d: roll(d, 2, 6, "save", side="red"), [4])
    assert (need.count, need.purpose, need.side, need.used) == (1, "save", "red", 0)
    assert need.to_dict()["side"] == "red"


def test_a_die_typed_by_one_side_is_never_taken_for_anothers_roll():
    dice = ScriptedDice([6, 6, 3], typists=["blue", "blue", "blue"], acting="blue")
    assert [d.value for d in roll(dice, 2, 6, "to hit")] == [6, 6]
    with pytest.raises(NotYourDice) as e:
        roll(dice, 2, 6, "save", side="red")
    assert (e.value.typist, e.value.owner) == ("blue", "red")
    # The umpire's dice (typist None) may be any side's.
    umpire = ScriptedDice([6, 2], typists=[None, None], acting="blue")
    assert [d.value for d in roll(umpire, 2, 6, "save", side="red")] == [6, 2]


def test_each_die_handed_out_is_kept_with_the_side_that_typed_it():
    """The source's record of what it handed out (the log's dice) says whose tablet typed each die;
    the umpire's dice, dice given without typists and the app's own dice name no one."""
    dice = ScriptedDice([6, 5, 2, 1], typists=["blue", "blue", None, "red"], acting="blue")
    roll(dice, 2, 6, "to hit")
    roll(dice, 2, 6, "save", side="red")
    assert [(d.value, d.typist) for d in dice.history] == [(6, "blue"), (5, "blue"), (2, None), (1, "red")]
    assert [d.to_dict().get("typist") for d in dice.history] == ["blue", "blue", None, "red"]
    assert "typist" not in dice.history[2].to_dict()
    plain = ScriptedDice([3, 4])
    roll(plain, 2, 6, "to hit")
    assert [d.typist for d in plain.history] == [None, None]
    app = SeededDice(7)
    roll(app, 3, 6, "to hit")
    assert all(d.typist is None and "typist" not in d.to_dict() for d in app.history)


def test_a_shots_saves_belong_to_the_targets_side():
    doc = new_battle_from_scenario("demo")
    spec = system_for("blackpowder").action("shoot")
    facts = spec.facts.model_validate(SHOT_BP)
    first = asked(lambda d: spec.resolve(doc, facts, d), [])
    assert first.purpose == "to hit" and first.side is None
    saves = asked(lambda d: spec.resolve(doc, facts, d), [6] * first.count)
    assert saves.purpose == "save" and saves.side == "red"
    assert doc["units"][SHOT_BP["target"]]["side"] == "red"


def test_a_combat_rounds_attacks_saves_and_break_tests_belong_to_each_side(make_doc, infantry):
    units = [infantry("a", in_combat=True), infantry("d", side="red", in_combat=True)]
    doc = make_doc(units=units, phase="hand_to_hand")
    doc["combats"] = {"c1": new_combat_record("c1", ["a"], ["d"], turn=1)}
    facts = CombatRound(combat="c1")
    go = lambda d: resolve_combat_round(doc, facts, d)  # noqa: E731
    steps, dice = [], []
    for _ in range(6):
        try:
            go(ScriptedDice(dice))
            break
        except DiceNeeded as need:
            steps.append((need.purpose, need.side))
            # The charger hits with all, the defender with one; every save fails: Red loses and tests.
            if need.purpose.startswith("d:"):
                dice += [4] + [1] * (need.count - 1)
            else:
                dice += [1 if need.purpose == "save" else 4] * need.count
    purposes = [p for p, _ in steps]
    assert steps[0] == (purposes[0], "blue") and "attacks" in purposes[0]  # the charger's attacks
    assert steps[1][1] == "red" and "attacks" in steps[1][0]  # the defender's attacks
    assert ("save", "red") in steps and ("save", "blue") in steps
    assert ("break test", "red") in steps
