"""The whole campaign as one file: export → import → export gives the same bytes, games and
their logs included; a bad file is refused whole, with a message, and leaves nothing behind."""
from __future__ import annotations

import json

import pytest
from _campaign_play import act, new_oi_campaign, wreck_and_finish
from sqlmodel import select

from referee.table import campaign_file
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table.models import Game
from referee.table.service import BadInput


def played(db):
    c = new_oi_campaign(db)
    tc.perform(db, c.id, c.version, "plan_engagement", {}, who="Ute")
    game = cg.start_engagement(db, c.id, tc.get_campaign(db, c.id).version)
    wreck_and_finish(db, game.id, hurt={"p1-r1": {"hull": 1}})
    cg.begin_aftermath(db, c.id, tc.get_campaign(db, c.id).version)
    c = tc.get_campaign(db, c.id)
    tc.perform(db, c.id, c.version, "salvage_roll", {"player": "p1"}, typed_dice=[9])
    tc.undo(db, c.id, tc.get_campaign(db, c.id).version)  # an undone step travels too
    return tc.get_campaign(db, c.id)


def test_export_import_export_is_byte_equal(db):
    c = played(db)
    first = campaign_file.export_campaign(db, c.id)
    again = campaign_file.import_campaign(db, first.encode())
    assert again.id != c.id
    second = campaign_file.export_campaign(db, again.id)
    assert second == first
    data = json.loads(first)
    assert data["format"] == "referee-campaign" and len(data["games"]) == 1 and data["games"][0]["log"]
    assert data["campaign"]["state"]["games"]["1"]["game_id"] == "game:1"


def test_the_imported_campaign_carries_on(db):
    c = played(db)
    again = campaign_file.import_campaign(db, campaign_file.export_campaign(db, c.id).encode())
    assert again.state == {**c.state, "games": {"1": {**c.state["games"]["1"],
                                                       "game_id": tc.games_of(db, again.id)[0].game_id}},
                           "aftermath": again.state["aftermath"]}
    tc.perform(db, again.id, again.version, "salvage_roll", {"player": "p2"}, typed_dice=[1])
    assert [r.latest for r in tc.rosters(db, again.id)] == [r.latest for r in tc.rosters(db, c.id)]


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(format="something"), "not a Referee campaign file"),
    (lambda d: d.update(format_version=9), "format version 1"),
    (lambda d: d["campaign"].update(kind="chess"), "no kind of campaign"),
    (lambda d: d["campaign"]["state"]["tables"].update(salvage=[]), "salvage"),
    (lambda d: d["campaign"].pop("state"), "“state” is missing"),
    (lambda d: d["log"].append(dict(d["log"][0])), "appears twice"),
    (lambda d: d["games"][0]["game"].update(created="yesterday"), "not a time"),
    (lambda d: d.update(rosters="none"), "not a list"),
    (lambda d: d["campaign"]["state"]["rosters"]["p1"]["rigs"]["r1"].pop("damage"), "rosters › p1 › rigs › r1 › damage"),
    (lambda d: d["campaign"]["state"]["players"]["p2"].update(iron="lots"), "players › p2 › iron"),
])
def test_a_bad_file_is_refused_whole_with_a_message(db, change, words):
    c = played(db)
    data = json.loads(campaign_file.export_campaign(db, c.id))
    change(data)
    games_before = len(db.exec(select(Game)).all())
    with pytest.raises(BadInput, match=words):
        campaign_file.import_campaign(db, json.dumps(data).encode())
    assert len(tc.list_campaigns(db)) == 1 and len(db.exec(select(Game)).all()) == games_before


def test_a_file_that_is_not_json_is_refused(db):
    with pytest.raises(BadInput, match="not readable JSON"):
        campaign_file.import_campaign(db, b"\x89PNG")


def test_the_routes_export_and_import(client, app_db):
    from test_campaign_routes import new_oi
    cid = new_oi(client)
    r = client.get(f"/campaigns/{cid}/export")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    r2 = client.post("/campaigns/import", data={"file": (__import__("io").BytesIO(r.data), "c.json")},
                     content_type="multipart/form-data")
    assert r2.status_code == 303
    new_id = int(r2.headers["Location"].split("?")[0].rstrip("/").split("/")[-1])
    # the same campaign, under a name of its own beside the one it came from (and the page says so)
    assert client.get(f"/campaigns/{new_id}/export").data == r.data.replace(b'"Oil Night"', b'"Oil Night (imported)"', 1)
    bad = client.post("/campaigns/import", data={"file": (__import__("io").BytesIO(b"{}"), "c.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 422 and "Nothing was imported" in bad.get_data(as_text=True)


def test_a_hundred_days_campaign_round_trips_byte_equal(db):
    c = cg.new_hundred_days(db, "1815", "Nap", "Duke")
    game = cg.start_battle(db, c.id, c.version, "ligny")
    act(db, game.id, "end_battle", decision="blue", reason="test")
    cg.record_battle(db, c.id, tc.get_campaign(db, c.id).version, "ligny", {"commanders_lost": ["general:coalition"]})
    first = campaign_file.export_campaign(db, c.id)
    again = campaign_file.import_campaign(db, first.encode())
    assert campaign_file.export_campaign(db, again.id) == first


def test_a_deeply_nested_or_unreadable_tables_text_is_refused_not_a_crash(client, app_db):
    from test_campaign_routes import new_oi, version
    cid = new_oi(client)
    for bad, words in (("a: " + "[" * 3000 + "]" * 3000, "cannot be read"),
                       ("a: &a [x, x]\nb: [*a, *a]\n", "anchors"), ("[1, 2]", "YAML mapping")):
        r = client.post(f"/campaigns/{cid}/tables", data={"version": version(app_db, cid), "tables": bad})
        assert r.status_code == 422 and words in r.get_data(as_text=True)
    deep = '{"format": "referee-campaign", "x": ' + "[" * 3000 + "]" * 3000 + "}"
    with pytest.raises(BadInput, match="nests more than"):
        campaign_file.import_campaign(app_db, deep.encode())
