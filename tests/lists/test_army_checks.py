"""The Black Powder army builder's checks: each problem says what is wrong and where, and
nothing the player entered is dropped."""
from __future__ import annotations

import pytest

from referee.data.blackpowder import load_unit_profiles
from referee.lists.blackpowder import (
    Army,
    ArmyUnit,
    Brigade,
    Commander,
    army_force,
    check_army,
    commander_from_key,
    profiles_for,
    size_variants,
)
from referee.lists.games import battle_from_armies
from referee.lists.problems import NotReady


def unit(profile="british-line-infantry", name="1st Foot"):
    return ArmyUnit(profile=profile, name=name)


def army(**over) -> Army:
    base = dict(name="Test army", nation="british", general=Commander(name="Hill", staff_rating=8),
                brigades=[Brigade(name="First", commander=Commander(name="Adam", staff_rating=8),
                                  units=[unit(name=f"{i} Foot") for i in range(1, 4)])])
    return Army(**{**base, **over})


def paths(a: Army) -> dict[str, str]:
    return {p.path: p.message for p in check_army(a)}


def test_a_brigade_of_three_units_under_a_commander_is_ready():
    assert check_army(army()) == []


def test_a_brigade_of_two_units_is_named_with_its_count():
    a = army(brigades=[Brigade(name="Thin", commander=Commander(name="X", staff_rating=7),
                               units=[unit(), unit(name="2nd")])])
    problems = check_army(a)
    assert [(p.path, p.where) for p in problems] == [("brigades.0.units", "Brigade 1 “Thin”")]
    assert "3 to 6 units" in problems[0].message and "has 2" in problems[0].message
    assert len(a.brigades[0].units) == 2  # kept as entered


def test_a_brigade_of_seven_units_is_too_many():
    a = army(brigades=[Brigade(name="Fat", commander=Commander(name="X", staff_rating=7),
                               units=[unit(name=str(i)) for i in range(7)])])
    assert "has 7" in paths(a)["brigades.0.units"]


def test_a_commander_without_a_brigade_is_reported_and_kept():
    a = army(unassigned_commanders=[Commander(name="Uxbridge", staff_rating=8)])
    msg = paths(a)["unassigned_commanders.0"]
    assert "no brigade" in msg
    assert a.unassigned_commanders[0].name == "Uxbridge"


def test_a_brigade_without_a_commander_cannot_fight():
    a = army(brigades=[Brigade(name="Leaderless", units=[unit(name=str(i)) for i in range(3)])])
    assert "no commander" in paths(a)["brigades.0.commander"]


def test_a_unit_from_another_nations_list_names_both_nations():
    a = army(brigades=[Brigade(name="Mixed", commander=Commander(name="X", staff_rating=8),
                               units=[unit(), unit(name="2"), unit("prussian-hussars", "Hussars")])])
    msg = paths(a)["brigades.0.units.2.profile"]
    assert "Prussian" in msg and "British" in msg


def test_an_ally_may_be_fielded_once_named():
    a = army(allies=["prussian"], brigades=[Brigade(name="Mixed", commander=Commander(name="X", staff_rating=8),
                                                   units=[unit(), unit(name="2"), unit("prussian-hussars", "H")])])
    assert check_army(a) == []


def test_kgl_units_come_from_the_british_list():
    a = army(brigades=[Brigade(name="KGL", commander=Commander(name="Ompteda", staff_rating=8),
                               units=[unit("kgl-line-infantry", str(i)) for i in range(3)])])
    assert check_army(a) == []


@pytest.mark.parametrize("rating", [4, 11])
def test_staff_rating_outside_five_to_ten(rating):
    a = army(general=Commander(name="Hill", staff_rating=rating))
    assert f"Staff Rating {rating}" in paths(a)["general.staff_rating"]


def test_an_army_without_a_general():
    assert "General" in paths(army(general=None))["general"]


def test_an_unknown_profile_is_kept_and_named():
    a = army(brigades=[Brigade(name="B", commander=Commander(name="X", staff_rating=8),
                               units=[unit(), unit(name="2"), unit("british-unicorns", "U")])])
    assert "british-unicorns" in paths(a)["brigades.0.units.2.profile"]


def test_points_are_checked_only_against_a_limit():
    units = [ArmyUnit(profile="british-line-infantry", name=str(i), points=40) for i in range(3)]
    a = army(brigades=[Brigade(name="B", commander=Commander(name="X", staff_rating=8, points=10), units=units)])
    assert check_army(a) == []
    over = a.model_copy(update={"points_limit": 100})
    assert "130 points is over the limit of 100" in paths(over)["points_limit"]


def test_size_variants_are_offered_together():
    ids = {p.id for p in size_variants("british-riflemen")}
    assert ids == {"british-riflemen", "british-riflemen-small"}


def test_the_builder_offers_only_what_the_army_may_field():
    offered = {p.id for p in profiles_for(army())}
    assert "kgl-horse-artillery" in offered and "prussian-hussars" not in offered
    assert "example-field-howitzer" in offered  # labelled examples any army may field


def test_a_key_commander_is_copied_with_his_rating_and_rules():
    c = commander_from_key("wellington")
    assert (c.name, c.staff_rating, c.rules) == ("Wellington", 9, ["Decisive"])


def test_a_draft_cannot_start_a_battle():
    with pytest.raises(NotReady, match="3 to 6 units"):
        battle_from_armies("x", army(brigades=[Brigade(name="T", commander=Commander(name="X", staff_rating=8),
                                                       units=[unit()])]), army())


def test_a_ready_army_becomes_a_force_with_every_unit():
    a = army()
    force = army_force(a)
    assert [u.name for u in force.brigades[0].units] == ["1 Foot", "2 Foot", "3 Foot"]
    doc = battle_from_armies("Test", a, army(name="Other", nation="french", brigades=[
        Brigade(name="F", commander=Commander(name="Foy", staff_rating=8),
                units=[unit("french-line-infantry", str(i)) for i in range(4)])]))
    sides = [u["side"] for u in doc["units"].values()]
    assert sides.count("blue") == 3 and sides.count("red") == 4
    profiles = load_unit_profiles()
    for u in doc["units"].values():
        assert u["hand_to_hand"] == profiles[u["profile"]].hand_to_hand
