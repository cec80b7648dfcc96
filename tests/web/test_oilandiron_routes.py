"""The Of Oil and Iron squadron tracker through the Flask client: starting an engagement, the board
and a Rig's panel, actions from the cards with typed-in dice, and refusals (stale version 409,
facts the rules forbid 422) that change nothing."""
from __future__ import annotations

import re

import pytest
from _web_helpers import HTMX, Table, start_form, text, typed_iron_clash

from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
from referee.table import game_log, service

ENGAGEMENT_TYPES = ("iron_clash", "high_value_target", "point_of_control", "total_command", "push_the_line",
                    "supply_airdrop", "salvage_heist", "sabotage", "ambush", "hold_the_line", "siege",
                    "breakthrough")


@pytest.fixture
def ooi(db, app):
    return typed_iron_clash(db, app)


def post(client, table: Table, action: str, typed: str = "", version: int | None = None, htmx=True, **facts):
    data = {"version": str(table.version if version is None else version), "typed": typed, **facts}
    return client.post(f"/games/{table.id}/act/{action}", data=data, headers=HTMX if htmx else {})


def activation(client, ooi: Table, rig: str = "p1-1") -> None:
    """Initiative to the first player (9 against 2) and ``rig`` activated."""
    assert post(client, ooi, "initiative", typed="9 2").status_code == 200
    assert post(client, ooi, "activate", rig=rig).status_code == 200
    assert ooi.state["active_rig"] == rig


# --- starting an engagement ------------------------------------------------------------------------

def test_the_start_page_offers_all_twelve_engagement_types_and_the_example_squadrons(client):
    r = client.get("/games/new/oilandiron")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    for key in ENGAGEMENT_TYPES:
        assert f'value="{key}"' in page
    assert "Scout" in page and "Hammer" in page
    assert 'action="/games/new/oilandiron"' in page  # a real form: works without JavaScript


def test_the_home_page_links_to_a_new_engagement(client):
    assert "/games/new/oilandiron" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("engagement", ENGAGEMENT_TYPES)
def test_each_engagement_type_starts_with_its_objectives_and_roles(client, app, engagement):
    r = client.post("/games/new/oilandiron", data=start_form(engagement))
    assert r.status_code == 303
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    state = Table(app, game_id).state
    assert state["engagement_type"] == engagement
    assert len(state["rigs"]) == 6 and state["phase"] == "initiative"
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1" in page and "Initiative" in page and "Roll for initiative" in page
    if engagement in ("sabotage", "siege"):
        assert len(state["objectives"]) == 6
        assert all(o["structure"] == 5 for o in state["objectives"].values())
        assert "Objective 1 (Anna)" in page
    if engagement in ("hold_the_line", "siege", "breakthrough"):
        assert state["players"]["p1"]["role"] == "attacker" and state["players"]["p2"]["role"] == "defender"
    if engagement == "high_value_target":
        assert [r["name"] for r in state["rigs"].values() if r["hvt"]] == ["Siege", "Hammer"]


def test_a_squadron_typed_in_as_yaml_replaces_the_rows(client, app):
    typed = """
- name: Homebrew
  chassis: {key: my_walker, name: My Walker, weight_class: medium, speed: 7, pivot: 2, aim: 4, iron: 5,
            weapon_slots: 2, structure: {hull: 4, arms: 3, legs: 3, engine: 3},
            armour: {direct: 8, severe: 11, critical: 13}, exhaust: 2, heat_threshold: 6, heat_track: 12}
  weapons: [example_autocannon]
"""
    r = client.post("/games/new/oilandiron", data=start_form(**{"p2-typed": typed}))
    assert r.status_code == 303, text(r)
    state = Table(app, int(r.headers["Location"].rsplit("/", 1)[1])).state
    assert [x["name"] for x in state["rigs"].values() if x["player"] == "p2"] == ["Homebrew"]
    assert state["rigs"]["p2-1"]["speed"] == 7


def test_an_overweight_rig_is_refused_with_a_message_and_no_game(client, db):
    form = start_form(**{"p1-r0-equipment": ["extinguisher", "reinforced_iron_alloy_plating"]})
    r = client.post("/games/new/oilandiron", data=form)
    assert r.status_code == 422
    assert "Iron" in text(r) and "Scout" in text(r)
    assert game_log.log(db, 1) == [] and db.get(service.Game, 1) is None


def test_another_rig_row_keeps_what_was_typed(client):
    r = client.post("/games/new/oilandiron", data=start_form(grow="p1"))
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'name="p1-r3-name"' in page and 'name="p2-r3-name"' not in page
    assert 'value="Brawler"' in page


