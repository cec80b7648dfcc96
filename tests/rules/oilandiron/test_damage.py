"""Hit location, the impact roll against Direct / Severe / Critical, structure, catastrophic damage
by location, overflow to the defender's choice, and a Rig's destruction."""
import pytest
from _oi_helpers import COLOSSAL, HEAVY, SHOT, activated, gun, make_doc, rig, rig_spec, run, set_rig

from referee.core.errors import ChoiceNeeded
from referee.oilandiron.damage import location_for
from referee.oilandiron.model import RuleError

FULL = {"hull": 5, "arms": 4, "legs": 4, "engine": 3}  # the Heavy target's structure


def attack_doc(strength: int = 5, weapon_perks=(), target=None, **target_fields):
    doc = make_doc(p1=[rig_spec("a", weapons=[gun(strength=strength, perks=weapon_perks)])],
                   p2=target if target is not None else None)
    if target_fields:
        doc = set_rig(doc, "t", **target_fields)
    return activated(doc, "a")


@pytest.mark.parametrize("d12,where", [(1, "hull"), (2, "hull"), (3, "hull"), (4, "hull"), (5, "arms"), (6, "arms"),
                                       (7, "arms"), (8, "legs"), (9, "legs"), (10, "legs"), (11, "engine"),
                                       (12, "engine")])
def test_hit_location_table(d12, where):
    assert location_for(d12) == where
    result, _ = run("fire_weapon", attack_doc(), [6, d12, 1], **SHOT)
    assert result.data["impacts"][0]["location"] == where


@pytest.mark.parametrize("strength,die,damage", [(6, 2, 0), (6, 3, 1), (6, 5, 1), (6, 6, 2), (8, 4, 2), (8, 6, 3)])
def test_impact_against_direct_severe_critical(strength, die, damage):
    result, doc = run("fire_weapon", attack_doc(strength), [6, 1, die], **SHOT)  # Heavy: 9 / 12 / 14
    assert result.data["impacts"][0]["damage"] == damage
    assert rig(doc, "t").structure["hull"] == 5 - damage


def test_below_direct_does_no_damage():
    result, doc = run("fire_weapon", attack_doc(), [6, 1, 3], **SHOT)  # 3 + 5 = 8 < 9
    assert result.data["impacts"][0]["grade"] == "none"
    assert rig(doc, "t").structure == FULL


@pytest.mark.parametrize("arc,damage", [("front", 0), ("side", 1), ("rear", 2)])
def test_side_and_rear_arcs_add_strength(arc, damage):
    result, _ = run("fire_weapon", attack_doc(), [6, 1, 3], target_arc=arc, **SHOT)  # 8, 10, 12
    assert result.data["impacts"][0]["damage"] == damage


def test_overflow_needs_the_defenders_choice():
    doc = attack_doc(strength=8, structure=dict(FULL, hull=1))
    with pytest.raises(ChoiceNeeded, match="Ben, where does it go") as err:
        run("fire_weapon", doc, [6, 1, 6], **SHOT)
    # asked as the overflow arises: the fact that carries the answer, and only the locations still open
    assert err.value.field == "overflow_to"
    assert err.value.choices == [("arms", "Arms"), ("legs", "Legs"), ("engine", "Engine")]
    assert isinstance(err.value, RuleError)  # code that knows nothing of choices still reads a refusal


def test_overflow_goes_where_the_defender_chose():
    doc = attack_doc(strength=8, structure=dict(FULL, hull=1))
    _, after = run("fire_weapon", doc, [6, 1, 6], overflow_to=["legs"], **SHOT)
    t = rig(after, "t")
    assert t.structure["hull"] == 0 and t.structure["legs"] == 2
    assert "hull" in t.catastrophic


def test_overflow_skips_lost_locations_in_the_choice():
    doc = attack_doc(strength=8, structure=dict(FULL, hull=1, legs=0), catastrophic=["legs"])
    _, after = run("fire_weapon", doc, [6, 1, 6], overflow_to=["legs", "engine"], **SHOT)
    assert rig(after, "t").structure["engine"] == 1


def test_legs_catastrophic_slows_and_stops_backpedalling():
    doc = attack_doc(structure=dict(FULL, legs=1))
    _, after = run("fire_weapon", doc, [6, 9, 4], **SHOT)
    assert "legs" in rig(after, "t").catastrophic
    moved, _ = run("move", activated(after, "t"), rig="t")
    assert moved.data["forward"] == 3 and moved.data["backpedal"] == 0


def test_further_leg_damage_immobilises():
    doc = attack_doc(structure=dict(FULL, legs=0), catastrophic=["legs"])
    _, after = run("fire_weapon", doc, [6, 9, 4], overflow_to=["hull"], **SHOT)
    t = rig(after, "t")
    assert t.status["legs_immobilised"] == "permanent" and t.structure["hull"] == 4
    moved, _ = run("move", activated(after, "t"), rig="t")
    assert moved.data["forward"] == 0 and moved.data["immobilised"] and moved.data["pivots"] == 2


