"""A campaign's steps take the one write path a game's actions take (``table/write_path.py``):
two tablets racing a step from the same version, one wins and the other is told, with nothing
lost; and every campaign write (a step, an undo, a redo) waits for the campaign's turn, the lock a
game's write waits for."""
from __future__ import annotations

import threading

import pytest
from test_campaign_routes import new_oi, text, version

from referee.table import campaigns as tc
from referee.table import write_path
from referee.table.campaign_rows import Campaign
from referee.table.db import session as db_session
from referee.table.write_lock import turn_of


def test_two_tablets_racing_a_campaign_step_one_wins_the_other_is_told_and_nothing_is_lost(app, client, app_db):
    cid = new_oi(client)
    seen = version(app_db, cid)
    logged = len(tc.log(app_db, cid))
    tablets = {"first": ("players.p1.iron", "3"), "second": ("players.p2.iron", "4")}
    start, answers = threading.Barrier(len(tablets)), {}

    def tap(name: str) -> None:
        field, value = tablets[name]
        tablet = app.test_client()  # a tablet of its own: its own cookies, its own request
        start.wait(10)
        answers[name] = tablet.post(f"/campaigns/{cid}/act/umpire_override",
                                    data={"version": seen, "field": field, "value": value, "reason": "race"})

    threads = [threading.Thread(target=tap, args=(name,)) for name in tablets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(r.status_code for r in answers.values()) == [303, 409]
    [winner] = [n for n, r in answers.items() if r.status_code == 303]
    [loser] = [n for n, r in answers.items() if r.status_code == 409]
    told = text(answers[loser])
    assert "Another tablet changed this campaign first" in told and "tap again" in told
    app_db.expire_all()
    c = tc.get_campaign(app_db, cid)
    assert c.version == seen + 1
    players = c.state["players"]
    winner_player, loser_player = (tablets[n][0].split(".")[1] for n in (winner, loser))
    assert players[winner_player]["iron"] == int(tablets[winner][1])  # the winner's step stands whole
    assert players[loser_player]["iron"] == 10  # the refused one changed nothing
    entries = tc.log(app_db, cid)
    assert len(entries) == logged + 1 and entries[0].facts["field"] == tablets[winner][0]
    # The refused tablet was drawn the fresh campaign: its tap again, on that version, lands.
    assert f'value="{seen + 1}"' in answers[loser].get_data(as_text=True)
    again = client.post(f"/campaigns/{cid}/act/umpire_override",
                        data={"version": seen + 1, "field": tablets[loser][0], "value": tablets[loser][1],
                              "reason": "race"})
    assert again.status_code == 303
    assert len(tc.log(app_db, cid)) == logged + 2


def _steps_one_undone(engine, cid: int) -> None:
    """Two steps taken and the second undone, so that undo and redo each have something to do."""
    with db_session(engine) as s:
        c = tc.get_campaign(s, cid)
        for value in ("7", "8"):
            c, *_ = tc.perform(s, cid, c.version, "umpire_override", {"field": "players.p1.iron", "value": value,
                                                                      "reason": "turns"})
        tc.undo(s, cid, c.version)


WRITES = {
    "step": lambda s, cid, v: tc.perform(s, cid, v, "umpire_override",
                                         {"field": "players.p2.iron", "value": "5", "reason": "turns"}),
    "undo": lambda s, cid, v: tc.undo(s, cid, v),
    "redo": lambda s, cid, v: tc.redo(s, cid, v),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_campaign_write_takes_the_campaign_turn_as_a_game_write_takes_its_game(app, client, write):
    engine = app.extensions["referee.engine"]
    cid = new_oi(client)
    _steps_one_undone(engine, cid)
    with db_session(engine) as s:
        seen = tc.get_campaign(s, cid).version
    # Games and campaigns are two kinds on the one path, each turn the same per-row lock.
    assert tc.CAMPAIGNS.turn(None, cid) is turn_of(Campaign, cid)
    assert isinstance(tc.CAMPAIGNS, write_path.DocumentKind)
    done = threading.Event()

    def writer() -> None:
        with db_session(engine) as s:
            WRITES[write](s, cid, seen)
        done.set()

    with turn_of(Campaign, cid):  # another write holds the campaign's turn
        t = threading.Thread(target=writer)
        t.start()
        assert not done.wait(0.3), f"the campaign's {write} did not wait for the campaign's turn"
        with db_session(engine) as s:
            assert tc.get_campaign(s, cid).version == seen
    assert done.wait(10), f"the campaign's {write} never went on once the turn was given back"
    t.join(10)
    with db_session(engine) as s:
        assert tc.get_campaign(s, cid).version == seen + 1