# --- the board and the cards -------------------------------------------------------------------------

def test_the_board_shows_each_rig_card_with_structure_heat_weapons_and_equipment(client, ooi):
    page = client.get(f"/games/{ooi.id}").get_data(as_text=True)
    for name in ("Scout", "Brawler", "Siege", "Lancer", "Bulwark", "Hammer"):
        assert f'aria-label="{name}"' in page
    assert 'aria-label="Hull 3 of 3 structure points"' in page
    assert "threshold 5" in page and "Example Rotary Gun" in page and "Extinguisher" in page
    assert "ammo 3" in page  # the Flamer's Limited Ammo
    assert 'aria-current="step"' in page


def test_the_rig_panel_renders_whole_and_as_a_fragment(client, ooi):
    whole = client.get(f"/games/{ooi.id}/rigs/p1-1")
    assert whole.status_code == 200 and "<html" in whole.get_data(as_text=True)
    part = client.get(f"/games/{ooi.id}/rigs/p1-1", headers=HTMX)
    body = part.get_data(as_text=True)
    assert part.status_code == 200 and "<html" not in body
    assert "Armour: Direct 7+" in text(part) and "Correct this Rig" in body
    assert "Example Light Scout · Example Standard Diesel" in text(part)
    assert client.get(f"/games/{ooi.id}/rigs/nobody").status_code == 404


def test_the_active_rig_offers_its_actions_and_the_others_do_not(client, ooi):
    activation(client, ooi)
    page = text(client.get(f"/games/{ooi.id}"))
    assert "Activated: 5 of 5 actions left" in page
    for label in ("Move", "Fire Example Rotary Gun", "Fire Example Autocannon", "Called Shot", "Ram", "Repair",
                  "Shut Down", "End activation"):
        assert label in page
    assert "Scout (Anna) is activated" in page


def test_called_shot_opens_with_the_only_weapon_that_may_call_one(client, ooi):
    activation(client, ooi)  # the Scout: a Full Auto rotary gun (no Called Shot) and an autocannon
    html = client.get(f"/games/{ooi.id}").get_data(as_text=True)
    link = re.search(r'href="([^"]*/act/called_shot[^"]*)"', html).group(1).replace("&amp;", "&")
    assert "weapon=example_autocannon" in link
    form = client.get(link, headers=HTMX).get_data(as_text=True)
    assert re.search(r'name="weapon" value="example_autocannon"\s+checked', form)


def test_the_fire_form_picks_only_the_attackers_weapons_and_enemy_targets(client, ooi):
    activation(client, ooi)
    page = client.get(f"/games/{ooi.id}/act/fire_weapon?rig=p1-1", headers=HTMX).get_data(as_text=True)
    assert 'value="example_rotary_gun"' in page and 'value="example_autocannon"' in page
    assert 'value="example_field_gun"' not in page  # the Brawler's, not the Scout's
    assert 'name="target" value="p2-1"' in page and 'name="target" value="p1-2"' not in page


def test_the_odds_line_is_shown_before_rolling(client, ooi):
    activation(client, ooi)
    q = "rig=p1-1&weapon=example_rotary_gun&target=p2-1&in_front_arc=on&in_range=on&_drawn=in_front_arc,in_range"
    r = client.get(f"/games/{ooi.id}/act/fire_weapon/odds?{q}", headers=HTMX)
    lines = text(r)
    assert "At least one hit" in lines and "Expected damage" in lines


# --- actions through the routes ----------------------------------------------------------------------

def test_a_move_from_the_card_spends_an_action_and_heat_and_is_logged(client, ooi):
    activation(client, ooi)
    r = post(client, ooi, "move", rig="p1-1")
    assert r.status_code == 200 and "up to 8\" forward" in text(r)
    scout = ooi.state["rigs"]["p1-1"]
    assert scout["actions_left"] == 4 and scout["heat"] == 1
    assert ooi.log()[0].action == "move"


