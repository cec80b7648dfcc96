"""Three defects found playing the Waterloo battles (issue 12), each pinned by a test that failed
before its fix."""
import pytest

from referee.blackpowder.break_tests import BREAK_TEST, BreakTestFacts, odds_break_test
from referee.blackpowder.model import Unit
from referee.blackpowder.special_rules import is_defined, lookup
from referee.core.dice import ScriptedDice
from referee.data.scenarios import new_battle_from_scenario

LINE_RULES = ["Column of Companies", "Cannot Form Attack Column", "First Fire", "Four-Deep Line", "Lie Down",
              "Mixed Formation", "Must Form Square", "Steady Line"]


# --- 1. a special rule matches by its whole name, never by prefix -----------------------------

def test_steady_line_is_not_steady(make_doc, infantry):
    doc = make_doc(units=[infantry("1-28th", special_rules=LINE_RULES)])
    result = BREAK_TEST.resolve(doc, BreakTestFacts(unit="1-28th"), ScriptedDice([1, 2]))
    assert not result.data["steady"] and result.data["outcome"] == "breaks"
    assert odds_break_test(doc, BreakTestFacts(unit="1-28th"))[0].startswith("Holds:")


def test_british_line_from_a_scenario_takes_its_first_test(make_battle):
    doc = new_battle_from_scenario("derlons-attack")
    result = BREAK_TEST.resolve(doc, BreakTestFacts(unit="1-28th-foot-1-32nd-foot"), ScriptedDice([2, 2]))
    assert result.data["outcome"] == "breaks" and result.dice


@pytest.mark.parametrize("written, asked, has", [
    ("Steady Line", "Steady", False), ("Steady", "Steady", True), ("Elite 4+", "Elite", True),
    ("Heavy Cavalry D3", "Heavy Cavalry", True), ("Heavy Cavalry +1", "Heavy Cavalry", True),
    ("Rifle Mixed Formation", "Rifle", False), ("Four-Deep Line", "Four-Deep", False),
    ("steady", "Steady", True),
])
def test_whole_names_or_a_value_after_them(written, asked, has):
    unit = Unit(id="u", name="u", side="blue", brigade="b", type="infantry", hand_to_hand=6, shooting=3,
                morale=4, stamina=3, special_rules=(written,))
    assert unit.has(asked) is has
    assert (unit.rule_value(asked) is not None) is (has and written.lower() != asked.lower())


def test_the_rule_catalogue_reads_steady_line_as_a_tag():
    assert lookup("Steady Line").name == "Steady Line" and not is_defined("Steady Line")
    assert lookup("Steady Line Infantry") is None  # no prefix reading
    assert lookup("Elite 3+").name == "Elite"


# --- 2. "hit by artillery" counts only after shooting and closing fire ------------------------

def test_hit_by_artillery_does_not_count_after_hand_to_hand(make_doc, infantry):
    doc = make_doc(units=[infantry("u")])
    result = BREAK_TEST.resolve(doc, BreakTestFacts(unit="u", context="hand_to_hand", hit_by_artillery=True),
                                ScriptedDice([3, 3]))
    assert not any(m.rule == "Hit by artillery this turn" for m in result.modifiers)
    assert result.data["score"] == 6 and result.data["outcome"] == "holds"
    assert any("counts only after shooting and closing fire" in n for n in result.notes)
    odds = odds_break_test(doc, BreakTestFacts(unit="u", context="hand_to_hand", hit_by_artillery=True))
    plain = odds_break_test(doc, BreakTestFacts(unit="u", context="hand_to_hand"))
    assert odds == plain


def test_hit_by_artillery_still_counts_after_shooting(make_doc, infantry):
    doc = make_doc(units=[infantry("u")])
    result = BREAK_TEST.resolve(doc, BreakTestFacts(unit="u", context="shooting", hit_by_artillery=True),
                                ScriptedDice([3, 3]))
    assert [m.amount for m in result.modifiers if m.rule == "Hit by artillery this turn"] == [-1]
    assert result.data["score"] == 5


def test_hit_by_artillery_counts_after_closing_fire_read_on_the_hand_to_hand_column(make_doc, cavalry):
    doc = make_doc(units=[cavalry("h")])
    facts = BreakTestFacts(unit="h", context="closing_fire", hit_by_artillery=True)
    result = BREAK_TEST.resolve(doc, facts, ScriptedDice([3, 4]))
    assert [m.amount for m in result.modifiers if m.rule == "Hit by artillery this turn"] == [-1]
    # 6 on the hand-to-hand column: cavalry retire.
    assert (result.data["score"], result.data["context"], result.data["outcome"]) == (6, "hand_to_hand", "retires")


# --- 3. Napoleon's second try for a supporter, from the break-test form too --------------------

def test_napoleons_supporter_tries_again_from_the_break_test_form(make_doc, infantry, key_commander):
    doc = make_doc(units=[infantry("u", special_rules=[])], sides={"blue": {"general": key_commander("napoleon")}})
    facts = BreakTestFacts(unit="u", supported_unit_broke=True)
    result = BREAK_TEST.resolve(doc, facts, ScriptedDice([1, 1, 4, 4]))
    assert result.data["outcome"] == "holds" and result.data["score"] == 8
    assert [d.value for d in result.dice] == [4, 4]
    (discarded,) = result.children
    assert discarded.kind == "break_test_discarded" and [d.value for d in discarded.dice] == [1, 1]
    assert any("Napoleon" in n and "takes its test again (2 → 8)" in n for n in result.notes)


def test_without_napoleon_a_supporter_has_one_try(make_doc, infantry):
    doc = make_doc(units=[infantry("u")])
    result = BREAK_TEST.resolve(doc, BreakTestFacts(unit="u", supported_unit_broke=True), ScriptedDice([1, 1, 4, 4]))
    assert result.data["outcome"] == "breaks" and len(result.all_dice) == 2


def test_napoleons_second_try_is_in_the_odds(make_doc, infantry, key_commander):
    doc = make_doc(units=[infantry("u")], sides={"blue": {"general": key_commander("napoleon")}})
    with_him = odds_break_test(doc, BreakTestFacts(unit="u", supported_unit_broke=True))
    doc2 = make_doc(units=[infantry("u")])
    without = odds_break_test(doc2, BreakTestFacts(unit="u", supported_unit_broke=True))
    assert without == ["Holds: 72.2%", "Retires: 11.1%", "Breaks: 16.7%"]
    # A second try after any failed first: fail (10/36) then each outcome as before.
    fail = 10 / 36
    assert with_him == [f"Holds: {26 / 36 + fail * 26 / 36:.1%}", f"Retires: {fail * 4 / 36:.1%}",
                        f"Breaks: {fail * 6 / 36:.1%}"]
