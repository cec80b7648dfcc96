"""Campaigns through the table service: the same one path as a game (version check, one
transaction, log with dice and rule, undo), roster history, games started from the rosters'
current versions, and a finished game read into the campaign."""
from __future__ import annotations

import copy

import pytest
from _campaign_helpers import EXAMPLE_TABLES
from _campaign_play import act, new_oi_campaign, sword, wreck_and_finish

from referee.campaigns import oilandiron as oi
from referee.lists.oilandiron import EquipmentPick
from referee.table import campaign_games as cg
from referee.table import campaigns as tc
from referee.table import service
from referee.table.service import BadInput


def test_a_new_campaign_has_its_players_and_the_first_version_of_each_roster(db):
    c = new_oi_campaign(db)
    rosters = tc.rosters(db, c.id)
    assert [(r.key, r.name, r.latest) for r in rosters] == [("p1", "Anna's Sword", 1), ("p2", "Ben's Sword", 1)]
    assert c.state["players"]["p1"] == {"name": "Anna", "iron": 10}
    assert tc.log(db, c.id) == []


def test_a_step_is_logged_with_its_dice_rule_and_who_and_can_be_undone_and_redone(db):
    c = new_oi_campaign(db)
    c, entry, result = tc.perform(db, c.id, c.version, "plan_engagement", {}, who="Umpire Ute")
    assert entry.seq == 1 and entry.who == "Umpire Ute" and entry.dice_source == "app"
    assert [d["sides"] for d in entry.dice] == [12, 6, 6] and c.state["next"]["engagement"]
    tc.undo(db, c.id, c.version)
    c = tc.get_campaign(db, c.id)
    assert c.state["next"]["engagement"] is None and tc.log(db, c.id)[0].undone
    tc.redo(db, c.id, c.version)
    assert tc.get_campaign(db, c.id).state["next"] == result.changes[0].after


def test_a_stale_version_is_refused_and_changes_nothing(db):
    c = new_oi_campaign(db)
    before = c.version
    tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "siege", "deployment": "Battle Lines",
                                                        "battlefield": "Salt Flats"})
    with pytest.raises(tc.CampaignStale, match="Another tablet changed this campaign"):
        tc.perform(db, c.id, before, "umpire_override", {"field": "players.p1.iron", "value": "3", "reason": "x"})
    assert tc.get_campaign(db, c.id).state["players"]["p1"]["iron"] == 10


def test_typed_dice_are_used_and_a_roll_out_of_range_is_refused(db):
    c = new_oi_campaign(db)
    with pytest.raises(BadInput, match="D12 shows 1 to 12"):
        tc.perform(db, c.id, c.version, "plan_engagement", {}, typed_dice=[13, 1, 1])
    with pytest.raises(service.NeedDice, match="Roll 1 D6"):
        tc.perform(db, c.id, c.version, "plan_engagement", {}, typed_dice=[1, 1])
    c, entry, _ = tc.perform(db, c.id, c.version, "plan_engagement", {}, typed_dice=[1, 1, 1])
    assert entry.dice_source == "typed" and c.state["next"]["engagement"] == "iron_clash"


def test_an_engagement_starts_from_the_rosters_current_versions_and_remembers_them(db):
    c = new_oi_campaign(db)
    tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                        "battlefield": "Open Plains"})
    game = cg.start_engagement(db, c.id, tc.get_campaign(db, c.id).version, who="Anna")
    link = tc.campaign_of_game(db, game.id)
    assert link.step == "1" and link.roster_versions == {"p1": 1, "p2": 1}
    assert game.state["campaign"] is True and set(game.state["rigs"]) == {"p1-r1", "p1-r2", "p1-r3",
                                                                          "p2-r1", "p2-r2", "p2-r3"}
    c = tc.get_campaign(db, c.id)
    assert c.state["games"]["1"]["pieces"]["p2-r3"] == "p2/r3"


def test_an_aftermath_for_an_unfinished_engagement_is_refused(db):
    c = new_oi_campaign(db)
    tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                        "battlefield": "Open Plains"})
    cg.start_engagement(db, c.id, tc.get_campaign(db, c.id).version)
    with pytest.raises(BadInput, match="not over yet"):
        cg.begin_aftermath(db, c.id, tc.get_campaign(db, c.id).version)


def play_first_engagement(db):
    c = new_oi_campaign(db)
    tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                        "battlefield": "Open Plains"})
    game = cg.start_engagement(db, c.id, tc.get_campaign(db, c.id).version)
    wreck_and_finish(db, game.id, hurt={"p1-r1": {"hull": 1}})
    return c, game


