"""The campaign pages and actions through the Flask client: create, plan, start from the rosters,
the Aftermath with typed and app-rolled dice, overrides, undo, settings and tables, printable
sheets, the Hundred Days, and bad input or a stale version answered with a message that
changes nothing."""
from __future__ import annotations

import re

from _campaign_play import wreck_and_finish

from referee.table import campaigns as tc
from referee.table import service


def text(resp) -> str:
    import html
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", resp.get_data(as_text=True))))


def new_oi(client) -> int:
    r = client.post("/campaigns/new", data={"kind": "oilandiron", "name": "Oil Night", "p1-name": "Anna",
                                            "p1-squadron": "example:example-sword-squadron", "p2-name": "Ben",
                                            "p2-squadron": "example:example-sword-squadron",
                                            "tables": "oilandiron-example-tables.yaml"})
    assert r.status_code == 303, text(r)
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def version(app_db, cid) -> int:
    app_db.expire_all()
    return tc.get_campaign(app_db, cid).version


def test_the_campaigns_page_lists_and_creates_campaigns(client):
    assert "New Of Oil and Iron campaign" in text(client.get("/campaigns"))
    cid = new_oi(client)
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Oil Night" in page and "Jackal" in page and "XP 0 · Green" in page and "example, not official" in page
    assert "Oil Night" in text(client.get("/campaigns"))


def test_bad_campaigns_are_refused_with_a_message(client):
    r = client.post("/campaigns/new", data={"kind": "oilandiron", "name": "X", "p1-name": "A", "p1-squadron": "example:nope",
                                            "p2-name": "B", "p2-squadron": "example:example-sword-squadron"})
    assert r.status_code == 422 and "example squadron is not there" in text(r)
    r = client.post("/campaigns/new", data={"kind": "oilandiron", "name": "X", "p1-name": "A",
                                            "p1-squadron": "example:example-claymore-squadron", "p2-name": "B",
                                            "p2-squadron": "example:example-sword-squadron"})
    assert r.status_code == 422 and "Skirmish-sized" in text(r)
    assert client.post("/campaigns/new", data={"kind": "chess", "name": "X"}).status_code == 422
    assert client.get("/campaigns/999").status_code == 404


def test_plan_start_and_a_stale_write_is_refused(client, app_db):
    cid = new_oi(client)
    v = version(app_db, cid)
    r = client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": v, "engagement": "iron_clash",
                                                                   "deployment": "roll", "battlefield": "Oil Fields",
                                                                   "typed": "4"})
    assert r.status_code == 303
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Next: Iron Clash — Close Quarters deployment, on Oil Fields" in page
    r = client.post(f"/campaigns/{cid}/act/umpire_override", data={"version": v, "field": "players.p1.iron",
                                                                   "value": "1", "reason": "x"})
    assert r.status_code == 409 and "Another tablet changed this campaign first" in text(r)
    assert tc.get_campaign(app_db, cid).state["players"]["p1"]["iron"] == 10
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid), "aggressor": "p1"})
    assert r.status_code == 303 and "/games/" in r.headers["Location"]


def test_bad_input_gets_a_clear_message_and_changes_nothing(client, app_db):
    cid = new_oi(client)
    v = version(app_db, cid)
    for data, words in (({"typed": "13 1 1"}, "A D12 shows 1 to 12"), ({"typed": "x"}, "is not a die result"),
                        ({"engagement": "chess"}, "no engagement")):
        r = client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": v, **data})
        assert r.status_code == 422 and words in text(r)
    r = client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": v, "rig": "p1/r9"})
    assert r.status_code == 422 and "No Aftermath is open" in text(r)
    r = client.post(f"/campaigns/{cid}/aftermath", data={"version": v})
    assert r.status_code == 422 and "No engagement is waiting" in text(r)
    assert client.post(f"/campaigns/{cid}/act/plan_engagement", data={}).status_code == 422
    assert client.post(f"/campaigns/{cid}/act/no_such_step", data={"version": v}).status_code == 404
    assert client.post(f"/campaigns/{cid}/act/begin_aftermath", data={"version": v}).status_code == 404
    assert version(app_db, cid) == v


