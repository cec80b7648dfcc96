"""Order tests: the orders table, the command modifiers, blunders, re-rolls, commander and unit
rules, free moves; the order action and the start-of-phase rallies."""
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.blackpowder.blunders import BLUNDER_TABLE, charge_blunder_moves
from referee.blackpowder.model import RuleError
from referee.blackpowder.order_tests import commander_break_modifiers, effective_staff_rating, order_test
from referee.core.dice import DiceNeeded, ScriptedDice
from referee.core.results import Modifier


def one_unit(make_battle, infantry, commander, *, rating=8, rules=(), unit=None, **kw):
    return make_battle(units=[unit or infantry("a", name="1st Line")],
                       brigades=[{"id": "blue1", "commander": commander("Picton", rating, rules=rules)}], **kw)


# --- the orders table -------------------------------------------------------------------------

def test_order_fails_when_roll_is_greater_than_staff_rating(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander), ["a"], ScriptedDice([4, 5]))
    assert r.data["moves"] == 0 and not r.data["passed"] and not r.data["blunder"]
    assert "fails" in r.summary


def test_roll_equal_to_staff_rating_gives_one_move(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander), ["a"], ScriptedDice([4, 4]))
    assert r.data["moves"] == 1 and r.data["passed"]


def test_roll_one_below_staff_rating_gives_one_move(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander), ["a"], ScriptedDice([3, 4]))
    assert r.data["moves"] == 1


def test_roll_two_below_staff_rating_gives_two_moves(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander), ["a"], ScriptedDice([3, 3]))
    assert r.data["moves"] == 2
    assert any("up to 24\" for infantry" in n for n in r.notes)


def test_roll_three_or_more_below_staff_rating_gives_three_moves(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander), ["a"], ScriptedDice([1, 1]))
    assert r.data["moves"] == 3
    assert any("up to 36\"" in n for n in r.notes)


def test_cavalry_moves_eighteen_inches_a_move(make_battle, cavalry, commander):
    battle = make_battle(units=[cavalry("h", name="Hussars")])
    r = order_test(battle, ["h"], ScriptedDice([2, 3]))
    assert r.data["moves"] == 3 and any("up to 54\" for cavalry" in n for n in r.notes)


def test_horse_artillery_moves_eighteen_foot_artillery_twelve(make_battle, artillery):
    battle = make_battle(units=[artillery("rha", artillery_kind="horse", formation="limbered"),
                                artillery("ra", formation="limbered")])
    r = order_test(battle, ["rha", "ra"], ScriptedDice([3, 4]))  # 9 with the limbered +1
    assert any("up to 36\" for horse artillery" in n for n in r.notes)
    assert any("up to 24\" for foot artillery" in n for n in r.notes)


def test_double_six_is_a_blunder(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander, rating=10), ["a"], ScriptedDice([6, 6, 5]))
    assert r.data["blunder"] and r.data["moves"] == 0 and not r.data["passed"]
    assert r.data["blunder_result"]["name"] == "Move Forward"


def test_double_six_is_a_plain_failure_when_the_setting_is_off(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, settings={"double_six_always_blunders": False})
    r = order_test(battle, ["a"], ScriptedDice([6, 6]))
    assert not r.data["blunder"] and r.data["moves"] == 0


def test_eleven_is_not_a_blunder_for_an_ordinary_commander(make_battle, infantry, commander):
    r = order_test(one_unit(make_battle, infantry, commander), ["a"], ScriptedDice([5, 6]))
    assert not r.data["blunder"] and r.data["moves"] == 0


# --- the blunder table ------------------------------------------------------------------------

@pytest.mark.parametrize("die, name, moves", [
    (1, "Rapid Retreat", 2), (2, "Retreat", 1), (3, "Move to Left", 1), (4, "Move to Right", 1),
    (5, "Move Forward", 1),
])
def test_blunder_table_row(make_battle, infantry, die, name, moves):
    battle = make_battle(units=[infantry("a")])
    r = order_test(battle, ["a"], ScriptedDice([6, 6, die]))
    assert r.data["blunder_result"]["name"] == name and r.data["blunder_result"]["moves"] == moves
    assert r.dice[-1].purpose == "blunder table"


@pytest.mark.parametrize("charge_die, moves", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_blunder_charge_rolls_a_d6_for_moves(make_battle, infantry, charge_die, moves):
    battle = make_battle(units=[infantry("a")])
    r = order_test(battle, ["a"], ScriptedDice([6, 6, 6, charge_die]))
    b = r.data["blunder_result"]
    assert b["name"] == "Charge!" and b["moves"] == moves and b["charge_roll"] == charge_die
    assert charge_blunder_moves(charge_die) == moves
    assert r.dice[-1].purpose == "blunder: Charge! moves"


def test_blunder_table_has_six_rows():
    assert sorted(BLUNDER_TABLE) == [1, 2, 3, 4, 5, 6]


# --- command modifiers ------------------------------------------------------------------------

def test_distance_minus_one_per_full_12_inches(make_battle, infantry, rules_of):
    battle = make_battle(units=[infantry("a")])
    r = order_test(battle, ["a"], ScriptedDice([3, 3]), distance_steps=2)
    assert rules_of(r) == {"Distance from commander (2 × full 12\")": -2}
    assert r.data["effective_rating"] == 6 and r.data["moves"] == 1


def test_enemy_within_12_is_minus_one(make_battle, infantry, rules_of):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([4, 4]), enemy_within_12=True)
    assert rules_of(r) == {"Enemy within 12\"": -1} and r.data["moves"] == 0


