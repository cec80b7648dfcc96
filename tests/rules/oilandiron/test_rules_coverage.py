"""Which test proves each rule of the Of Oil and Iron summary (and each reading RULES-GAPS gives).

Every row of every table, every perk, every equipment card of Tables A and C and every engagement
type is listed with the fixed-dice test that proves it ("module::test"). The tests below fail
when a listed test no longer exists, and when the data gains a row, perk, card or engagement that
has no entry here, so the list cannot drift from the engine or from the tests.
"""
import importlib

import pytest

from referee.data.oilandiron import PERK_KEYS, load_engagements, load_equipment
from referee.oilandiron import SYSTEM
from referee.oilandiron.heat import HEAT_TABLE
from referee.oilandiron.model import LOCATIONS, RAM_STR, WEIGHT_CLASSES

HEAT_ROWS = {
    "nothing": "test_heat::test_rows_1_to_5_nothing_happens",
    "system_stall": "test_heat::test_system_stall_one_hull_damage",
    "hydraulic_blowout": "test_heat::test_hydraulic_blowout_two_leg_damage_and_slower_until_repaired",
    "ammo_detonation": "test_heat::test_ammo_detonation_arms_hull_and_a_weapon_disabled",
    "fuel_line_rupture": "test_heat::test_fuel_line_rupture_hull_damage_and_ongoing",
    "structural_buckling": "test_heat::test_structural_buckling_one_damage_everywhere",
    "emergency_shutdown": "test_heat::test_emergency_shutdown_heat_to_zero_and_skip_next_activation",
    "chain_reaction": "test_heat::test_chain_reaction_damages_everything_and_rolls_again",
    "engine_failure": "test_heat::test_engine_failure_engine_damage_and_heat_locked",
    "catastrophic_failure": "test_heat::test_catastrophic_failure_destroys_the_rig",
}

HEAT_ROLL = {
    "D12 + heat over the threshold": "test_heat::test_modifier_is_heat_over_threshold",
    "no roll at or below the threshold": "test_heat::test_no_roll_at_or_below_threshold",
    "rolled in the Maintenance phase": "test_heat::test_roll_only_in_maintenance",
    "one roll a round": "test_heat::test_one_roll_per_round",
    "Hydraulic Blowout: Speed −2\" until repaired": "test_rig_actions::test_hydraulic_blowout_slows_by_two",
    "Hydraulic Blowout ends with a Legs repair": "test_rig_actions::test_repair_clears_hydraulic_blowout_on_the_legs",
    "Ammo Detonation: the weapon chosen is disabled": "test_heat::test_ammo_detonation_disables_the_chosen_weapon",
    "Ammo Detonation: an Arms repair brings the weapon back":
        "test_rig_actions::test_repairing_the_arms_brings_a_disabled_weapon_back",
    "Fuel Line Rupture: damage at each activation": "test_activation::test_fuel_line_rupture_burns_at_each_activation",
    "Fuel Line Rupture: D12 to the Hull setting": "test_activation::test_fuel_line_rupture_d12_to_hull_setting",
    "Emergency Shutdown: the next activation is skipped":
        "test_activation::test_emergency_shutdown_skips_the_next_activation",
    "Engine Failure: heat never falls again": "test_heat::test_engine_failure_heat_lock_outlasts_an_engine_repair",
    "Engine Failure: repairable setting": "test_heat::test_engine_failure_repairable_setting_lifts_the_lock",
    "Engine Exhaust in Maintenance, after the roll": "test_heat::test_exhaust_in_maintenance_after_the_roll",
    "Engine Exhaust at the end of activation (setting)": "test_heat::test_exhaust_at_end_of_activation_setting",
    "heat never passes the end of its track": "test_heat::test_heat_never_passes_the_end_of_the_track",
}

HIT_LOCATIONS = {loc: "test_damage::test_hit_location_table" for loc in LOCATIONS}

