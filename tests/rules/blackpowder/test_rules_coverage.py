"""The audit of the Black Powder engine against the rules summary: every row of every table,
every modifier and every special rule, with the test (fixed dice, named after the rule) that
proves the engine applies it. What the summary holds (how many rows each table has, the names of
its special rules) is written down as data in ``tests/data/blackpowder_summary.yaml``.

``COVERAGE`` maps "table or topic: row" to tests as "module::test" (module ``data`` and
``scenarios`` are in ``tests/data``; the others are ``tests/rules/blackpowder/test_<module>.py``).
``PLAYERS_MEASURE`` lists the rows the app deliberately leaves to the table (it never measures),
each with the reason. The tests below fail when a named test is renamed or removed, when a rule of
the summary has no entry, or when a table's rows and the audit's rows stop matching.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from referee.blackpowder.special_rules import COMMANDER_RULES, UNIT_RULES

HERE = Path(__file__).resolve().parent
DATA_TESTS = HERE.parents[1] / "data"
SUMMARY = yaml.safe_load((DATA_TESTS / "blackpowder_summary.yaml").read_text(encoding="utf-8"))


def _t(*tests: str) -> tuple[str, ...]:
    return tests


COVERAGE: dict[str, tuple[str, ...]] = {
    # --- units and commanders -------------------------------------------------------------------
    "Unit sizes: infantry large": _t("data::test_bases_follow_the_sizes_table"),
    "Unit sizes: infantry standard": _t("data::test_bases_follow_the_sizes_table"),
    "Unit sizes: infantry small": _t("data::test_bases_follow_the_sizes_table"),
    "Unit sizes: cavalry large": _t("data::test_bases_follow_the_sizes_table"),
    "Unit sizes: cavalry standard": _t("data::test_bases_follow_the_sizes_table"),
    "Unit sizes: cavalry small": _t("data::test_bases_follow_the_sizes_table"),
    "Unit sizes: artillery": _t("data::test_bases_follow_the_sizes_table"),
    "Fighting qualities: the four values of a profile": _t(
        "data::test_every_row_of_the_summary_is_a_profile_with_its_numbers", "shooting::test_line_shoots_with_its_profile",
        "combat::test_each_unit_rolls_its_hand_to_hand_value_and_chargers_hit_on_3s"),
    "Fighting qualities: morale 0 means no save": _t("morale::test_no_morale_means_no_save_and_no_dice"),
    "Stamina: large": _t("data::test_every_row_of_the_summary_is_a_profile_with_its_numbers"),
    "Stamina: standard": _t("data::test_every_row_of_the_summary_is_a_profile_with_its_numbers"),
    "Stamina: small and artillery": _t("data::test_every_row_of_the_summary_is_a_profile_with_its_numbers"),
    "Staff ratings: 10": _t("command::test_staff_rating_table_row"),
    "Staff ratings: 9": _t("command::test_staff_rating_table_row"),
    "Staff ratings: 8": _t("command::test_staff_rating_table_row"),
    "Staff ratings: 7": _t("command::test_staff_rating_table_row"),
    "Staff ratings: 6": _t("command::test_staff_rating_table_row"),
    "Staff ratings: 5": _t("command::test_staff_rating_table_row"),
    # --- sequence and command ---------------------------------------------------------------------
    "Sequence of play: Blue command, shooting, hand-to-hand, then Red": _t(
        "turns::test_phases_follow_blue_then_red_then_next_turn", "turns::test_phases_always_cycle_in_order"),
    "Sequence of play: initiative moves before orders": _t("command::test_initiative_comes_before_orders"),
    "Issuing orders: above the rating fails": _t("command::test_order_fails_when_roll_is_greater_than_staff_rating"),
    "Issuing orders: equal or one below, 1 move": _t("command::test_roll_equal_to_staff_rating_gives_one_move",
                                                      "command::test_roll_one_below_staff_rating_gives_one_move"),
    "Issuing orders: two below, 2 moves": _t("command::test_roll_two_below_staff_rating_gives_two_moves"),
    "Issuing orders: three or more below, 3 moves": _t(
        "command::test_roll_three_or_more_below_staff_rating_gives_three_moves"),
    "Issuing orders: double 6 blunders": _t("command::test_double_six_is_a_blunder"),
    "Command modifiers: -1 per full 12 inches": _t("command::test_distance_minus_one_per_full_12_inches"),
    "Command modifiers: -1 enemy within 12": _t("command::test_enemy_within_12_is_minus_one"),
    "Command modifiers: +1 attack column": _t("command::test_attack_column_is_plus_one"),
    "Command modifiers: +1 march column or limbered": _t("command::test_march_column_is_plus_one",
                                                          "command::test_limbered_artillery_is_plus_one"),
    "Command modifiers: +2 on a road": _t("command::test_road_gives_march_column_plus_two_instead_of_one",
                                          "command::test_road_bonus_adds_to_march_column_when_the_setting_says_so"),
    "Command modifiers: rating never above 10 or below 5": _t("command::test_staff_rating_never_above_10",
                                                               "command::test_staff_rating_never_below_5"),
    "Blunder results: 1 rapid retreat": _t("command::test_blunder_table_row"),
    "Blunder results: 2 retreat": _t("command::test_blunder_table_row"),
    "Blunder results: 3 left": _t("command::test_blunder_table_row"),
    "Blunder results: 4 right": _t("command::test_blunder_table_row"),
    "Blunder results: 5 forward": _t("command::test_blunder_table_row"),
    "Blunder results: 6 charge, D6 for its moves": _t("command::test_blunder_charge_rolls_a_d6_for_moves"),
    "The General: re-roll once a turn, even a blunder": _t(
        "command::test_general_reroll_even_rerolls_a_blunder", "command::test_general_reroll_once_per_turn_per_side",
        "command::test_general_reroll_needs_the_general_present"),
    "Move distances: infantry, foot artillery, wagons 12": _t(
        "command::test_infantry_moves_twelve_inches_a_move",
        "command::test_horse_artillery_moves_eighteen_foot_artillery_twelve"),
    "Move distances: cavalry, horse artillery 18": _t("command::test_cavalry_moves_eighteen_inches_a_move",
                                                       "command::test_horse_artillery_moves_eighteen_foot_artillery_twelve"),
    "Move distances: manhandled guns 6 in all": _t(
        "command::test_deployed_foot_guns_limber_with_a_move_or_are_manhandled_six_inches"),
    "Proximity rule: within 12, front or rear quarter only": _t(
        "command::test_within_12_of_the_enemy_units_advance_or_retire_only_by_quarters"),
    "Artillery movement: horse limbers freely, foot takes a move": _t(
        "command::test_deployed_foot_guns_limber_with_a_move_or_are_manhandled_six_inches"),
    "Changing formation: one whole move and an order": _t("command::test_order_action_changes_formation_with_a_move",
                                                          "command::test_order_action_keeps_formation_when_the_order_fails"),
    # --- shooting -----------------------------------------------------------------------------------
    "Weapon ranges: every weapon of the tables": _t("data::test_ranges_by_weapon"),
    "Weapon ranges: horse artillery 36, foot artillery 48": _t("artillery::test_ranges_come_from_settings"),
    "How to shoot: dice equal to Shooting": _t("shooting::test_line_shoots_with_its_profile"),
    "How to shoot: 4+ hits": _t("shooting::test_four_or_more_hits"),
    "How to shoot: a 6 hits and disorders": _t("shooting::test_six_always_hits_and_disorders_the_target",
                                               "shooting::test_six_disorders_even_if_every_save_passes"),
    "Formation dice: march column cannot shoot": _t("shooting::test_march_column_cannot_shoot"),
    "Formation dice: attack column 1": _t("shooting::test_attack_column_and_mixed_formation_shoot_one_die"),
    "Formation dice: mixed formation 1": _t("shooting::test_attack_column_and_mixed_formation_shoot_one_die"),
    "Formation dice: square 1 per facing": _t("shooting::test_square_shoots_one_die_per_face_firing"),
    "Formation dice: buildings 2 per facing": _t("shooting::test_building_shoots_two_dice_per_face_up_to_the_profile"),
    "To hit: -1 shaken or disordered shooters": _t("shooting::test_shaken_shooters_minus_one",
                                                   "shooting::test_disordered_shooters_minus_one",
                                                   "shooting::test_shaken_and_disordered_is_still_one_penalty"),
    "To hit: -1 not a clear target": _t("shooting::test_not_a_clear_target_minus_one"),
    "To hit: +1 close range or closing fire": _t("shooting::test_close_range_plus_one",
                                                 "shooting::test_closing_fire_is_plus_one_at_close_range"),
    "To hit: 6 always hits, 1 always misses": _t("shooting::test_six_always_hits_and_disorders_the_target",
                                                 "shooting::test_one_always_misses"),
    "Morale saves: save on the Morale value or more": _t("morale::test_save_on_morale_or_more_ignores_the_hit"),
    "Morale saves: +1 attack column, not against guns": _t("morale::test_attack_column_adds_one_to_saves",
                                                            "morale::test_attack_column_gets_nothing_against_artillery"),
    "Morale saves: +1 light cover": _t("morale::test_light_cover_adds_one"),
    "Morale saves: +2 buildings": _t("morale::test_buildings_add_two"),
    "Morale saves: -2 march column": _t("morale::test_march_column_takes_two_off"),
    "Morale saves: -1 artillery at long range": _t("morale::test_artillery_at_long_range_takes_one_off"),
    "Morale saves: -2 artillery at close or medium range": _t(
        "morale::test_artillery_at_close_or_medium_range_takes_two_off"),
    "Disorder: no orders": _t("command::test_disordered_unit_cannot_be_ordered"),
    "Disorder: no initiative": _t("command::test_initiative_needs_an_enemy_within_12_and_no_disorder"),
    "Disorder: -1 shooting and combat": _t("shooting::test_disordered_shooters_minus_one",
                                           "combat::test_shaken_or_disordered_is_minus_one"),
    "Disorder: -1 break tests": _t("break_tests::test_minus_one_disordered"),
    "Disorder: cavalry cannot countercharge, evade or turn": _t(
        "charges::test_countercharge_needs_steady_cavalry_charged_to_the_front",
        "charges::test_disordered_cavalry_cannot_turn_to_face_unless_marauders",
        "charges::test_disordered_marauder_cavalry_may_still_evade"),
    "Disorder: lasts to the end of the unit's own turn": _t("turns::test_disorder_lifts_at_the_end_of_the_units_own_turn"),
    "Closing fire: not from march column or skirmishers": _t(
        "charges::test_no_closing_fire_from_march_column_or_skirmish_order",
        "shooting::test_skirmishers_and_march_columns_give_no_closing_fire"),
    "Closing fire: to the front only, at +1": _t("charges::test_closing_fire_is_to_the_front_only",
                                                 "charges::test_closing_fire_shoots_at_the_chargers_at_plus_one"),
    "Closing fire: shaken chargers test; breaking ends the charge": _t(
        "shooting::test_shaken_by_closing_fire_tests_as_hand_to_hand",
        "charges::test_chargers_shaken_by_closing_fire_test_and_fail_if_they_break"),
    "Artillery dice: short 3, medium 2, long 1": _t("artillery::test_three_two_one_dice_by_range"),
    "Artillery to hit: +1 column or square target": _t("artillery::test_gun_target_in_column_or_square_plus_one"),
    "Artillery to hit: -1 long range": _t("artillery::test_long_range_minus_one"),
    "Artillery to hit: -1 over intervening units": _t("artillery::test_over_intervening_units_minus_one"),
    "Shrapnel: medium range 3 dice needing 5s": _t("artillery::test_shrapnel_medium_range_three_dice_needing_fives",
                                                   "artillery::test_shrapnel_only_at_medium_range"),
    "Howitzers: 2 dice at every range, 36 inches": _t(
        "artillery::test_howitzer_two_dice_at_every_range_and_minus_two_saves", "artillery::test_ranges_come_from_settings"),
    "Howitzers: -2 saves at any range": _t("morale::test_howitzer_and_rocket_take_two_off_at_any_range"),
    "Howitzers: overhead without penalty": _t("artillery::test_howitzer_shoots_overhead_without_penalty"),
    "Rockets: 1 die, a 6 hits, disorders, saves -2": _t("artillery::test_rocket_hits_on_a_six_disorders_and_minus_two_saves",
                                                        "artillery::test_rocket_ignores_to_hit_modifiers"),
    "Rockets: 60 inches": _t("data::test_howitzer_and_rockets_are_labelled_examples"),
    "Rocket mishap: 1 then 1, the team is destroyed": _t("artillery::test_rocket_mishap_misfire_explodes_and_destroys_the_team"),
    "Rocket mishap: 1 then 2, one hit on the team": _t("artillery::test_rocket_mishap_misfire_hits_own_team"),
    "Rocket mishap: 1 then 3, one hit on the nearest unit": _t(
        "artillery::test_rocket_mishap_misfire_hits_the_nearest_unit_named_by_the_umpire",
        "artillery::test_rocket_mishap_nearest_unit_unnamed_leaves_a_note"),
    "Rocket mishap: 1 then 4-6, dud": _t("artillery::test_rocket_mishap_misfire_dud"),
    "Rocket mishap: 2-3, dud": _t("artillery::test_rocket_mishap_dud"),
    "Rocket mishap: 4-6, veers 6, 12 inches or any range": _t("artillery::test_rocket_mishap_veers"),
    "Enfilading fire: a bonus to hit": _t("shooting::test_enfilade_adds_the_setting_to_hit"),
    "Enfilading fire: not skirmishers, not howitzers": _t("shooting::test_skirmishers_cannot_enfilade",
                                                          "artillery::test_howitzers_cannot_enfilade"),
    "Enfilading fire: cannon only to half range": _t("artillery::test_cannon_enfilade_up_to_half_range",
                                                     "artillery::test_cannon_enfilade_short_range_only_when_set"),
    "Traversing targets: once a turn, then no closing fire": _t(
        "shooting::test_traversing_shot_once_per_turn", "shooting::test_traversing_shot_forbids_closing_fire_that_turn"),
    "Traversing targets: only the close range bonus": _t("shooting::test_traversing_shot_takes_no_enfilade_bonus"),
    "Not clear targets: skirmishers, guns, buildings, cover, partly seen, narrow gaps": _t(
        "shooting::test_not_a_clear_target_minus_one",
        "shooting::test_target_in_building_is_one_penalty_even_if_skirmishers"),
    # --- charges and combat -------------------------------------------------------------------------
    "Charging: shaken, march column and square may not": _t("charges::test_units_forbidden_to_charge"),
    "Charging: artillery may not": _t("charges::test_artillery_never_charges"),
    "Charging: skirmishers may not charge formed infantry": _t("charges::test_skirmishers_cannot_charge_formed_infantry"),
    "Charge responses: stand": _t("charges::test_contact_opens_a_combat_with_both_sides_in_combat"),
    "Charge responses: closing fire, infantry and guns": _t(
        "charges::test_closing_fire_shoots_at_the_chargers_at_plus_one",
        "charges::test_any_casualty_from_artillery_closing_fire_forces_a_test"),
    "Charge responses: evade": _t("charges::test_cavalry_charged_by_infantry_may_evade",
                                  "charges::test_skirmishers_charged_by_formed_troops_may_evade",
                                  "charges::test_cavalry_charged_by_cavalry_cannot_evade"),
    "Charge responses: countercharge": _t("charges::test_countercharging_cavalry_meet_cavalry_as_both_charging",
                                          "charges::test_countercharge_needs_steady_cavalry_charged_to_the_front"),
    "Charge responses: turn to face": _t("charges::test_cavalry_turn_to_face_a_flank_charge"),
    "Fighting: dice equal to Hand-to-Hand, 4+ hits": _t(
        "combat::test_each_unit_rolls_its_hand_to_hand_value_and_chargers_hit_on_3s"),
    "Fighting: 6 always hits, 1 always misses": _t("combat::test_six_always_hits_and_one_always_misses"),
    "Combat modifiers: +1 charging, first round": _t("combat::test_charging_bonus_is_for_the_first_round_only"),
    "Combat modifiers: +1 won the previous round": _t("combat::test_won_previous_round_adds_one",
                                                      "combat::test_winner_gets_the_won_last_round_bonus"),
    "Combat modifiers: -1 shaken or disordered": _t("combat::test_shaken_or_disordered_is_minus_one"),
    "Combat modifiers: -1 skirmish formation": _t("combat::test_skirmish_order_is_minus_one"),
    "Combat modifiers: -1 engaged to flank or rear": _t("combat::test_engaged_to_flank_or_rear_is_minus_one"),
    "Combat: countercharged infantry disordered, no charge bonus": _t(
        "charges::test_countercharged_infantry_are_disordered_and_lose_the_charge_bonus"),
    "Supports: +1 rear, +1 each flank, at most 3": _t("supports::test_rear_support_adds_one",
                                                       "supports::test_left_and_right_flank_supports_add_one_each",
                                                       "supports::test_supports_are_at_most_three_per_unit"),
    "Supports: none for artillery, skirmishers, squares, buildings": _t(
        "supports::test_artillery_cannot_be_supported", "supports::test_skirmishers_squares_and_garrisons_cannot_be_supported"),
    "Supports: none when engaged to flank or rear": _t("supports::test_unit_engaged_to_flank_or_rear_cannot_be_supported"),
    "Supports: none from a quarter with another fight within 6": _t(
        "supports::test_another_combat_within_six_inches_of_the_quarter_cancels_it"),
    "Combat results: casualties plus bonuses, higher wins, tie draws": _t(
        "combat::test_supports_count_in_the_result", "combat::test_a_draw_tests_only_shaken_units", "combat::test_round_cases"),
    "Combat results: +1 rear support": _t("combat::test_supports_count_in_the_result"),
    "Combat results: +1 flank support": _t("supports::test_left_and_right_flank_supports_add_one_each"),
    "Combat results: +3 square against cavalry": _t("combat::test_square_against_cavalry_adds_three"),
    "Combat results: +3/+2/+1 buildings": _t("combat::test_building_bonus_by_building_size",
                                             "combat::test_building_bonus_by_unit_size_setting"),
    "Victors: advance upon the retiring enemy": _t("combat::test_advance_upon_a_retiring_enemy_keeps_the_fight_going"),
    "Victors: do nothing": _t("combat::test_combat_ends_when_the_loser_breaks"),
    "Victors: change formation": _t("combat::test_winners_may_change_formation"),
    "Victors: fall back": _t("combat::test_falling_back_ends_a_fight_the_loser_survived"),
    "Victors: sweeping advance, cavalry after a first round": _t(
        "combat::test_cavalry_winning_a_first_round_may_sweep_forward", "combat::test_infantry_cannot_make_a_sweeping_advance"),
    "Victors: sweeping advance and charge": _t("combat::test_sweeping_advance_and_charge_lets_the_cavalry_charge_again"),
    # --- break tests, shaken units, squares --------------------------------------------------------
    "Break tests required: excess casualties from shooting": _t(
        "shooting::test_excess_casualties_from_shooting_force_a_break_test", "shooting::test_reaching_stamina_exactly_needs_no_test"),
    "Break tests required: shaken by closing fire, any artillery closing fire casualty": _t(
        "shooting::test_shaken_by_closing_fire_tests_as_hand_to_hand",
        "shooting::test_any_casualty_from_artillery_closing_fire_forces_a_test"),
    "Break tests required: defeated in hand-to-hand": _t("combat::test_loser_takes_a_hand_to_hand_break_test"),
    "Break tests required: a draw while shaken": _t("combat::test_a_draw_tests_only_shaken_units"),
    "Break tests required: supporters who see their unit break": _t(
        "combat::test_supporters_test_when_the_unit_they_support_breaks",
        "break_tests::test_supporting_unit_that_saw_a_friend_break_uses_the_other_column"),
    "Break test modifiers: -1 per excess casualty": _t("break_tests::test_minus_one_per_excess_casualty",
                                                        "combat::test_loser_tests_with_minus_one_per_excess_casualty"),
    "Break test modifiers: -1 disordered": _t("break_tests::test_minus_one_disordered"),
    "Break test modifiers: -1 hit by artillery": _t("break_tests::test_minus_one_hit_by_artillery",
                                                    "artillery::test_break_test_after_gunfire_counts_hit_by_artillery"),
    "Break test results: 4 or less breaks": _t("break_tests::test_infantry_results_table_shooting",
                                               "break_tests::test_breaking_removes_the_unit"),
    "Break test results: 5 retires disordered, else breaks": _t("break_tests::test_retire_disorders_the_unit",
                                                                "break_tests::test_unable_to_retire_breaks"),
    "Break test results: 6 after shooting holds": _t("break_tests::test_infantry_results_table_shooting",
                                                     "break_tests::test_cavalry_hold_on_six_after_shooting"),
    "Break test results: 6 in hand-to-hand, infantry hold": _t("break_tests::test_infantry_holds_on_six_in_hand_to_hand"),
    "Break test results: 6 in hand-to-hand, cavalry retire": _t("break_tests::test_cavalry_retire_on_six_in_hand_to_hand",
                                                                "combat::test_cavalry_losing_on_a_six_retire"),
    "Break test results: 7 or more holds": _t("break_tests::test_cavalry_hold_on_seven_in_hand_to_hand"),
    "Break test results: artillery always breaks": _t("break_tests::test_artillery_always_breaks"),
    "Shaken: -1 shooting and combat": _t("shooting::test_shaken_shooters_minus_one",
                                         "combat::test_shaken_or_disordered_is_minus_one"),
    "Shaken: no charge or countercharge": _t("charges::test_units_forbidden_to_charge",
                                             "charges::test_countercharge_needs_steady_cavalry_charged_to_the_front"),
    "Shaken: cavalry make no sweeping advance": _t("combat::test_shaken_cavalry_cannot_sweep"),
    "Shaken: off the table means gone": _t("brigades::test_units_off_table_count_towards_a_broken_brigade"),
    "Shaken: excess casualties discarded after the test": _t("break_tests::test_excess_casualties_discarded_after_the_test",
                                                             "break_tests::test_casualties_never_exceed_stamina_after_a_break_test"),
    "Squares: only infantry form them": _t("command::test_cavalry_cannot_form_square"),
    "Squares: cannot charge": _t("charges::test_units_forbidden_to_charge"),
    "Squares: shoot 1 die per facing": _t("shooting::test_square_shoots_one_die_per_face_firing"),
    "Squares: 2 dice per engaged face, +3 against cavalry": _t(
        "combat::test_square_rolls_two_dice_per_engaged_face_up_to_its_value", "combat::test_square_against_cavalry_adds_three"),
    "Squares: always hold instead of retiring": _t("break_tests::test_square_holds_instead_of_retiring",
                                                   "break_tests::test_square_still_breaks_on_four"),
    "Squares: cavalry charge only a disordered or shaken square": _t("charges::test_cavalry_cannot_charge_a_steady_square"),
    "Mixed formation: 1 shooting die": _t("shooting::test_attack_column_and_mixed_formation_shoot_one_die"),
    "Evading: an order test, one free move even on failure": _t("charges::test_a_failed_evade_still_gives_one_free_move",
                                                                "command::test_evade_gets_a_free_move_even_on_failure"),
    "Evading: caught evaders are destroyed": _t("charges::test_caught_evaders_are_destroyed"),
    # --- brigades, armies, winning -------------------------------------------------------------------
    "Broken brigades: half destroyed, shaken or off table": _t(
        "brigades::test_brigade_breaks_when_half_its_units_are_destroyed",
        "brigades::test_shaken_units_count_towards_a_broken_brigade",
        "brigades::test_units_off_table_count_towards_a_broken_brigade",
        "brigades::test_brigade_holds_with_less_than_half_lost"),
    "Broken brigades: both of two units": _t("brigades::test_two_unit_brigade_needs_both_units_lost"),
    "Broken brigades: checked at the start of the turn": _t("turns::test_command_phase_checks_that_sides_brigades"),
    "Broken army: half the brigades": _t("brigades::test_army_breaks_when_half_its_brigades_are_broken",
                                         "brigades::test_army_holds_with_fewer_than_half_brigades_broken"),
    "Broken army: no orders or initiative, no charges": _t("command::test_broken_army_gives_no_orders",
                                                           "charges::test_a_broken_army_does_not_charge"),
    "Broken army: fights on, then falls back": _t("combat::test_a_broken_army_fights_on_then_falls_back"),
    "Broken army: no rallies, disorder stays": _t("command::test_brave_rally_not_in_a_broken_army",
                                                  "turns::test_a_broken_armys_units_stay_disordered"),
    "Winning: the army that breaks first loses": _t("brigades::test_side_whose_army_breaks_first_loses"),
    "Winning: out of time, the larger share of intact brigades": _t(
        "brigades::test_largest_proportion_of_intact_brigades_wins_at_the_end", "brigades::test_equal_standing_is_a_draw"),
    # --- buildings -------------------------------------------------------------------------------------
    "Buildings: only infantry assault them": _t("charges::test_only_infantry_assault_a_building"),
    "Buildings: shooting 2 dice a face up to the Shooting value": _t(
        "shooting::test_building_shoots_two_dice_per_face_up_to_the_profile"),
    "Buildings: cannon shoot their normal dice": _t("artillery::test_guns_in_a_building_shoot_their_usual_dice"),
    "Buildings: no extra penalty for skirmishers or guns inside": _t(
        "shooting::test_target_in_building_is_one_penalty_even_if_skirmishers"),
    "Buildings: combat 2 dice a face": _t("combat::test_building_rolls_two_dice_per_engaged_face"),
    "Buildings: result +3 large or standard unit, +2 small, +0 artillery": _t(
        "combat::test_building_bonus_by_unit_size_setting"),
    "Buildings: garrisons cannot be supported": _t("supports::test_skirmishers_squares_and_garrisons_cannot_be_supported"),
    "Buildings: hold without disorder instead of retiring": _t(
        "break_tests::test_building_holds_without_disorder_instead_of_retiring"),
    "Fire: a unit's Shooting dice, any 6 lights it": _t("buildings::test_unit_rolls_its_shooting_value_any_six_lights_the_building",
                                                        "buildings::test_no_six_no_fire"),
    "Fire: howitzers and rockets on a 6, +1 if hit more than once": _t(
        "buildings::test_howitzer_needs_a_six", "buildings::test_howitzer_or_rocket_plus_one_if_hit_more_than_once"),
    "Fire: three turns burning destroys it and its garrison": _t(
        "buildings::test_three_consecutive_turns_destroy_the_building_and_garrison"),
    "Fire: the garrison douses it on 4-6": _t("buildings::test_douse_fire_on_four_to_six"),
    # --- nations --------------------------------------------------------------------------------------
    "Prussians: infantry are Tough Fighters against the French": _t(
        "combat::test_prussian_infantry_count_as_tough_fighters_against_the_french",
        "combat::test_prussian_tough_fighters_read_the_armys_nation_when_the_unit_names_none"),
    "Prussians: every commander Decisive": _t("scenarios::test_prussian_commanders_are_decisive"),
    "Prussians: sub-commanders for 10 points": _t("data::test_prussian_national_rules_are_data"),
    # --- unit special rules -----------------------------------------------------------------------------
    "Unit rule: Bloodthirsty": _t("combat::test_bloodthirsty_rerolls_failed_attacks_once_per_game"),
    "Unit rule: Brave": _t("command::test_brave_rally_on_four_removes_a_casualty",
                           "command::test_brave_rally_needs_more_than_12_from_the_enemy"),
    "Unit rule: Crack": _t("morale::test_crack_rerolls_one_failed_save_while_unhurt",
                           "morale::test_crack_does_nothing_once_the_unit_has_casualties"),
    "Unit rule: Determined Charge": _t("charges::test_determined_charge_is_noted",
                                       "command::test_determined_charge_reminder_in_the_order_notes"),
    "Unit rule: Elite": _t("command::test_elite_rally_clears_disorder_on_the_elite_score",
                           "command::test_elite_rally_refuses_a_unit_in_combat"),
    "Unit rule: Ferocious Charge": _t("combat::test_ferocious_charge_rerolls_every_failed_attack_in_the_first_round"),
    "Unit rule: First Fire": _t("shooting::test_first_fire_adds_a_die_to_the_first_shot_only"),
    "Unit rule: Form Square": _t("charges::test_form_square_units_charged_by_cavalry_must_try",
                                 "charges::test_form_square_passed_forms_square",
                                 "charges::test_form_square_double_six_forms_but_disordered",
                                 "charges::test_form_square_double_one_disorders_and_fails",
                                 "charges::test_form_square_may_be_tried_while_disordered"),
    "Unit rule: Freshly Raised": _t("shooting::test_freshly_raised_first_shot_table",
                                    "combat::test_freshly_raised_terror_hits_only_on_sixes_and_disorders",
                                    "combat::test_freshly_raised_huzzah_adds_an_attack"),
    "Unit rule: Heavy Cavalry": _t("combat::test_heavy_cavalry_adds_d3_when_charging",
                                   "combat::test_heavy_cavalry_plus_one_is_fixed"),
    "Unit rule: Lancers": _t("combat::test_lancers_worsen_infantry_saves_by_two_on_the_charge",
                             "morale::test_lancers_take_one_off_against_cavalry"),
    "Unit rule: Marauders": _t("command::test_marauders_ignore_distance_when_every_unit_is_a_marauder",
                               "charges::test_disordered_cavalry_cannot_turn_to_face_unless_marauders"),
    "Unit rule: Mounted Infantry": _t("command::test_mounted_infantry_dismounts_and_switches_profile"),
    "Unit rule: Poor Shooters": _t("shooting::test_poor_shooters_must_reroll_one_hit"),
    "Unit rule: Reliable": _t("command::test_reliable_plus_one_for_a_wholly_reliable_group"),
    "Unit rule: Sharp Shooters": _t("shooting::test_sharp_shooters_rerolls_one_miss"),
    "Unit rule: Steady": _t("break_tests::test_steady_passes_first_test_at_the_top_score", "break_tests::test_steady_only_once"),
    "Unit rule: Stubborn": _t("morale::test_stubborn_rerolls_one_failed_save_each_time"),
    "Unit rule: Superbly Drilled": _t("command::test_superbly_drilled_free_move_on_a_failed_order"),
    "Unit rule: Terrifying Charge": _t("charges::test_terrifying_charge_tests_the_target_on_contact"),
    "Unit rule: Tough Fighters": _t("combat::test_tough_fighters_rerolls_one_failed_attack_each_turn"),
    "Unit rule: Unreliable": _t("command::test_unreliable_no_move_on_a_roll_equal_to_the_rating"),
    "Unit rule: Untested": _t("morale::test_untested_stamina_table", "morale::test_untested_rolls_stamina_on_first_casualty"),
    "Unit rule: Valiant": _t("break_tests::test_valiant_rerolls_a_failed_test_once"),
    "Unit rule: Wavering": _t("shooting::test_wavering_tests_on_any_casualty",
                              "morale::test_wavering_asks_for_a_break_test_on_any_casualty"),
    # --- commander special rules -----------------------------------------------------------------------
    "Commander rule: Aggressive": _t("command::test_aggressive_plus_one_for_a_charge_within_reach"),
    "Commander rule: Decisive": _t("command::test_decisive_rerolls_a_failure",
                                   "command::test_decisive_reroll_that_fails_again_is_a_blunder",
                                   "command::test_decisive_gives_way_to_the_general_reroll"),
    "Commander rule: Diffident": _t("command::test_diffident_minus_one_when_general_far",
                                    "command::test_diffident_blunder_is_a_plain_failure"),
    "Commander rule: Headstrong": _t("command::test_headstrong_plus_one_for_the_first_commander_to_order",
                                     "command::test_headstrong_blunders_on_eleven",
                                     "command::test_headstrong_never_uses_the_general_reroll"),
    "Commander rule: Hesitant": _t("command::test_hesitant_must_reroll_three_moves_and_the_reroll_stands"),
    "Commander rule: Inspirational": _t("break_tests::test_break_test_action_with_inspirational_commander"),
    "Commander rule: Loathed": _t("break_tests::test_break_test_action_with_loathed_commander"),
    "Commander rule: Timid": _t("command::test_timid_minus_one_for_a_charge_plus_one_for_a_retreat"),
    # --- the five key commanders -------------------------------------------------------------------------
    "Key commander: Wellington": _t(
        "special_rules::test_key_commanders_reach_the_engine_with_their_rating_rules_and_attacks",
        "key_commanders::test_key_commander_attacks_when_his_side_charged_and_when_it_defends",
        "combat::test_wellington_adds_three_attacks_when_defending",
        "key_commanders::test_wellington_chooses_the_deployment_side"),
    "Key commander: Napoleon": _t(
        "special_rules::test_key_commanders_reach_the_engine_with_their_rating_rules_and_attacks",
        "command::test_famous_commander_rules_count_in_orders",
        "combat::test_napoleon_adds_three_attacks_to_the_unit_he_fights_with",
        "combat::test_napoleon_lets_supporters_take_their_test_again"),
    "Key commander: Marshal Ney": _t(
        "special_rules::test_key_commanders_reach_the_engine_with_their_rating_rules_and_attacks",
        "key_commanders::test_ney_adds_two_attacks_to_the_unit_he_fights_with",
        "key_commanders::test_ney_gives_valiant_to_d3_units_named_first"),
    "Key commander: Blücher": _t(
        "special_rules::test_key_commanders_reach_the_engine_with_their_rating_rules_and_attacks",
        "key_commanders::test_key_commander_attacks_when_his_side_charged_and_when_it_defends",
        "key_commanders::test_blucher_gives_one_unit_ferocious_charge_and_prussians_a_free_move"),
    "Key commander: von Zieten": _t(
        "special_rules::test_key_commanders_reach_the_engine_with_their_rating_rules_and_attacks",
        "key_commanders::test_key_commander_attacks_when_his_side_charged_and_when_it_defends",
        "command::test_von_zieten_adds_one_to_break_tests_within_12",
        "break_tests::test_von_zieten_counts_once_when_he_is_the_brigade_commander"),
}

# Rows about distances on the table: the app never measures, so the players move and judge these
# and tell the app the facts that follow (in range, enemy within 12", a gap narrower than the unit).
PLAYERS_MEASURE: dict[str, str] = {
    "Commander move distances: on foot 36, on horseback 48": "commanders are moved by hand; no order test",
    "Terrain effects: woods": "movement through terrain is measured by the players",
    "Terrain effects: rough ground": "movement through terrain is measured by the players",
    "Terrain effects: obstacles": "movement through terrain is measured by the players",
    "Terrain effects: impassable": "movement through terrain is measured by the players",
    "Squares: move once at half pace, not with cavalry within 12": "square movement is measured by the players",
    "Mixed formation: the screen within 2 inches": "base placement is done by the players",
    "Buildings: entering costs 6 inches, leaving takes a move": "movement into buildings is measured by the players",
    "Shooting through gaps: 6 inches for foot and horse, 3 for cannon": "the players judge gaps; a narrow one is "
                                                                        "told to the app as a partly seen target",
    "Artillery over other units: both 6 inches clear": "the players judge the geometry and tell the app "
                                                       "the shot is over intervening units",
    "Enfilading fire: march columns from front or rear too": "the players say whether a shot enfilades",
}

# Tables of the summary whose every row has its own entry above: table -> entry prefix.
TABLES = {
    "Unit sizes": "Unit sizes:",
    "Staff ratings": "Staff ratings:",
    "Issuing orders": "Issuing orders:",
    "Command modifiers": "Command modifiers:",
    "Blunder results": "Blunder results:",
    "Terrain effects": "Terrain effects:",
    "Formation dice": "Formation dice:",
    "To hit": "To hit:",
    "Morale saves": "Morale saves:",
    "Charge responses": "Charge responses:",
    "Combat modifiers": "Combat modifiers:",
    "Break test modifiers": "Break test modifiers:",
    "Break test results": "Break test results:",
    "Unit rule": "Unit rule:",
    "Commander rule": "Commander rule:",
    "Key commander": "Key commander:",
}
# Entries beyond a table's rows, for a rule printed under the table: the 5..10 clamp, "6 always
# hits, 1 always misses", the save itself, and the artillery column of the break test results.
EXTRA_ENTRIES = {"Command modifiers:": 1, "To hit:": 1, "Morale saves:": 1, "Break test results:": 1}


def summary_tables() -> dict[str, int]:
    """Each table of the summary the audit walks: its name -> its number of rows."""
    return dict(SUMMARY["table_rows"])


def collected_tests() -> set[str]:
    found = set()
    for path in list(HERE.glob("test_*.py")) + list(DATA_TESTS.glob("test_*.py")):
        module = path.stem.removeprefix("test_")
        if path.parent == DATA_TESTS:
            module = {"blackpowder_data": "data", "scenarios": "scenarios"}.get(module, f"data_{module}")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found |= {f"{module}::{n.name}" for n in tree.body
                  if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
    return found


def test_every_test_the_audit_names_exists():
    known = collected_tests()
    missing = sorted({t for tests in COVERAGE.values() for t in tests} - known)
    assert not missing, f"The audit names tests that do not exist: {missing}"


def test_every_entry_has_a_test_or_says_why_the_players_judge_it():
    assert all(COVERAGE.values())
    assert not set(COVERAGE) & set(PLAYERS_MEASURE)
    assert all(len(why) > 20 for why in PLAYERS_MEASURE.values())


def test_all_25_unit_rules_and_8_commander_rules_are_audited():
    audited_unit = {k.removeprefix("Unit rule: ") for k in COVERAGE if k.startswith("Unit rule: ")}
    audited_commander = {k.removeprefix("Commander rule: ") for k in COVERAGE if k.startswith("Commander rule: ")}
    assert audited_unit == set(UNIT_RULES) and len(audited_unit) == 25
    assert audited_commander == set(COMMANDER_RULES) and len(audited_commander) == 8


def test_the_five_key_commanders_are_audited():
    from referee.data.blackpowder import load_commanders

    assert {k.removeprefix("Key commander: ") for k in COVERAGE if k.startswith("Key commander: ")} == \
        {c.name for c in load_commanders().values()}


@pytest.mark.parametrize("title, prefix", sorted(TABLES.items()))
def test_each_row_of_the_table_has_an_entry(title, prefix):
    tables = summary_tables()
    (rows,) = [n for line, n in tables.items() if line.startswith(title)]
    entries = [k for k in list(COVERAGE) + list(PLAYERS_MEASURE) if k.startswith(prefix)]
    assert len(entries) == rows + EXTRA_ENTRIES.get(prefix, 0), (title, rows, entries)


def test_the_rows_named_after_rules_are_the_summarys_rules():
    """The audit's unit-rule names are the summary's own (the catalogue's "Lancers" is the
    summary's "Lancers", and so on), so a renamed rule cannot slip through."""
    printed = set(SUMMARY["unit_rules"])
    assert printed == set(UNIT_RULES)
