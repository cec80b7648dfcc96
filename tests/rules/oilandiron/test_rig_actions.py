"""Move, Ram, Repair, Shut Down and Prepare, each with its heat."""
import pytest
from _oi_helpers import activated, make_doc, odds, rig, run, set_rig

from referee.oilandiron.model import RuleError

FULL_A = {"hull": 4, "arms": 3, "legs": 3, "engine": 3}


def ready(**fields):
    return set_rig(activated(make_doc(), "a"), "a", **fields) if fields else activated(make_doc(), "a")


def test_move_tells_the_distances_and_costs_one_heat():
    result, after = run("move", ready(speed=7), rig="a")
    assert result.data == {"forward": 7, "backpedal": 3.5, "side_step": 3.5, "pivots": 2, "immobilised": False}
    assert "Backpedal up to 3½\"" in "\n".join(result.notes)
    assert rig(after, "a").heat == 1 and rig(after, "a").actions_left == 4


def test_hydraulic_blowout_slows_by_two():
    result, _ = run("move", ready(status={"hydraulic_blowout": "until_repaired"}), rig="a")
    assert result.data["forward"] == 4


def test_ram_needs_two_inches_of_movement():
    with pytest.raises(RuleError, match="2\""):
        run("ram", ready(), [6, 6, 6, 6], rig="a", target="t")


def test_ram_hits_both_rigs_with_the_other_rigs_class_strength():
    # Medium rams Heavy: the Heavy takes D6 + 8, the Medium D6 + 9.
    result, after = run("ram", ready(), [1, 2, 1, 2], rig="a", target="t", moved_2_inches=True)
    assert rig(after, "t").structure["hull"] == 5 - 1  # 2 + 8 = 10: Direct against 9 / 12 / 14
    assert rig(after, "a").structure["hull"] == 4 - 2  # 2 + 9 = 11: Severe against 8 / 11 / 13
    text = "\n".join(result.notes)
    assert "STR 8" in text and "STR 9" in text


def test_ram_side_arc_adds_two():
    result, after = run("ram", ready(), [1, 1, 1, 1], rig="a", target="t", moved_2_inches=True, target_arc="side")
    assert "1 + STR 8 +2 Side arc = 11" in "\n".join(result.notes)


def test_ram_strength_setting_rammer_class_for_both():
    doc = activated(make_doc(settings={"ram_strength_from": "rammer"}), "a")
    result, _ = run("ram", doc, [1, 1, 1, 1], rig="a", target="t", moved_2_inches=True)
    text = "\n".join(result.notes)
    assert text.count("STR 8") == 2


def test_ram_odds():
    lines = odds("ram", ready(), rig="a", target="t", moved_2_inches=True)
    assert lines[0].startswith("T: damaged 100.0%")


@pytest.mark.parametrize("die,restored", [(5, 0), (6, 1), (9, 1), (10, 2), (12, 2)])
def test_repair_d12(die, restored):
    doc = ready(structure=dict(FULL_A, hull=1))
    result, after = run("repair", doc, [die], rig="a", location="hull")
    assert rig(after, "a").structure["hull"] == 1 + restored
    assert rig(after, "a").heat == 1


def test_repair_never_above_the_start():
    _, after = run("repair", ready(structure=dict(FULL_A, hull=3)), [12], rig="a", location="hull")
    assert rig(after, "a").structure["hull"] == 4


def test_repair_refuses_a_catastrophic_location():
    doc = ready(structure=dict(FULL_A, legs=0), catastrophic=["legs"])
    with pytest.raises(RuleError, match="cannot be repaired"):
        run("repair", doc, [12], rig="a", location="legs")


def test_repair_clears_hydraulic_blowout_on_the_legs():
    doc = ready(structure=dict(FULL_A, legs=1), status={"hydraulic_blowout": "until_repaired"})
    _, after = run("repair", doc, [6], rig="a", location="legs")
    assert "hydraulic_blowout" not in rig(after, "a").status


def test_repairing_the_arms_brings_a_disabled_weapon_back():
    doc = ready(structure=dict(FULL_A, arms=1))
    doc["rigs"]["a"]["weapons"]["gun"]["disabled"] = True
    _, after = run("repair", doc, [7], rig="a", location="arms")
    assert not rig(after, "a").weapons["gun"].disabled


def test_repair_odds():
    assert odds("repair", ready(structure=dict(FULL_A, hull=1)), rig="a", location="hull") == \
        ["Fails: 41.7%", "1 SP back: 33.3%", "2 SP back: 25.0%"]


def test_shut_down_sets_heat_to_zero_and_ends_the_activation():
    result, after = run("shut_down", ready(heat=9), rig="a")
    a = rig(after, "a")
    assert a.heat == 0 and a.actions_left == 0 and a.activated and after["active_rig"] is None


def test_shut_down_with_a_lost_engine_stops_at_the_floor():
    doc = ready(heat=9, catastrophic=["engine"], structure=dict(FULL_A, engine=0))
    _, after = run("shut_down", doc, rig="a")
    assert rig(after, "a").heat == 7


def test_prepare_records_the_token_type():
    _, after = run("prepare", ready(), rig="a", token="Brace")
    a = rig(after, "a")
    assert a.prepare_tokens == ("Brace",) and a.heat == 1


def test_five_actions_then_no_more():
    doc = ready()
    for _ in range(5):
        _, doc = run("move", doc, rig="a")
    with pytest.raises(RuleError, match="no actions left"):
        run("move", doc, rig="a")
    assert rig(doc, "a").heat == 5


@pytest.mark.parametrize("chassis,strength", [("example_light_scout", 7), ("example_medium_brawler", 8),
                                              ("example_heavy_siege", 9), ("example_colossal_walker", 10)])
def test_ram_str_by_weight_class(chassis, strength):
    # A Rig of each class rams a Medium: the Medium takes that class's Ram STR, the rammer the Medium's 8.
    from _oi_helpers import rig_spec
    doc = activated(make_doc(p1=[rig_spec("a", chassis)], p2=[rig_spec("t")]), "a")
    result, _ = run("ram", doc, [1, 1, 1, 1], rig="a", target="t", moved_2_inches=True)
    text = "\n".join(result.notes)
    assert f"Impact on T to the Hull: D6 1 + STR {strength} =" in text
    assert "Impact on A to the Hull: D6 1 + STR 8 =" in text