PERKS = {
    "armour_piercing": "test_perks::test_armour_piercing_adds_d3_on_an_impact_six",
    "bombardment": "test_perks::test_bombardment_fires_without_sight_at_minus_two",
    "charged_shot": "test_perks::test_charged_shot_plus_two_str_and_heat_for_ones",
    "explosive": "test_perks::test_explosive_hits_the_other_rigs_listed",
    "flak": "test_perks::test_flak_rerolls_an_impact_one",
    "full_auto": "test_perks::test_full_auto_two_more_dice_and_heat_for_ones",
    "hot": "test_perks::test_hot_weapon_makes_two_heat",
    "hull": "test_perks::test_hull_weapons_are_colossal_only_and_one_per_rig",
    "impale": "test_perks::test_impale_on_six_plus_immobilises_through_next_activation",
    "incendiary": "test_perks::test_incendiary_adds_heat_to_the_target",
    "limited_ammo": "test_perks::test_limited_ammo_runs_out",
    "melee": "test_perks::test_melee_needs_one_inch_and_never_reloads",
    "precision": "test_perks::test_precision_called_shot_without_penalty",
    "shock": "test_perks::test_shock_halves_movement_next_activation",
    "staggering": "test_perks::test_staggering_turns_or_shoves",
    "sustained_fire": "test_perks::test_sustained_fire_six_scores_two_hits",
}

EQUIPMENT = {
    # Table A
    "extinguisher": "test_heat::test_extinguisher_on_4_plus_cancels_and_is_discarded",
    "reinforced_iron_plating": "test_equipment::test_reinforced_plating_against_front_attacks",
    "reinforced_iron_alloy_plating": "test_equipment::test_reinforced_plating_against_front_attacks",
    "ablative_armour_plating": "test_equipment::test_ablative_armour_plating_ignores_one_attack_then_is_discarded",
    "concentrated_fuel": "test_equipment::test_concentrated_fuel_makes_a_fuel_line_rupture_worse",
    "advanced_ammo_storage": "test_equipment::test_advanced_ammo_storage_rerolls_misses_once_then_is_discarded",
    "stabilised_weapon_joints": "test_attacks::test_stabilised_weapon_joints_widen_the_arc_to_180",
    "high_calibre_ammunition": "test_equipment::test_high_calibre_ammunition_only_on_its_weapon",
    "exotic_engine_coolant": "test_heat::test_exotic_engine_coolant_lowers_the_roll",
    "smoke_dispensers": "test_equipment::test_smoke_dispensers_once_per_game_minus_two_from_six_inches",
    "sophisticated_periscopes": "test_equipment::test_targeting_equipment_by_distance",
    "arc_enhanced_targeting_system": "test_equipment::test_targeting_equipment_by_distance",
    # Table C
    "emergency_repair_kit": "test_equipment::test_emergency_repair_kit_restores_three_sp_once",
    "external_fuel_tanks": "test_equipment::test_external_fuel_tanks_next_action_adds_no_heat",
    "flare_launchers": "test_equipment::test_flare_gives_plus_two_acc_near_it",
    "radio_scrambler": "test_equipment::test_radio_scrambler_success_costs_two_actions_and_is_discarded",
    "rig_bayonet": "test_equipment::test_rig_bayonet_rammer_takes_no_damage",
    "supplementary_heat_vent": "test_equipment::test_supplementary_heat_vent_once_per_activation",
    "thermal_sights": "test_equipment::test_thermal_sights_against_hot_targets",
    "artillery_spotting_module": "test_equipment::test_artillery_spotting_strikes_on_ten_plus",
    "battlefield_recovery_rig": "test_equipment::test_campaign_only_cards_are_noted_for_the_aftermath",
    "black_market_parts_cache": "test_equipment::test_campaign_only_cards_are_noted_for_the_aftermath",
    "contracted_recovery_crew": "test_equipment::test_campaign_only_cards_are_noted_for_the_aftermath",
    "experimental_load_bearing_frame": "test_equipment::test_experimental_load_bearing_frame_adds_one_iron",
}

