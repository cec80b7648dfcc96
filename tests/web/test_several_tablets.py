"""Several tablets on one game (DESIGN.md, "Several tablets"): a tap sent again with its one-time
token is answered with its first result and never rolled again; a double tap on Next phase moves
the game on once; two tablets acting on different brigades from the same screen both land, in the
order they came; on the same unit (or its brigade, or after the phase moved on) the later one is
refused with the reason; undo still takes back the newest entry; and the log replays to the state."""
from __future__ import annotations

import pytest
from _web_helpers import HTMX, text

from referee.systems.replay import initial_state, replay
from referee.table import service
from referee.table.db import session as db_session


def post(client, table, action, data=None, version=None, token=None):
    form = {"version": str(table.version if version is None else version), **(data or {})}
    if token:
        form["token"] = token
    return client.post(f"/games/{table.id}/act/{action}", data=form, headers=HTMX)


def order(unit: str) -> dict:
    return {"units": unit, "order": "move"}


def in_force(table) -> list:
    return [e for e in reversed(table.log()) if not e.undone]


def replays_to_its_state(table) -> bool:
    game = table.game()
    entries = [{"action": e.action, "facts": e.facts, "dice": e.dice, "changes": e.changes} for e in in_force(table)]
    return replay(game.system, initial_state(game.state, entries), entries) == game.state


def test_a_tap_sent_again_with_its_token_answers_its_first_result_and_rolls_nothing(client, table):
    seen = table.version
    first = post(client, table, "order", order("11th-leger"), version=seen, token="tap-one-2f9c1e")
    assert first.status_code == 200
    state, log = table.state, table.log()
    # The answer was lost on the way: the tablet, still showing the old screen, taps again.
    again = post(client, table, "order", order("11th-leger"), version=seen, token="tap-one-2f9c1e")
    assert again.status_code == 200
    assert "already recorded" in text(again) and "Nothing was done or rolled again" in text(again)
    assert table.state == state and len(table.log()) == len(log) == 1
    # The answer is the first result: the same entry, the same roll.
    assert f"/log/{log[0].seq}" in again.headers.get("HX-Push-Url", "") or log[0].label in text(again)
    assert table.version == seen + 1


def test_a_token_belongs_to_its_game_and_a_bad_token_is_no_token(client, table, db):
    from referee.data.scenarios import new_battle_from_scenario
    other = service.create_game(db, "Other", "blackpowder", new_battle_from_scenario("demo"), seed=3)
    assert post(client, table, "order", order("11th-leger"), token="shared-token-1").status_code == 200
    r = client.post(f"/games/{other.id}/act/order", data={"version": str(other.version), "token": "shared-token-1",
                                                          **order("11th-leger")}, headers=HTMX)
    assert r.status_code == 200 and "already recorded" not in text(r)
    # A token that is not one (too short, odd characters) is ignored: the tap is simply done.
    for value, token in (("1", "x"), ("2", "<script>alert(1)</script>")):
        r = post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": value}, token=token)
        assert r.status_code == 200 and "already recorded" not in text(r)


def test_a_double_tap_on_next_phase_moves_the_game_on_once(client, table):
    seen = table.version
    assert table.state["phase"] == "command"
    # The same tap twice (same token, as the tablet sends a double tap): done once, said so.
    assert post(client, table, "next_phase", version=seen, token="next-phase-a1").status_code == 200
    r = post(client, table, "next_phase", version=seen, token="next-phase-a1")
    assert r.status_code == 200 and "already recorded" in text(r)
    assert table.state["phase"] == "shooting" and len(table.log()) == 1
    # Two taps with tokens of their own (a tablet without JavaScript), from the same screen: the
    # second is refused because the phase it was shown has moved on.
    seen = table.version
    assert post(client, table, "next_phase", version=seen, token="next-phase-b1").status_code == 200
    r = post(client, table, "next_phase", version=seen, token="next-phase-b2")
    assert r.status_code == 409 and "Another tablet changed the turn and phase first" in text(r)
    assert table.state["phase"] == "hand_to_hand" or len(table.log()) == 2
    assert len(table.log()) == 2


def test_two_tablets_ordering_different_brigades_from_one_screen_both_land_in_the_order_they_came(client, table):
    seen = table.version
    a = post(client, table, "order", order("11th-leger"), version=seen, token="tablet-a-001")
    b = post(client, table, "order", order("4th-chasseurs-a-cheval"), version=seen, token="tablet-b-001")
    assert a.status_code == 200, text(a)[:300]
    assert b.status_code == 200, text(b)[:300]
    log = in_force(table)
    assert [e.facts["units"] for e in log] == [["11th-leger"], ["4th-chasseurs-a-cheval"]]
    assert [e.version_after for e in log] == [seen + 1, seen + 2] and table.version == seen + 2
    assert replays_to_its_state(table)


