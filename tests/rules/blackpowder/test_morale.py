"""Morale saves: one die per hit, the modifiers, Crack, Stubborn, Untested, Wavering."""
import pytest

from referee.blackpowder.model import RuleError
from referee.blackpowder.morale import (
    ARTILLERY_CLOSE,
    ARTILLERY_LONG,
    HOWITZER,
    ROCKET,
    artillery_save_modifier,
    light_cover_modifier,
    take_hits,
    untested_stamina,
)
from referee.core.dice import DiceNeeded, ScriptedDice


@pytest.fixture(name="hits_on", scope="module")
def _hits_on(infantry, make_battle):
    def hits_on(target: dict, dice, hits=None, **kw):
        battle = make_battle(units=[infantry("shooter"), target])
        result = take_hits(battle, target["id"], len(dice) if hits is None else hits, ScriptedDice(dice), **kw)
        return battle, result
    return hits_on



def test_save_on_morale_or_more_ignores_the_hit(after, hits_on, infantry):
    battle, r = hits_on(infantry("t", "red"), [4, 3, 6])
    assert r.data["saved"] == 2 and r.data["casualties"] == 1
    assert after(battle, r).unit("t").casualties == 1


def test_no_morale_means_no_save_and_no_dice(hits_on, infantry):
    battle, r = hits_on(infantry("t", "red", morale=None), [], hits=2)
    assert r.data["casualties"] == 2 and r.dice == ()


def test_attack_column_adds_one_to_saves(hits_on, infantry, rules_of):
    _, r = hits_on(infantry("t", "red", formation="attack_column"), [3])
    assert rules_of(r) == {"Attack Column": 1} and r.data["saved"] == 1


def test_attack_column_gets_nothing_against_artillery(hits_on, infantry, rules_of):
    _, r = hits_on(infantry("t", "red", formation="attack_column"), [3], source="artillery",
                   modifiers=[artillery_save_modifier("long")])
    assert "Attack Column" not in rules_of(r) and r.data["casualties"] == 1


def test_light_cover_adds_one(hits_on, infantry, rules_of):
    _, r = hits_on(infantry("t", "red"), [3], modifiers=[light_cover_modifier()])
    assert rules_of(r) == {"Light cover": 1} and r.data["saved"] == 1


def test_buildings_add_two(hits_on, infantry, rules_of):
    _, r = hits_on(infantry("t", "red", formation="building"), [2])
    assert rules_of(r) == {"In buildings": 2} and r.data["saved"] == 1


def test_march_column_takes_two_off(hits_on, infantry, rules_of):
    _, r = hits_on(infantry("t", "red", formation="march_column"), [5, 6])
    assert rules_of(r) == {"March Column": -2} and r.data["saved"] == 1


def test_artillery_at_long_range_takes_one_off(hits_on, infantry, rules_of):
    assert artillery_save_modifier("long").amount == -1
    _, r = hits_on(infantry("t", "red"), [4, 5], modifiers=[artillery_save_modifier("long")], source="artillery")
    assert rules_of(r) == {ARTILLERY_LONG: -1} and r.data["saved"] == 1


@pytest.mark.parametrize("band", ["short", "medium"])
def test_artillery_at_close_or_medium_range_takes_two_off(band, hits_on, infantry, rules_of):
    _, r = hits_on(infantry("t", "red"), [5, 6], modifiers=[artillery_save_modifier(band)], source="artillery")
    assert rules_of(r) == {ARTILLERY_CLOSE: -2} and r.data["saved"] == 1


@pytest.mark.parametrize("kind,rule", [("howitzer", HOWITZER), ("rocket", ROCKET)])
def test_howitzer_and_rocket_take_two_off_at_any_range(kind, rule):
    assert artillery_save_modifier("long", kind).amount == -2
    assert artillery_save_modifier("long", kind).rule == rule


def test_lancers_take_one_off_against_cavalry(cavalry, hits_on, rules_of):
    _, r = hits_on(cavalry("t", "red"), [4, 5], lancers=True)
    assert sum(rules_of(r).values()) == -1 and r.data["saved"] == 1


@pytest.mark.parametrize("kind", ["infantry", "artillery"])
def test_lancers_take_two_off_against_infantry_and_artillery(kind, hits_on, unit_of, rules_of):
    _, r = hits_on(unit_of(kind, "t", "red"), [5, 6], lancers=True)
    assert sum(rules_of(r).values()) == -2 and r.data["saved"] == 1


def test_caller_modifier_with_same_rule_is_not_counted_twice(hits_on, infantry):
    from referee.core.results import Modifier
    _, r = hits_on(infantry("t", "red", formation="building"), [1], modifiers=[Modifier(2, "In buildings", "save")])
    assert [m.rule for m in r.modifiers] == ["In buildings"]