def test_typed_dice_that_run_out_ask_for_more(client, app_db):
    cid = new_oi(client)
    r = client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": version(app_db, cid), "typed": "3"})
    assert r.status_code == 422 and "Roll 1 D6" in text(r) and "Nothing was changed" in text(r)


def to_aftermath(client, app_db, cid):
    client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": version(app_db, cid), "engagement": "iron_clash",
                                                               "deployment": "Battle Lines", "battlefield": "Open Plains"})
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid)})
    game_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    r = client.post(f"/campaigns/{cid}/aftermath", data={"version": version(app_db, cid)})
    assert r.status_code == 422 and "not over yet" in text(r)
    wreck_and_finish(app_db, game_id, hurt={"p1-r1": {"hull": 1}})
    r = client.post(f"/campaigns/{cid}/aftermath", data={"version": version(app_db, cid)})
    assert r.status_code == 303
    return game_id


def test_the_aftermath_step_by_step_with_odds_undo_and_close(client, app_db):
    cid = new_oi(client)
    to_aftermath(client, app_db, cid)
    page = text(client.get(f"/campaigns/{cid}"))
    assert "The Aftermath of engagement 1" in page and "Recovery of" in page and "struck off the roster 33%" in page
    assert "Apply the frame" not in page  # no Rig here carries an Experimental Load-Bearing Frame
    r = client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": version(app_db, cid), "rig": "p2/r1",
                                                                 "typed": "11"})
    assert r.status_code == 303
    assert "Recovered whole" in text(client.get(f"/campaigns/{cid}"))
    for rig in ("p2/r2", "p2/r3"):
        client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": version(app_db, cid), "rig": rig})
    for p in ("p1", "p2"):
        client.post(f"/campaigns/{cid}/act/salvage_roll", data={"version": version(app_db, cid), "player": p})
    r = client.post(f"/campaigns/{cid}/act/close_aftermath", data={"version": version(app_db, cid)})
    assert r.status_code == 422 and "experience and rewards" in text(r)
    client.post(f"/campaigns/{cid}/act/experience", data={"version": version(app_db, cid)})
    client.post(f"/campaigns/{cid}/act/close_aftermath", data={"version": version(app_db, cid)})
    c = tc.get_campaign(app_db, cid)
    assert c.state["aftermath"] is None and c.state["rosters"]["p1"]["rigs"]["r1"]["xp"] == 3
    hull = c.state["rosters"]["p1"]["rigs"]["r1"]["structure_max"]["hull"]
    assert f"Hull 1/{hull}" in text(client.get(f"/campaigns/{cid}"))


def test_the_whole_aftermath_undone_from_its_button(client, app_db):
    cid = new_oi(client)
    to_aftermath(client, app_db, cid)
    client.post(f"/campaigns/{cid}/act/salvage_roll", data={"version": version(app_db, cid), "player": "p1", "typed": "12"})
    seq = next(e.seq for e in tc.log(app_db, cid) if e.action == "begin_aftermath")
    r = client.post(f"/campaigns/{cid}/undo", data={"version": version(app_db, cid), "back_to": seq})
    assert r.status_code == 303
    app_db.expire_all()
    c = tc.get_campaign(app_db, cid)
    assert c.state["aftermath"] is None and c.state["players"]["p1"]["iron"] == 10
    log = text(client.get(f"/campaigns/{cid}/log"))
    assert "undone" in log and "Salvage rolls" in log


