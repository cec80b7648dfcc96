"""The Of Oil and Iron campaign engine with fixed dice: the start checks, planning an engagement,
reading a finished one, and carrying a roster into the next (rules summary, Campaigns)."""
from __future__ import annotations

import copy

import pytest
from _campaign_helpers import CATALOGUE, EXAMPLE_TABLES, PIECES, WEAPONS, Step, engagement_state, new_oi, rig, roster

from referee.campaigns.oilandiron import carry_into, new_campaign_doc, read_engagement, weapon_positions
from referee.core.errors import DataError, RuleError


def test_start_gives_each_player_the_starting_iron_of_the_campaign_tables():
    doc = new_oi()
    assert doc["players"]["p1"]["iron"] == EXAMPLE_TABLES["starting_iron"] == doc["players"]["p2"]["iron"]
    assert doc["tables"]["official"] is False and "not official" in doc["tables"]["label"]


def test_starting_iron_is_a_setting_of_the_campaign_through_its_tables():
    tables = dict(copy.deepcopy(EXAMPLE_TABLES), starting_iron=4)
    rosters = {p: roster(p, rig("r1", "A")) for p in ("p1", "p2")}
    doc = new_campaign_doc("C", {"p1": {"name": "A"}, "p2": {"name": "B"}}, rosters, tables, CATALOGUE)
    assert doc["players"]["p1"]["iron"] == 4


def test_a_campaign_starts_with_skirmish_sized_squadrons_only():
    rosters = {"p1": roster("Big", rig("r1", "A"), tier="operation"), "p2": roster("B", rig("r1", "B"))}
    with pytest.raises(RuleError, match="Skirmish-sized"):
        new_campaign_doc("C", {"p1": {"name": "A"}, "p2": {"name": "B"}}, rosters, EXAMPLE_TABLES, CATALOGUE)


def test_no_colossal_class_rig_at_the_start():
    rosters = {"p1": roster("A", rig("r1", "Titan", "big")), "p2": roster("B", rig("r1", "B"))}
    with pytest.raises(RuleError, match="Colossal"):
        new_campaign_doc("C", {"p1": {"name": "A"}, "p2": {"name": "B"}}, rosters, EXAMPLE_TABLES, CATALOGUE)


def test_bad_tables_are_refused_with_the_field_named():
    tables = dict(copy.deepcopy(EXAMPLE_TABLES), repair_traits=EXAMPLE_TABLES["repair_traits"][:5])
    with pytest.raises(DataError, match="repair_traits"):
        new_campaign_doc("C", {"p1": {"name": "A"}, "p2": {"name": "B"}},
                         {p: roster(p, rig("r1", "A")) for p in ("p1", "p2")}, tables, CATALOGUE)


def test_the_next_engagement_deployment_and_battlefield_can_be_rolled():
    step = Step("oilandiron", new_oi())
    odds = step.odds("plan_engagement")
    assert odds[0].startswith("Engagement (D12)") and "8%" in odds[0]
    r = step("plan_engagement", dice=[9, 2, 1])
    assert [d.sides for d in r.dice] == [12, 6, 6]
    assert step.doc["next"]["engagement"] == "ambush"
    assert step.doc["next"]["deployment"]["name"] == "Diagonal"
    assert step.doc["next"]["battlefield"]["name"] == "Oil Fields"


def test_the_engagement_can_be_chosen_and_a_wrong_choice_is_refused():
    step = Step("oilandiron", new_oi())
    step("plan_engagement", engagement="siege", deployment="Battle Lines", battlefield="Salt Flats")
    assert step.doc["next"]["engagement"] == "siege"
    with pytest.raises(RuleError, match="no battlefield"):
        step("plan_engagement", engagement="siege", deployment="Battle Lines", battlefield="Moon")


def test_reading_a_finished_engagement_counts_kills_and_damage_dealt_from_the_log():
    state = engagement_state({
        "p1-r1": {}, "p1-r2": {},
        "p2-r1": {"destroyed": True, "structure": {"hull": 0, "arms": 0, "legs": 0, "engine": 0},
                  "catastrophic": ["hull", "arms", "legs", "engine"]},
        "p2-r2": {"structure": {"hull": 3, "arms": 3, "legs": 3, "engine": 2},
                  "weapons": {"cannon": {"destroyed": True}, "flamer": {"destroyed": False}}},
    })
    log = [{"facts": {"rig": "p1-r1"}, "changes": [
        {"path": ["rigs", "p2-r1", "structure", "hull"], "before": 4, "after": 0},
        {"path": ["rigs", "p2-r1", "destroyed"], "before": False, "after": True}]},
        {"facts": {"rig": "p1-r2"}, "changes": [{"path": ["rigs", "p2-r2", "structure", "hull"], "before": 4, "after": 3}]},
        {"facts": {"rig": "p2-r2"}, "changes": [{"path": ["rigs", "p2-r2", "heat"], "before": 1, "after": 2}]}]
    rep = read_engagement(state, log, PIECES, WEAPONS)
    assert rep["rigs"]["p1-r1"]["kills"] == 1 and rep["rigs"]["p1-r1"]["damage_dealt"] == 4
    assert rep["rigs"]["p1-r2"]["damage_dealt"] == 1
    assert rep["rigs"]["p2-r1"]["destroyed"] and rep["rigs"]["p2-r1"]["exploded"]  # Engine wrecked
    assert rep["rigs"]["p2-r2"]["weapons_destroyed"] == [0]
    assert rep["rigs"]["p2-r2"]["lost"]["hull"] == 1