def test_a_full_auto_attack_with_typed_dice_damages_the_target_and_heats_the_attacker(client, ooi):
    activation(client, ooi)
    facts = {"rig": "p1-1", "weapon": "example_rotary_gun", "target": "p2-1", "in_front_arc": "on",
             "in_range": "on", "_drawn": "in_front_arc,in_range"}
    first = post(client, ooi, "fire_weapon", **facts)
    assert "Roll 6 D6" in text(first)  # Full Auto: ROF 4 + 2
    before = ooi.version
    # Two hits and two 1s (+2 heat); hit 1: Hull (3), impact 6 + STR 4 = 10, Severe; hit 2: Arms (6), impact 2, none.
    r = post(client, ooi, "fire_weapon", typed="5 6 1 1 2 3 3 6 6 2", **facts)
    assert r.status_code == 200, text(r)
    assert "hits Lancer 2 times" in text(r)
    lancer, scout = ooi.state["rigs"]["p2-1"], ooi.state["rigs"]["p1-1"]
    assert lancer["structure"]["hull"] == 1
    assert scout["heat"] == 3 and scout["weapons"]["example_rotary_gun"]["loaded"] is False
    entry = ooi.log()[0]
    assert entry.action == "fire_weapon" and entry.dice_source == "typed" and ooi.version == before + 1


def test_a_stale_version_is_refused_with_409_and_nothing_changes(client, ooi):
    activation(client, ooi)
    old = ooi.version
    assert post(client, ooi, "move", rig="p1-1").status_code == 200
    state, entries = ooi.state, len(ooi.log())
    r = post(client, ooi, "move", version=old, rig="p1-1")
    assert r.status_code == 409
    assert "Another tablet" in text(r)
    assert ooi.state == state and len(ooi.log()) == entries


def test_a_called_shot_to_the_engine_from_the_front_is_refused_with_422_and_nothing_changes(client, ooi):
    activation(client, ooi)
    state, version = ooi.state, ooi.version
    r = post(client, ooi, "called_shot", rig="p1-1", weapon="example_autocannon", target="p2-1", location="engine",
             in_front_arc="on", in_range="on", target_arc="front", _drawn="in_front_arc,in_range")
    assert r.status_code == 422
    assert "Engine cannot be targeted from the front arc" in text(r)
    assert ooi.state == state and ooi.version == version


def test_bad_input_is_422_with_the_form_again(client, ooi):
    activation(client, ooi)
    state = ooi.state
    r = post(client, ooi, "fire_weapon", rig="p1-1", weapon="no_such_gun", target="p2-1", in_front_arc="on",
             in_range="on", _drawn="in_front_arc,in_range")
    assert r.status_code == 422 and "no weapon" in text(r)
    assert 'class="action-form"' in r.get_data(as_text=True)
    r = post(client, ooi, "repair", typed="x", rig="p1-1", location="hull")
    assert r.status_code == 422
    assert ooi.state == state


def test_an_attack_without_javascript_redirects_to_the_board_with_the_result(client, ooi):
    activation(client, ooi)
    r = post(client, ooi, "move", htmx=False, rig="p1-1")
    assert r.status_code == 303
    page = text(client.get(r.headers["Location"]))
    assert "Scout moves" in page


def _to_maintenance(client, ooi: Table) -> None:
    """Every Rig activates and ends, in turn."""
    while ooi.state["phase"] == "activation":
        state = ooi.state
        if state["active_rig"]:
            assert post(client, ooi, "end_activation").status_code == 200
            continue
        nxt = next(r for r in state["rigs"].values() if r["player"] == state["current_player"] and not r["activated"])
        assert post(client, ooi, "activate", rig=nxt["id"]).status_code == 200


def test_a_heat_threshold_roll_in_maintenance_and_its_undo(client, ooi):
    activation(client, ooi)
    post(client, ooi, "move", rig="p1-1")
    # Full Auto misses everything but its two 1s add heat: 1 (move) + 1 (fire) + 2 = 4, two more moves: 6.
    r = post(client, ooi, "fire_weapon", typed="1 1 2 2 3 3", rig="p1-1", weapon="example_rotary_gun",
             target="p2-1", in_front_arc="on", in_range="on", _drawn="in_front_arc,in_range")
    assert "misses" in text(r)
    post(client, ooi, "move", rig="p1-1")
    post(client, ooi, "move", rig="p1-1")
    assert ooi.state["rigs"]["p1-1"]["heat"] == 6
    _to_maintenance(client, ooi)
    page = text(client.get(f"/games/{ooi.id}"))
    assert "Heat Threshold rolls for Scout" in page and "Above threshold" in page
    assert "End the round" not in page  # not offered while a roll is owed: it would only be refused
    odds = text(client.get(f"/games/{ooi.id}/act/heat_roll/odds?rig=p1-1", headers=HTMX))
    assert "Hydraulic Blowout: 16.7%" in odds  # D12 + 1: 8 or 9
    r = post(client, ooi, "heat_roll", typed="7", rig="p1-1")  # 7 + 1 = 8: Hydraulic Blowout
    assert r.status_code == 200 and "Hydraulic Blowout" in text(r)
    assert ooi.state["rigs"]["p1-1"]["structure"]["legs"] == 1
    assert "End the round" in text(client.get(f"/games/{ooi.id}"))
    assert 'Hydraulic Blowout: Speed −2" (until repaired)' in text(client.get(f"/games/{ooi.id}"))
    r = client.post(f"/games/{ooi.id}/undo", data={"version": str(ooi.version)}, headers=HTMX)
    assert r.status_code == 200
    scout = ooi.state["rigs"]["p1-1"]
    assert scout["structure"]["legs"] == 3 and scout["heat_rolled"] is None and scout["status"] == {}
    assert ooi.log()[0].undone


