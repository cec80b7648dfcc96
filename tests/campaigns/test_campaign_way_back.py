"""A campaign's games are no dead end: a finished engagement or battle leads back to its campaign
(and its Aftermath), the campaign page says a game that ended is over rather than "being fought",
a campaign card's button is offered only to a squadron that carries the card, and a campaign file
imported beside a campaign of the same name gets a name of its own, and says so."""
from __future__ import annotations

from _campaign_play import wreck_and_finish
from test_campaign_routes import new_oi, text, version

from referee.table import campaigns as tc
from referee.table import service


def _started(client, app_db) -> tuple[int, int]:
    cid = new_oi(client)
    client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": version(app_db, cid), "engagement": "iron_clash",
                                                               "deployment": "Battle Lines", "battlefield": "Open Plains"})
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid)})
    return cid, int(r.headers["Location"].rstrip("/").split("/")[-1])


def test_an_engagement_leads_back_to_its_campaign_and_its_aftermath(client, app_db):
    cid, game_id = _started(client, app_db)
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/campaigns/{cid}#now"' in board and "Back to the campaign" in board
    assert "is being fought" in text(client.get(f"/campaigns/{cid}"))
    wreck_and_finish(app_db, game_id)
    page = text(client.get(f"/campaigns/{cid}"))
    assert "being fought" not in page
    assert "Engagement 1 is over" in page and "over: its Aftermath is next" in page
    assert "Back to the campaign: begin its Aftermath" in text(client.get(f"/games/{game_id}"))
    client.post(f"/campaigns/{cid}/aftermath", data={"version": version(app_db, cid)})
    assert "Its Aftermath, in the campaign" in text(client.get(f"/games/{game_id}"))
    # a game no campaign started has no such link
    assert "Back to the campaign" not in text(client.get("/games"))


def test_a_battle_that_ended_is_not_still_being_fought(client, app_db):
    r = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "1815", "french": "Nap", "coalition": "Duke"})
    cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid), "battle": "ligny"})
    game_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    assert "being fought" in text(client.get(f"/campaigns/{cid}"))
    g = service.get_game(app_db, game_id)
    service.perform(app_db, game_id, g.version, "end_battle", {"decision": "blue", "reason": "test"})
    page = text(client.get(f"/campaigns/{cid}"))
    assert "being fought" not in page and "over: its result is to be recorded" in page
    board = text(client.get(f"/games/{game_id}"))
    assert "Back to the campaign: record its result" in board


def test_apply_the_frame_is_offered_only_to_a_squadron_that_carries_one(client, app_db):
    cid, game_id = _started(client, app_db)
    wreck_and_finish(app_db, game_id)
    client.post(f"/campaigns/{cid}/aftermath", data={"version": version(app_db, cid)})
    page = text(client.get(f"/campaigns/{cid}"))
    assert "The Aftermath of engagement 1" in page
    assert "Apply the frame" not in page and "Black Market Parts Cache: Rig" not in page
    for card in ("example_flamer", "extinguisher"):  # room for the frame's Iron on Jackal
        r = client.post(f"/campaigns/{cid}/act/refit", data={"version": version(app_db, cid), "rig": "p1/r1",
                                                             "card": card, "remove": "on"})
        assert r.status_code == 303, text(r)
    r = client.post(f"/campaigns/{cid}/act/refit", data={"version": version(app_db, cid), "rig": "p1/r1",
                                                         "card": "experimental_load_bearing_frame"})
    assert r.status_code == 303, text(r)
    page = client.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert "Apply the frame" in page
    form = page[page.index("/act/load_bearing_frame"):]
    form = form[:form.index("</form>")]
    assert 'value="p1/r1"' in form and "p2/" not in form  # only Anna's squadron carries the frame
    client.post(f"/campaigns/{cid}/act/load_bearing_frame", data={"version": version(app_db, cid), "rig": "p1/r2"})
    app_db.expire_all()
    assert tc.get_campaign(app_db, cid).state["rosters"]["p1"]["rigs"]["r2"]["iron_bonus"] == 1
    assert "Apply the frame" not in text(client.get(f"/campaigns/{cid}"))  # its one frame is used


def test_an_import_beside_a_campaign_of_the_same_name_gets_its_own_name_and_says_so(client, app_db):
    import io
    cid = new_oi(client)
    exported = client.get(f"/campaigns/{cid}/export").data
    names = []
    for _ in range(2):
        r = client.post("/campaigns/import", data={"file": (io.BytesIO(exported), "c.json")},
                        content_type="multipart/form-data")
        assert r.status_code == 303
        page = text(client.get(r.headers["Location"]))
        names.append(tc.get_campaign(app_db, int(r.headers["Location"].split("?")[0].rstrip("/").split("/")[-1])).name)
        assert f"A campaign named “Oil Night” is already here, so this one is “{names[-1]}”" in page
    assert names == ["Oil Night (imported)", "Oil Night (imported 2)"]
    listing = text(client.get("/campaigns"))
    assert all(n in listing for n in names)


HX = {"HX-Request": "true"}


def test_each_aftermath_step_taken_with_htmx_answers_only_the_part_that_changes(client, app_db):
    cid, game_id = _started(client, app_db)
    wreck_and_finish(app_db, game_id)
    r = client.post(f"/campaigns/{cid}/aftermath", data={"version": version(app_db, cid)}, headers=HX)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and body.lstrip().startswith('<div id="campaign-live"') and "<html" not in body
    assert "The Aftermath of engagement 1" in body and f'value="{version(app_db, cid)}"' in body
    r = client.post(f"/campaigns/{cid}/act/recovery_roll", data={"version": version(app_db, cid), "rig": "p2/r1",
                                                                 "typed": "11"}, headers=HX)
    assert r.status_code == 200 and "Recovered whole" in text(r) and "<html" not in r.get_data(as_text=True)
    # a stale tablet's step: the fresh part and the message, swapped like any answer (409), nothing changed
    v = version(app_db, cid)
    r = client.post(f"/campaigns/{cid}/act/salvage_roll", data={"version": v - 1, "player": "p1"}, headers=HX)
    assert r.status_code == 409 and 'id="campaign-live"' in r.get_data(as_text=True)
    assert "Another tablet changed this campaign first" in text(r) and version(app_db, cid) == v
    r = client.post(f"/campaigns/{cid}/act/salvage_roll", data={"version": v, "player": "p1", "typed": "x"}, headers=HX)
    assert r.status_code == 422 and "is not a die result" in text(r) and "<html" not in r.get_data(as_text=True)
    # without JavaScript the same form still posts and comes back as the whole page
    r = client.post(f"/campaigns/{cid}/act/salvage_roll", data={"version": v, "player": "p1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/campaigns/{cid}#now")


def test_a_step_that_opens_a_game_takes_the_tablet_to_it(client, app_db):
    cid = new_oi(client)
    client.post(f"/campaigns/{cid}/act/plan_engagement", data={"version": version(app_db, cid)}, headers=HX)
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid)}, headers=HX)
    assert r.status_code == 204 and "/games/" in r.headers["HX-Redirect"]
