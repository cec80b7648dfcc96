"""The Heat Threshold roll (D12 + heat over threshold), every row of the table, the Extinguisher,
Exotic Engine Coolant, Exhaust and the limits on heat."""
import pytest
from _oi_helpers import gun, make_doc, odds, rig, rig_spec, run, set_rig

from referee.oilandiron.model import RuleError


def maintenance(heat: int, **rig_fields):
    doc = set_rig(make_doc(), "a", heat=heat, **rig_fields)
    doc["phase"] = "maintenance"
    return doc


def roll_total(total: int, extra=(), **facts):
    """Make the Heat Threshold roll come to ``total`` (threshold 6: heat 7 gives +1; high totals
    use a long heat track and a die of 1)."""
    heat = 7 if total <= 13 else total + 5
    die = total - (heat - 6)
    return run("heat_roll", maintenance(heat, heat_track=30), [die, *extra], rig="a", **facts)


def test_modifier_is_heat_over_threshold():
    result, _ = run("heat_roll", maintenance(9), [2], rig="a")
    assert result.data["rolls"][0]["total"] == 2 + 3


def test_no_roll_at_or_below_threshold():
    with pytest.raises(RuleError, match="not above its threshold"):
        run("heat_roll", maintenance(6), [5], rig="a")


def test_roll_only_in_maintenance():
    doc = maintenance(9)
    doc["phase"] = "activation"
    with pytest.raises(RuleError, match="Maintenance"):
        run("heat_roll", doc, [5], rig="a")


def test_one_roll_per_round():
    _, doc = run("heat_roll", maintenance(9), [1], rig="a")
    with pytest.raises(RuleError, match="already"):
        run("heat_roll", doc, [1], rig="a")


@pytest.mark.parametrize("total", [2, 5])
def test_rows_1_to_5_nothing_happens(total):
    result, doc = roll_total(total)
    assert rig(doc, "a").structure == {"hull": 4, "arms": 3, "legs": 3, "engine": 3}
    assert "Nothing happens" in result.summary


@pytest.mark.parametrize("total", [6, 7])
def test_system_stall_one_hull_damage(total):
    _, doc = roll_total(total)
    assert rig(doc, "a").structure["hull"] == 3


@pytest.mark.parametrize("total", [8, 9])
def test_hydraulic_blowout_two_leg_damage_and_slower_until_repaired(total):
    _, doc = roll_total(total)
    a = rig(doc, "a")
    assert a.structure["legs"] == 1
    assert a.status["hydraulic_blowout"] == "until_repaired"


@pytest.mark.parametrize("total", [10, 11])
def test_ammo_detonation_arms_hull_and_a_weapon_disabled(total):
    _, doc = roll_total(total)
    a = rig(doc, "a")
    assert (a.structure["arms"], a.structure["hull"]) == (1, 3)
    assert a.weapons["gun"].disabled


def test_ammo_detonation_disables_the_chosen_weapon():
    doc = maintenance(7)
    doc = make_doc(p1=[rig_spec("a", weapons=[gun("gun"), gun("claw")])])
    doc = set_rig(doc, "a", heat=11)
    doc["phase"] = "maintenance"
    _, after = run("heat_roll", doc, [5], rig="a", detonation_weapon="claw")
    assert rig(after, "a").weapons["claw"].disabled and not rig(after, "a").weapons["gun"].disabled


@pytest.mark.parametrize("total", [12, 13])
def test_fuel_line_rupture_hull_damage_and_ongoing(total):
    _, doc = roll_total(total)
    a = rig(doc, "a")
    assert a.structure["hull"] == 3
    assert a.status["fuel_line_rupture"] == "until_repaired"


@pytest.mark.parametrize("total", [14, 15])
def test_structural_buckling_one_damage_everywhere(total):
    _, doc = roll_total(total)
    assert rig(doc, "a").structure == {"hull": 3, "arms": 2, "legs": 2, "engine": 2}


@pytest.mark.parametrize("total", [16, 17])
def test_emergency_shutdown_heat_to_zero_and_skip_next_activation(total):
    _, doc = roll_total(total)
    a = rig(doc, "a")
    assert a.heat == 0
    assert "skip_activation" in a.status


def test_chain_reaction_damages_everything_and_rolls_again():
    result, doc = run("heat_roll", maintenance(12), [12, 1], rig="a")  # 12 + 6 = 18, then 1 + 6 = 7: System Stall
    a = rig(doc, "a")
    assert a.structure == {"hull": 2, "arms": 2, "legs": 2, "engine": 2}
    assert [r["row"] for r in result.data["rolls"]] == ["chain_reaction", "system_stall"]