def test_crack_rerolls_one_failed_save_while_unhurt(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", special_rules=["Crack"]), [1, 2, 5], hits=2)
    assert r.data["casualties"] == 1 and [d.value for d in r.dice] == [1, 2, 5]
    assert "Crack" in r.dice[2].purpose


def test_crack_does_nothing_once_the_unit_has_casualties(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", special_rules=["Crack"], casualties=1), [1, 2], hits=2)
    assert r.data["casualties"] == 2 and len(r.dice) == 2


def test_stubborn_rerolls_one_failed_save_each_time(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", special_rules=["Stubborn"], casualties=2), [1, 2, 6], hits=2)
    assert r.data["casualties"] == 1 and "Stubborn" in r.dice[2].purpose


def test_crack_and_stubborn_each_reroll_a_different_save(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", special_rules=["Crack", "Stubborn"]), [1, 2, 1, 6], hits=2)
    assert r.data["casualties"] == 1
    assert [d.purpose for d in r.dice[2:]] == ["save re-roll: Crack", "save re-roll: Stubborn"]


def test_no_reroll_when_every_save_passed(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", special_rules=["Stubborn"]), [5, 6])
    assert len(r.dice) == 2 and r.data["casualties"] == 0


@pytest.mark.parametrize("die,size,stamina", [
    (1, "standard", 1), (2, "standard", 2), (3, "standard", 2), (4, "standard", 3), (5, "standard", 3),
    (6, "standard", 4), (6, "small", 3), (1, "small", 1), (5, "large", 4), (3, "large", 3), (1, "large", 2),
])
def test_untested_stamina_table(die, size, stamina):
    assert untested_stamina(die, size) == stamina


def test_untested_rolls_stamina_on_first_casualty(after, hits_on, infantry):
    battle, r = hits_on(infantry("t", "red", stamina=None, special_rules=["Untested"]), [1, 5], hits=1)
    assert r.data["stamina"] == 3 and r.dice[-1].purpose == "Untested: stamina"
    assert after(battle, r).unit("t").stamina == 3


def test_untested_stamina_stays_unknown_without_casualties(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", stamina=None), [6])
    assert r.data["stamina"] is None and len(r.dice) == 1 and not r.changes


def test_wavering_asks_for_a_break_test_on_any_casualty(hits_on, infantry):
    _, r = hits_on(infantry("t", "red", special_rules=["Wavering"]), [1])
    assert r.data["wavering_test"] is True
    _, r = hits_on(infantry("t", "red", special_rules=["Wavering"]), [6])
    assert r.data["wavering_test"] is False


def test_casualties_may_pass_stamina_until_a_break_test(after, hits_on, infantry):
    battle, r = hits_on(infantry("t", "red", casualties=2), [1, 1, 1])
    assert r.data["excess"] == 2 and r.data["became_shaken"]
    assert after(battle, r).unit("t").casualties == 5


def test_typed_dice_running_out_asks_for_more(hits_on, infantry):
    with pytest.raises(DiceNeeded):
        hits_on(infantry("t", "red"), [4], hits=3)


def test_destroyed_target_cannot_take_hits(hits_on, infantry):
    with pytest.raises(RuleError):
        hits_on(infantry("t", "red", destroyed=True), [4])


# --- the umpire's hits action ------------------------------------------------------------

from referee.blackpowder import SYSTEM  # noqa: E402
from referee.blackpowder.morale import TakeHitsFacts, casualties_die  # noqa: E402


def test_hits_action_applies_gun_save_modifiers_and_the_forced_test(infantry, make_doc, rules_of):
    doc = make_doc(units=[infantry("t", "red", casualties=3)])
    facts = TakeHitsFacts(unit="t", hits=1, source="artillery", gun="rocket", range_band="long")
    r = SYSTEM.action("take_hits").resolve(doc, facts, ScriptedDice([5, 4, 4]))
    saves, test = r.children
    assert rules_of(saves) == {ROCKET: -2} and saves.data["casualties"] == 1
    assert {m.rule: m.amount for m in test.modifiers} == {"Excess casualties": -1, "Hit by artillery this turn": -1}


def test_hits_action_in_hand_to_hand_leaves_the_test_to_the_combat(infantry, make_doc):
    doc = make_doc(units=[infantry("t", "red", casualties=3)])
    r = SYSTEM.action("take_hits").resolve(doc, TakeHitsFacts(unit="t", source="hand_to_hand"), ScriptedDice([1]))
    assert [c.kind for c in r.children] == ["morale_saves"]


def test_hits_action_break_test_can_be_left_out(infantry, make_doc):
    doc = make_doc(units=[infantry("t", "red", casualties=3)])
    r = SYSTEM.action("take_hits").resolve(doc, TakeHitsFacts(unit="t", break_test_if_needed=False), ScriptedDice([1]))
    assert len(r.children) == 1


@pytest.mark.parametrize("rules_", [[], ["Crack"], ["Stubborn"], ["Crack", "Stubborn"]])
def test_casualty_odds_are_exact_with_rerolls(rules_, every_roll, infantry, make_battle, make_doc):
    doc = make_doc(units=[infantry("t", "red", special_rules=rules_)])
    facts = TakeHitsFacts(unit="t", hits=2, light_cover=True)
    outcomes = every_roll(lambda dice: SYSTEM.action("take_hits").resolve(doc, facts, dice))
    expected = sum(p * r.data["casualties"] for p, r in outcomes)
    lines = SYSTEM.action("take_hits").odds(doc, facts)
    assert lines[0] == "Each save succeeds: 66.7%"
    assert lines[1] == f"Expected casualties: {float(expected):.2f}"
    assert casualties_die(make_battle(units=[infantry("t", "red", special_rules=rules_)]).unit("t"), 2, 1).mean() == expected


def test_a_view_of_the_battle_mid_action_keeps_what_it_saw(make_doc, infantry):
    """The change builder hands out snapshots: a battle read between two writes keeps seeing the
    first, even for units it had not yet looked at (units are read lazily)."""
    from referee.blackpowder.model import BattleChanges

    doc = make_doc(units=[infantry("a"), infantry("b"), infantry("c", side="red")])
    ch = BattleChanges(doc)
    ch.unit("a", "casualties", 1)
    seen = ch.battle
    ch.unit("a", "casualties", 2)
    ch.unit("b", "disordered", True)
    ch.at(("phase",), "shooting")
    assert seen.unit("a").casualties == 1 and not seen.unit("b").disordered
    assert seen.phase == "command" and seen.doc["phase"] == "command"
    assert ch.battle.unit("a").casualties == 2 and ch.battle.unit("b").disordered
    assert doc["units"]["a"]["casualties"] == 0 and doc["phase"] == "command"  # the document is never written