def test_attack_column_is_plus_one(make_battle, infantry, rules_of):
    r = order_test(make_battle(units=[infantry("a", formation="attack_column")]), ["a"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"Attack Column": 1} and r.data["moves"] == 1


def test_march_column_is_plus_one(make_battle, infantry, rules_of):
    r = order_test(make_battle(units=[infantry("a", formation="march_column")]), ["a"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"March Column / Limbered": 1}


def test_limbered_artillery_is_plus_one(make_battle, artillery, rules_of):
    r = order_test(make_battle(units=[artillery("g", formation="limbered")]), ["g"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"March Column / Limbered": 1}


def test_road_gives_march_column_plus_two_instead_of_one(make_battle, infantry, rules_of):
    r = order_test(make_battle(units=[infantry("a", formation="march_column")]), ["a"], ScriptedDice([5, 5]),
                   on_road=True)
    assert rules_of(r) == {"March Column / Limbered on a road": 2} and r.data["moves"] == 1


def test_road_bonus_adds_to_march_column_when_the_setting_says_so(make_battle, infantry, rules_of):
    battle = make_battle(units=[infantry("a", formation="march_column")],
                         settings={"road_bonus_adds_to_march_column": True})
    r = order_test(battle, ["a"], ScriptedDice([5, 6]), on_road=True, enemy_within_12=True)
    assert rules_of(r) == {"March Column / Limbered": 1, "March Column / Limbered on a road": 2,
                           "Enemy within 12\"": -1}
    assert r.data["effective_rating"] == 10 and r.data["moves"] == 0


def test_road_bonus_needs_march_column(make_battle, infantry, rules_of):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([3, 3]), on_road=True)
    assert rules_of(r) == {} and any("road bonus" in n for n in r.notes)


def test_formation_bonus_needs_every_unit_in_the_group(make_battle, infantry, rules_of):
    battle = make_battle(units=[infantry("a", formation="attack_column"), infantry("b")])
    r = order_test(battle, ["a", "b"], ScriptedDice([3, 3]))
    assert "Attack Column" not in rules_of(r)


def test_staff_rating_never_above_10(make_battle, infantry, commander, rules_of):
    battle = one_unit(make_battle, infantry, commander, rating=10, rules=["Aggressive"],
                      unit=infantry("a", formation="march_column", special_rules=["Reliable"]))
    r = order_test(battle, ["a"], ScriptedDice([5, 5]), on_road=True)
    assert r.data["effective_rating"] == 10
    assert rules_of(r)["Staff Rating never above 10"] == -3


def test_staff_rating_never_below_5(make_battle, infantry, rules_of):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([2, 3]), distance_steps=5,
                   enemy_within_12=True)
    assert r.data["effective_rating"] == 5 and rules_of(r)["Staff Rating never below 5"] == 3
    assert r.data["moves"] == 1


@given(base=st.integers(5, 10), amounts=st.lists(st.integers(-6, 6), max_size=8))
def test_effective_staff_rating_is_always_5_to_10(base, amounts):
    mods = [Modifier(a, f"m{i}", "staff rating") for i, a in enumerate(amounts)]
    rating, clamp = effective_staff_rating(base, mods)
    assert 5 <= rating <= 10
    assert rating == base + sum(amounts) + (clamp.amount if clamp else 0)


# --- who may be ordered -----------------------------------------------------------------------

def test_disordered_unit_cannot_be_ordered(make_battle, infantry):
    with pytest.raises(RuleError, match="disordered"):
        order_test(make_battle(units=[infantry("a", disordered=True)]), ["a"], ScriptedDice([3, 3]))


def test_disordered_unit_may_still_test_to_form_square(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a", disordered=True)]), ["a"], ScriptedDice([3, 3]),
                   order="form_square", purpose="form_square")
    assert r.data["passed"]


@pytest.mark.parametrize("dice, pair", [([6, 6], [6, 6]), ([1, 1], [1, 1])])
def test_form_square_test_has_no_blunder_table_and_reports_the_pair(make_battle, infantry, dice, pair):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice(dice), order="form_square",
                   purpose="form_square")
    assert not r.data["blunder"] and r.data["pair"] == pair and len(r.dice) == 2


def test_broken_army_gives_no_orders(make_battle, infantry):
    battle = make_battle(units=[infantry("a")], sides={"blue": {"army_broken": True}})
    with pytest.raises(RuleError, match="broken"):
        order_test(battle, ["a"], ScriptedDice([3, 3]))


def test_group_must_be_one_brigade(make_battle, infantry):
    battle = make_battle(units=[infantry("a"), infantry("b", brigade="blue2")])
    with pytest.raises(RuleError, match="brigade"):
        order_test(battle, ["a", "b"], ScriptedDice([3, 3]))


