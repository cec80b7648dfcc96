"""Every finished game keeps a record: its after-action report, its JSON file (re-imported for
review), and, outside any campaign, archive or delete with a confirmation. The games list keeps
games in progress apart from finished ones."""
from __future__ import annotations

import io
import json
import re

from _campaign_play import act, new_oi_campaign, wreck_and_finish
from test_campaign_routes import text

from referee.data.scenarios import new_battle_from_scenario
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table import records, service


def finished_battle(db) -> int:
    game = service.create_game(db, "Saint-Amand", "blackpowder", new_battle_from_scenario("demo"), seed=3)
    unit = next(iter(game.state["units"]))
    act(db, game.id, "dice_mode", mode="typed")
    act(db, game.id, "end_battle", decision="blue", reason="held the village")
    return game.id, unit


def test_the_after_action_report_has_forces_result_losses_and_key_moments(client, app_db):
    gid, _ = finished_battle(app_db)
    page = text(client.get(f"/games/{gid}/report"))
    assert "After-action report: Saint-Amand" in page and "Result:" in page and "win" in page
    assert "Forces and losses" in page and "Key moments" in page and "held the village" in page


def test_an_engagement_report_shows_rigs_and_the_dice_of_each_moment(client, app_db):
    c = new_oi_campaign(app_db)
    tc.perform(app_db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                            "battlefield": "Open Plains"})
    game = cg.start_engagement(app_db, c.id, tc.get_campaign(app_db, c.id).version)
    wreck_and_finish(app_db, game.id)
    page = text(client.get(f"/games/{game.id}/report"))
    assert "Jackal" in page and "destroyed" in page and "VP" in page and "[" in page  # dice in brackets
    assert "Its campaign" in page


def test_a_game_file_re_imports_for_review_with_its_log(client, app_db):
    gid, _ = finished_battle(app_db)
    exported = client.get(f"/games/{gid}/export")
    assert exported.status_code == 200 and json.loads(exported.data)["format"] == "referee-game"
    r = client.post("/games/import", data={"file": (io.BytesIO(exported.data), "g.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    new_id = int(r.headers["Location"].split("/")[-2])
    assert records.export_game(app_db, new_id) == exported.get_data(as_text=True)
    assert "imported for review" in text(client.get("/"))
    bad = client.post("/games/import", data={"file": (io.BytesIO(b'{"format": "referee-game", "format_version": 1}'),
                                                      "g.json")}, content_type="multipart/form-data")
    assert bad.status_code == 422 and "Nothing was imported" in text(bad)


def test_the_games_list_separates_games_in_progress_from_finished_ones(client, app_db):
    service.create_game(app_db, "Still going", "blackpowder", new_battle_from_scenario("demo"))
    finished_battle(app_db)
    page = client.get("/").get_data(as_text=True)
    in_progress = page[page.index("Games in progress"):page.index("Finished games")]
    finished = page[page.index("Finished games"):]
    assert "Still going" in in_progress and "Saint-Amand" not in in_progress
    assert "Saint-Amand" in finished and "Archive" in finished


def test_a_finished_game_outside_any_campaign_can_be_archived_and_deleted_after_confirming(client, app_db):
    gid, _ = finished_battle(app_db)
    assert client.post(f"/games/{gid}/archive", data={"archived": "yes"}).status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "Saint-Amand" in page[page.index("Archived games"):]
    r = client.post(f"/games/{gid}/delete", data={"confirm": "wrong"})
    assert r.status_code == 422 and "type the game's name" in text(r)
    assert "Delete “Saint-Amand”?" in text(client.get(f"/games/{gid}/delete"))
    assert client.post(f"/games/{gid}/delete", data={"confirm": "Saint-Amand"}).status_code == 303
    assert client.get(f"/games/{gid}/report").status_code == 404


def test_unfinished_and_campaign_games_are_kept(client, app_db):
    going = service.create_game(app_db, "Going", "blackpowder", new_battle_from_scenario("demo"))
    r = client.post(f"/games/{going.id}/delete", data={"confirm": "Going"})
    assert r.status_code == 422 and "still being played" in text(r)
    c = new_oi_campaign(app_db)
    tc.perform(app_db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                            "battlefield": "Open Plains"})
    game = cg.start_engagement(app_db, c.id, tc.get_campaign(app_db, c.id).version)
    wreck_and_finish(app_db, game.id)
    r = client.post(f"/games/{game.id}/archive", data={"archived": "yes"})
    assert r.status_code == 422 and "belongs to a campaign" in text(r)


def test_a_game_file_whose_state_the_engine_cannot_read_is_refused(client, app_db):
    gid, unit = finished_battle(app_db)
    data = json.loads(records.export_game(app_db, gid))
    data["game"]["state"]["units"][unit] = {"name": "half a unit"}
    r = client.post("/games/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "g.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422 and "not one Referee can read" in text(r)


def test_a_game_started_after_the_newest_was_deleted_never_shows_the_deleted_ones_board(client, app_db):
    # A database may give the next game the deleted game's number (SQLite reuses the highest id):
    # nothing the server keeps for that number (its board drawn, kept by number and version) may
    # then show the deleted game on the new one's page.
    gid, _ = finished_battle(app_db)
    old = service.get_game(app_db, gid).state
    old_version = service.get_game(app_db, gid).version
    htmx = {"HX-Request": "true"}
    assert client.get(f"/games/{gid}").status_code == 200  # its board drawn, and kept
    assert client.get(f"/games/{gid}/poll?v={old_version - 1}", headers=htmx).status_code == 200  # and its change
    assert client.post(f"/games/{gid}/delete", data={"confirm": "Saint-Amand"}).status_code == 303
    fresh = service.create_game(app_db, "Fresh start", "blackpowder", new_battle_from_scenario("quatre-bras"))
    for n in range(old_version - fresh.version):  # the new game brought to the deleted one's version
        act(app_db, fresh.id, "dice_mode", mode=("typed", "app")[n % 2])
    app_db.expire_all()
    new = service.get_game(app_db, fresh.id).state
    page = text(client.get(f"/games/{fresh.id}")) + client.get(
        f"/games/{fresh.id}/poll?v={old_version - 1}", headers=htmx).get_data(as_text=True)
    only_old = {u["name"] for u in old["units"].values()} - {u["name"] for u in new["units"].values()}
    assert only_old and not [name for name in only_old if re.search(rf"(?<![\w/]){re.escape(name)}(?!\w)", page)]
    assert next(iter(new["units"].values()))["name"] in page