def test_legs_and_arms_both_lost_destroy_the_rig():
    doc = attack_doc(structure=dict(FULL, legs=1, arms=0), catastrophic=["arms"])
    _, after = run("fire_weapon", doc, [6, 9, 4], **SHOT)
    assert rig(after, "t").destroyed


def test_hull_catastrophic_costs_two_actions_and_aim():
    doc = attack_doc(structure=dict(FULL, hull=1))
    _, after = run("fire_weapon", doc, [6, 1, 4], **SHOT)
    assert "hull" in rig(after, "t").catastrophic
    after.update(phase="activation", current_player="p2", active_rig=None)
    started, _ = run("activate", after, rig="t")
    assert started.data["actions"] == 3


def test_hull_catastrophic_attacker_aims_one_worse():
    doc = set_rig(attack_doc(), "a", catastrophic=["hull"], structure={"hull": 0, "arms": 3, "legs": 3, "engine": 3})
    result, _ = run("fire_weapon", doc, [4], **SHOT)
    assert result.data["effective_aim"] == 5 and result.data["hits"] == 0


def test_further_hull_damage_destroys():
    doc = attack_doc(structure=dict(FULL, hull=0), catastrophic=["hull"])
    _, after = run("fire_weapon", doc, [6, 1, 4], **SHOT)
    assert rig(after, "t").destroyed


def test_arms_catastrophic_destroys_a_weapon_and_its_munitions_hit_hull_and_engine():
    doc = attack_doc(structure=dict(FULL, arms=1))
    _, after = run("fire_weapon", doc, [6, 5, 4, 3], **SHOT)  # arms, direct, D12 3: left
    t = rig(after, "t")
    assert t.weapons["gun"].destroyed
    assert (t.structure["hull"], t.structure["engine"]) == (4, 2)


def test_arms_right_side_hits_the_right_weapon():
    target = [rig_spec("t", HEAVY, weapons=[gun("left_gun"), gun("right_gun")])]
    doc = attack_doc(target=target, structure=dict(FULL, arms=1))
    _, after = run("fire_weapon", doc, [6, 5, 4, 7], **SHOT)
    t = rig(after, "t")
    assert t.weapons["right_gun"].destroyed and not t.weapons["left_gun"].destroyed


def test_same_weapon_again_deals_three_to_the_hull():
    doc = attack_doc(structure=dict(FULL, arms=0), catastrophic=["arms"], arm_weapons_lost=["left"])
    _, after = run("fire_weapon", doc, [6, 5, 4, 2], overflow_to=["legs"], **SHOT)
    t = rig(after, "t")
    assert t.structure["hull"] == 2 and t.structure["legs"] == 3


@pytest.mark.parametrize("d12,mount", [(4, "left"), (5, "hull"), (8, "hull"), (9, "right")])
def test_colossal_arm_roll_includes_the_hull_mount(d12, mount):
    target = [rig_spec("t", COLOSSAL, weapons=[gun("one"), gun("two"), gun("three")])]
    doc = attack_doc(target=target)
    doc = set_rig(doc, "t", structure={"hull": 6, "arms": 1, "legs": 5, "engine": 4})
    _, after = run("fire_weapon", doc, [6, 5, 6, d12], **SHOT)
    t = rig(after, "t")
    lost = [w.mount for w in t.weapons.values() if w.destroyed]
    assert lost == [mount]


def test_engine_catastrophic_sets_a_heat_floor():
    doc = attack_doc(structure=dict(FULL, engine=1))
    _, after = run("fire_weapon", doc, [6, 11, 4], **SHOT)
    t = rig(after, "t")
    assert "engine" in t.catastrophic and t.heat == t.first_numbered_heat_space == 7


def test_further_engine_damage_destroys():
    doc = attack_doc(structure=dict(FULL, engine=0), catastrophic=["engine"])
    _, after = run("fire_weapon", doc, [6, 11, 4], **SHOT)
    assert rig(after, "t").destroyed


def test_every_location_at_zero_destroys_the_rig():
    doc = attack_doc(structure={"hull": 1, "arms": 0, "legs": 0, "engine": 0}, catastrophic=["legs"])
    _, after = run("fire_weapon", doc, [6, 1, 4], **SHOT)
    assert rig(after, "t").destroyed


def test_objective_with_structure_takes_damage_and_is_destroyed():
    objectives = {f"o{i}": {"name": f"Pump {i}", "owner": "p2" if i < 3 else "p1"} for i in range(6)}
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[gun(rof=2, strength=9)])], engagement="sabotage",
                             objectives=objectives), "a")
    doc["rigs"]["a"]["weapons"]["gun"]["loaded"] = True
    facts = dict(SHOT, target=None, target_objective="o0")
    result, after = run("fire_weapon", doc, [6, 6, 1, 6], **facts)  # 10: Direct; 15: Severe
    assert [i["damage"] for i in result.data["impacts"]] == [1, 2]
    assert after["objectives"]["o0"]["structure"] == 2
    after = set_rig(after, "a", actions_left=3)
    after["rigs"]["a"]["weapons"]["gun"]["loaded"] = True
    _, after = run("fire_weapon", after, [6, 6, 6, 6], **facts)  # 15 and 15
    assert after["objectives"]["o0"]["destroyed"]