def test_shaken_unit_cannot_be_ordered_to_charge(make_battle, infantry):
    battle = make_battle(units=[infantry("a", casualties=3)])
    with pytest.raises(RuleError, match="shaken"):
        order_test(battle, ["a"], ScriptedDice([3, 3]), order="charge")


def test_typed_dice_ask_for_more_when_a_blunder_needs_the_table(make_battle, infantry):
    with pytest.raises(DiceNeeded) as e:
        order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([6, 6]))
    assert e.value.purpose == "blunder table"


# --- the General's re-roll --------------------------------------------------------------------

def test_general_reroll_turns_a_failure_into_moves_and_is_used_for_the_turn(make_battle, infantry, after):
    battle = make_battle(units=[infantry("a")])
    r = order_test(battle, ["a"], ScriptedDice([5, 5, 2, 2]), general_present=True, use_general_reroll=True)
    assert r.data["moves"] == 3 and r.data["general_reroll_used"]
    assert [d.purpose for d in r.dice] == ["order test (2D6)"] * 2 + ["General's re-roll"] * 2
    ch = [c for c in r.changes if c.path == ("sides", "blue", "general_reroll_used")]
    assert ch and ch[0].after is True
    assert after(battle, r).sides["blue"].general_reroll_used


def test_general_reroll_even_rerolls_a_blunder(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([6, 6, 3, 3]),
                   general_present=True, use_general_reroll=True)
    assert not r.data["blunder"] and r.data["moves"] == 2


def test_general_reroll_is_kept_when_the_order_succeeds(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([3, 3]),
                   general_present=True, use_general_reroll=True)
    assert r.data["moves"] == 2 and not r.data["general_reroll_used"]
    assert not any(c.path[0] == "sides" for c in r.changes)


def test_general_reroll_once_per_turn_per_side(make_battle, infantry):
    battle = make_battle(units=[infantry("a")], sides={"blue": {"general_reroll_used": True}})
    with pytest.raises(RuleError, match="already been used"):
        order_test(battle, ["a"], ScriptedDice([5, 5]), general_present=True, use_general_reroll=True)


def test_general_reroll_needs_the_general_present(make_battle, infantry):
    with pytest.raises(RuleError, match="General"):
        order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([5, 5]), use_general_reroll=True)


# --- commander rules --------------------------------------------------------------------------

def test_aggressive_plus_one_for_a_charge_within_reach(make_battle, infantry, commander, rules_of):
    battle = one_unit(make_battle, infantry, commander, rules=["Aggressive"])
    r = order_test(battle, ["a"], ScriptedDice([4, 5]), order="charge", charge_target_in_range=True)
    assert rules_of(r) == {"Aggressive (charge at an enemy within reach)": 1} and r.data["moves"] == 1
    r = order_test(battle, ["a"], ScriptedDice([4, 5]), order="move", charge_target_in_range=True)
    assert rules_of(r) == {} and r.data["moves"] == 0