EQUIPMENT_RULES = {
    "each card once per Rig": "test_equipment::test_equipment_taken_once_per_rig",
    "campaign cards only in a campaign": "test_equipment::test_campaign_cards_need_a_campaign",
    "Extinguisher failing keeps the card": "test_heat::test_extinguisher_failing_keeps_the_card_and_rolls",
    "Concentrated Fuel: +2\" Speed": "test_equipment::test_concentrated_fuel_adds_speed",
    "Smoke ends when the Rig activates again": "test_equipment::test_smoke_clears_when_the_rig_activates_again",
    "Emergency Repair Kit never above the start": "test_equipment::test_emergency_repair_kit_never_above_starting_sp",
    "Radio Scrambler: a tie or lower keeps the card": "test_equipment::test_radio_scrambler_failure_keeps_the_card",
    "Radio Scrambler: within 18\"": "test_equipment::test_radio_scrambler_needs_the_target_within_18",
    "a flare outlives no round once its Rig is gone":
        "test_equipment::test_flare_of_a_rig_that_never_activates_again_burns_out_at_the_end_of_the_round",
}

ATTACKS = {
    "front 90° arc": "test_attacks::test_target_outside_front_arc_is_refused",
    "Stabilised Weapon Joints: 180° arc": "test_attacks::test_stabilised_weapon_joints_widen_the_arc_to_180",
    "side arc +2 STR, rear arc +4 STR": "test_damage::test_side_and_rear_arcs_add_strength",
    "no Engine Called Shot from the front arc": "test_attacks::test_called_shot_cannot_target_engine_from_front",
    "Engine Called Shot from the side": "test_attacks::test_called_shot_at_engine_from_the_side",
    "Called Shot: −2 ACC, location chosen": "test_attacks::test_called_shot_chooses_location_at_minus_two",
    "beyond range the attack fails": "test_attacks::test_out_of_range_fails_but_spends_action_and_heat",
    "two range profiles": "test_attacks::test_second_range_profile_uses_its_own_stats",
    "25% / 50% obscured: −1 / −2 ACC": "test_attacks::test_line_of_sight_obscured_costs_acc",
    "half the target must be visible": "test_attacks::test_no_line_of_sight_is_refused",
    "effective Aim = Aim − ACC": "test_attacks::test_acc_lowers_the_aim_needed",
    "a 6 always hits": "test_attacks::test_a_six_always_hits",
    "Prepare tokens are shown to the attacker": "test_attacks::test_prepare_tokens_are_shown_and_a_revealed_one_is_removed",
    "Reload: a fired weapon is empty": "test_attacks::test_fired_weapon_is_empty_until_reloaded",
}

DAMAGE = {
    "Direct −1 / Severe −2 / Critical −3 SP": "test_damage::test_impact_against_direct_severe_critical",
    "below Direct: no damage": "test_damage::test_below_direct_does_no_damage",
    "overflow: the defender chooses": "test_damage::test_overflow_needs_the_defenders_choice",
    "overflow goes where chosen": "test_damage::test_overflow_goes_where_the_defender_chose",
    "overflow skips lost locations": "test_damage::test_overflow_skips_lost_locations_in_the_choice",
    "all locations at 0: destroyed": "test_damage::test_every_location_at_zero_destroys_the_rig",
    "Legs lost: −2\", no backpedal": "test_damage::test_legs_catastrophic_slows_and_stops_backpedalling",
    "Legs hit again: immobilised": "test_damage::test_further_leg_damage_immobilises",
    "Legs and Arms lost: destroyed": "test_damage::test_legs_and_arms_both_lost_destroy_the_rig",
    "Hull lost: −2 actions, −1 Aim": "test_damage::test_hull_catastrophic_costs_two_actions_and_aim",
    "Hull hit again: destroyed": "test_damage::test_further_hull_damage_destroys",
    "Arms lost: D12 left/right, weapon gone, munitions hit Hull and Engine":
        "test_damage::test_arms_catastrophic_destroys_a_weapon_and_its_munitions_hit_hull_and_engine",
    "Arms lost: right side": "test_damage::test_arms_right_side_hits_the_right_weapon",
    "Arms: same weapon again, 3 to the Hull": "test_damage::test_same_weapon_again_deals_three_to_the_hull",
    "Arms: Colossal 1–4 / 5–8 Hull / 9–12": "test_damage::test_colossal_arm_roll_includes_the_hull_mount",
    "Engine lost: heat floor at the first numbered space": "test_damage::test_engine_catastrophic_sets_a_heat_floor",
    "Engine hit again: destroyed": "test_damage::test_further_engine_damage_destroys",
    "objectives with structure (Sabotage, Siege)": "test_damage::test_objective_with_structure_takes_damage_and_is_destroyed",
}

