"""Two tables of one campaign writing at the same instant, each with its own database session as
two tablets' requests have: one waits or is told, nothing is applied twice, nothing is lost."""
from __future__ import annotations

import threading

from test_two_tables import act, break_through, by_title, eighteenth, i_corps, start, to_turn_2

from referee.campaigns.hundred_days_links import candidates
from referee.core.dice import ScriptedDice
from referee.table import campaign_day as cd
from referee.table import campaigns as tc
from referee.table import service
from referee.table.db import session as db_session


def at_once(engine, *calls):
    """Run each call(db) in its own thread and session, released together; their outcomes."""
    gate = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i, call):
        with db_session(engine) as db:
            gate.wait()
            try:
                out[i] = ("done", call(db))
            except service.TableError as e:
                out[i] = ("told", e.message)
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def test_i_corps_brought_on_at_both_tables_at_once_arrives_at_one_only(db, engine):
    for _ in range(3):
        c, games = start(db)
        ligny, qb = by_title(games, "Ligny"), by_title(games, "Quatre")
        seen = {g.id: (service.get_game(db, g.id).version, i_corps(db, g.id)["id"]) for g in games}

        def bring_on(game_id):
            return lambda s: service.perform(s, game_id, seen[game_id][0], "arrive",
                                             {"reserve": seen[game_id][1], "early": True}).entry.seq
        outcomes = at_once(engine, bring_on(qb.id), bring_on(ligny.id))
        assert sorted(o[0] for o in outcomes) == ["done", "told"], outcomes
        db.expire_all()
        at = tc.get_campaign(db, c.id).state["links"]["i_corps"]["at"]
        winner, loser = (qb, ligny) if at == "quatre-bras" else (ligny, qb)
        assert i_corps(db, winner.id)["status"] == "arrived"
        assert i_corps(db, loser.id) is None  # gone from the other table, not arrived there too
        told = next(o[1] for o in outcomes if o[0] == "told")
        assert "changed this game first" in told or "already arrived" in told or "no reserve" in told


def test_a_breakthrough_and_a_choice_written_to_the_campaign_at_once_are_both_kept(db, engine):
    c, games = start(db, plan=eighteenth())
    wavre, waterloo = by_title(games, "Wavre"), by_title(games, "Waterloo")
    to_turn_2(db, waterloo.id)
    to_turn_2(db, wavre.id)
    break_through(db, wavre.id)
    first = tc.get_campaign(db, c.id).state["links"]["breakthroughs"][0]
    u = service.get_game(db, wavre.id).state["units"]
    second = [x for x in u.values() if x["side"] == "red" and not x.get("awaiting")][1]
    act(db, wavre.id, "adjust_unit", unit=second["id"], field="in_combat", value="yes")
    pick = candidates(service.get_game(db, waterloo.id).state, "II Corps")[0]["unit"]
    campaign_version = tc.get_campaign(db, c.id).version
    wavre_version = service.get_game(db, wavre.id).version

    def choose(s):
        return cd.choose(s, c.id, campaign_version, first["id"], pick, who="Wel")["status"]

    def hit(s):
        return service.perform(s, wavre.id, wavre_version, "take_hits",
                               {"unit": second["id"], "hits": second["stamina"], "source": "hand_to_hand",
                                "break_test_if_needed": False}, dice=ScriptedDice([1] * 12)).entry.seq
    outcomes = at_once(engine, choose, hit)
    db.expire_all()
    listed = tc.get_campaign(db, c.id).state["links"]["breakthroughs"]
    assert outcomes[1][0] == "done"  # the table's own action is never lost to the campaign's write
    if outcomes[0][0] == "done":
        assert [b["status"] for b in listed] == ["chosen", "pending"]
        assert service.get_game(db, waterloo.id).state["units"][pick]["disordered"] is True
    else:  # told: the campaign moved on while the Coalition chose; nothing of it was applied
        assert "first" in outcomes[0][1]
        assert [b["status"] for b in listed] == ["pending", "pending"]
        assert service.get_game(db, waterloo.id).state["units"][pick]["disordered"] is False
    entries = tc.log(db, c.id)
    assert len({e.seq for e in entries}) == len(entries)  # no step written over another