def test_the_umpire_corrects_a_rig_from_its_panel(client, ooi):
    assert "/act/adjust_rig?rig=p1-1" in client.get(f"/games/{ooi.id}/rigs/p1-1").get_data(as_text=True)
    r = post(client, ooi, "adjust_rig", rig="p1-1", field="heat", value="7", reason="forgot the Hot weapon")
    assert r.status_code == 200 and ooi.state["rigs"]["p1-1"]["heat"] == 7
    assert "forgot the Hot weapon" in text(r)


def test_the_end_of_round_four_asks_for_the_length_roll(client, ooi):
    for _ in range(3):
        assert post(client, ooi, "initiative", typed="9 2").status_code == 200
        _to_maintenance(client, ooi)
        assert post(client, ooi, "end_round").status_code == 200
    assert ooi.state["round"] == 4
    post(client, ooi, "initiative", typed="9 2")
    _to_maintenance(client, ooi)
    odds = text(client.get(f"/games/{ooi.id}/act/end_round/odds", headers=HTMX))
    assert "The engagement ends: 41.7%" in odds
    asked = post(client, ooi, "end_round")
    assert "Roll 1 D12" in text(asked)
    r = post(client, ooi, "end_round", typed="8")
    assert r.status_code == 200
    assert ooi.state["ended"] is True
    assert "Over:" in text(client.get(f"/games/{ooi.id}"))


def test_only_equipment_used_by_its_own_action_gets_a_button(client, db, app):
    form = start_form(**{"p1-r0-equipment": ["smoke_dispensers"]})
    doc = build_engagement(form, {"p1": 3, "p2": 3})
    doc["dice_mode"] = "typed"
    table = Table(app, service.create_game(db, "Smoke", "oilandiron", doc).id)
    activation(client, table)
    page = text(client.get(f"/games/{table.id}"))
    assert "Use Smoke Dispensers" in page
    form = client.get(f"/games/{table.id}/act/use_equipment?rig=p1-1&equipment=smoke_dispensers").get_data(as_text=True)
    # Other cards' questions are folded away under their names: Resolve is not a long scroll off.
    assert '<details class="group">\n    <summary>Emergency Repair Kit</summary>' in form
    assert '<details class="group">\n    <summary>Artillery Spotting</summary>' in form
    r = post(client, table, "use_equipment", rig="p1-1", equipment="smoke_dispensers")
    assert r.status_code == 200, text(r)
    assert table.state["rigs"]["p1-1"]["equipment"]["smoke_dispensers"]["used"] is True
    assert "Use Smoke Dispensers" not in text(client.get(f"/games/{table.id}"))


def test_equipment_that_works_by_itself_or_inside_another_roll_has_no_button(client, ooi):
    activation(client, ooi)  # the Scout carries an Extinguisher, used in the Heat Threshold roll
    assert "Use Extinguisher" not in text(client.get(f"/games/{ooi.id}"))


def test_point_of_control_is_scored_from_what_the_players_report_before_the_round_ends(client, db, app):
    doc = build_engagement(start_form("point_of_control"), {"p1": 3, "p2": 3})
    doc["dice_mode"] = "typed"
    table = Table(app, service.create_game(db, "Hill", "oilandiron", doc).id)
    post(client, table, "initiative", typed="9 2")
    _to_maintenance(client, table)
    page = text(client.get(f"/games/{table.id}"))
    assert "Score round 1" in page and "score round 1, then end the round" in page
    refused = post(client, table, "end_round")
    # What the round still asks, with its button; the rules cannot end it without, so no "move on anyway".
    assert refused.status_code == 200 and "Round 1 has not been scored." in text(refused)
    assert f"/games/{table.id}/act/score_round" in refused.get_data(as_text=True)
    assert "Move on anyway" not in text(refused) and table.state["phase"] == "maintenance"
    r = post(client, table, "score_round", rigs_near_objectives=["p1-1", "p1-3"], _drawn="rigs_near_objectives")
    assert r.status_code == 200, text(r)
    assert table.state["players"]["p1"]["vp"] == 4
    page = text(client.get(f"/games/{table.id}"))
    assert "Anna: 4 VP" in page and "Score round 1" not in page