def test_override_settings_tables_and_print(client, app_db):
    cid = new_oi(client)
    r = client.post(f"/campaigns/{cid}/act/umpire_override", data={
        "version": version(app_db, cid), "field": "players.p2.iron", "value": "20", "reason": "late joiner", "who": "Ute"})
    assert r.status_code == 303
    log = text(client.get(f"/campaigns/{cid}/log"))
    assert "Umpire override" in log and "by Ute" in log and "late joiner" in log
    page = text(client.get(f"/campaigns/{cid}/settings"))
    assert "Damage carries" in page and "starting_iron" in page
    r = client.post(f"/campaigns/{cid}/act/change_setting", data={"version": version(app_db, cid),
                                                                  "name": "damage_carries", "value": "no"})
    assert r.status_code == 303 and tc.get_campaign(app_db, cid).state["settings"]["damage_carries"] is False
    r = client.post(f"/campaigns/{cid}/tables", data={"version": version(app_db, cid), "tables": "label: [unclosed"})
    assert r.status_code == 422 and "not readable YAML" in text(r)
    r = client.post(f"/campaigns/{cid}/tables", data={"version": version(app_db, cid), "tables": "label: x\nofficial: false"})
    assert r.status_code == 422 and "starting_iron" in text(r)
    sheet = text(client.get(f"/campaigns/{cid}/print"))
    assert "roster sheets" in sheet and "Jackal" in sheet


def test_the_hundred_days_pages(client, app_db):
    r = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "1815", "french": "Nap", "coalition": "Duke",
                                            "recovery": "half"})
    cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    page = text(client.get(f"/campaigns/{cid}"))
    assert "16 June: The Emperor Strikes" in page and "Campaign VP: French 0 · Coalition 0" in page
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid), "battle": "waterloo"})
    assert r.status_code == 422 and "18 June" in text(r)
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid), "battle": "ligny"})
    game_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    r = client.post(f"/campaigns/{cid}/record/ligny", data={"version": version(app_db, cid)})
    assert r.status_code == 422 and "not over yet" in text(r)
    g = service.get_game(app_db, game_id)
    service.perform(app_db, game_id, g.version, "end_battle", {"decision": "blue", "reason": "test"})
    r = client.post(f"/campaigns/{cid}/record/ligny", data={"version": version(app_db, cid), "degree": "major",
                                                            "reason": "scenario terms"})
    assert r.status_code == 303
    page = text(client.get(f"/campaigns/{cid}"))
    assert "Ligny" in page and "Major" in page and "Campaign VP: French 3" in page
    assert "Umpire override" in page or "major" in page.lower()
    assert "Armée du Nord" in text(client.get(f"/campaigns/{cid}/print"))


def test_who_made_each_step_and_requests_that_cannot_apply(client, app_db):
    cid = new_oi(client)
    client.post("/lists/owner", data={"owner": "Umpire Ute", "next": f"/campaigns/{cid}"})
    client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": version(app_db, cid)})
    assert tc.log(app_db, cid)[0].who == "Umpire Ute"
    assert "Your name, for the campaign log" in text(client.get(f"/campaigns/{cid}"))
    assert client.post(f"/campaigns/{cid}/record/ligny", data={"version": version(app_db, cid)}).status_code == 404
    r = client.post(f"/campaigns/{cid}/act/repair", data={"version": version(app_db, cid), "rig": "p1/r1",
                                                         "what": "hull", "sp": "lots"})
    assert r.status_code == 422


def test_the_log_undoes_back_to_any_step(client, app_db):
    cid = new_oi(client)
    for value in (1, 2, 3):
        client.post(f"/campaigns/{cid}/act/umpire_override", data={
            "version": version(app_db, cid), "field": "players.p1.iron", "value": str(value), "reason": "test"})
    page = text(client.get(f"/campaigns/{cid}/log"))
    assert "Undo back to step 2" in page and "Undo back to step 3" not in page  # the newest has "Undo the last step"
    r = client.post(f"/campaigns/{cid}/undo", data={"version": version(app_db, cid), "back_to": 2})
    assert r.status_code == 303
    app_db.expire_all()
    assert tc.get_campaign(app_db, cid).state["players"]["p1"]["iron"] == 1
    assert [e.undone for e in tc.log(app_db, cid)] == [True, True, False]