RAM = {cls: "test_rig_actions::test_ram_str_by_weight_class" for cls in WEIGHT_CLASSES}
RAM_RULES = {
    "after moving 2\"+": "test_rig_actions::test_ram_needs_two_inches_of_movement",
    "both Rigs take a hit": "test_rig_actions::test_ram_hits_both_rigs_with_the_other_rigs_class_strength",
    "STR from the rammer's class (setting)": "test_rig_actions::test_ram_strength_setting_rammer_class_for_both",
}

# The action summary: each action's heat.
ACTION_HEAT = {
    "move": "test_action_heat::test_move_heat_is_one",
    "fire_weapon": "test_action_heat::test_fire_weapon_heat_is_one",
    "called_shot": "test_action_heat::test_called_shot_heat_is_one",
    "ram": "test_action_heat::test_ram_heat_is_one",
    "reload": "test_action_heat::test_reload_heat_is_one",
    "repair": "test_action_heat::test_repair_heat_is_one",
    "shut_down": "test_action_heat::test_shut_down_heat_is_zero",
    "prepare": "test_action_heat::test_prepare_heat_is_one",
    "use_equipment": "test_action_heat::test_use_equipment_heat_is_the_cards",
    "collect_salvage": "test_engagements::test_salvage_heist_collect_for_three_vp_and_two_heat",
}

ROUND = {
    "Initiative: higher D12 starts": "test_activation::test_initiative_higher_d12_starts",
    "Initiative: ties rolled again": "test_activation::test_initiative_ties_are_rolled_again",
    "up to 5 actions": "test_rig_actions::test_five_actions_then_no_more",
    "players alternate activations": "test_activation::test_players_alternate_then_the_rest_activate",
    "Repair D12: 6+ 1 SP, 10+ 2 SP": "test_rig_actions::test_repair_d12",
    "Repair: not a catastrophic location": "test_rig_actions::test_repair_refuses_a_catastrophic_location",
    "Shut Down: heat to 0, actions forfeited": "test_rig_actions::test_shut_down_sets_heat_to_zero_and_ends_the_activation",
    "Move: forward, backpedal and side-step at 2\" per 1\", pivots":
        "test_rig_actions::test_move_tells_the_distances_and_costs_one_heat",
    "Prepare: a face-down token": "test_rig_actions::test_prepare_records_the_token_type",
    "length: round 4 8+, round 5 5+, round 6 always": "test_activation::test_engagement_length",
    "a destroyed Rig takes no actions": "test_invariants::test_a_destroyed_rig_takes_no_actions",
    "no Heat Threshold roll once the engagement is over": "test_heat::test_no_heat_roll_once_the_engagement_is_over",
    "random sequences keep every bound and undo exactly": "test_oilandiron_state_machine::test_engagement_state_machine",
}

VP = {cls: "test_engagements::test_destroyed_rig_vp_by_weight_class" for cls in WEIGHT_CLASSES}

