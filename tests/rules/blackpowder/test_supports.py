"""Supports: +1 from the rear, each flank, at most +3 per engaged unit, and who cannot have them."""
import pytest

from referee.blackpowder.model import RuleError
from referee.blackpowder.supports import reckon_supports


def _battle(make_battle, infantry, artillery, engaged_over=None, second=False):
    units = [infantry("e", in_combat=True, **(engaged_over or {})), infantry("r"), infantry("l"), infantry("rt"),
             infantry("x"), infantry("enemy", side="red", in_combat=True), infantry("busy", in_combat=True),
             artillery("g", in_combat=True)]
    if second:
        units.append(infantry("e2", in_combat=True))
    return make_battle(units=units)


def test_rear_support_adds_one(make_battle, infantry, artillery):
    s = reckon_supports(_battle(make_battle, infantry, artillery), ["e"], set(), "blue", {"rear": ["r"]})
    assert s.bonus == 1 and s.modifiers[0].rule == "Rear support" and s.supporters == ("r",)


def test_left_and_right_flank_supports_add_one_each(make_battle, infantry, artillery):
    s = reckon_supports(_battle(make_battle, infantry, artillery), ["e"], set(), "blue",
                        {"left": ["l"], "right": ["rt"]})
    assert s.bonus == 2


def test_supports_are_at_most_three_per_unit(make_battle, infantry, artillery):
    s = reckon_supports(_battle(make_battle, infantry, artillery), ["e"], set(), "blue",
                        {"rear": ["r", "x"], "left": ["l"], "right": ["rt"]})
    assert s.bonus == 3 and "x" not in s.supporters


def test_two_engaged_units_can_each_be_supported(make_battle, infantry, artillery):
    s = reckon_supports(_battle(make_battle, infantry, artillery, second=True), ["e", "e2"], set(), "blue",
                        {"rear": ["r", "x"]})
    assert s.bonus == 2


@pytest.mark.parametrize("over, why", [({"formation": "skirmish"}, "skirmish"), ({"formation": "square"}, "square"),
                                        ({"formation": "building"}, "building")])
def test_skirmishers_squares_and_garrisons_cannot_be_supported(make_battle, infantry, artillery, over, why):
    with pytest.raises(RuleError, match=why):
        reckon_supports(_battle(make_battle, infantry, artillery, over), ["e"], set(), "blue", {"rear": ["r"]})


def test_artillery_cannot_be_supported(make_battle, infantry, artillery):
    with pytest.raises(RuleError, match="artillery"):
        reckon_supports(_battle(make_battle, infantry, artillery), ["g"], set(), "blue", {"rear": ["r"]})


def test_unit_engaged_to_flank_or_rear_cannot_be_supported(make_battle, infantry, artillery):
    with pytest.raises(RuleError, match="flank or rear"):
        reckon_supports(_battle(make_battle, infantry, artillery), ["e"], {"e"}, "blue", {"rear": ["r"]})


def test_another_combat_within_six_inches_of_the_quarter_cancels_it(make_battle, infantry, artillery):
    s = reckon_supports(_battle(make_battle, infantry, artillery), ["e"], set(), "blue",
                        {"rear": ["r"], "left": ["l"]}, blocked={"left"})
    assert s.bonus == 1 and "another combat" in s.notes[0]


@pytest.mark.parametrize("uid, why", [("enemy", "enemy"), ("busy", "fighting")])
def test_enemies_and_units_already_fighting_cannot_support(make_battle, infantry, artillery, uid, why):
    with pytest.raises(RuleError, match=why):
        reckon_supports(_battle(make_battle, infantry, artillery), ["e"], set(), "blue", {"rear": [uid]})


def test_a_unit_supports_from_one_quarter_only(make_battle, infantry, artillery):
    with pytest.raises(RuleError, match="one quarter"):
        reckon_supports(_battle(make_battle, infantry, artillery), ["e"], set(), "blue",
                        {"rear": ["r"], "left": ["r"]})
