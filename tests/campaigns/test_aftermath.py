"""The Aftermath with fixed dice, one rule at a time: destroyed Rigs and their recovery roll
(+2 with a Contracted Recovery Crew, none if the Rig exploded), damage and lasting effects carried,
salvage (D3 more with a Battlefield Recovery Rig), experience, rewards, the Black Market Parts
Cache, the Experimental Load-Bearing Frame, repairs and refits paid in Iron, and closing."""
from __future__ import annotations

import pytest
from _campaign_helpers import PIECES, WEAPONS, Step, engagement_state, new_oi

from referee.campaigns.oilandiron import read_engagement
from referee.core.errors import RuleError

WRECKED = {"hull": 0, "arms": 0, "legs": 0, "engine": 0}


def in_aftermath(p1_equipment=(), p2_equipment=(), battlefield="Open Plains", state=None, log=(), **settings):
    """A campaign whose first engagement is over: Anna's Jackal killed Ben's Bull (its Engine
    wrecked: it exploded), Ben's Ox lost its cannon and took 2 Hull damage and a Hydraulic Blowout."""
    step = Step("oilandiron", new_oi(p1_equipment, p2_equipment, **settings))
    step("plan_engagement", engagement="iron_clash", deployment="Battle Lines", battlefield=battlefield)
    step("game_started", step="1", game_id=5, name="Night one", pieces=PIECES, weapons=WEAPONS)
    state = state or engagement_state({
        "p1-r1": {"structure": {"hull": 3, "arms": 3, "legs": 3, "engine": 2}},
        "p1-r2": {},
        "p2-r1": {"destroyed": True, "structure": dict(WRECKED), "catastrophic": ["hull", "arms", "legs", "engine"]},
        "p2-r2": {"structure": {"hull": 2, "arms": 3, "legs": 3, "engine": 2}, "status": {"hydraulic_blowout": {}},
                  "weapons": {"cannon": {"destroyed": True}, "flamer": {"destroyed": False}}},
    })
    log = list(log) or [{"facts": {"rig": "p1-r1"}, "changes": [
        {"path": ["rigs", "p2-r1", "structure", "engine"], "before": 2, "after": 0},
        {"path": ["rigs", "p2-r1", "destroyed"], "before": False, "after": True}]}]
    step("begin_aftermath", step="1", report=read_engagement(state, log, PIECES, WEAPONS))
    return step


def rec(step, ref):
    p, k = ref.split("/")
    return step.doc["rosters"][p]["rigs"][k]


def test_the_aftermath_writes_damage_lasting_effects_lost_weapons_and_service_history_at_once():
    step = in_aftermath()
    ox, jackal, bull = rec(step, "p2/r2"), rec(step, "p1/r1"), rec(step, "p2/r1")
    assert ox["damage"]["hull"] == 2 and ox["lasting"] == ["hydraulic_blowout"]
    assert ox["weapons"][0]["lost"] is True and ox["weapons"][1]["lost"] is False
    assert jackal["kills"] == 1 and jackal["history"]["damage_dealt"] == 2 and jackal["history"]["engagements"] == 1
    assert bull["status"] == "awaiting_recovery" and bull["history"]["destroyed"] == 1
    assert step.doc["aftermath"]["pending_recovery"] == ["p2/r1"]
    assert step.doc["games"]["1"]["status"] == "aftermath"


def test_an_aftermath_cannot_begin_twice_or_for_an_engagement_still_being_fought():
    step = in_aftermath()
    with pytest.raises(RuleError, match="already open"):
        step("begin_aftermath", step="1", report=step.doc["aftermath"]["report"])


def test_damage_does_not_carry_when_the_setting_is_off():
    step = in_aftermath(damage_carries=False)
    assert rec(step, "p2/r2")["damage"]["hull"] == 0 and rec(step, "p2/r2")["history"]["damage_taken"] == 2


def test_recovery_roll_on_the_table_low_roll_loses_the_rig():
    step = in_aftermath()
    assert step.odds("recovery_roll", rig="p2/r1")[0].startswith("Recovery of Bull (D12): Beyond saving")
    r = step("recovery_roll", dice=[3], rig="p2/r1")
    assert r.data["outcome"] == "lost" and rec(step, "p2/r1")["status"] == "lost"
    assert step.doc["aftermath"]["pending_recovery"] == []


def test_recovered_whole_patches_wrecked_locations_to_one_sp():
    step = in_aftermath()
    step("recovery_roll", dice=[10], rig="p2/r1")
    bull = rec(step, "p2/r1")
    assert bull["status"] == "active" and bull["history"]["recovered"] == 1
    assert bull["damage"] == {"hull": 3, "arms": 2, "legs": 2, "engine": 1}