def aftermath_rolled(db, c):
    """The Aftermath of the engagement just played begun, Ben's three wrecked Rigs recovered whole
    (12), each player's salvage rolled (5) and experience given: the campaign, ready to close it."""
    cg.begin_aftermath(db, c.id, tc.get_campaign(db, c.id).version)
    c = tc.get_campaign(db, c.id)
    for rig in ("p2/r1", "p2/r2", "p2/r3"):
        c, *_ = tc.perform(db, c.id, c.version, "recovery_roll", {"rig": rig}, typed_dice=[12])
    for p in ("p1", "p2"):
        c, *_ = tc.perform(db, c.id, c.version, "salvage_roll", {"player": p}, typed_dice=[5])
    c, *_ = tc.perform(db, c.id, c.version, "experience", {})
    return c


def test_two_engagements_carry_damage_and_experience_through_the_aftermath(db):
    c, game = play_first_engagement(db)
    cg.begin_aftermath(db, c.id, tc.get_campaign(db, c.id).version, who="Umpire")
    c = tc.get_campaign(db, c.id)
    jackal = c.state["rosters"]["p1"]["rigs"]["r1"]
    assert jackal["damage"]["hull"] == jackal["structure_max"]["hull"] - 1
    for rig in ("p2/r1", "p2/r2", "p2/r3"):
        c, *_ = tc.perform(db, c.id, c.version, "recovery_roll", {"rig": rig}, typed_dice=[12])
    for p in ("p1", "p2"):
        c, *_ = tc.perform(db, c.id, c.version, "salvage_roll", {"player": p}, typed_dice=[5])
    c, *_ = tc.perform(db, c.id, c.version, "experience", {})
    c, *_ = tc.perform(db, c.id, c.version, "close_aftermath", {})
    assert c.state["rosters"]["p1"]["rigs"]["r1"]["xp"] == 3  # took part, survived, won
    assert tc.rosters(db, c.id)[0].latest > 1 and tc.roster_history(db, tc.rosters(db, c.id)[0].id)[-1].number == 1
    c, *_ = tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "siege", "deployment": "Battle Lines",
                                                                "battlefield": "Open Plains"})
    second = cg.start_engagement(db, c.id, c.version)
    rig = second.state["rigs"]["p1-r1"]
    assert rig["structure"]["hull"] == 1  # the Hull damage of the first night is still there
    assert tc.campaign_of_game(db, second.id).roster_versions["p1"] == tc.rosters(db, c.id)[0].latest


def test_a_rig_given_a_load_bearing_frames_iron_carries_it_into_the_next_engagement(db):
    c, game = play_first_engagement(db)
    c = aftermath_rolled(db, c)
    # The Warthog carries the frame; its +1 Iron goes to the Jackal, which takes 2 Iron of plating on its 3 of 4.
    for card in ("reinforced_iron_plating", "example_hydraulic_claw"):
        c, *_ = tc.perform(db, c.id, c.version, "refit", {"rig": "p1/r3", "card": card, "remove": True})
    c, *_ = tc.perform(db, c.id, c.version, "refit", {"rig": "p1/r3", "card": "experimental_load_bearing_frame"})
    c, *_ = tc.perform(db, c.id, c.version, "load_bearing_frame", {"rig": "p1/r1"})
    c, *_ = tc.perform(db, c.id, c.version, "refit", {"rig": "p1/r1", "card": "reinforced_iron_plating"})
    c, *_ = tc.perform(db, c.id, c.version, "close_aftermath", {})
    c, *_ = tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "siege", "deployment": "Battle Lines",
                                                                "battlefield": "Open Plains"})
    rigs = cg.start_engagement(db, c.id, c.version).state["rigs"]
    assert (rigs["p1-r1"]["iron"], rigs["p1-r1"]["iron_used"]) == (5, 5)
    assert "reinforced_iron_plating" in rigs["p1-r1"]["equipment"]
    assert (rigs["p1-r3"]["iron"], rigs["p1-r3"]["iron_used"]) == (5, 5)  # the frame's carrier: its chassis's 5


def test_a_squadron_built_with_a_load_bearing_frame_starts_with_its_iron_given(db):
    sq = sword("Anna's Sword")
    jackal = sq.rigs[0].model_copy(update={"weapons": sq.rigs[0].weapons[:1], "equipment": [
        *sq.rigs[0].equipment, EquipmentPick(key="experimental_load_bearing_frame")]})  # 5 Iron on a chassis of 4
    sq = sq.model_copy(update={"rigs": [jackal, *sq.rigs[1:]]})
    c = cg.new_oilandiron(db, "Frame", {"p1": ("Anna", sq), "p2": ("Ben", sword("Ben's Sword"))},
                          copy.deepcopy(EXAMPLE_TABLES))
    rec = c.state["rosters"]["p1"]["rigs"]["r1"]
    assert (rec["iron_bonus"], rec["frames_applied"]) == (1, 1)
    assert oi.iron_used(c.state, rec) == (5, 5)
    c, *_ = tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "siege", "deployment": "Battle Lines",
                                                                "battlefield": "Open Plains"})
    assert cg.start_engagement(db, c.id, c.version).state["rigs"]["p1-r1"]["iron"] == 5


