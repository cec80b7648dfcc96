"""Every equipment card of Tables A and C, with once-per-game, once-per-activation and discard."""
import pytest
from _oi_helpers import HEAVY, SHOT, activated, gun, make_doc, rig, rig_spec, run, set_rig

from referee.data.oilandiron import DataError, squadron_state
from referee.oilandiron.model import RuleError


def kit(*equipment, target_equipment=(), weapons=None, campaign=False, **doc_over):
    doc = make_doc(p1=[rig_spec("a", weapons=weapons, equipment=equipment)],
                   p2=[rig_spec("t", HEAVY, equipment=target_equipment)], campaign=campaign, **doc_over)
    return activated(doc, "a")


def use(doc, equipment, dice=(), **facts):
    return run("use_equipment", doc, dice, rig="a", equipment=equipment, **facts)


# --- Table A ---

def test_extinguisher_is_used_in_the_heat_roll_not_as_an_action():
    with pytest.raises(RuleError, match="Heat Threshold roll"):
        use(kit("extinguisher"), "extinguisher")


@pytest.mark.parametrize("card,total", [("reinforced_iron_plating", 10), ("reinforced_iron_alloy_plating", 9)])
def test_reinforced_plating_against_front_attacks(card, total):
    doc = kit(target_equipment=[card])
    result, _ = run("fire_weapon", doc, [6, 1, 6], **SHOT)
    assert result.data["impacts"][0]["total"] == total
    result, _ = run("fire_weapon", doc, [6, 1, 6], target_arc="side", **SHOT)
    assert result.data["impacts"][0]["total"] == 13


def test_ablative_armour_plating_ignores_one_attack_then_is_discarded():
    doc = kit(target_equipment=["ablative_armour_plating"])
    _, after = run("fire_weapon", doc, [6, 1, 6], target_uses_ablative_plating=True, **SHOT)
    t = rig(after, "t")
    assert t.structure["hull"] == 5 and t.equipment["ablative_armour_plating"].discarded
    after = set_rig(after, "a", actions_left=3)
    after["rigs"]["a"]["weapons"]["gun"]["loaded"] = True
    with pytest.raises(RuleError, match="no Ablative"):
        run("fire_weapon", after, [6, 1, 6], target_uses_ablative_plating=True, **SHOT)


def test_concentrated_fuel_adds_speed():
    moved, _ = run("move", kit("concentrated_fuel"), rig="a")
    assert moved.data["forward"] == 8


def test_concentrated_fuel_makes_a_fuel_line_rupture_worse():
    doc = set_rig(make_doc(p1=[rig_spec("a", equipment=["concentrated_fuel"])]), "a", heat=7)
    doc["phase"] = "maintenance"
    _, after = run("heat_roll", doc, [11], rig="a")  # 12: Fuel Line Rupture
    assert rig(after, "a").structure["hull"] == 1


def test_advanced_ammo_storage_rerolls_misses_once_then_is_discarded():
    doc = kit("advanced_ammo_storage", weapons=[gun(rof=2)])
    result, after = run("fire_weapon", doc, [1, 5, 4, 1, 1, 1, 1], use_advanced_ammo_storage=True, **SHOT)
    assert result.data["hits"] == 2
    assert rig(after, "a").equipment["advanced_ammo_storage"].discarded


def test_stabilised_weapon_joints_is_passive():
    with pytest.raises(RuleError, match="works by itself"):
        use(kit("stabilised_weapon_joints"), "stabilised_weapon_joints")


def test_high_calibre_ammunition_only_on_its_weapon():
    doc = make_doc(p1=[rig_spec("a", weapons=[gun("big"), gun("small")],
                                equipment=[{"key": "high_calibre_ammunition", "weapon": "big"}])])
    doc = activated(doc, "a")
    result, _ = run("fire_weapon", doc, [6, 1, 3], **dict(SHOT, weapon="big"))
    assert result.data["impacts"][0]["total"] == 9
    result, _ = run("fire_weapon", doc, [6, 1, 3], **dict(SHOT, weapon="small"))
    assert result.data["impacts"][0]["total"] == 8


def test_high_calibre_ammunition_must_name_a_weapon():
    with pytest.raises(DataError, match="must name one"):
        squadron_state("p1", [rig_spec("a", weapons=[gun("x"), gun("y")], equipment=["high_calibre_ammunition"])])


