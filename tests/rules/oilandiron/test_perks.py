"""Every weapon perk."""
import pytest
from _oi_helpers import COLOSSAL, HEAVY, SHOT, activated, gun, make_doc, rig, rig_spec, run

from referee.data.oilandiron import DataError, squadron_state
from referee.oilandiron.model import RuleError


def armed(*perks, rof=1, strength=5, acc=0, p2=None, settings=None):
    doc = make_doc(p1=[rig_spec("a", weapons=[gun(rof=rof, strength=strength, acc=acc, perks=perks)])], p2=p2,
                   settings=settings)
    return activated(doc, "a")


def test_armour_piercing_adds_d3_on_an_impact_six():
    result, _ = run("fire_weapon", armed("armour_piercing"), [6, 1, 6, 5], **SHOT)  # 6 + 5 + 3 = 14
    assert result.data["impacts"][0]["total"] == 14 and result.data["impacts"][0]["damage"] == 3


def test_armour_piercing_needs_a_six():
    result, _ = run("fire_weapon", armed("armour_piercing"), [6, 1, 5], **SHOT)
    assert result.data["impacts"][0]["total"] == 10


def test_bombardment_fires_without_sight_at_minus_two():
    result, _ = run("fire_weapon", armed("bombardment"), [6, 1, 1], line_of_sight="none", **SHOT)
    assert result.data["effective_aim"] == 6 and result.data["hits"] == 1


def test_charged_shot_plus_two_str_and_heat_for_ones():
    result, after = run("fire_weapon", armed("charged_shot", rof=2), [1, 6, 1, 2], **SHOT)
    assert result.data["impacts"][0]["total"] == 2 + 5 + 2
    assert rig(after, "a").heat == 2  # 1 for firing, 1 for the die showing 1


def test_explosive_hits_the_other_rigs_listed():
    p2 = [rig_spec("t", HEAVY), rig_spec("u", HEAVY)]
    doc = armed(("explosive", 3), p2=p2)
    result, after = run("fire_weapon", doc, [6, 1, 4, 2, 4], explosive_also_hits=["u"], **SHOT)
    assert rig(after, "t").structure["hull"] == 4 and rig(after, "u").structure["hull"] == 4


def test_explosive_on_an_objective_hits_rigs_near_it():
    objectives = {"o": {"name": "Pump", "owner": "p2", "structure": 5, "direct": 10, "severe": 14, "critical": 16}}
    doc = make_doc(p1=[rig_spec("a", weapons=[gun(perks=[("explosive", 2)])])], objectives=objectives)
    facts = dict(SHOT, target=None, target_objective="o")
    _, after = run("fire_weapon", activated(doc, "a"), [6, 5, 1, 4], explosive_also_hits=["t"], **facts)
    assert after["objectives"]["o"]["structure"] == 4 and rig(after, "t").structure["hull"] == 4


def test_the_target_is_not_in_its_own_blast_list():
    with pytest.raises(RuleError, match="other Rigs"):
        run("fire_weapon", armed(("explosive", 3)), [6], explosive_also_hits=["t"], **SHOT)


def test_only_explosive_weapons_hit_other_rigs():
    p2 = [rig_spec("t", HEAVY), rig_spec("u", HEAVY)]
    with pytest.raises(RuleError, match="not Explosive"):
        run("fire_weapon", armed(p2=p2), [6, 1, 4, 2, 4], explosive_also_hits=["u"], **SHOT)


def test_flak_rerolls_an_impact_one():
    result, _ = run("fire_weapon", armed("flak"), [6, 1, 1, 6], **SHOT)
    assert result.data["impacts"][0]["die"] == 6


def test_full_auto_two_more_dice_and_heat_for_ones():
    result, after = run("fire_weapon", armed("full_auto"), [1, 1, 2], **SHOT)
    assert result.data["rof"] == 3
    assert rig(after, "a").heat == 3


def test_full_auto_cannot_make_a_called_shot():
    with pytest.raises(RuleError, match="Full Auto"):
        run("called_shot", armed("full_auto"), [6, 6, 6, 6], location="hull", **SHOT)