def test_the_whole_aftermath_can_be_undone_in_one_step(db):
    c, game = play_first_engagement(db)
    _, begin, _ = cg.begin_aftermath(db, c.id, tc.get_campaign(db, c.id).version)
    c = tc.get_campaign(db, c.id)
    c, *_ = tc.perform(db, c.id, c.version, "salvage_roll", {"player": "p1"}, typed_dice=[12])
    tc.undo_back_to(db, c.id, c.version, begin.seq)
    c = tc.get_campaign(db, c.id)
    assert c.state["aftermath"] is None and c.state["players"]["p1"]["iron"] == 10
    assert c.state["games"]["1"]["status"] == "playing"


def test_undoing_a_start_leaves_the_game_as_an_ordinary_game(db):
    c = new_oi_campaign(db)
    tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                        "battlefield": "Open Plains"})
    game = cg.start_engagement(db, c.id, tc.get_campaign(db, c.id).version)
    tc.undo(db, c.id, tc.get_campaign(db, c.id).version)
    assert tc.campaign_of_game(db, game.id) is None and tc.get_campaign(db, c.id).state["games"] == {}
    tc.redo(db, c.id, tc.get_campaign(db, c.id).version)
    assert tc.campaign_of_game(db, game.id).step == "1"


def test_a_stale_start_creates_no_game(db):
    c = new_oi_campaign(db)
    seen = c.version
    tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                        "battlefield": "Open Plains"})
    with pytest.raises(tc.CampaignStale):
        cg.start_engagement(db, c.id, seen)
    from sqlmodel import select

    from referee.table.models import Game
    assert db.exec(select(Game)).all() == []


def test_the_hundred_days_starts_ligny_from_its_scenario_and_records_the_result(db):
    c = cg.new_hundred_days(db, "1815", "Nap", "Duke")
    game = cg.start_battle(db, c.id, c.version, "ligny")
    assert game.system == "blackpowder" and tc.campaign_of_game(db, game.id).step == "ligny"
    with pytest.raises(BadInput, match="not over yet"):
        cg.record_battle(db, c.id, tc.get_campaign(db, c.id).version, "ligny", {})
    unit = next(u for u in game.state["units"] if game.state["units"][u]["side"] == "red")
    act(db, game.id, "end_battle", decision="blue", reason="test")
    c, entry, _ = cg.record_battle(db, c.id, tc.get_campaign(db, c.id).version, "ligny", {}, who="Umpire")
    assert c.state["battles"]["ligny"]["status"] == "fought"
    assert unit in c.state["armies"]["coalition"]["units"]



def test_a_weapon_lost_for_good_leaves_its_mount_empty_and_the_other_arm_keeps_its_weapon(db):
    c = new_oi_campaign(db)
    jackal = c.state["rosters"]["p1"]["rigs"]["r1"]  # an Autocannon and a Flamer, built with no mount chosen
    assert [(w["card"], w["mount"]) for w in jackal["weapons"]] == [("example_autocannon", "left"),
                                                                    ("example_flamer", "right")]
    c, *_ = tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                                "battlefield": "Open Plains"})
    game = cg.start_engagement(db, c.id, c.version)
    first = game.state["rigs"]["p1-r1"]["weapons"]
    assert [(w["name"], w["mount"]) for w in first.values()] == [("Example Autocannon", "left"), ("Example Flamer", "right")]
    left = next(wid for wid, w in first.items() if w["mount"] == "left")
    act(db, game.id, "adjust_rig", rig="p1-r1", field="weapon_destroyed", weapon=left, value="yes",
        reason="the Autocannon blown off")
    wreck_and_finish(db, game.id)
    c = aftermath_rolled(db, c)
    c, *_ = tc.perform(db, c.id, c.version, "close_aftermath", {})
    assert c.state["rosters"]["p1"]["rigs"]["r1"]["weapons"][0]["lost"] is True
    c, *_ = tc.perform(db, c.id, c.version, "plan_engagement", {"engagement": "iron_clash", "deployment": "Battle Lines",
                                                                "battlefield": "Open Plains"})
    second = cg.start_engagement(db, c.id, c.version).state["rigs"]["p1-r1"]["weapons"]
    assert [(w["name"], w["mount"]) for w in second.values()] == [("Example Flamer", "right")]  # not moved to the left arm
