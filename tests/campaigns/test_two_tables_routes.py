"""A day on two tables through the Flask client: started side by side from the campaign page,
each table live on it, the Coalition's choice after a breakthrough at Wavre made on Waterloo's
table page, and bad or stale input answered with a message that changes nothing."""
from __future__ import annotations

import re
from urllib.parse import unquote

from test_campaign_routes import text, version
from test_two_tables import act, broken_through_on_the_day, eighteenth

from referee.campaigns.hundred_days_links import candidates
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table import service


def new_hd(client) -> int:
    r = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "Event", "french": "Nap", "coalition": "Wel"})
    assert r.status_code == 303
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def test_the_16th_is_started_side_by_side_from_the_campaign_page_and_both_tables_show(client, app_db):
    cid = new_hd(client)
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Start Ligny and Quatre Bras side by side" in page
    assert "decline I Corps's entry checks at Ligny" in page
    r = client.post(f"/campaigns/{cid}/start-day", data={"version": version(app_db, cid), "decline_i_corps": "on"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#tables")
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Turn 1 of 8 · French Command" in page and "Turn 1 of 12 · French Command" in page
    live = text(client.get(f"/campaigns/{cid}/tables"))
    assert "Ligny" in live and "Quatre Bras" in live and "Fighting" in live
    doc = tc.get_campaign(app_db, cid).state
    ligny = service.get_game(app_db, doc["battles"]["ligny"]["game_id"])
    assert not any(r["label"] == "I Corps" for r in ligny.state["reserves"].values())
    # Started already: a second start is refused with a message, nothing changed.
    v = version(app_db, cid)
    r = client.post(f"/campaigns/{cid}/start-day", data={"version": v})
    assert r.status_code == 422 and "Fewer than two battles" in text(r)
    assert version(app_db, cid) == v
    r = client.post(f"/campaigns/{cid}/act/start_day_together", data={"version": v, "day": "16"})
    assert r.status_code == 404


def test_the_coalition_chooses_on_waterloos_table_page(client, app, app_db):
    c = cg.new_hundred_days(app_db, "Event", "Nap", "Wel", plan=eighteenth(), seed=5)
    r = client.post(f"/campaigns/{c.id}/start-day", data={"version": c.version})
    assert r.status_code == 303
    wavre, waterloo = broken_through_on_the_day(app_db, c.id)
    page = text(client.get(f"/campaigns/{c.id}/table/waterloo"))
    assert "Coalition's choice" in page and "Which II Corps unit arrives disordered" in page
    # Waterloo's own board leads to the choice it owes.
    owed = "A breakthrough at Wavre: choose which reinforcing unit arrives disordered"
    assert owed in text(client.get(f"/games/{waterloo}"))
    assert "Open the Waterloo board" in page
    assert "waiting for the Coalition's choice" in text(client.get(f"/campaigns/{c.id}/tables?battle=wavre"))
    bt = tc.get_campaign(app_db, c.id).state["links"]["breakthroughs"][0]
    pick = candidates(service.get_game(app_db, waterloo).state, "II Corps")[2]
    # A stale version, then a unit not on its way: each told, nothing changed.
    r = client.post(f"/campaigns/{c.id}/choose/{bt['id']}", data={"version": 1, "unit": pick["unit"]})
    assert r.status_code == 409
    v = version(app_db, c.id)
    r = client.post(f"/campaigns/{c.id}/choose/{bt['id']}", data={"version": v, "unit": "nobody"})
    assert r.status_code == 422 and "not a II Corps unit still on its way" in text(r)
    r = client.post(f"/campaigns/{c.id}/choose/{bt['id']}", data={"version": v, "unit": pick["unit"]})
    assert r.status_code == 303
    app_db.expire_all()
    assert service.get_game(app_db, waterloo).state["units"][pick["unit"]]["disordered"] is True
    page = text(client.get(f"/campaigns/{c.id}/table/waterloo"))
    assert "Coalition's choice" not in page and f"{pick['name']} disordered" in page
    assert owed not in text(client.get(f"/games/{waterloo}"))
    log = text(client.get(f"/games/{waterloo}/log"))
    assert "from Wavre, its turn 2" in log
    assert "Reached Waterloo" in text(client.get(f"/games/{wavre}/log"))
    assert client.get(f"/campaigns/{c.id}/table/nowhere").status_code == 404
    act(app_db, waterloo, "next_phase")


def test_the_tables_poll_answers_nothing_changed_until_a_table_moves(client, app_db):
    cid = new_hd(client)
    client.post(f"/campaigns/{cid}/start-day", data={"version": version(app_db, cid)})
    first = client.get(f"/campaigns/{cid}/tables")
    tag = unquote(re.search(r"seen=([^\"&]+)", first.get_data(as_text=True)).group(1))
    assert client.get(f"/campaigns/{cid}/tables", query_string={"seen": tag}).status_code == 204
    app_db.expire_all()
    ligny = tc.get_campaign(app_db, cid).state["battles"]["ligny"]["game_id"]
    act(app_db, ligny, "next_phase")
    moved = client.get(f"/campaigns/{cid}/tables", query_string={"seen": tag})
    assert moved.status_code == 200 and "French Shooting" in text(moved)


def test_the_waterloo_board_follows_a_breakthrough_at_wavre_and_its_undo_without_a_reload(client, app_db):
    """The board's way back asks every second: unchanged, 204; after the breakthrough at the other
    table, the choice it owes; after Wavre undoes it, the plain way back again."""
    c = cg.new_hundred_days(app_db, "Event", "Nap", "Wel", plan=eighteenth(), seed=5)
    client.post(f"/campaigns/{c.id}/start-day", data={"version": c.version})
    app_db.expire_all()
    battles = tc.get_campaign(app_db, c.id).state["battles"]
    waterloo = battles["waterloo"]["game_id"]
    board = client.get(f"/games/{waterloo}").get_data(as_text=True)
    asked = re.search(r'hx-get="(/campaigns/way-back/\d+\?seen=[^"]+)"', board).group(1).replace("&amp;", "&")
    assert client.get(asked).status_code == 204
    wavre, _ = broken_through_on_the_day(app_db, c.id)
    owed = client.get(asked)
    assert owed.status_code == 200
    assert "A breakthrough at Wavre: choose which reinforcing unit arrives disordered" in text(owed)
    assert f"/campaigns/{c.id}/table/waterloo" in owed.get_data(as_text=True)
    now = re.search(r'hx-get="(/campaigns/way-back/\d+\?seen=[^"]+)"', owed.get_data(as_text=True)).group(1)
    assert client.get(now.replace("&amp;", "&")).status_code == 204
    service.undo(app_db, wavre, service.get_game(app_db, wavre).version)
    back = client.get(now.replace("&amp;", "&"))
    assert back.status_code == 200 and "Back to the campaign" in text(back) and "breakthrough" not in text(back)
    assert client.get("/campaigns/way-back/99999").status_code == 404  # no such game


def test_wavres_early_next_phase_is_said_on_the_board_not_inside_a_form(client, app_db):
    """Refused before Waterloo's turn 2, Next phase has nothing to correct: the refusal is a message
    on the board, not the Next phase form again with Record and Cancel."""
    c = cg.new_hundred_days(app_db, "Event", "Nap", "Wel", plan=eighteenth(), seed=5)
    client.post(f"/campaigns/{c.id}/start-day", data={"version": c.version})
    app_db.expire_all()
    wavre = tc.get_campaign(app_db, c.id).state["battles"]["wavre"]["game_id"]
    g = service.get_game(app_db, wavre)
    r = client.post(f"/games/{wavre}/act/next_phase", data={"version": g.version}, headers={"HX-Request": "true"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "Wavre begins 1 turn after Waterloo" in text(r)
    assert "panel-form" not in page and ">Record<" not in page
    assert service.get_game(app_db, wavre).version == g.version
