"""A scenario's terms on the board: the time, what is due and its buttons, and the end of the
battle with its victory questions (Quatre Bras, through the routes)."""
from __future__ import annotations

import pytest
from _web_helpers import HTMX, Table, text

from referee.data.scenarios import new_battle_from_scenario
from referee.table import service


@pytest.fixture
def qb(app, db) -> Table:
    game = service.create_game(db, "Quatre Bras", "blackpowder", new_battle_from_scenario("quatre-bras"), seed=3)
    return Table(app, game.id)


def post(client, table, action, data=None, headers=None):
    form = {"version": str(table.version), **(data or {})}
    return client.post(f"/games/{table.id}/act/{action}", data=form, headers=headers or HTMX)


def to(client, table, turn, side="blue"):
    while (table.state["turn"], table.state["active_side"], table.state["phase"]) != (turn, side, "command"):
        assert post(client, table, "next_phase").status_code == 200


def test_the_board_shows_the_time_the_limit_and_the_next_arrival(client, qb):
    page = text(client.get(f"/games/{qb.id}"))
    assert "Turn 1 of 12 · 14:00" in page
    assert "Next to arrive: 5th Division (Allied Army), turn 3 (15:00)" in page
    assert "Not yet arrived: 8" in page
    assert "I Corps (French, 24 units) from turn 6 (16:30), 3D6 of 16+ (5%) each turn" in page
    assert "Not yet arrived" in page  # the waiting units' badge


def test_play_to_turn_6_roll_for_i_corps_and_place_the_arrivals(client, qb):
    to(client, qb, 3, "red")
    page = client.get(f"/games/{qb.id}").get_data(as_text=True)
    assert 'name="reserve" value="red-5th-division"' in page and "Bring on" in page
    r = post(client, qb, "arrive", {"reserve": "red-5th-division"})
    assert r.status_code == 200 and "5th Division comes on, turn 3 (15:00)" in text(r)
    assert not qb.unit("1-79th-highlanders")["awaiting"]
    to(client, qb, 6)
    page = text(client.get(f"/games/{qb.id}"))
    assert "Entry roll · 4.6%" in page
    r = post(client, qb, "entry_roll", {"reserve": "blue-i-corps"})
    assert r.status_code == 200
    [entry] = [e for e in qb.log() if e.action == "entry_roll"]
    arrived = entry.result["data"]["arrives"]
    assert qb.state["reserves"]["blue-i-corps"]["status"] == ("due" if arrived else "waiting")
    r = post(client, qb, "entry_roll", {"reserve": "blue-i-corps"})
    assert r.status_code == 422 and ("already rolled this turn" in text(r) or "already passed" in text(r))


def test_the_end_of_the_last_turn_opens_the_victory_questions(client, qb, db):
    game = service.get_game(db, qb.id)
    state = dict(game.state, turn=12, active_side="red", phase="hand_to_hand")
    _force(db, qb.id, state)
    page = client.get(f"/games/{qb.id}")
    body = text(page)
    assert "Turn 12 was the last: the battle is over" in body and "Next phase" not in body
    assert "Who holds the Quatre Bras crossroads" in body
    # The reserves never brought on are named, so nobody counts them by mistake.
    assert "Never came on:" in body and "Netherlands Light Cavalry (Allied Army, 2 units)" in body
    assert "I Corps (French, 24 units)" in body
    r = post(client, qb, "next_phase")
    assert r.status_code == 422 and "Turn 12 was the last turn" in text(r)
    answers = {"answer-crossroads": "red", "answer-gemioncourt": "blue", "answer-bossu": "red",
               "answer-pireaumont": "neither"}
    r = client.post(f"/games/{qb.id}/victory", data={"version": str(qb.version), **answers}, headers=HTMX)
    assert r.status_code == 200, text(r)
    assert qb.state["ended"] and qb.state["winner"] == "red"
    ended = text(client.get(f"/games/{qb.id}"))
    assert "Battle over" in ended and "Never came on:" in ended and "Netherlands Light Cavalry" in ended
    assert "French 1 point, Allied Army 3 points" in text(r)
    assert qb.log()[-1].action == "scenario_victory"