def test_recovered_with_a_trait_rolls_the_repair_trait_table():
    step = in_aftermath()
    r = step("recovery_roll", dice=[6, 1], rig="p2/r1")
    assert [d.sides for d in r.dice] == [12, 12]
    assert rec(step, "p2/r1")["traits"][0]["name"] == "Seized Servos"


def test_contracted_recovery_crew_adds_two_to_the_recovery_roll():
    step = in_aftermath(p2_equipment=("contracted_recovery_crew",),
                        state=engagement_state({"p1-r1": {}, "p1-r2": {}, "p2-r2": {},
                                                "p2-r1": {"destroyed": True, "catastrophic": ["hull"],
                                                          "structure": {"hull": 0, "arms": 0, "legs": 0, "engine": 2}}}))
    assert "+2 Contracted Recovery Crew" in step.odds("recovery_roll", rig="p2/r1")[0]
    r = step("recovery_roll", dice=[3, 9], rig="p2/r1")  # 3 + 2 = 5: dragged home, then a trait roll
    assert r.data["total"] == 5 and r.data["outcome"] == "recovered_with_trait"


def test_contracted_recovery_crew_gives_nothing_when_the_rig_exploded():
    step = in_aftermath(p2_equipment=("contracted_recovery_crew",))  # the Bull's Engine was wrecked
    r = step("recovery_roll", dice=[3], rig="p2/r1")
    assert r.data["total"] == 3 and r.data["outcome"] == "lost"
    assert any("exploded" in m.rule and m.amount == 0 for m in r.modifiers)


def test_the_players_may_call_an_explosion_the_record_does_not_show():
    step = in_aftermath(p2_equipment=("contracted_recovery_crew",))
    r = step("recovery_roll", dice=[3, 9], rig="p2/r1", exploded=False)
    assert r.data["total"] == 5 and any("differs" in n for n in r.notes)


def test_the_battlefield_changes_the_recovery_roll():
    step = in_aftermath(battlefield="Desecrated Frontier")
    r = step("recovery_roll", dice=[5], rig="p2/r1")
    assert r.data["total"] == 4 and r.data["outcome"] == "lost"


def test_a_rig_that_was_not_destroyed_makes_no_recovery_roll():
    step = in_aftermath()
    with pytest.raises(RuleError, match="not destroyed"):
        step("recovery_roll", dice=[5], rig="p1/r1")
    with pytest.raises(RuleError, match="on neither roster"):
        step("recovery_roll", dice=[5], rig="p1/r9")


def test_salvage_rolls_on_the_table_add_iron():
    step = in_aftermath()
    r = step("salvage_roll", dice=[8], player="p1")
    assert r.data == {"iron": 2, "rolls": 1} and step.doc["players"]["p1"]["iron"] == 12
    with pytest.raises(RuleError, match="already"):
        step("salvage_roll", dice=[8], player="p1")


def test_battlefield_recovery_rig_rolls_d3_more_salvage():
    step = in_aftermath(p1_equipment=("battlefield_recovery_rig",))
    assert "D3 more" in step.odds("salvage_roll", player="p1")[1]
    r = step("salvage_roll", dice=[5, 12, 4, 7, 2], player="p1")  # D3 = 3 more: four rolls in all
    assert r.data == {"iron": 4 + 1 + 2 + 0, "rolls": 4}
    assert r.dice[0].purpose.startswith("Battlefield Recovery Rig")


def test_the_battlefield_changes_each_salvage_roll():
    step = in_aftermath(battlefield="Oil Fields")
    assert step("salvage_roll", dice=[3], player="p2").data["iron"] == 1  # 3 + 1 = 4: scrap plate


def test_experience_for_taking_part_surviving_kills_and_winning_and_iron_rewards():
    step = in_aftermath()
    step("experience")
    assert rec(step, "p1/r1")["xp"] == 1 + 1 + 2 + 1  # took part, survived, one kill, winning side
    assert rec(step, "p2/r1")["xp"] == 1  # took part only: destroyed, no kill, lost
    assert step.doc["players"]["p1"]["iron"] == 13 and step.doc["players"]["p2"]["iron"] == 11
    with pytest.raises(RuleError, match="already"):
        step("experience")


def test_black_market_parts_cache_ignores_one_negative_trait_once_per_aftermath():
    step = in_aftermath(p2_equipment=("black_market_parts_cache",))
    step("recovery_roll", dice=[6, 1], rig="p2/r1")  # back with Seized Servos
    step("black_market", rig="p2/r1", trait="Seized Servos")
    assert rec(step, "p2/r1")["traits"][0]["ignored"] is True
    with pytest.raises(RuleError, match="once per Aftermath"):
        step("black_market", rig="p2/r1", trait="Seized Servos")


