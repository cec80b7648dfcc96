"""Campaigns on a club server: the owner is the signed-in account that made it, never a name the
form sends; a campaign is read by its owner, its players and the tablets seated at its games, not
by anyone on the network."""
from __future__ import annotations

from _security_helpers import PASSWORD, db, fingerprint, log_in
from sqlmodel import select

from referee.table import accounts
from referee.table import campaign_games as cg
from referee.table.campaigns import Campaign


def _campaign(app, owner="Ann", french="Bob", coalition="Dora") -> int:
    with db(app) as s:
        return cg.new_hundred_days(s, "Grouchy's Ride", french, coalition, owner=owner).id


def _cleo(app):
    with db(app) as s:
        accounts.register(s, "Cleo", PASSWORD)
    return log_in(app.test_client(), "Cleo")


def test_the_owner_comes_from_the_session_not_the_form(club_app):
    """Issue 35, 4: ``who=Ann`` from a tablet signed in as Bob makes Bob's campaign."""
    bob = log_in(club_app.test_client(), "Bob")
    r = bob.post("/campaigns/new", data={"kind": "hundred_days", "name": "Bob's war", "french": "Bob",
                                         "coalition": "Ann", "who": "Ann"})
    assert r.status_code == 303
    with db(club_app) as s:
        assert s.exec(select(Campaign).where(Campaign.name == "Bob's war")).one().owner == "Bob"


def test_a_campaign_is_read_only_by_its_owner_players_and_umpire(club_app):
    """Issue 35, 4: an anonymous client or a member with no part in it reads nothing of it."""
    campaign_id = _campaign(club_app, owner="Ann", french="Bob")
    pages = [f"/campaigns/{campaign_id}", f"/campaigns/{campaign_id}/export", f"/campaigns/{campaign_id}/log",
             f"/campaigns/{campaign_id}/settings", f"/campaigns/{campaign_id}/print"]
    outsiders = (club_app.test_client(), _cleo(club_app))
    insiders = {name: log_in(club_app.test_client(), name) for name in ("Ann", "Bob")}
    before = fingerprint(club_app)
    for client in outsiders:
        for path in pages:
            r = client.get(path)
            assert r.status_code == 403 and "Grouchy" not in r.get_data(as_text=True), path
        assert "Grouchy" not in client.get("/campaigns").get_data(as_text=True)
    for name, client in insiders.items():  # the owner, and a player by the name the campaign has for him
        for path in pages:
            assert client.get(path).status_code == 200, (name, path)
        assert "Grouchy" in client.get("/campaigns").get_data(as_text=True)
    assert fingerprint(club_app) == before


def test_a_player_reads_but_does_not_change_the_campaign(club_app):
    campaign_id = _campaign(club_app, owner="Ann", french="Bob")
    bob = log_in(club_app.test_client(), "Bob")
    before = fingerprint(club_app)
    assert bob.post(f"/campaigns/{campaign_id}/undo", data={"version": "1"}).status_code == 403
    assert fingerprint(club_app) == before


def test_pages_show_only_messages_the_app_set(club_app):
    """Issue 35, 7: ``?message=`` in a link is not the page's alert."""
    ann = log_in(club_app.test_client(), "Ann")
    campaign_id = _campaign(club_app)
    for path in ("/account", "/games/1/settings", f"/campaigns/{campaign_id}", f"/campaigns/{campaign_id}/settings"):
        page = ann.get(f"{path}?message=Send+your+password+to+evil.example").get_data(as_text=True)
        assert "evil.example" not in page, path
