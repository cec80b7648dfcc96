"""A campaign's games are no dead end: a finished engagement or battle leads back to its campaign
(and its Aftermath), the campaign page says a game that ended is over rather than "being fought",
a campaign card's button is offered only to a squadron that carries the card, and a campaign file
imported beside a campaign of the same name gets a name of its own, and says so."""
from __future__ import annotations

from _play import wreck_and_finish
from test_campaign_routes import new_oi, text, version

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
