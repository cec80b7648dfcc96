"""Order tests: the orders table, the command modifiers, blunders, re-rolls, commander and unit
rules, free moves; the order action and the start-of-phase rallies."""
import pytest
from hypothesis import given, strategies as st

from referee.blackpowder.command import (BLUNDER_TABLE, charge_blunder_moves, commander_break_modifiers,
                                         effective_staff_rating, order_test)
from referee.blackpowder.model import RuleError
from referee.dice import DiceNeeded, ScriptedDice
from referee.results import Modifier


def rules_of(result):
    return {m.rule: m.amount for m in result.modifiers}


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
    assert r.dice[-1].purpose == "Charge! moves"


def test_blunder_table_has_six_rows():
    assert sorted(BLUNDER_TABLE) == [1, 2, 3, 4, 5, 6]


# --- command modifiers ------------------------------------------------------------------------

def test_distance_minus_one_per_full_12_inches(make_battle, infantry):
    battle = make_battle(units=[infantry("a")])
    r = order_test(battle, ["a"], ScriptedDice([3, 3]), distance_steps=2)
    assert rules_of(r) == {"Distance from commander (2 × full 12\")": -2}
    assert r.data["effective_rating"] == 6 and r.data["moves"] == 1


def test_enemy_within_12_is_minus_one(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([4, 4]), enemy_within_12=True)
    assert rules_of(r) == {"Enemy within 12\"": -1} and r.data["moves"] == 0


def test_attack_column_is_plus_one(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a", formation="attack_column")]), ["a"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"Attack Column": 1} and r.data["moves"] == 1


def test_march_column_is_plus_one(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a", formation="march_column")]), ["a"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"March Column / Limbered": 1}


def test_limbered_artillery_is_plus_one(make_battle, artillery):
    r = order_test(make_battle(units=[artillery("g", formation="limbered")]), ["g"], ScriptedDice([4, 5]))
    assert rules_of(r) == {"March Column / Limbered": 1}


def test_road_gives_march_column_plus_two_instead_of_one(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a", formation="march_column")]), ["a"], ScriptedDice([5, 5]),
                   on_road=True)
    assert rules_of(r) == {"March Column / Limbered on a road": 2} and r.data["moves"] == 1


def test_road_bonus_needs_march_column(make_battle, infantry):
    r = order_test(make_battle(units=[infantry("a")]), ["a"], ScriptedDice([3, 3]), on_road=True)
    assert rules_of(r) == {} and any("road bonus" in n for n in r.notes)


def test_formation_bonus_needs_every_unit_in_the_group(make_battle, infantry):
    battle = make_battle(units=[infantry("a", formation="attack_column"), infantry("b")])
    r = order_test(battle, ["a", "b"], ScriptedDice([3, 3]))
    assert "Attack Column" not in rules_of(r)


def test_staff_rating_never_above_10(make_battle, infantry, commander):
    battle = one_unit(make_battle, infantry, commander, rating=10, rules=["Aggressive"],
                      unit=infantry("a", formation="march_column", special_rules=["Reliable"]))
    r = order_test(battle, ["a"], ScriptedDice([5, 5]), on_road=True)
    assert r.data["effective_rating"] == 10
    assert rules_of(r)["Staff Rating never above 10"] == -3


def test_staff_rating_never_below_5(make_battle, infantry):
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