def test_smoke_dispensers_once_per_game_minus_two_from_six_inches():
    doc = activated(make_doc(p1=[rig_spec("a")], p2=[rig_spec("t", HEAVY, equipment=["smoke_dispensers"])]), "t")
    _, smoked = run("use_equipment", doc, rig="t", equipment="smoke_dispensers")
    assert rig(smoked, "t").heat == 1
    with pytest.raises(RuleError, match="once per game"):
        run("use_equipment", smoked, rig="t", equipment="smoke_dispensers")
    shooter = activated(smoked, "a")
    far, _ = run("fire_weapon", shooter, [1], distance="mid", **SHOT)
    near, _ = run("fire_weapon", shooter, [1], distance="close", **SHOT)
    assert (far.data["effective_aim"], near.data["effective_aim"]) == (6, 4)


def test_smoke_clears_when_the_rig_activates_again():
    doc = set_rig(make_doc(), "t", status={"smoke": "until_next_activation"})
    doc.update(phase="activation", current_player="p2")
    _, after = run("activate", doc, rig="t")
    assert "smoke" not in rig(after, "t").status


@pytest.mark.parametrize("card,distance,aim", [("sophisticated_periscopes", "mid", 3), ("sophisticated_periscopes", "far", 4),
                                               ("arc_enhanced_targeting_system", "far", 3),
                                               ("arc_enhanced_targeting_system", "mid", 4)])
def test_targeting_equipment_by_distance(card, distance, aim):
    result, _ = run("fire_weapon", kit(card), [1], distance=distance, **SHOT)
    assert result.data["effective_aim"] == aim


# --- Table C ---

def test_emergency_repair_kit_restores_three_sp_once():
    doc = set_rig(kit("emergency_repair_kit"), "a", structure={"hull": 0, "arms": 3, "legs": 3, "engine": 3})
    _, after = use(doc, "emergency_repair_kit", location="hull")
    a = rig(after, "a")
    assert a.structure["hull"] == 3 and a.equipment["emergency_repair_kit"].discarded
    with pytest.raises(RuleError, match="discarded"):
        use(after, "emergency_repair_kit", location="hull")


def test_emergency_repair_kit_never_above_starting_sp():
    doc = set_rig(kit("emergency_repair_kit"), "a", structure={"hull": 3, "arms": 3, "legs": 3, "engine": 3})
    _, after = use(doc, "emergency_repair_kit", location="hull")
    assert rig(after, "a").structure["hull"] == 4


def test_external_fuel_tanks_next_action_adds_no_heat():
    _, after = use(kit("external_fuel_tanks"), "external_fuel_tanks")
    assert rig(after, "a").actions_left == 5
    _, moved = run("move", after, rig="a")
    assert rig(moved, "a").heat == 0
    _, moved = run("move", moved, rig="a")
    assert rig(moved, "a").heat == 1


def test_flare_gives_plus_two_acc_near_it():
    with pytest.raises(RuleError, match="No flare"):
        run("fire_weapon", kit("flare_launchers"), [1], near_flare=True, **SHOT)
    _, lit = use(kit("flare_launchers"), "flare_launchers")
    result, _ = run("fire_weapon", lit, [1], near_flare=True, **SHOT)
    assert result.data["effective_aim"] == 2


def test_radio_scrambler_success_costs_two_actions_and_is_discarded():
    _, after = use(kit("radio_scrambler"), "radio_scrambler", [7, 3], target="t", target_within_18=True)
    assert rig(after, "a").equipment["radio_scrambler"].discarded
    after.update(active_rig=None, current_player="p2")
    started, _ = run("activate", after, rig="t")
    assert started.data["actions"] == 3


def test_radio_scrambler_failure_keeps_the_card():
    result, after = use(kit("radio_scrambler"), "radio_scrambler", [3, 3], target="t", target_within_18=True)
    assert not result.data["success"]
    assert not rig(after, "a").equipment["radio_scrambler"].discarded
    assert "scrambled" not in rig(after, "t").status


def test_radio_scrambler_needs_the_target_within_18():
    with pytest.raises(RuleError, match="18"):
        use(kit("radio_scrambler"), "radio_scrambler", [7, 3], target="t")