def test_missing_answers_are_refused_and_change_nothing(client, qb, db):
    game = service.get_game(db, qb.id)
    _force(db, qb.id, dict(game.state, turn=12, active_side="red", phase="hand_to_hand"))
    before = qb.version
    r = client.post(f"/games/{qb.id}/victory", data={"version": str(before), "answer-crossroads": "red"},
                    headers=HTMX)
    assert r.status_code == 422 and "Answer the question: Who holds Gemioncourt farm?" in text(r)
    assert qb.version == before and not qb.state.get("ended")
    r = client.post(f"/games/{qb.id}/victory", data={"answer-crossroads": "red"}, headers=HTMX)
    assert r.status_code == 422


def _force(db, game_id, state):
    """Put the battle at its last phase (a test shortcut, not an action)."""
    from referee.table.models import Game
    game = db.get(Game, game_id)
    game.state = state
    game.version += 1  # as every write does: a version names one state (the server keeps documents by it)
    db.add(game)
    db.commit()


def test_brigades_still_to_come_are_not_counted_as_intact_yet(client, qb):
    page = text(client.get(f"/games/{qb.id}"))
    assert "French 4/4 brigades intact, 7 to come" in page
    assert "Allied Army 2/2 brigades intact, 9 to come" in page


def test_the_umpire_adds_a_brigade_that_waits_off_the_table(client, qb):
    assert client.get(f"/games/{qb.id}/add-units").status_code == 200
    form = {"version": str(qb.version), "side": "red", "brigade": "", "brigade_name": "Chassé's Division",
            "commander": "Chassé", "staff_rating": "7", "profile": "dutch-militia", "name": "{n}/Militia",
            "count": "3", "arrive": "reserve"}
    r = client.post(f"/games/{qb.id}/add-units", data=form)
    assert r.status_code == 303
    state = qb.state
    added = [u for u in state["units"].values() if u["name"].endswith("/Militia")]
    assert [u["name"] for u in added] == ["1/Militia", "2/Militia", "3/Militia"]
    assert all(u["awaiting"] and u["profile"] == "dutch-militia" for u in added)
    page = text(client.get(f"/games/{qb.id}"))
    assert "Chassé's Division (Allied Army, 3 units) when the umpire calls it" in page
    assert qb.log()[-1].action == "add_units"
    # Undo takes the brigade away again.
    client.post(f"/games/{qb.id}/undo", data={"version": qb.version})
    assert not any(u["name"].endswith("/Militia") for u in qb.state["units"].values())


@pytest.mark.parametrize("change, words", [
    ({"profile": "dutch-militai"}, "Unknown unit profile “dutch-militai” (did you mean “dutch-militia”"),
    ({"side": "green"}, "Choose the side"),
    ({"brigade_name": ""}, "A new brigade needs a name and a commander."),
    ({"count": "99"}, "less than or equal to 30"),
    ({"version": "999"}, "Another tablet changed this game first"),
])
def test_adding_units_refuses_what_cannot_be_and_changes_nothing(client, qb, change, words):
    form = {"version": str(qb.version), "side": "red", "brigade": "", "brigade_name": "X", "commander": "Y",
            "staff_rating": "8", "profile": "dutch-militia", "name": "Militia", "count": "1", "arrive": "now",
            **change}
    before = qb.version
    r = client.post(f"/games/{qb.id}/add-units", data=form)
    assert r.status_code in (409, 422) and words in text(r), text(r)[:400]
    assert qb.version == before


def test_hold_back_from_the_board(client, qb):
    r = client.get(f"/games/{qb.id}/act/hold_back", headers=HTMX)
    assert r.status_code == 200 and "Units to hold back" in text(r)
    r = post(client, qb, "hold_back", {"units": ["2nd-leger", "61st-ligne"]})
    assert r.status_code == 200 and "held back off the table" in text(r)
    assert qb.unit("2nd-leger")["awaiting"]