def test_hot_weapon_makes_two_heat():
    _, after = run("fire_weapon", armed("hot"), [1], **SHOT)
    assert rig(after, "a").heat == 2


def test_hull_weapons_are_colossal_only_and_one_per_rig():
    with pytest.raises(DataError, match="only a Colossal"):
        squadron_state("p1", [rig_spec("a", weapons=[gun(perks=["hull"])])])
    with pytest.raises(DataError, match="one Hull weapon"):
        squadron_state("p1", [rig_spec("a", COLOSSAL, weapons=[gun("x", perks=["hull"]), gun("y", perks=["hull"])])])
    rigs = squadron_state("p1", [rig_spec("a", COLOSSAL, weapons=[gun("x"), gun("y", perks=["hull"])])])
    assert rigs["a"]["weapons"]["y"]["mount"] == "hull"


def test_impale_on_six_plus_immobilises_through_next_activation():
    result, after = run("fire_weapon", armed("impale"), [6, 6, 1, 1], **SHOT)
    assert rig(after, "t").status["immobilised"] == "next_activation"
    after.update(current_player="p2", active_rig=None)
    _, started = run("activate", after, rig="t")
    moved, _ = run("move", started, rig="t")
    assert moved.data["forward"] == 0 and moved.data["pivots"] == 2
    _, ended = run("end_activation", started)
    assert "immobilised" not in rig(ended, "t").status


def test_impale_below_six_does_nothing():
    _, after = run("fire_weapon", armed("impale"), [6, 5, 1, 1], **SHOT)
    assert "immobilised" not in rig(after, "t").status


def test_incendiary_adds_heat_to_the_target():
    _, after = run("fire_weapon", armed(("incendiary", 3)), [6, 1, 1], **SHOT)
    assert rig(after, "t").heat == 3


def test_incendiary_per_hit_setting():
    doc = armed(("incendiary", 2), rof=2, settings={"on_hit_perks_per": "hit"})
    _, after = run("fire_weapon", doc, [6, 6, 1, 1, 1, 1], **SHOT)
    assert rig(after, "t").heat == 4


def test_limited_ammo_runs_out():
    doc = armed(("limited_ammo", 1), settings={"reload_after_firing": False})
    _, after = run("fire_weapon", doc, [1], **SHOT)
    assert rig(after, "a").weapons["gun"].ammo_left == 0
    with pytest.raises(RuleError, match="Limited Ammo"):
        run("fire_weapon", after, [1], **SHOT)


def test_melee_needs_one_inch_and_never_reloads():
    doc = armed("melee")
    with pytest.raises(RuleError, match="Melee weapon: the target must be within 1\""):
        run("fire_weapon", doc, [], distance="close", **SHOT)
    _, after = run("fire_weapon", doc, [1], distance="melee", **SHOT)
    assert rig(after, "a").weapons["gun"].loaded
    run("fire_weapon", after, [1], distance="melee", **SHOT)


def test_precision_called_shot_without_penalty():
    result, _ = run("called_shot", armed("precision"), [4, 1], location="legs", **SHOT)
    assert result.data["effective_aim"] == 4 and result.data["hits"] == 1


def test_shock_halves_movement_next_activation():
    _, after = run("fire_weapon", armed("shock"), [6, 1, 1], **SHOT)
    after.update(current_player="p2", active_rig=None)
    _, started = run("activate", after, rig="t")
    moved, _ = run("move", started, rig="t")
    assert moved.data["forward"] == 2  # Speed 5 halved, rounded down


@pytest.mark.parametrize("d6,words", [(1, "left"), (3, "shoved 2\""), (6, "right")])
def test_staggering_turns_or_shoves(d6, words):
    result, _ = run("fire_weapon", armed("staggering"), [6, d6, 1, 1], **SHOT)
    assert any("Staggering" in n and words in n for n in result.notes)


def test_sustained_fire_six_scores_two_hits():
    result, _ = run("fire_weapon", armed("sustained_fire", rof=2), [6, 4, 1, 1, 1, 1, 1, 1], **SHOT)
    assert result.data["hits"] == 3