def test_engine_failure_engine_damage_and_heat_locked():
    _, doc = roll_total(19)
    a = rig(doc, "a")
    assert a.structure["engine"] == 1
    assert a.heat_locked
    doc["scored_round"] = 1
    _, after = run("end_round", doc)
    assert rig(after, "a").heat == rig(doc, "a").heat == 24  # Exhaust cannot lower it


def test_catastrophic_failure_destroys_the_rig():
    result, doc = roll_total(20)
    a = rig(doc, "a")
    assert a.structure == {"hull": 0, "arms": 0, "legs": 0, "engine": 0}
    assert set(a.catastrophic) == {"hull", "arms", "legs", "engine"} and a.destroyed


def test_exotic_engine_coolant_lowers_the_roll():
    doc = make_doc(p1=[rig_spec("a", equipment=["exotic_engine_coolant"])])
    doc = set_rig(doc, "a", heat=7)
    doc["phase"] = "maintenance"
    result, _ = run("heat_roll", doc, [6], rig="a")
    assert result.data["rolls"][0]["total"] == 6  # 6 + 1 − 1
    assert any(m.rule == "Exotic Engine Coolant" for m in result.modifiers)


def test_extinguisher_on_4_plus_cancels_and_is_discarded():
    doc = make_doc(p1=[rig_spec("a", equipment=["extinguisher"])])
    doc = set_rig(doc, "a", heat=12)
    doc["phase"] = "maintenance"
    result, after = run("heat_roll", doc, [4], rig="a", use_extinguisher=True)
    assert result.data["cancelled"]
    assert rig(after, "a").equipment["extinguisher"].discarded
    assert rig(after, "a").structure["hull"] == 4


def test_extinguisher_failing_keeps_the_card_and_rolls():
    doc = make_doc(p1=[rig_spec("a", equipment=["extinguisher"])])
    doc = set_rig(doc, "a", heat=7)
    doc["phase"] = "maintenance"
    result, after = run("heat_roll", doc, [3, 6], rig="a", use_extinguisher=True)
    assert not result.data["cancelled"]
    assert not rig(after, "a").equipment["extinguisher"].discarded
    assert rig(after, "a").structure["hull"] == 3  # 6 + 1 = 7: System Stall


def test_exhaust_in_maintenance_after_the_roll():
    doc = maintenance(5)
    _, after = run("end_round", doc)
    assert rig(after, "a").heat == 3


def test_exhaust_at_end_of_activation_setting():
    from _oi_helpers import activated
    doc = activated(make_doc(settings={"exhaust_when": "activation"}), "a")
    doc = set_rig(doc, "a", heat=5)
    _, after = run("end_activation", doc)
    assert rig(after, "a").heat == 3


def test_lost_engine_holds_heat_at_first_numbered_space():
    doc = maintenance(8, catastrophic=["engine"], structure={"hull": 4, "arms": 3, "legs": 3, "engine": 0})
    doc["rigs"]["a"]["heat_rolled"] = 1
    _, after = run("end_round", doc)
    assert rig(after, "a").heat == 7  # first numbered space: threshold 6 + 1


def test_heat_never_passes_the_end_of_the_track():
    from _oi_helpers import SHOT, activated
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[gun(perks=[("incendiary", 9)])])]), "a")
    doc = set_rig(doc, "t", heat=10)
    _, after = run("fire_weapon", doc, [6, 1, 1], **SHOT)
    assert rig(after, "t").heat == 12


def test_heat_roll_odds_cover_the_table():
    lines = odds("heat_roll", maintenance(7), rig="a")
    assert "Nothing happens: 33.3%" in lines  # 1 + 1..4
    assert "System Stall: 16.7%" in lines


def engine_failed(**settings):
    """Rig "a" after an Engine Failure, activated, its Engine damaged but not lost."""
    from _oi_helpers import activated
    doc = set_rig(make_doc(settings=settings), "a", heat=24, heat_track=30)
    doc["phase"] = "maintenance"
    _, doc = run("heat_roll", doc, [1], rig="a")  # 1 + 18 = 19: Engine Failure
    return activated(doc, "a")


def test_engine_failure_heat_lock_outlasts_an_engine_repair():
    # The table gives Engine Failure no "until Repaired", unlike its neighbours: the lock stays.
    _, after = run("repair", engine_failed(), [12], rig="a", location="engine")
    a = rig(after, "a")
    assert a.structure["engine"] == 3 and a.heat_locked


def test_engine_failure_repairable_setting_lifts_the_lock():
    _, after = run("repair", engine_failed(engine_failure_repairable=True), [6], rig="a", location="engine")
    assert not rig(after, "a").heat_locked


def test_no_heat_roll_once_the_engagement_is_over():
    doc = maintenance(9)
    doc["ended"] = True
    with pytest.raises(RuleError, match="over"):
        run("heat_roll", doc, [5], rig="a")
