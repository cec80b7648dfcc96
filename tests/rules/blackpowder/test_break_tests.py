"""Break tests: modifiers, the results table by type and context, squares, buildings, Steady,
Valiant, the umpire's action and the odds."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.blackpowder import SYSTEM
from referee.blackpowder.break_tests import BreakTestFacts, break_test, odds_break_test, outcome_chances
from referee.blackpowder.model import RuleError
from referee.core.dice import ScriptedDice
from referee.core.results import Modifier


@pytest.fixture(name="taken", scope="module")
def _taken(make_battle):
    def taken(u: dict, dice, context="shooting", **kw):
        battle = make_battle(units=[u])
        result = break_test(battle, u["id"], context, ScriptedDice(dice), **kw)
        return battle, result
    return taken



@pytest.mark.parametrize("dice,outcome", [((1, 3), "breaks"), ((2, 2), "breaks"), ((2, 3), "retires"),
                                          ((3, 3), "holds"), ((3, 4), "holds"), ((6, 6), "holds")])
def test_infantry_results_table_shooting(dice, outcome, infantry, taken):
    _, r = taken(infantry("u"), dice)
    assert r.data["outcome"] == outcome and r.data["score"] == sum(dice)


def test_infantry_holds_on_six_in_hand_to_hand(infantry, taken):
    _, r = taken(infantry("u"), (3, 3), "hand_to_hand")
    assert r.data["outcome"] == "holds"


def test_cavalry_retire_on_six_in_hand_to_hand(after, cavalry, taken):
    battle, r = taken(cavalry("c"), (3, 3), "hand_to_hand")
    assert r.data["outcome"] == "retires" and after(battle, r).unit("c").disordered


def test_cavalry_hold_on_six_after_shooting(cavalry, taken):
    _, r = taken(cavalry("c"), (3, 3), "shooting")
    assert r.data["outcome"] == "holds"


def test_cavalry_hold_on_seven_in_hand_to_hand(cavalry, taken):
    _, r = taken(cavalry("c"), (3, 4), "hand_to_hand")
    assert r.data["outcome"] == "holds"


@pytest.mark.parametrize("dice", [(1, 1), (2, 3), (6, 6)])
def test_artillery_always_breaks(dice, after, artillery, taken):
    battle, r = taken(artillery("g"), dice)
    assert r.data["outcome"] == "breaks" and after(battle, r).unit("g").destroyed


def test_breaking_removes_the_unit(after, infantry, taken):
    battle, r = taken(infantry("u"), (1, 1))
    assert after(battle, r).unit("u").destroyed


def test_retire_disorders_the_unit(after, infantry, taken):
    battle, r = taken(infantry("u"), (2, 3))
    assert after(battle, r).unit("u").disordered and not after(battle, r).unit("u").destroyed


def test_unable_to_retire_breaks(after, infantry, taken):
    battle, r = taken(infantry("u"), (2, 3), cannot_retire=True)
    assert r.data["outcome"] == "breaks" and after(battle, r).unit("u").destroyed


def test_square_holds_instead_of_retiring(after, infantry, taken):
    battle, r = taken(infantry("u", formation="square"), (2, 3))
    assert r.data["outcome"] == "holds" and not after(battle, r).unit("u").disordered


def test_square_still_breaks_on_four(infantry, taken):
    _, r = taken(infantry("u", formation="square"), (2, 2))
    assert r.data["outcome"] == "breaks"


def test_building_holds_without_disorder_instead_of_retiring(after, infantry, taken):
    battle, r = taken(infantry("u", formation="building"), (2, 3))
    assert r.data["outcome"] == "holds" and not after(battle, r).unit("u").disordered


def test_minus_one_per_excess_casualty(infantry, taken, rules_of):
    _, r = taken(infantry("u", casualties=5), (3, 4))
    assert rules_of(r) == {"Excess casualties": -2} and r.data["score"] == 5 and r.data["outcome"] == "retires"


def test_minus_one_disordered(infantry, taken, rules_of):
    _, r = taken(infantry("u", disordered=True), (3, 3))
    assert rules_of(r) == {"Disordered": -1} and r.data["outcome"] == "retires"


def test_minus_one_hit_by_artillery(infantry, taken, rules_of):
    _, r = taken(infantry("u"), (3, 3), hit_by_artillery=True)
    assert rules_of(r) == {"Hit by artillery this turn": -1} and r.data["score"] == 5


def test_extra_modifiers_from_callers(infantry, taken):
    _, r = taken(infantry("u"), (2, 2), extra_modifiers=[Modifier(1, "Inspirational", "break test")])
    assert r.data["score"] == 5 and r.data["outcome"] == "retires"


def test_excess_casualties_discarded_after_the_test(after, infantry, taken):
    battle, r = taken(infantry("u", casualties=5), (6, 6))
    assert after(battle, r).unit("u").casualties == 3


def test_other_context_uses_the_default_column_setting(cavalry, make_battle):
    battle = make_battle(units=[cavalry("c")], settings={"break_test_default_context": "hand_to_hand"})
    r = break_test(battle, "c", "other", ScriptedDice([3, 3]))
    assert r.data["context"] == "hand_to_hand" and r.data["outcome"] == "retires"
    battle = make_battle(units=[cavalry("c")])
    assert break_test(battle, "c", "other", ScriptedDice([3, 3])).data["outcome"] == "holds"


def test_unknown_context_is_refused(infantry, taken):
    with pytest.raises(RuleError):
        taken(infantry("u"), (3, 3), "melee")


def test_steady_passes_first_test_at_the_top_score(after, infantry, taken):
    battle, r = taken(infantry("u", casualties=5, special_rules=["Steady"]), ())
    assert r.data["outcome"] == "holds" and r.data["score"] == 12 and r.dice == ()
    assert after(battle, r).unit("u").has_used("steady") and after(battle, r).unit("u").casualties == 3


def test_steady_only_once(infantry, taken):
    _, r = taken(infantry("u", special_rules=["Steady"], used=["steady"]), (1, 1))
    assert r.data["outcome"] == "breaks"


def test_valiant_rerolls_a_failed_test_once(after, infantry, taken):
    battle, r = taken(infantry("u", special_rules=["Valiant"]), (1, 1, 4, 4))
    assert r.data["outcome"] == "holds" and r.data["valiant"]
    assert after(battle, r).unit("u").has_used("valiant")
    assert r.dice[2].purpose == "break test re-roll: Valiant"


def test_valiant_reroll_stands_even_if_worse(infantry, taken):
    _, r = taken(infantry("u", special_rules=["Valiant"]), (2, 3, 1, 1))
    assert r.data["outcome"] == "breaks"


def test_valiant_not_used_when_declined_or_spent(infantry, taken):
    _, r = taken(infantry("u", special_rules=["Valiant"]), (1, 1), use_valiant=False)
    assert r.data["outcome"] == "breaks" and not r.data["valiant"]
    _, r = taken(infantry("u", special_rules=["Valiant"], used=["valiant"]), (1, 1))
    assert r.data["outcome"] == "breaks"


def test_valiant_not_needed_when_the_test_holds(infantry, taken):
    _, r = taken(infantry("u", special_rules=["Valiant"]), (4, 4))
    assert not r.data["valiant"] and len(r.dice) == 2


def test_break_test_action_with_inspirational_commander(infantry, make_doc):
    doc = make_doc(units=[infantry("u")], brigades=[{"id": "blue1", "commander": {"name": "Picton", "rules": ["Inspirational"]}}])
    facts = BreakTestFacts(unit="u", commander_within_12=True, von_zieten_within_12=True)
    r = SYSTEM.action("break_test").resolve(doc, facts, ScriptedDice([1, 2]))
    assert r.data["score"] == 5 and r.data["outcome"] == "retires"


def test_break_test_action_with_loathed_commander(infantry, make_doc):
    doc = make_doc(units=[infantry("u")], brigades=[{"id": "blue1", "commander": {"name": "Slade", "rules": ["Loathed"]}}])
    r = SYSTEM.action("break_test").resolve(doc, BreakTestFacts(unit="u", commander_within_12=True),
                                            ScriptedDice([3, 3]))
    assert r.data["score"] == 5


def test_supporting_unit_that_saw_a_friend_break_uses_the_other_column(cavalry, make_doc):
    doc = make_doc(units=[cavalry("c")], settings={"break_test_default_context": "hand_to_hand"})
    r = SYSTEM.action("break_test").resolve(doc, BreakTestFacts(unit="c", context="shooting",
                                                                supported_unit_broke=True), ScriptedDice([3, 3]))
    assert r.data["outcome"] == "retires"


def test_break_test_odds_are_exact(infantry, make_doc):
    lines = odds_break_test(make_doc(units=[infantry("u")]), BreakTestFacts(unit="u"))
    # 2D6: 4 or less 6/36, exactly 5 4/36, 6 or more 26/36.
    assert lines == ["Holds: 72.2%", "Retires: 11.1%", "Breaks: 16.7%"]


def test_odds_count_valiant_and_squares(infantry, make_battle):
    u = make_battle(units=[infantry("u", formation="square")]).unit("u")
    c = outcome_chances(u, "shooting", 0)
    assert c["retires"] == 0 and c["holds"] == pytest.approx(30 / 36)
    v = outcome_chances(make_battle(units=[infantry("u")]).unit("u"), "shooting", 0, valiant=True)
    assert v["breaks"] == pytest.approx((10 / 36) * (6 / 36))


@settings(max_examples=200, deadline=None)
@given(casualties=st.integers(0, 9), stamina=st.integers(1, 4), a=st.integers(1, 6), b=st.integers(1, 6),
       c=st.integers(1, 6), d=st.integers(1, 6), disordered=st.booleans(),
       kind=st.sampled_from(["infantry", "cavalry", "artillery"]), context=st.sampled_from(["shooting", "hand_to_hand", "other"]),
       rules_=st.lists(st.sampled_from(["Steady", "Valiant"]), unique=True))
def test_casualties_never_exceed_stamina_after_a_break_test(casualties, stamina, a, b, c, d, disordered, kind,
                                                              context, rules_, after, make_battle, unit_of):
    u = unit_of(kind, "u", casualties=casualties, stamina=stamina, disordered=disordered, special_rules=rules_)
    battle = make_battle(units=[u])
    r = break_test(battle, "u", context, ScriptedDice([a, b, c, d]))
    assert after(battle, r).unit("u").casualties <= stamina


def test_von_zieten_counts_once_when_he_is_the_brigade_commander(infantry, make_doc, key_commander):
    doc = make_doc(units=[infantry("u")], brigades=[{"id": "blue1", "commander": key_commander("von_zieten")}])
    facts = BreakTestFacts(unit="u", commander_within_12=True, von_zieten_within_12=True)
    r = SYSTEM.action("break_test").resolve(doc, facts, ScriptedDice([2, 2]))
    assert sum(m.amount for m in r.modifiers) == 1 and r.data["score"] == 5


def test_von_zieten_nearby_but_not_the_units_commander(infantry, make_doc):
    doc = make_doc(units=[infantry("u")])
    r = SYSTEM.action("break_test").resolve(doc, BreakTestFacts(unit="u", von_zieten_within_12=True),
                                            ScriptedDice([2, 2]))
    assert {m.rule: m.amount for m in r.modifiers} == {'von Zieten within 12"': 1}


def test_valiant_is_not_spent_when_a_square_holds_on_a_retire(infantry, taken):
    battle, r = taken(infantry("u", formation="square", special_rules=["Valiant"]), (2, 3))
    assert r.data["outcome"] == "holds" and not r.data["valiant"] and len(r.dice) == 2


def test_valiant_rerolls_a_retire(infantry, taken):
    _, r = taken(infantry("u", special_rules=["Valiant"]), (2, 3, 4, 4))
    assert r.data["outcome"] == "holds" and r.data["valiant"]


@pytest.mark.parametrize("kind,uid,over,facts", [
    ("infantry", "u", dict(special_rules=["Valiant"], casualties=4), {}),
    ("infantry", "u", dict(formation="square", special_rules=["Valiant"], disordered=True), {}),
    ("cavalry", "c", dict(special_rules=["Valiant"]), {"context": "hand_to_hand", "cannot_retire": True}),
    ("artillery", "g", {}, {}),
])
def test_break_test_odds_match_every_way_the_dice_fall(kind, uid, over, facts, every_roll, make_doc, unit_of):
    u = unit_of(kind, uid, **over)
    doc = make_doc(units=[u])
    f = BreakTestFacts(unit=u["id"], **facts)
    outcomes = every_roll(lambda dice: SYSTEM.action("break_test").resolve(doc, f, dice))
    chance = {k: float(sum(p for p, r in outcomes if r.data["outcome"] == k)) for k in ("holds", "retires", "breaks")}
    assert odds_break_test(doc, f) == [f"Holds: {chance['holds']:.1%}", f"Retires: {chance['retires']:.1%}",
                                       f"Breaks: {chance['breaks']:.1%}"]