@pytest.mark.parametrize("unit, named", [("11th-leger", "11th Léger"),  # the same unit
                                         ("82nd-ligne", "7th Division")])  # another unit of its brigade
def test_the_same_unit_or_its_brigade_from_an_old_screen_is_refused_with_the_reason(client, table, unit, named):
    seen = table.version
    assert post(client, table, "order", order("11th-leger"), version=seen).status_code == 200
    state, log = table.state, table.log()
    r = post(client, table, "adjust_unit", {"unit": unit, "field": "casualties", "value": "2"}, version=seen)
    assert r.status_code == 409
    assert f"Another tablet changed {named} first: here is the fresh view. Check it and tap again." in text(r)
    assert table.state == state and len(table.log()) == len(log)


def test_a_change_to_the_phase_refuses_every_tap_from_before_it(client, table):
    seen = table.version
    assert post(client, table, "next_phase", version=seen).status_code == 200
    r = post(client, table, "order", order("4th-chasseurs-a-cheval"), version=seen)
    assert r.status_code == 409 and "Another tablet changed the turn and phase first" in text(r)


def test_what_an_undo_took_back_since_counts_as_changed(client, table):
    seen = table.version
    assert post(client, table, "adjust_unit", {"unit": "11th-leger", "field": "casualties", "value": "1"},
                version=seen).status_code == 200
    assert client.post(f"/games/{table.id}/undo", data={"version": str(table.version)}, headers=HTMX).status_code == 200
    assert table.state["units"]["11th-leger"]["casualties"] == 0
    r = post(client, table, "adjust_unit", {"unit": "11th-leger", "field": "casualties", "value": "2"}, version=seen)
    assert r.status_code == 409 and "11th Léger" in text(r)
    r = post(client, table, "adjust_unit", {"unit": "6th-uhlans", "field": "casualties", "value": "1"}, version=seen)
    assert r.status_code == 200 and table.state["units"]["6th-uhlans"]["casualties"] == 1


def test_undo_from_an_old_screen_is_refused_and_from_the_new_one_takes_back_the_newest(client, table):
    seen = table.version
    assert post(client, table, "order", order("11th-leger"), version=seen).status_code == 200
    assert post(client, table, "order", order("4th-chasseurs-a-cheval"), version=seen).status_code == 200
    r = client.post(f"/games/{table.id}/undo", data={"version": str(seen + 1)}, headers=HTMX)
    assert r.status_code == 409 and len(in_force(table)) == 2
    r = client.post(f"/games/{table.id}/undo", data={"version": str(table.version)}, headers=HTMX)
    assert r.status_code == 200
    assert [e.facts["units"] for e in in_force(table)] == [["11th-leger"]]
    assert replays_to_its_state(table)


def test_a_version_the_log_does_not_account_for_refuses_as_before(app, client, table):
    """A write that left no log entry (none does today; a future one might): nothing is applied on
    a state the tablet did not read."""
    seen = table.version
    with db_session(app.extensions["referee.engine"]) as s:
        game = service.get_game(s, table.id)
        game.version += 1
        s.add(game)
        s.commit()
    r = post(client, table, "adjust_unit", {"unit": "6th-uhlans", "field": "casualties", "value": "1"}, version=seen)
    assert r.status_code == 409 and "Another tablet changed this game first" in text(r)


def test_an_undo_tapped_twice_takes_back_one_entry(client, table):
    for unit in ("11th-leger", "4th-chasseurs-a-cheval"):
        assert post(client, table, "order", order(unit)).status_code == 200
    first = client.post(f"/games/{table.id}/undo", data={"version": str(table.version), "token": "undo-tap-01"},
                        headers=HTMX)
    assert first.status_code == 200
    # The second tap of the double tap reaches the server after the board has the new version.
    again = client.post(f"/games/{table.id}/undo", data={"version": str(table.version), "token": "undo-tap-01"},
                        headers=HTMX)
    assert again.status_code == 200 and "already recorded" in text(again)
    assert [e.facts["units"] for e in in_force(table)] == [["11th-leger"]]
    # A new tap (a token of its own) undoes the next one, and Redo likewise once for a double tap.
    assert client.post(f"/games/{table.id}/undo", data={"version": str(table.version), "token": "undo-tap-02"},
                       headers=HTMX).status_code == 200
    assert in_force(table) == []
    for _ in range(2):
        assert client.post(f"/games/{table.id}/redo", data={"version": str(table.version), "token": "redo-tap-01"},
                           headers=HTMX).status_code == 200
    assert [e.facts["units"] for e in in_force(table)] == [["11th-leger"]]
    assert replays_to_its_state(table)