ENGAGEMENTS = {
    "iron_clash": "test_engagements::test_iron_clash_vp_by_weight_class",
    "high_value_target": "test_engagements::test_high_value_target_heaviest_rig_is_nominated_and_its_loss_decides",
    "point_of_control": "test_engagements::test_point_of_control_two_vp_per_rig_near_an_objective",
    "total_command": "test_engagements::test_total_command_holding_both_is_an_instant_win",
    "push_the_line": "test_engagements::test_push_the_line_two_vp_per_rig_in_enemy_territory",
    "supply_airdrop": "test_engagements::test_supply_airdrop_lands_at_round_two_and_the_holder_at_round_three_wins",
    "salvage_heist": "test_engagements::test_salvage_heist_collect_for_three_vp_and_two_heat",
    "sabotage": "test_engagements::test_sabotage_objectives_have_stats_and_destroying_all_wins",
    "ambush": "test_engagements::test_ambush_target_starts_braced_for_round_one",
    "hold_the_line": "test_engagements::test_hold_the_line_defender_wins_with_half_surviving",
    "siege": "test_engagements::test_siege_vp_and_ties_go_to_the_defender",
    "breakthrough": "test_engagements::test_breakthrough_attacker_drives_half_off_the_table",
}

ENGAGEMENT_RULES = {
    "HVT: the nominee is of the heaviest class": "test_engagements::test_high_value_target_must_be_of_the_heaviest_class",
    "HVT: both standing at the end is a draw": "test_engagements::test_high_value_target_both_standing_at_the_end_is_a_draw",
    "Total Command: otherwise a draw": "test_engagements::test_total_command_otherwise_a_draw",
    "Siege: ties go to the defender": "test_engagements::test_siege_tie_goes_to_the_defender",
    "Breakthrough: otherwise the defender wins": "test_engagements::test_breakthrough_defender_wins_otherwise",
    "formations from the same tier": "test_engagements::test_formations_must_share_a_tier",
    "objective count per player": "test_engagements::test_objective_count_is_checked",
    "special engagements need their roles": "test_engagements::test_roles_are_required",
}

ALL = {"heat table": HEAT_ROWS, "heat roll": HEAT_ROLL, "hit location": HIT_LOCATIONS, "perks": PERKS,
       "equipment": EQUIPMENT, "equipment rules": EQUIPMENT_RULES, "attacks": ATTACKS, "damage": DAMAGE,
       "ram STR": RAM, "ram": RAM_RULES, "action heat": ACTION_HEAT, "round": ROUND, "VP": VP,
       "engagements": ENGAGEMENTS, "engagement rules": ENGAGEMENT_RULES}


def _test_exists(ref: str) -> bool:
    module, name = ref.split("::")
    return callable(getattr(importlib.import_module(module), name, None))


@pytest.mark.parametrize("area", list(ALL))
def test_every_listed_test_exists(area):
    missing = [f"{rule}: {ref}" for rule, ref in ALL[area].items() if not _test_exists(ref)]
    assert not missing, missing


def test_every_heat_table_row_is_listed():
    assert set(HEAT_ROWS) == {key for _top, key, _label in HEAT_TABLE}


def test_every_perk_is_listed():
    assert set(PERKS) == set(PERK_KEYS) and len(PERKS) == 16


def test_every_card_of_tables_a_and_c_is_listed():
    cards = {c.key for c in load_equipment().values() if c.table in ("A", "C")}
    assert set(EQUIPMENT) == cards and len(cards) == 24


def test_every_engagement_type_is_listed():
    assert set(ENGAGEMENTS) == {e.key for e in load_engagements().engagements}


def test_every_weight_class_has_its_ram_str_and_vp():
    assert RAM_STR == {"light": 7, "medium": 8, "heavy": 9, "colossal": 10}
    assert load_engagements().destroyed_rig_vp == {"light": 2, "medium": 3, "heavy": 4, "colossal": 5}


def test_every_rig_action_has_its_heat_listed():
    for name in ACTION_HEAT:
        SYSTEM.action(name)  # raises for an action the engine no longer offers