def test_without_the_cache_no_trait_is_ignored():
    step = in_aftermath()
    step("recovery_roll", dice=[6, 1], rig="p2/r1")
    with pytest.raises(RuleError, match="no Black Market"):
        step("black_market", rig="p2/r1", trait="Seized Servos")


def test_experimental_load_bearing_frame_gives_one_rig_one_more_iron_once():
    step = in_aftermath(p1_equipment=("experimental_load_bearing_frame",))
    step("load_bearing_frame", rig="p1/r2")
    assert rec(step, "p1/r2")["iron_bonus"] == 1
    with pytest.raises(RuleError, match="no Experimental"):
        step("load_bearing_frame", rig="p1/r1")


def test_repairs_are_paid_in_iron_at_the_tables_costs():
    step = in_aftermath()
    step("repair", rig="p2/r2", what="hull", sp=2)
    assert rec(step, "p2/r2")["damage"]["hull"] == 0 and step.doc["players"]["p2"]["iron"] == 8
    step("repair", rig="p2/r2", what="lasting:hydraulic_blowout")
    step("repair", rig="p2/r2", what="weapon:0")  # a new cannon: its card's 2 Iron
    assert rec(step, "p2/r2")["lasting"] == [] and rec(step, "p2/r2")["weapons"][0]["lost"] is False
    assert step.doc["players"]["p2"]["iron"] == 4


def test_a_wrecked_location_costs_more_and_a_repair_beyond_the_bank_is_refused():
    step = in_aftermath()
    step("recovery_roll", dice=[12], rig="p2/r1")
    step("umpire_override", field="rosters.p2.rigs.r1.damage.engine", value="2", reason="test: Engine at 0")
    r = step("repair", rig="p2/r1", what="engine", sp=1)  # 1 per SP + 1 for a wrecked location
    assert r.modifiers[0].amount == -2
    step("umpire_override", field="players.p2.iron", value="0", reason="test")
    with pytest.raises(RuleError, match="has 0"):
        step("repair", rig="p2/r1", what="hull", sp=1)


def test_a_trait_that_changes_a_location_counts_in_its_patching_and_its_repair_price():
    step = in_aftermath()  # the Bull wrecked: Hull 4, Arms 3, Legs 3, Engine 2 on its chassis
    step("recovery_roll", dice=[6, 11], rig="p2/r1")  # dragged home with Hardened Joints: Legs 4
    assert rec(step, "p2/r1")["damage"]["legs"] == 3  # patched to 1 SP of its 4, not of the chassis's 3
    r = step("repair", rig="p2/r1", what="legs", sp=1)  # it stands on 1 SP: not priced as wrecked
    assert r.modifiers[0].amount == -1


def test_a_location_a_trait_shrinks_is_wrecked_at_its_own_structure():
    step = in_aftermath()
    step("recovery_roll", dice=[6, 6], rig="p2/r1")  # with Patched Hull: Hull 3
    assert rec(step, "p2/r1")["damage"]["hull"] == 2  # patched to 1 SP of its 3
    step("umpire_override", field="rosters.p2.rigs.r1.damage.hull", value="3", reason="test: Hull at 0")
    r = step("repair", rig="p2/r1", what="hull", sp=1)  # all 3 of its SP lost: wrecked, 1 more
    assert r.modifiers[0].amount == -2


def test_refits_fit_cards_within_the_rigs_iron_and_are_paid_in_iron():
    step = in_aftermath()
    step("refit", rig="p1/r2", card="extinguisher")  # 1 + 2 + 1 + 1 = 5 of 6 Iron
    assert step.doc["players"]["p1"]["iron"] == 9
    with pytest.raises(RuleError, match="would carry"):
        step("refit", rig="p1/r2", card="battlefield_recovery_rig")
    with pytest.raises(RuleError, match="no free weapon slot"):
        step("refit", rig="p1/r2", card="saw")
    step("refit", rig="p1/r2", card="flamer", remove=True)
    step("refit", rig="p1/r2", card="saw")
    assert [w["card"] for w in rec(step, "p1/r2")["weapons"]] == ["cannon", "saw"]


def test_the_aftermath_closes_only_when_every_roll_is_made():
    step = in_aftermath()
    with pytest.raises(RuleError, match="recovery roll for Bull.*salvage rolls for Anna.*experience"):
        step("close_aftermath")
    step("recovery_roll", dice=[12], rig="p2/r1")
    step("salvage_roll", dice=[1], player="p1")
    step("salvage_roll", dice=[1], player="p2")
    step("experience")
    step("close_aftermath")
    assert step.doc["aftermath"] is None and step.doc["games"]["1"]["status"] == "done"
    step("plan_engagement", engagement="siege", deployment="Battle Lines", battlefield="Salt Flats")
    step("game_started", step="2", game_id=6, name="Night two", pieces=PIECES, weapons=WEAPONS)
    assert step.doc["games"]["2"]["status"] == "playing"