@pytest.mark.parametrize("path", ["", "/log", "/settings", "/act/ram?rig=p1-1", "/act/repair?rig=p1-1",
                                  "/act/heat_roll?rig=p1-1", "/act/adjust_rig?rig=p1-1"])
def test_each_engagement_page_renders_whole(client, ooi, path):
    r = client.get(f"/games/{ooi.id}{path}")
    assert r.status_code == 200
    assert "<html" in r.get_data(as_text=True)


def test_the_settings_page_lists_the_of_oil_and_iron_readings(client, ooi):
    page = text(client.get(f"/games/{ooi.id}/settings"))
    assert "Exhaust when" in page and "Maintenance phase after the Heat Threshold roll" in page


def test_overflow_damage_is_asked_beside_the_dice_which_are_kept(client, ooi):
    """"We roll": the overflow's location is asked as it arises, next to the dice typed so far,
    and the answer resolves the attack with those same dice (nothing typed again)."""
    activation(client, ooi)
    assert post(client, ooi, "adjust_rig", rig="p2-1", field="structure", location="hull", value="1",
                reason="an earlier hit").status_code == 200
    facts = {"rig": "p1-1", "weapon": "example_autocannon", "target": "p2-1", "in_front_arc": "on",
             "in_range": "on", "_drawn": "in_front_arc,in_range"}
    first = post(client, ooi, "fire_weapon", **facts)
    count = int(re.search(r"Roll (\d+) D6", text(first)).group(1))
    to_hit = " ".join(["5"] + ["2"] * (count - 1))  # one hit (a 6 would be two, with Sustained Fire)
    # the hit: location 1 (Hull, 1 SP left), impact 6 + STR 5 = 11 against the Scout's 7/10/12: Severe, 2 SP
    before, entries = ooi.version, len(ooi.log())
    r = post(client, ooi, "fire_weapon", typed=f"{to_hit} 1 6", **facts)
    page = r.get_data(as_text=True)
    assert r.status_code == 200, text(r)
    assert "1 damage overflows from Lancer's Hull" in text(r) and "where does it go?" in text(r)
    choice = re.search(r'<div class="dice-entry choice-entry".*?</div>\s*</div>', page, re.S).group(0)
    assert f'name="typed" value="{to_hit} 1 6"' in choice  # the dice, kept beside the question
    assert re.findall(r'name="overflow_to" value="(\w+)"', choice) == ["arms", "legs", "engine"]
    assert ooi.version == before and len(ooi.log()) == entries  # nothing recorded yet
    r = post(client, ooi, "fire_weapon", typed=f"{to_hit} 1 6", overflow_to="legs", **facts)
    assert r.status_code == 200, text(r)
    lancer = ooi.state["rigs"]["p2-1"]
    assert lancer["structure"]["hull"] == 0 and lancer["structure"]["legs"] == 2
    assert ooi.log()[0].dice_source == "typed" and ooi.version == before + 1


def test_rigs_of_one_name_are_told_apart_on_the_board_and_in_the_log(client, app):
    """Both players field a Rig called Jackal, and Ben two: each is named so a person can tell
    them apart, on the cards, in the pick lists and in the log (a name used once is kept)."""
    form = start_form(**{"p1-r0-name": "Jackal", "p2-r0-name": "Jackal", "p2-r1-name": "Jackal"})
    r = client.post("/games/new/oilandiron", data=form)
    assert r.status_code == 303, text(r)
    game_id = int(r.headers["Location"].rsplit("/", 1)[1])
    state = Table(app, game_id).state
    names = {rid: x["name"] for rid, x in state["rigs"].items()}
    assert names["p1-1"] == "Jackal (Anna)"
    assert sorted(n for rid, n in names.items() if rid.startswith("p2") and "Jackal" in n) == \
        ["Jackal (Ben)", "Jackal (Ben) 2"]
    assert len(set(names.values())) == len(names)
    kept = EXAMPLE_SQUADRONS["p1"][1]["name"]
    assert names["p1-2"] == kept  # used once: as the player named it
    page = text(client.get(f"/games/{game_id}"))
    assert "Jackal (Anna)" in page and "Jackal (Ben) 2" in page