def test_rig_bayonet_rammer_takes_no_damage():
    result, after = run("ram", kit("rig_bayonet"), [1, 6], rig="a", target="t", moved_2_inches=True)
    assert rig(after, "a").structure == {"hull": 4, "arms": 3, "legs": 3, "engine": 3}
    assert rig(after, "t").structure["hull"] == 2  # 6 + Medium Ram STR 8 = 14: Critical against 9/12/14


def test_supplementary_heat_vent_once_per_activation():
    doc = set_rig(kit("supplementary_heat_vent"), "a", heat=4)
    _, vented = use(doc, "supplementary_heat_vent")
    assert rig(vented, "a").heat == 4
    with pytest.raises(RuleError, match="once per activation"):
        use(vented, "supplementary_heat_vent")
    result, fired = run("fire_weapon", vented, [1], **SHOT)
    assert result.data["effective_aim"] == 5
    assert rig(fired, "a").heat == 3 and "vent_primed" not in rig(fired, "a").status


def test_thermal_sights_against_hot_targets():
    doc = set_rig(kit("thermal_sights"), "t", heat=7)
    result, _ = run("fire_weapon", doc, [1], **SHOT)
    assert result.data["effective_aim"] == 3
    result, _ = run("fire_weapon", set_rig(doc, "t", heat=6), [1], **SHOT)
    assert result.data["effective_aim"] == 4


def test_artillery_spotting_strikes_on_ten_plus():
    p2 = [rig_spec("t", HEAVY), rig_spec("u", HEAVY)]
    doc = activated(make_doc(p1=[rig_spec("a", equipment=["artillery_spotting_module"])], p2=p2), "a")
    result, after = use(doc, "artillery_spotting_module", [10, 1, 4, 9], point_in_sight=True,
                        rigs_near_point=["t", "u"])
    assert rig(after, "t").structure["hull"] == 3  # 4 + STR 8 = 12: Severe against 9/12/14
    assert rig(after, "u").structure["hull"] == 5


def test_campaign_cards_need_a_campaign():
    with pytest.raises(DataError, match="campaigns only"):
        squadron_state("p1", [rig_spec("a", equipment=["contracted_recovery_crew"])])
    doc = kit("contracted_recovery_crew", campaign=True)
    _, after = use(doc, "contracted_recovery_crew")
    assert rig(after, "a").equipment["contracted_recovery_crew"].used
    doc["campaign"] = False
    with pytest.raises(RuleError, match="campaigns only"):
        use(doc, "contracted_recovery_crew")


def test_experimental_load_bearing_frame_adds_one_iron():
    heavy_guns = [gun("x", iron=3), gun("y", iron=2)]
    with pytest.raises(DataError, match="weigh"):
        squadron_state("p1", [rig_spec("a", weapons=heavy_guns, equipment=["black_market_parts_cache"])], True)
    rigs = squadron_state("p1", [rig_spec("a", weapons=[gun("x", iron=2)],
                                          equipment=["experimental_load_bearing_frame"])], True)
    assert rigs["a"]["iron"] == 6


def test_equipment_taken_once_per_rig():
    with pytest.raises(DataError, match="only once"):
        squadron_state("p1", [rig_spec("a", equipment=["thermal_sights", "thermal_sights"])])


@pytest.mark.parametrize("card", ["battlefield_recovery_rig", "black_market_parts_cache", "contracted_recovery_crew",
                                  "experimental_load_bearing_frame"])
def test_campaign_only_cards_are_noted_for_the_aftermath(card):
    heavy = [gun("x", iron=0)]
    with pytest.raises(DataError, match="campaigns only"):
        squadron_state("p1", [rig_spec("a", weapons=heavy, equipment=[card])])
    doc = kit(card, weapons=heavy, campaign=True)
    result, after = use(doc, card)
    assert "Aftermath" in result.summary and rig(after, "a").equipment[card].used
    assert rig(after, "a").actions_left == 5 and rig(after, "a").heat == 0  # no action, no heat in play


def test_flare_of_a_rig_that_never_activates_again_burns_out_at_the_end_of_the_round():
    doc = activated(make_doc(p1=[rig_spec("a", equipment=["flare_launchers"]), rig_spec("b")]), "a")
    _, lit = use(doc, "flare_launchers")
    lit = set_rig(lit, "a", destroyed=True)
    lit.update(phase="maintenance", active_rig=None)
    _, after = run("end_round", lit)
    assert "flare_lit" not in rig(after, "a").status
