"""The special-rules catalogue and the commanders' rules as the battle holds them."""
import pytest

from referee.blackpowder.model import Commander
from referee.blackpowder.special_rules import (
    COMMANDER_RULES,
    TAGS,
    UNIT_RULES,
    commander_rules,
    describe,
    has_commander_rule,
    is_defined,
    lookup,
)

SUMMARY_UNIT_RULES = [
    "Bloodthirsty", "Brave", "Crack", "Determined Charge", "Elite", "Ferocious Charge", "First Fire", "Form Square",
    "Freshly Raised", "Heavy Cavalry", "Lancers", "Marauders", "Mounted Infantry", "Poor Shooters", "Reliable",
    "Sharp Shooters", "Steady", "Stubborn", "Superbly Drilled", "Terrifying Charge", "Tough Fighters",
    "Unreliable", "Untested", "Valiant", "Wavering",
]
SUMMARY_COMMANDER_RULES = ["Aggressive", "Decisive", "Diffident", "Headstrong", "Hesitant", "Inspirational",
                           "Loathed", "Timid"]
UNDEFINED_IN_LISTS = ["Column of Companies", "Cannot Form Attack Column", "Four-Deep Line", "Lie Down",
                      "Steady Line", "Rifle Mixed Formation", "Skirmishers", "Deep Formation", "Gallop at Anything",
                      "Pas de Charge"]


def test_every_unit_rule_of_the_summary_is_catalogued():
    assert sorted(UNIT_RULES) == sorted(SUMMARY_UNIT_RULES)
    assert all(is_defined(r) for r in SUMMARY_UNIT_RULES)


def test_every_commander_rule_of_the_summary_is_catalogued():
    assert sorted(COMMANDER_RULES) == sorted(SUMMARY_COMMANDER_RULES)
    assert all(is_defined(r) for r in SUMMARY_COMMANDER_RULES)


@pytest.mark.parametrize("name", UNDEFINED_IN_LISTS)
def test_undefined_list_rules_are_tags(name):
    assert name in TAGS and not is_defined(name)
    assert describe(name)


def test_every_entry_says_where_the_app_applies_it():
    for info in [*UNIT_RULES.values(), *COMMANDER_RULES.values(), *TAGS.values()]:
        assert info.description and info.applied_in


@pytest.mark.parametrize("written, name", [
    ("Elite 4+", "Elite"), ("Heavy Cavalry D3", "Heavy Cavalry"), ("Heavy Cavalry +1", "Heavy Cavalry"),
    ("Lancer", "Lancers"), ("Marauder", "Marauders"), ("Must Form Square", "Form Square"),
    ("reliable", "Reliable"),
])
def test_rules_as_the_lists_write_them_are_found(written, name):
    assert lookup(written).name == name
    assert describe(written) == UNIT_RULES[name].description


def test_unknown_rule_is_not_defined_and_says_so():
    assert not is_defined("Dancing Hussars")
    assert "umpire" in describe("Dancing Hussars")


@pytest.mark.parametrize("key, rating, rules, attacks, defending", [
    ("wellington", 9, ("Decisive",), 1, 3),
    ("napoleon", 10, ("Aggressive", "Decisive"), 3, 3),
    ("ney", 8, ("Headstrong",), 2, 2),
    ("blucher", 8, ("Aggressive",), 2, 2),
    ("von-zieten", 8, ("Decisive", "Brave"), 2, 2),
])
def test_key_commanders_reach_the_engine_with_their_rating_rules_and_attacks(key_commander, key, rating, rules,
                                                                             attacks, defending):
    c = key_commander(key)
    assert (c.staff_rating, c.rules, c.attacks, c.attacks_defending) == (rating, rules, attacks, defending)
    assert all(has_commander_rule(c, r.upper()) for r in rules)


def test_commander_rules_are_those_the_battle_gives_him():
    c = Commander(name="Boney", staff_rating=10, rules=("decisive", "Inspirational"), personality="napoleon")
    assert commander_rules(c) == ("decisive", "Inspirational")
    assert commander_rules(None) == ()