def test_decisive_rerolls_a_failure(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Decisive"])
    r = order_test(battle, ["a"], ScriptedDice([5, 5, 3, 3]), use_decisive_reroll=True)
    assert r.data["moves"] == 2 and r.dice[-1].purpose == "Decisive re-roll"


def test_decisive_reroll_that_fails_again_is_a_blunder(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Decisive"])
    r = order_test(battle, ["a"], ScriptedDice([5, 5, 4, 5, 2]), use_decisive_reroll=True)
    assert r.data["blunder"] and r.data["blunder_result"]["name"] == "Retreat"


def test_decisive_gives_way_to_the_general_reroll(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Decisive"])
    r = order_test(battle, ["a"], ScriptedDice([5, 5, 4, 5]), use_decisive_reroll=True,
                   general_present=True, use_general_reroll=True)
    assert not r.data["blunder"] and r.data["moves"] == 0 and r.data["general_reroll_used"]


def test_decisive_reroll_needs_a_decisive_commander(make_battle, infantry):
    with pytest.raises(RuleError, match="not Decisive"):
        order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([5, 5]), use_decisive_reroll=True)


def test_diffident_minus_one_when_general_far(make_battle, infantry, commander, rules_of):
    battle = one_unit(make_battle, infantry, commander, rules=["Diffident"])
    r = order_test(battle, ["a"], ScriptedDice([4, 4]))
    assert rules_of(r) == {"Diffident (General more than 12\" away)": -1} and r.data["moves"] == 0
    r = order_test(battle, ["a"], ScriptedDice([4, 4]), general_within_12=True)
    assert rules_of(r) == {} and r.data["moves"] == 1


def test_diffident_blunder_is_a_plain_failure(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Diffident"])
    r = order_test(battle, ["a"], ScriptedDice([6, 6]))
    assert not r.data["blunder"] and r.data["moves"] == 0 and r.data["blunder_result"] is None


def test_headstrong_plus_one_for_the_first_commander_to_order(make_battle, infantry, commander, after, rules_of):
    battle = make_battle(units=[infantry("a"), infantry("b", brigade="blue2")],
                         brigades=[{"id": "blue1", "commander": commander("Ney", 8, rules=["Headstrong"])},
                                   {"id": "blue2", "commander": commander("Reille", 8)}])
    r = order_test(battle, ["a"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"Headstrong (first commander to order this turn)": 1} and r.data["moves"] == 1
    assert any(c.path[0] == "turn_state" for c in r.changes)
    # Once another commander has ordered, Ney is no longer first.
    other = order_test(battle, ["b"], ScriptedDice([3, 3]))
    later = after(battle, other)
    r = order_test(later, ["a"], ScriptedDice([4, 5]))
    assert rules_of(r) == {} and r.data["moves"] == 0


def test_headstrong_blunders_on_eleven(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Headstrong"])
    r = order_test(battle, ["a"], ScriptedDice([5, 6, 3]))
    assert r.data["blunder"] and r.data["blunder_result"]["name"] == "Move to Left"


def test_headstrong_never_uses_the_general_reroll(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Headstrong"])
    with pytest.raises(RuleError, match="Headstrong"):
        order_test(battle, ["a"], ScriptedDice([5, 5]), general_present=True, use_general_reroll=True)


def test_hesitant_must_reroll_three_moves_and_the_reroll_stands(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rules=["Hesitant"])
    r = order_test(battle, ["a"], ScriptedDice([1, 2, 4, 4]))
    assert r.data["moves"] == 1 and r.dice[-1].purpose.endswith("Hesitant re-roll")
    r = order_test(battle, ["a"], ScriptedDice([1, 2, 2, 2]))
    assert r.data["moves"] == 3 and len(r.dice) == 4


def test_timid_minus_one_for_a_charge_plus_one_for_a_retreat(make_battle, infantry, commander, rules_of):
    battle = one_unit(make_battle, infantry, commander, rules=["Timid"])
    r = order_test(battle, ["a"], ScriptedDice([4, 4]), order="charge")
    assert rules_of(r) == {"Timid (ordering a charge)": -1}
    r = order_test(battle, ["a"], ScriptedDice([4, 5]), order="retreat")
    assert rules_of(r) == {"Timid (ordering a retreat)": 1} and r.data["moves"] == 1


def test_inspirational_and_loathed_are_break_test_modifiers(make_battle, infantry, commander):
    battle = make_battle(units=[infantry("a"), infantry("b", brigade="blue2")],
                         brigades=[{"id": "blue1", "commander": commander("Picton", rules=["Inspirational"])},
                                   {"id": "blue2", "commander": commander("Hated", rules=["Loathed"])}])
    assert commander_break_modifiers(battle, battle.unit("a"), True) == [
        Modifier(1, "Inspirational (Picton within 12\")", "break test")]
    assert [m.amount for m in commander_break_modifiers(battle, battle.unit("b"), True)] == [-1]
    assert commander_break_modifiers(battle, battle.unit("a"), False) == []


def test_von_zieten_adds_one_to_break_tests_within_12(make_battle, infantry, key_commander):
    battle = make_battle(units=[infantry("a")], brigades=[{"id": "blue1", "commander": key_commander("von_zieten")}])
    assert [m.amount for m in commander_break_modifiers(battle, battle.unit("a"), True)] == [1]


def test_famous_commander_rules_count_in_orders(make_battle, infantry, key_commander, rules_of):
    battle = make_battle(units=[infantry("a")], brigades=[{"id": "blue1", "commander": key_commander("napoleon")}])
    r = order_test(battle, ["a"], ScriptedDice([5, 5]), order="charge", charge_target_in_range=True)
    assert r.data["effective_rating"] == 10 and "Staff Rating never above 10" in rules_of(r)


# --- unit rules -------------------------------------------------------------------------------

def test_reliable_plus_one_for_a_wholly_reliable_group(make_battle, infantry, rules_of):
    battle = make_battle(units=[infantry("a", special_rules=["Reliable"]), infantry("b", special_rules=["Reliable"]),
                                infantry("c")])
    r = order_test(battle, ["a", "b"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"Reliable": 1} and r.data["moves"] == 1
    r = order_test(battle, ["a", "c"], ScriptedDice([4, 5]))
    assert rules_of(r) == {} and r.data["moves"] == 0


def test_unreliable_no_move_on_a_roll_equal_to_the_rating(make_battle, infantry):
    battle = make_battle(units=[infantry("a", special_rules=["Unreliable"]), infantry("b")])
    r = order_test(battle, ["a"], ScriptedDice([4, 4]))
    assert r.data["moves"] == 0 and not r.data["passed"]
    r = order_test(battle, ["a"], ScriptedDice([3, 4]))
    assert r.data["moves"] == 1
    r = order_test(battle, ["a", "b"], ScriptedDice([4, 4]))
    assert r.data["moves_by_unit"] == {"a": 0, "b": 1} and r.data["passed"]


def test_marauders_ignore_distance_when_every_unit_is_a_marauder(make_battle, cavalry, rules_of):
    battle = make_battle(units=[cavalry("h", special_rules=["Marauder"]), cavalry("l", special_rules=["Marauders"]),
                                cavalry("d")])
    r = order_test(battle, ["h", "l"], ScriptedDice([3, 3]), distance_steps=2)
    assert rules_of(r) == {} and r.data["moves"] == 2
    r = order_test(battle, ["h", "d"], ScriptedDice([3, 3]), distance_steps=2)
    assert rules_of(r) == {"Distance from commander (2 × full 12\")": -2}


def test_march_column_free_move_on_a_failed_order(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a", formation="march_column")]), ["a"], ScriptedDice([5, 6]))
    assert r.data["moves"] == 0 and r.data["free_move_units"] == ["a"]
    assert "free move" in r.summary


def test_limbered_artillery_free_move_on_a_failed_order(make_battle, artillery):
    r = order_test(make_battle(units=[artillery("g", formation="limbered")]), ["g"], ScriptedDice([5, 6]))
    assert r.data["free_move_units"] == ["g"]


def test_superbly_drilled_free_move_on_a_failed_order(make_battle, infantry):
    battle = make_battle(units=[infantry("a", special_rules=["Superbly Drilled"]), infantry("b")])
    r = order_test(battle, ["a", "b"], ScriptedDice([5, 6]))
    assert r.data["free_move_units"] == ["a"]


def test_no_free_move_after_a_blunder(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a", formation="march_column")]), ["a"], ScriptedDice([6, 6, 5]))
    assert r.data["free_move_units"] == []


def test_evade_gets_a_free_move_even_on_failure(make_battle, cavalry):
    battle = make_battle(units=[cavalry("h", side="red")])
    r = order_test(battle, ["h"], ScriptedDice([5, 6]), order="evade", purpose="evade")
    assert r.data["free_move_units"] == ["h"]


# --- exact odds -------------------------------------------------------------------------------

class _BlunderReached(Exception):
    pass


class _Probe(ScriptedDice):
    """Scripted dice that stop at the blunder table: the outcome is known by then."""

    def roll(self, count, sides, purpose):
        if purpose == "blunder table":
            raise _BlunderReached
        return super().roll(count, sides, purpose)


def enumerate_outcomes(run) -> dict:
    """Every sequence of dice the order test can ask for, weighted: the exact distribution."""
    from fractions import Fraction
    dist: dict = {}

    def walk(prefix, weight):
        try:
            r = run(_Probe(prefix))
        except _BlunderReached:
            dist[-1] = dist.get(-1, 0) + weight
            return
        except DiceNeeded:
            for v in range(1, 7):
                walk(prefix + [v], weight / 6)
            return
        key = -1 if r.data["blunder"] else r.data["moves"]
        dist[key] = dist.get(key, 0) + weight

    walk([], Fraction(1))
    return dist


def test_odds_for_a_plain_order_at_rating_8(make_battle, infantry):
    from referee.blackpowder.order_odds import order_odds
    lines = order_odds(make_battle(units=[infantry("a")]), ["a"])
    assert lines == ["Order fails: 25.0%", "1 move: 30.6%", "2 moves: 13.9%", "3 moves: 27.8%", "Blunder!: 2.8%",
                     "At least 1 move: 72.2% (rating 8)"]


@pytest.mark.parametrize("rules, kw", [
    ((), {}),
    ((), {"general_present": True, "use_general_reroll": True}),
    (("Decisive",), {"use_decisive_reroll": True}),
    (("Decisive", "Diffident"), {"use_decisive_reroll": True}),
    (("Hesitant",), {}),
    (("Headstrong",), {"enemy_within_12": True}),
])
def test_odds_match_every_possible_roll(make_battle, infantry, commander, rules, kw):
    from referee.blackpowder.order_odds import outcome_distribution
    from referee.blackpowder.order_tests import prepare_order
    battle = one_unit(make_battle, infantry, commander, rules=rules,
                      unit=infantry("a", special_rules=["Unreliable"]))
    full = dict(order="move", distance_steps=0, enemy_within_12=False, on_road=False, general_present=False,
                use_general_reroll=False, use_decisive_reroll=False, purpose="order", general_within_12=False,
                charge_target_in_range=False)
    full.update(kw)
    expected = enumerate_outcomes(lambda d: order_test(battle, ["a"], d, **full))
    die = outcome_distribution(prepare_order(battle, ["a"], **full).plan)
    assert {o: die.probability(o) for o in die.outcomes()} == {o: p for o, p in expected.items() if p}


def test_each_plans_odds_are_worked_out_once_and_kept_apart():
    """The odds depend only on the plan (a frozen record), so they are kept by it: the same plan
    gets the very distribution worked out before, and a plan differing in one fact gets its own."""
    from dataclasses import replace

    from referee.blackpowder.order_odds import outcome_distribution
    from referee.blackpowder.order_tests import OrderPlan
    plan = OrderPlan(rating=8, blunder_from=12, all_unreliable=False, hesitant=False, diffident=False,
                  general_reroll=False, decisive_reroll=False)
    first = outcome_distribution(plan)
    assert outcome_distribution(replace(plan)) is first
    other = outcome_distribution(replace(plan, rating=7))
    assert other is not first and other.probability(">=", 1) < first.probability(">=", 1)
    assert first.equals(outcome_distribution.__wrapped__(plan))


# --- the order action -------------------------------------------------------------------------

def _resolve(doc, dice, **facts):
    from referee.blackpowder.command import OrderFacts, resolve_order
    return resolve_order(doc, OrderFacts(**facts), ScriptedDice(dice))


def test_order_action_changes_formation_with_a_move(make_doc, infantry, after):
    from referee.blackpowder.model import Battle
    doc = make_doc(units=[infantry("a")])
    r = _resolve(doc, [3, 3], units=["a"], new_formation="attack_column")
    assert after(Battle.from_doc(doc), r).unit("a").formation == "attack_column"
    assert r.data["new_formation"] == "attack_column"


def test_change_formation_order_asks_which_formation(make_doc, infantry):
    from referee.blackpowder.command import OrderFacts, odds_order
    doc = make_doc(units=[infantry("a")])
    with pytest.raises(RuleError, match="Pick the new formation"):
        _resolve(doc, [3, 3], units=["a"], order="change_formation")
    # The odds line says so before anything is rolled.
    assert "Pick the new formation" in odds_order(doc, OrderFacts(units=["a"], order="change_formation"))[0]
    r = _resolve(doc, [3, 3], units=["a"], order="change_formation", new_formation="attack_column")
    assert [n for n in r.notes if "whole move" in n] == ["Forming Attack Column uses one whole move of those given."]


def test_order_action_keeps_formation_when_the_order_fails(make_doc, infantry):
    r = _resolve(make_doc(units=[infantry("a")]), [5, 5], units=["a"], new_formation="square")
    assert not any(c.path[-1] == "formation" for c in r.changes)


def test_cannot_form_attack_column_refuses_attack_column(make_doc, infantry):
    doc = make_doc(units=[infantry("a", special_rules=["Cannot Form Attack Column"])])
    with pytest.raises(RuleError, match="cannot form Attack Column"):
        _resolve(doc, [3, 3], units=["a"], new_formation="attack_column")


def test_cavalry_cannot_form_square(make_doc, cavalry):
    with pytest.raises(RuleError, match="Square"):
        _resolve(make_doc(units=[cavalry("h")]), [3, 3], units=["h"], new_formation="square")


def test_mounted_infantry_dismounts_and_switches_profile(make_doc, cavalry, after):
    from referee.blackpowder.model import Battle
    foot = {"type": "infantry", "hand_to_hand": 5, "shooting": 3, "morale": 4}
    doc = make_doc(units=[cavalry("dr", hand_to_hand=6, shooting=1, special_rules=["Mounted Infantry"],
                                  alternate_profile=foot)])
    r = _resolve(doc, [3, 3], units=["dr"], mount="dismount", new_formation="line")
    unit = after(Battle.from_doc(doc), r).unit("dr")
    assert (unit.type, unit.hand_to_hand, unit.shooting, unit.mounted) == ("infantry", 5, 3, False)
    assert unit.alternate_profile == {"type": "cavalry", "hand_to_hand": 6, "shooting": 1, "morale": 4}
    # And back on the horses, on a later turn (a unit takes one order a turn).
    doc2 = {k: v for k, v in after(Battle.from_doc(doc), r).doc.items() if k != "turn_state"}
    r2 = _resolve(doc2, [3, 3], units=["dr"], mount="mount")
    assert after(Battle.from_doc(doc2), r2).unit("dr").type == "cavalry"


def test_mounting_needs_mounted_infantry(make_doc, infantry):
    with pytest.raises(RuleError, match="Mounted Infantry"):
        _resolve(make_doc(units=[infantry("a")]), [3, 3], units=["a"], mount="mount")


def test_orders_only_in_the_command_phase_of_the_active_side(make_doc, infantry):
    with pytest.raises(RuleError, match="Command phase"):
        _resolve(make_doc(units=[infantry("a")], phase="shooting"), [3, 3], units=["a"])
    with pytest.raises(RuleError, match="side"):
        _resolve(make_doc(units=[infantry("r", side="red")]), [3, 3], units=["r"])


def test_order_action_odds_and_refusals(make_doc, infantry):
    from referee.blackpowder.command import OrderFacts, odds_order
    doc = make_doc(units=[infantry("a"), infantry("d", disordered=True)])
    assert odds_order(doc, OrderFacts(units=["a"]))[0] == "Order fails: 25.0%"
    assert "disordered" in odds_order(doc, OrderFacts(units=["d"]))[0]


def test_order_action_is_registered():
    from referee.blackpowder import SYSTEM
    assert {"order", "elite_rally", "brave_rally", "initiative_move"} <= set(SYSTEM.actions)


# --- start of the Command phase ---------------------------------------------------------------

def test_elite_rally_clears_disorder_on_the_elite_score(make_doc, infantry, after):
    from referee.blackpowder.model import Battle
    from referee.blackpowder.rallies import EliteRallyFacts, resolve_elite_rally
    doc = make_doc(units=[infantry("g", special_rules=["Elite 3+"], disordered=True),
                          infantry("m", special_rules=["Elite 4+"], disordered=True),
                          infantry("f", special_rules=["Elite 3+"], disordered=True, in_combat=True),
                          infantry("l", disordered=True)])
    r = resolve_elite_rally(doc, EliteRallyFacts(), ScriptedDice([3, 3]))
    assert r.data["rolled_for"] == ["g", "m"] and r.data["recovered"] == ["g"]
    b = after(Battle.from_doc(doc), r)
    assert not b.unit("g").disordered and b.unit("m").disordered and b.unit("f").disordered
    with pytest.raises(RuleError, match="No disordered Elite"):
        resolve_elite_rally(b.doc, EliteRallyFacts(), ScriptedDice([6]))


def test_elite_rally_refuses_a_unit_in_combat(make_doc, infantry):
    from referee.blackpowder.rallies import EliteRallyFacts, resolve_elite_rally
    doc = make_doc(units=[infantry("f", special_rules=["Elite 3+"], disordered=True, in_combat=True)])
    with pytest.raises(RuleError, match="combat"):
        resolve_elite_rally(doc, EliteRallyFacts(units=["f"]), ScriptedDice([6]))


def test_brave_rally_on_four_removes_a_casualty(make_doc, infantry, after):
    from referee.blackpowder.model import Battle
    from referee.blackpowder.rallies import BraveRallyFacts, resolve_brave_rally
    doc = make_doc(units=[infantry("b", special_rules=["Brave"], casualties=3)])
    r = resolve_brave_rally(doc, BraveRallyFacts(unit="b", more_than_12_from_enemy=True), ScriptedDice([4]))
    b = after(Battle.from_doc(doc), r)
    assert r.data["rallied"] and b.unit("b").casualties == 2 and not b.unit("b").shaken
    with pytest.raises(RuleError, match="not shaken"):
        resolve_brave_rally(b.doc, BraveRallyFacts(unit="b", more_than_12_from_enemy=True), ScriptedDice([4]))


def test_brave_rally_fails_on_three_and_is_one_try_a_turn(make_doc, infantry):
    from referee.blackpowder.model import Battle
    from referee.blackpowder.rallies import BraveRallyFacts, resolve_brave_rally
    doc = make_doc(units=[infantry("b", special_rules=["Brave"], casualties=3)])
    r = resolve_brave_rally(doc, BraveRallyFacts(unit="b", more_than_12_from_enemy=True), ScriptedDice([3]))
    assert not r.data["rallied"] and not any(c.path[-1] == "casualties" for c in r.changes)
    again = Battle.from_doc(doc).with_changes(r.changes)
    with pytest.raises(RuleError, match="already tried"):
        resolve_brave_rally(again.doc, BraveRallyFacts(unit="b", more_than_12_from_enemy=True), ScriptedDice([6]))


def test_brave_rally_needs_more_than_12_from_the_enemy(make_doc, infantry):
    from referee.blackpowder.rallies import BraveRallyFacts, resolve_brave_rally
    doc = make_doc(units=[infantry("b", special_rules=["Brave"], casualties=3)])
    with pytest.raises(RuleError, match="12"):
        resolve_brave_rally(doc, BraveRallyFacts(unit="b"), ScriptedDice([6]))


def test_brave_rally_not_in_a_broken_army(make_doc, infantry):
    from referee.blackpowder.rallies import BraveRallyFacts, resolve_brave_rally
    doc = make_doc(units=[infantry("b", special_rules=["Brave"], casualties=3)], sides={"blue": {"army_broken": True}})
    with pytest.raises(RuleError, match="broken"):
        resolve_brave_rally(doc, BraveRallyFacts(unit="b", more_than_12_from_enemy=True), ScriptedDice([6]))


def test_initiative_move_is_recorded_without_dice(make_doc, infantry, after):
    from referee.blackpowder.command import InitiativeFacts, resolve_initiative_move
    from referee.blackpowder.model import Battle
    doc = make_doc(units=[infantry("a")])
    r = resolve_initiative_move(doc, InitiativeFacts(unit="a", enemy_within_12=True), ScriptedDice([]))
    assert r.dice == () and r.changes[0].path[0] == "turn_state"
    b = after(Battle.from_doc(doc), r)
    with pytest.raises(RuleError, match="already"):
        resolve_initiative_move(b.doc, InitiativeFacts(unit="a", enemy_within_12=True), ScriptedDice([]))


def test_initiative_needs_an_enemy_within_12_and_no_disorder(make_doc, infantry):
    from referee.blackpowder.command import InitiativeFacts, resolve_initiative_move
    doc = make_doc(units=[infantry("a"), infantry("d", disordered=True)])
    with pytest.raises(RuleError, match="12"):
        resolve_initiative_move(doc, InitiativeFacts(unit="a"), ScriptedDice([]))
    with pytest.raises(RuleError, match="disordered"):
        resolve_initiative_move(doc, InitiativeFacts(unit="d", enemy_within_12=True), ScriptedDice([]))


def test_initiative_comes_before_orders(make_doc, infantry, after):
    from referee.blackpowder.command import InitiativeFacts, resolve_initiative_move
    from referee.blackpowder.model import Battle
    doc = make_doc(units=[infantry("a"), infantry("b")])
    ordered = after(Battle.from_doc(doc), _resolve(doc, [3, 3], units=["a"]))
    with pytest.raises(RuleError, match="before any order"):
        resolve_initiative_move(ordered.doc, InitiativeFacts(unit="b", enemy_within_12=True), ScriptedDice([]))


def test_determined_charge_reminder_in_the_order_notes(make_battle, infantry):
    battle = make_battle(units=[infantry("a", name="Grenadiers", special_rules=["Determined Charge"])])
    r = order_test(battle, ["a"], ScriptedDice([3, 3]))
    assert any("Determined Charge: Grenadiers must charge" in n for n in r.notes)


@given(rating=st.integers(5, 10), steps=st.integers(0, 8), enemy=st.booleans(), road=st.booleans(),
       formation=st.sampled_from(["line", "attack_column", "march_column"]),
       rules=st.sets(st.sampled_from(["Aggressive", "Diffident", "Headstrong", "Timid"])),
       order=st.sampled_from(["move", "charge", "retreat"]), reliable=st.booleans(),
       d1=st.integers(1, 5), d2=st.integers(1, 5))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the fixtures are stateless builders
def test_order_test_effective_rating_always_5_to_10(make_battle, infantry, commander, rating, steps, enemy, road,
                                                     formation, rules, order, reliable, d1, d2):
    assume(not (order == "charge" and formation == "march_column"))
    battle = make_battle(units=[infantry("a", formation=formation, special_rules=["Reliable"] if reliable else [])],
                         brigades=[{"id": "blue1", "commander": commander("C", rating, rules=sorted(rules))}])
    r = order_test(battle, ["a"], ScriptedDice([d1, d2]), order=order, distance_steps=steps, enemy_within_12=enemy,
                   on_road=road, charge_target_in_range=True)
    assert 5 <= r.data["effective_rating"] <= 10
    assert r.data["effective_rating"] == rating + sum(m.amount for m in r.modifiers)


@pytest.mark.parametrize("turn_state", [None, {}, {"commanders_ordered": [{"turn": 1, "side": "blue", "brigade": "x"}]}])
def test_order_then_undo_restores_the_document_exactly(make_doc, infantry, turn_state):
    from referee.core.docstate import apply_changes, revert_changes
    doc = make_doc(units=[infantry("a"), infantry("b", brigade="blue2")])
    if turn_state is not None:
        doc["turn_state"] = turn_state
    r = _resolve(doc, [3, 3], units=["a"], new_formation="attack_column", general_present=True,
                 use_general_reroll=True)
    after_doc = apply_changes(doc, r.all_changes)
    assert after_doc["turn_state"]["commanders_ordered"][-1] == {"turn": 1, "side": "blue", "brigade": "blue1"}
    assert revert_changes(after_doc, r.all_changes) == doc


# --- the tables of ratings and moves ------------------------------------------------------------

@pytest.mark.parametrize("rating, words", [
    (10, "a genius of war"), (9, "a great general"), (8, "good: capable and sure of himself"),
    (7, "average: steady rather than inspired"), (6, "poor: slow to make up his mind"), (5, "a fool")])
def test_staff_rating_table_row(make_battle, infantry, commander, rating, words):
    battle = make_battle(units=[infantry("a")], brigades=[{"id": "blue1", "commander": commander("C", rating)}])
    r = order_test(battle, ["a"], ScriptedDice([1, 2]))
    assert (r.data["effective_rating"], r.data["rating_words"]) == (rating, words)


def test_infantry_moves_twelve_inches_a_move(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([2, 3]))
    assert r.data["moves"] == 3 and any("up to 36\" for infantry" in n for n in r.notes)


def test_within_12_of_the_enemy_units_advance_or_retire_only_by_quarters(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([1, 2]), enemy_within_12=True)
    assert any("front quarter" in n and "rear quarter" in n for n in r.notes)


def test_deployed_foot_guns_limber_with_a_move_or_are_manhandled_six_inches(make_battle, artillery):
    r = order_test(make_battle(units=[artillery("g")]), ["g"], ScriptedDice([1, 2]))
    assert any("limbering takes a whole move" in n and "6\"" in n for n in r.notes)
    horse = order_test(make_battle(units=[artillery("h", artillery_kind="horse")]), ["h"], ScriptedDice([1, 2]))
    assert any("horse artillery limbers or unlimbers" in n for n in horse.notes)


# --- one order a unit each turn (setting "one_order_a_turn"; the summary is silent) -------------

def test_a_unit_takes_one_order_a_turn(make_doc, infantry):
    from referee.blackpowder.game import GAME
    from referee.core.docstate import apply_changes
    doc = make_doc(units=[infantry("a", name="28th Ligne"), infantry("b")])
    first = _resolve(doc, [3, 3], units=["a"])
    after_doc = apply_changes(doc, first.all_changes)
    with pytest.raises(RuleError, match="28th Ligne has had its order this turn: a unit takes one order a turn"):
        _resolve(after_doc, [3, 3], units=["a", "b"])
    # The unit's card says so before the form is filled.
    order = next(o for o in GAME.offers(after_doc, "a") if o.action == "order")
    assert not order.allowed and "one order a turn" in order.reason
    assert next(o for o in GAME.offers(after_doc, "b") if o.action == "order").allowed


def test_a_table_may_let_a_unit_take_a_second_order_and_is_told(make_doc, infantry):
    from referee.core.docstate import apply_changes
    doc = make_doc(units=[infantry("a", name="28th Ligne")])
    doc["settings"] = {**doc.get("settings", {}), "one_order_a_turn": False}
    after_doc = apply_changes(doc, _resolve(doc, [3, 3], units=["a"]).all_changes)
    again = _resolve(after_doc, [3, 3], units=["a"])
    assert any("28th Ligne had an order already this turn" in n for n in again.notes)
