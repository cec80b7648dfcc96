"""The Black Powder Foe's difficulty changes how it plays, not only a line it rarely meets: an
easy Foe reads only a charge order's chance and fights on with a brigade one loss from breaking;
normal and hard weigh the fight a charge starts and pull such a brigade back."""
from __future__ import annotations

import pytest

from referee.blackpowder.foe import foe_step
from referee.core.dice import SeededDice
from referee.core.foe import Question
from referee.data.scenarios import new_battle_from_scenario
from tests.foe._bp_play import act
from tests.foe.test_blackpowder_foe import decide, first_brigade_question, foe_battle
from tests.rules.blackpowder.conftest import infantry


def calm_quatre_bras(difficulty):
    """Quatre Bras with the French played at ``difficulty`` and no posture, at the first brigade."""
    doc = {**new_battle_from_scenario("quatre-bras"), "foe_posture": []}
    doc, _ = act(doc, "foe_settings", {"side": "blue", "difficulty": difficulty}, SeededDice(1))
    while not isinstance(foe_step(doc, {}), Question):
        doc, _ = act(doc, "foe_decide", {"answers": {}}, SeededDice(2))
    return doc


@pytest.mark.parametrize("difficulty, reads, needs", [("easy", False, "45%"), ("normal", True, "35%"),
                                                       ("hard", True, "45%")])
def test_how_each_difficulty_reads_a_charges_odds(difficulty, reads, needs):
    doc = calm_quatre_bras(difficulty)
    q = first_brigade_question(doc)
    weighed = decide(doc, {q.key: "6"}).candidates[0]
    assert f"needs {needs}" in weighed
    assert ("first round won" in weighed) is reads
    assert ("it does not weigh the fight" in weighed) is (not reads)


@pytest.mark.parametrize("difficulty, rung", [("easy", "advance"), ("normal", "retire"), ("hard", "retire")])
def test_a_brigade_one_loss_from_breaking_retires_unless_the_foe_is_easy(difficulty, rung):
    doc = foe_battle([infantry("a"), infantry("b"), infantry("c", casualties=3), infantry("d"),
                      infantry("e", side="red")], "command")
    if difficulty != "normal":  # the small battle is declared at normal
        doc, _ = act(doc, "foe_settings", {"side": "blue", "difficulty": difficulty}, SeededDice(1))
    found = decide(doc, {})
    assert found.rung == rung
    if rung == "retire":
        assert found.plan[0].facts["order"] == "retreat"