def test_an_unfinished_engagement_cannot_be_read():
    with pytest.raises(RuleError, match="not over"):
        read_engagement(engagement_state({"p1-r1": {}}, ended=False), [], PIECES, WEAPONS)


def test_a_rig_destroyed_with_its_engine_intact_did_not_explode():
    state = engagement_state({"p1-r1": {"destroyed": True, "catastrophic": ["hull"],
                                        "structure": {"hull": 0, "arms": 3, "legs": 3, "engine": 2}}})
    assert read_engagement(state, [], PIECES, WEAPONS)["rigs"]["p1-r1"]["exploded"] is False


def test_damage_and_lasting_effects_carry_into_the_next_engagement():
    record = rig("r1", "Jackal")
    record["damage"] = {"hull": 1, "arms": 3, "legs": 0, "engine": 0}
    record["lasting"] = ["hydraulic_blowout"]
    record["traits"] = [{"name": "Seized Servos", "effect": "Speed −1\"", "negative": True, "ignored": False}]
    rig_doc = {"name": "Jackal", "structure_max": {"hull": 4, "arms": 3, "legs": 3, "engine": 2},
               "structure": {"hull": 4, "arms": 3, "legs": 3, "engine": 2}, "catastrophic": [], "status": {}}
    doc, notes = carry_into(rig_doc, record)
    assert doc["structure"] == {"hull": 3, "arms": 0, "legs": 3, "engine": 2}
    assert doc["catastrophic"] == ["arms"] and "hydraulic_blowout" in doc["status"]
    assert any("Hull −1 SP" in n and "Arms wrecked" in n for n in notes) and any("Seized Servos" in n for n in notes)
    assert rig_doc["structure"]["hull"] == 4  # the input is not touched
    assert carry_into(rig_doc, record, damage_carries=False)[0]["structure"]["arms"] == 3


def test_lost_weapons_are_left_out_and_the_rest_keep_their_roster_positions():
    record = rig("r1", "Jackal")
    record["weapons"][0]["lost"] = True
    assert weapon_positions(record, {"weapons": {"flamer": {}}}) == {"flamer": 1}


def test_an_umpire_override_is_recorded_as_such_with_its_reason():
    step = Step("oilandiron", new_oi())
    r = step("umpire_override", field="players.p1.iron", value="15", reason="prize for the best painted squadron")
    assert step.doc["players"]["p1"]["iron"] == 15
    assert r.kind == "umpire_override" and r.data["override"] and "Umpire override" in r.changes[0].label
    with pytest.raises(RuleError, match="not something"):
        step("umpire_override", field="tables.starting_iron", value="99", reason="x")


def test_the_tables_are_a_campaign_setting_the_umpire_can_edit():
    step = Step("oilandiron", new_oi())
    tables = copy.deepcopy(step.doc["tables"])
    tables["rewards"]["win"] = 5
    step("edit_tables", tables=tables)
    assert step.doc["tables"]["rewards"]["win"] == 5
    tables["salvage"] = []
    with pytest.raises(DataError, match="salvage"):
        step("edit_tables", tables=tables)


def test_what_a_repair_trait_does_is_checked_with_the_tables():
    """A trait's ``apply`` names only what the engines apply, each a small amount."""
    for bad in ({"speed": 9}, {"flying": 1}):
        traits = copy.deepcopy(EXAMPLE_TABLES["repair_traits"])
        traits[0]["apply"] = bad
        with pytest.raises(DataError, match="repair_traits"):
            new_campaign_doc("C", {"p1": {"name": "A"}, "p2": {"name": "B"}},
                             {p: roster(p, rig("r1", "A")) for p in ("p1", "p2")},
                             dict(copy.deepcopy(EXAMPLE_TABLES), repair_traits=traits), CATALOGUE)
