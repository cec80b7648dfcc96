"""Next phase while the phase still asks for something (a combat not fought this Hand-to-Hand):
the answer says what, with a button to do each, and moves on only by a second, deliberate tap
that the log records (the rules say what is owed: GameRules.owed; the table refuses the first tap)."""
from __future__ import annotations

import pytest
from _web_helpers import HTMX, Table, text

from referee.blackpowder.combat_records import new_combat_record
from referee.data.scenarios import new_battle_from_scenario
from referee.table import service


def fight_doc() -> dict:
    doc = new_battle_from_scenario("demo")
    doc["phase"] = "hand_to_hand"
    for uid in ("11th-leger", "1-7th-musketeers"):
        doc["units"][uid]["in_combat"] = True
    doc["combats"] = {"c1": new_combat_record("c1", ["11th-leger"], ["1-7th-musketeers"], turn=1)}
    return doc


@pytest.fixture
def fight(app, db) -> Table:
    return Table(app, service.create_game(db, "Fight", "blackpowder", fight_doc(), seed=3).id)


def _next_phase(client, table, **extra):
    return client.post(f"/games/{table.id}/act/next_phase", data={"version": str(table.version), **extra},
                       headers=HTMX)


def test_the_first_tap_says_what_is_undone_with_a_button_for_it(client, fight):
    before = fight.version
    answer = _next_phase(client, fight)
    page, body = text(answer), answer.get_data(as_text=True)
    assert answer.status_code == 200 and fight.version == before  # an answer, not a move
    assert "Before “Next phase”" in page
    assert "The fight of 11th Léger against 1/7th Musketeers has not fought its round this Hand-to-Hand phase." in page
    assert f"/games/{fight.id}/act/combat_round?combat=c1" in body  # the button that fights it
    assert "Move on anyway, leaving it undone" in page and 'name="leave_undone" value="on"' in body
    assert fight.state["phase"] == "hand_to_hand"


def test_the_second_deliberate_tap_moves_on_and_the_log_says_so(client, fight):
    _next_phase(client, fight)
    answer = _next_phase(client, fight, leave_undone="on")
    assert answer.status_code == 200 and fight.state["phase"] == "command" and fight.state["active_side"] == "red"
    entry = fight.log()[-1]
    assert entry.action == "next_phase" and entry.facts.get("leave_undone") is True
    assert "leaving 1 thing undone" in entry.result["summary"]
    assert any(n.startswith("Left undone: The fight of 11th Léger") for n in entry.result["notes"])


def test_nothing_owed_moves_on_at_the_first_tap(client, table):
    _next_phase(client, table)
    assert table.state["phase"] == "shooting"


def test_a_plain_form_gets_the_same_answer(client, fight):
    answer = client.post(f"/games/{fight.id}/act/next_phase", data={"version": str(fight.version)})
    assert answer.status_code == 200 and "Move on anyway, leaving it undone" in text(answer)
