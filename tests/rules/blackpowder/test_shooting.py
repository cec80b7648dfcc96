"""Shooting: dice by formation, to-hit modifiers, 6s and 1s, the shooting special rules,
closing fire, traversing shots, enfilade, the forced break tests and the odds."""

import pytest

from referee.blackpowder import SYSTEM
from referee.blackpowder.model import RuleError
from referee.blackpowder.shooting import ShootFacts, odds_shoot, shoot
from referee.core.dice import ScriptedDice


@pytest.fixture(name="fire", scope="module")
def _fire(make_battle):
    def fire(shooter: dict, target: dict, dice, settings=None, **facts):
        battle = make_battle(units=[shooter, target], settings=settings)
        f = ShootFacts(shooter=shooter["id"], target=target["id"], **facts)
        return battle, shoot(battle, f.shooter, f.target, f, ScriptedDice(dice))
    return fire



def to_hit(result):
    return [d.value for d in result.dice if d.purpose == "to hit"]


@pytest.fixture
def S(infantry):
    return infantry("s")


@pytest.fixture
def T(infantry):
    return infantry("t", "red")


# --- dice by formation --------------------------------------------------------------------

def test_line_shoots_with_its_profile(S, T, fire):
    _, r = fire(S, T, [1, 1, 1])
    assert r.data["dice_count"] == 3 and r.data["hits"] == 0


def test_march_column_cannot_shoot(T, fire, infantry):
    with pytest.raises(RuleError, match="march column"):
        fire(infantry("s", formation="march_column"), T, [])


@pytest.mark.parametrize("formation", ["attack_column", "mixed"])
def test_attack_column_and_mixed_formation_shoot_one_die(formation, T, fire, infantry):
    _, r = fire(infantry("s", formation=formation), T, [1])
    assert r.data["dice_count"] == 1


def test_square_shoots_one_die_per_face_firing(T, fire, infantry):
    _, r = fire(infantry("s", formation="square"), T, [1, 1], facings=2)
    assert r.data["dice_count"] == 2


def test_building_shoots_two_dice_per_face_up_to_the_profile(T, fire, infantry):
    _, r = fire(infantry("s", formation="building"), T, [1, 1], facings=1)
    assert r.data["dice_count"] == 2
    _, r = fire(infantry("s", formation="building"), T, [1, 1, 1], facings=2)
    assert r.data["dice_count"] == 3


def test_skirmishers_shoot_with_the_profile(T, fire, infantry):
    _, r = fire(infantry("s", formation="skirmish"), T, [1, 1, 1])
    assert r.data["dice_count"] == 3


def test_unit_without_shooting_value_cannot_shoot(T, cavalry, fire):
    with pytest.raises(RuleError):
        fire(cavalry("s"), T, [])


def test_cannot_shoot_own_side(S, fire, infantry):
    with pytest.raises(RuleError, match="same side"):
        fire(S, infantry("t"), [])


# --- to hit ------------------------------------------------------------------------------

def test_four_or_more_hits(S, T, fire):
    _, r = fire(S, T, [3, 4, 5, 6, 6])
    assert r.data["hits"] == 2 and r.data["need"] == 4


def test_each_to_hit_die_knows_the_score_it_needed(S, T, fire):
    _, r = fire(S, T, [3, 4, 6, 6, 1])
    assert [(d.value, d.succeeded) for d in r.dice if d.purpose == "to hit"] == [(3, False), (4, True), (6, True)]
    saves = r.children[0]
    assert [(d.value, d.succeeded) for d in saves.dice] == [(6, True), (1, False)]  # saving on 4+


def test_six_always_hits_and_disorders_the_target(after, fire, infantry):
    battle, r = fire(infantry("s", disordered=True), infantry("t", "red", formation="skirmish"), [6, 5, 5, 6], obscured=True)
    assert r.data["need"] == 6 and r.data["hits"] == 1
    assert after(battle, r).unit("t").disordered


def test_six_disorders_even_if_every_save_passes(S, T, after, fire):
    battle, r = fire(S, T, [6, 1, 1, 6])
    assert r.data["casualties"] == 0 and after(battle, r).unit("t").disordered


def test_one_always_misses(S, T, fire):
    _, r = fire(S, T, [1, 2, 2, 6, 6], range_band="short",
                settings={"enfilade_to_hit_bonus": 3}, enfilade=True)
    assert r.data["need"] == 2 and r.data["hits"] == 2


def test_shaken_shooters_minus_one(T, fire, infantry, rules_of):
    _, r = fire(infantry("s", casualties=3), T, [4, 4, 4])
    assert rules_of(r) == {"Shooters shaken or disordered": -1} and r.data["hits"] == 0


def test_disordered_shooters_minus_one(T, fire, infantry, rules_of):
    _, r = fire(infantry("s", disordered=True), T, [5, 4, 4, 6])
    assert rules_of(r) == {"Shooters shaken or disordered": -1} and r.data["hits"] == 1


def test_shaken_and_disordered_is_still_one_penalty(T, fire, infantry, rules_of):
    _, r = fire(infantry("s", disordered=True, casualties=3), T, [5, 1, 1, 4])
    assert sum(rules_of(r).values()) == -1


@pytest.mark.parametrize("kind,over,facts,why", [
    ("infantry", dict(formation="skirmish"), {}, "skirmish"),
    ("artillery", {}, {}, "artillery"),
    ("infantry", dict(formation="building"), {}, "building"),
    ("infantry", {}, {"obscured": True}, "partly seen"),
    ("infantry", {}, {"light_cover": True}, "cover"),
])
def test_not_a_clear_target_minus_one(kind, over, facts, why, S, fire, unit_of, rules_of):
    target = unit_of(kind, "t", "red", **over)
    _, r = fire(S, target, [5, 4, 4, 6, 6], **facts)
    (rule,) = rules_of(r)
    assert rule.startswith("Not a clear target") and why in rule and r.data["need"] == 5


def test_target_in_building_is_one_penalty_even_if_skirmishers(S, fire, infantry, rules_of):
    _, r = fire(S, infantry("t", "red", formation="building"), [4, 4, 4], obscured=True)
    assert sum(rules_of(r).values()) == -1


def test_close_range_plus_one(S, T, fire, rules_of):
    _, r = fire(S, T, [3, 3, 3, 6, 6, 6], range_band="short")
    assert rules_of(r) == {"Close range or closing fire": 1} and r.data["hits"] == 3


def test_light_cover_also_helps_the_save(S, T, fire):
    _, r = fire(S, T, [6, 6, 6, 3, 3, 3], light_cover=True)
    assert r.data["saved"] == 3


# --- special rules -----------------------------------------------------------------------

def test_first_fire_adds_a_die_to_the_first_shot_only(T, after, fire, infantry):
    shooter = infantry("s", special_rules=["First Fire"])
    battle, r = fire(shooter, T, [1, 1, 1, 1])
    assert r.data["dice_count"] == 4 and after(battle, r).unit("s").has_used("first_fire")
    _, r = fire(infantry("s", special_rules=["First Fire"], used=["first_fire"]), T, [1, 1, 1])
    assert r.data["dice_count"] == 3


def test_sharp_shooters_rerolls_one_miss(T, fire, infantry):
    _, r = fire(infantry("s", special_rules=["Sharp Shooters"]), T, [1, 2, 4, 5, 1, 1])
    assert r.data["hits"] == 2 and r.dice[3].purpose == "to hit re-roll: Sharp Shooters"


def test_sharp_shooters_nothing_to_reroll_when_all_hit(T, fire, infantry):
    _, r = fire(infantry("s", special_rules=["Sharp Shooters"]), T, [4, 5, 4, 6, 6, 6])
    assert len([d for d in r.dice if "re-roll" in d.purpose]) == 0


def test_poor_shooters_must_reroll_one_hit(T, fire, infantry):
    _, r = fire(infantry("s", special_rules=["Poor Shooters"]), T, [4, 6, 1, 2, 6])
    # the 4 is re-rolled (keeping the 6 and its disorder) and misses
    assert r.data["hits"] == 1 and r.data["sixes"] == 1
    assert r.dice[3].purpose == "to hit re-roll: Poor Shooters"


def test_poor_shooters_no_hits_no_reroll(T, fire, infantry):
    _, r = fire(infantry("s", special_rules=["Poor Shooters"]), T, [1, 2, 3])
    assert len(r.dice) == 3


@pytest.mark.parametrize("roll,need,count,disordered", [
    (1, 6, 3, True), (2, 6, 3, False), (3, 6, 3, False), (4, 4, 3, False), (5, 4, 3, False), (6, 4, 4, False)])
def test_freshly_raised_first_shot_table(roll, need, count, disordered, T, after, fire, infantry):
    battle, r = fire(infantry("s", special_rules=["Freshly Raised"]), T, [roll] + [1] * count)
    assert r.data["need"] == need and r.data["dice_count"] == count
    assert after(battle, r).unit("s").disordered is disordered
    assert after(battle, r).unit("s").has_used("freshly_raised_shoot")


def test_freshly_raised_only_on_the_first_shot(T, fire, infantry):
    _, r = fire(infantry("s", special_rules=["Freshly Raised"], used=["freshly_raised_shoot"]), T, [1, 1, 1])
    assert not any(d.purpose == "Freshly Raised" for d in r.dice)


# --- enfilade, traversing, closing fire -------------------------------------------------

def test_enfilade_adds_the_setting_to_hit(S, T, fire, rules_of):
    _, r = fire(S, T, [3, 3, 3, 6, 6, 6], enfilade=True)
    assert rules_of(r) == {"Enfilading fire": 1}
    _, r = fire(S, T, [3, 3, 3], enfilade=True, settings={"enfilade_to_hit_bonus": 0})
    assert rules_of(r) == {}


def test_skirmishers_cannot_enfilade(T, fire, infantry):
    with pytest.raises(RuleError, match="Skirmishers"):
        fire(infantry("s", formation="skirmish"), T, [], enfilade=True)


def test_traversing_shot_once_per_turn(S, T, after, fire, rules_of):
    battle, r = fire(S, T, [1, 1, 1], kind="traversing", range_band="short")
    assert rules_of(r) == {"Close range or closing fire": 1}
    moved = after(battle, r)
    f = ShootFacts(shooter="s", target="t", kind="traversing")
    with pytest.raises(RuleError, match="already"):
        shoot(moved, "s", "t", f, ScriptedDice([1, 1, 1]))


def test_traversing_shot_forbids_closing_fire_that_turn(S, T, after, fire):
    battle, r = fire(S, T, [1, 1, 1], kind="traversing")
    with pytest.raises(RuleError, match="closing fire"):
        shoot(after(battle, r), "s", "t", None, ScriptedDice([1, 1, 1]), closing_fire=True)


def test_traversing_shot_takes_no_enfilade_bonus(S, T, fire, rules_of):
    _, r = fire(S, T, [1, 1, 1], kind="traversing", enfilade=True)
    assert rules_of(r) == {}


def test_closing_fire_is_plus_one_at_close_range(S, cavalry, make_battle, rules_of):
    battle = make_battle(units=[S, cavalry("t", "red")])
    r = shoot(battle, "s", "t", None, ScriptedDice([3, 1, 1, 6]), closing_fire=True)
    assert rules_of(r) == {"Close range or closing fire": 1} and r.data["hits"] == 1


def test_skirmishers_and_march_columns_give_no_closing_fire(T, infantry, make_battle):
    battle = make_battle(units=[infantry("s", formation="skirmish"), T])
    with pytest.raises(RuleError):
        shoot(battle, "s", "t", None, ScriptedDice([]), closing_fire=True)


def test_shaken_by_closing_fire_tests_as_hand_to_hand(S, cavalry, make_battle):
    battle = make_battle(units=[S, cavalry("t", "red", casualties=2)])
    r = shoot(battle, "s", "t", None, ScriptedDice([4, 1, 1, 1, 3, 3]), closing_fire=True)
    test = r.children[-1]
    assert test.kind == "break_test" and test.data["context"] == "hand_to_hand"
    assert test.data["outcome"] == "retires"  # cavalry retire on a 6 in hand-to-hand


def test_charge_fails_if_closing_fire_breaks_the_chargers(S, infantry, make_battle):
    battle = make_battle(units=[S, infantry("t", "red", casualties=2)])
    r = shoot(battle, "s", "t", None, ScriptedDice([4, 1, 1, 1, 1, 2]), closing_fire=True)
    assert r.data["break_test"] == "breaks" and "The charge fails." in r.children[-1].notes


def test_closing_fire_that_leaves_casualties_below_stamina_forces_no_test(S, infantry, make_battle):
    battle = make_battle(units=[S, infantry("t", "red", casualties=1)])
    r = shoot(battle, "s", "t", None, ScriptedDice([4, 1, 1, 1]), closing_fire=True)
    assert r.data["break_test"] is None


def test_excess_casualties_from_closing_fire_force_a_test(S, infantry, make_battle):
    battle = make_battle(units=[S, infantry("t", "red", casualties=3)])
    r = shoot(battle, "s", "t", None, ScriptedDice([4, 1, 1, 1, 4, 4]), closing_fire=True)
    assert r.data["break_test"] == "holds" and "beyond its Stamina" in r.children[-1].summary


def test_any_casualty_from_artillery_closing_fire_forces_a_test(T, artillery, make_battle):
    battle = make_battle(units=[artillery("g"), T])
    r = shoot(battle, "g", "t", None, ScriptedDice([4, 1, 1, 1, 6, 6]), closing_fire=True)
    test = r.children[-1]
    assert test.kind == "break_test" and {m.rule: m.amount for m in test.modifiers} == {"Hit by artillery this turn": -1}


# --- break tests after shooting -----------------------------------------------------------

def test_excess_casualties_from_shooting_force_a_break_test(S, after, fire, infantry):
    battle, r = fire(S, infantry("t", "red", casualties=3), [4, 1, 1, 1, 3, 3])
    test = r.children[-1]
    assert test.kind == "break_test" and test.data["score"] == 5 and r.data["break_test"] == "retires"
    assert after(battle, r).unit("t").casualties == 3


def test_reaching_stamina_exactly_needs_no_test(S, fire, infantry):
    _, r = fire(S, infantry("t", "red", casualties=2), [4, 1, 1, 1])
    assert r.data["break_test"] is None


def test_wavering_tests_on_any_casualty(S, fire, infantry):
    _, r = fire(S, infantry("t", "red", special_rules=["Wavering"]), [4, 1, 1, 1, 4, 4])
    assert r.data["break_test"] == "holds" and "Wavering" in r.children[-1].summary


def test_target_commander_and_earlier_artillery_in_the_test(S, infantry, make_doc):
    doc = make_doc(units=[S, infantry("t", "red", casualties=3)],
                   brigades=[{"id": "red1", "commander": {"name": "Reille", "rules": ["Inspirational"]}}])
    f = ShootFacts(shooter="s", target="t", target_commander_within_12=True, target_hit_by_artillery=True)
    r = SYSTEM.action("shoot").resolve(doc, f, ScriptedDice([4, 1, 1, 1, 3, 3]))
    assert {m.rule: m.amount for m in r.children[-1].modifiers} == {
        "Excess casualties": -1, "Hit by artillery this turn": -1, "Inspirational (Reille within 12\")": 1}


def test_retire_blocked_after_shooting_breaks(S, infantry, make_doc):
    doc = make_doc(units=[S, infantry("t", "red", casualties=3)])
    f = ShootFacts(shooter="s", target="t", target_cannot_retire=True)
    r = SYSTEM.action("shoot").resolve(doc, f, ScriptedDice([4, 1, 1, 1, 3, 3]))
    assert r.data["break_test"] == "breaks"


def test_changes_apply_cleanly_in_order(after, fire, infantry):
    battle, r = fire(infantry("s", special_rules=["First Fire"]), infantry("t", "red", casualties=3), [6, 6, 1, 1, 1, 1, 1, 1])
    moved = after(battle, r)
    assert moved.unit("t").destroyed and moved.unit("t").casualties == 3


# --- odds --------------------------------------------------------------------------------

@pytest.fixture(name="exact", scope="module")
def _exact(every_roll):
    def exact(doc, facts):
        """The shot's true chances, by trying every way the dice can fall."""
        outcomes = every_roll(lambda dice: SYSTEM.action("shoot").resolve(doc, facts, dice))
        hit = sum(p for p, r in outcomes if r.data["hits"])
        hits = sum(p * r.data["hits"] for p, r in outcomes)
        cas = sum(p * r.data["casualties"] for p, r in outcomes)
        test = sum(p for p, r in outcomes if r.data["break_test"])
        breaks = sum(p for p, r in outcomes if r.data["break_test"] == "breaks")
        sixes = sum(p for p, r in outcomes if r.data.get("sixes", r.data.get("disordered_target")))
        return hit, hits, cas, test, breaks, sixes
    return exact


# Small shots only: every way the dice can fall is tried, one resolution each.
@pytest.mark.parametrize("shooter,target,kw", [
    (("infantry", dict(shooting=1)), ("infantry", dict(casualties=3)), {}),
    (("infantry", dict(shooting=1, special_rules=["Sharp Shooters"])), ("infantry", dict(casualties=2, disordered=True)), {}),
    (("infantry", dict(shooting=1, special_rules=["Poor Shooters"])),
     ("infantry", dict(casualties=2, special_rules=["Stubborn"])), {"range_band": "short"}),
    (("infantry", dict(shooting=1, special_rules=["Freshly Raised"])), ("infantry", dict(casualties=1)), {}),
    (("infantry", dict(shooting=1)), ("infantry", dict(special_rules=["Wavering"])), {}),
    (("infantry", dict(shooting=1)), ("infantry", dict(casualties=3, special_rules=["Valiant"])), {}),
    (("infantry", dict(shooting=1)), ("infantry", dict(casualties=3, special_rules=["Steady"])), {}),
    (("infantry", dict(shooting=1)), ("infantry", dict(stamina=None, casualties=0, special_rules=["Crack"])), {}),
    (("infantry", dict(shooting=2, formation="square")), ("cavalry", dict(casualties=2)),
     {"kind": "closing_fire", "facings": 1}),
    (("artillery", dict(artillery_kind="rocket")), ("infantry", dict(casualties=2)), {}),
])
def test_shoot_odds_are_exact(shooter, target, kw, exact, make_doc, unit_of):
    shooter, target = unit_of(shooter[0], "s", **shooter[1]), unit_of(target[0], "t", "red", **target[1])
    doc = make_doc(units=[shooter, target])
    facts = ShootFacts(shooter="s", target="t", **kw)
    hit, hits, cas, test, breaks, sixes = exact(doc, facts)
    lines = odds_shoot(doc, facts)
    assert lines[0] == f"At least one hit: {float(hit):.1%}"
    assert lines[1] == f"Expected hits: {float(hits):.2f}"
    assert lines[2] == f"Expected casualties after saves: {float(cas):.2f}"
    assert lines[3] == f"A 6 disorders t: {float(sixes):.1%}"
    if test:
        assert lines[4].endswith(f"must take a break test: {float(test):.1%}")
        assert lines[5].endswith(f"breaks: {float(breaks):.1%}")
    else:
        assert lines[4] == "t breaks: 0% (this shot cannot force a break test)"
        assert not any("must take a break test" in line for line in lines)


def test_shoot_odds_simple_case_by_hand(T, infantry, make_doc):
    lines = odds_shoot(make_doc(units=[infantry("s", shooting=1), T]), ShootFacts(shooter="s", target="t"))
    assert lines[:3] == ["At least one hit: 50.0%", "Expected hits: 0.50", "Expected casualties after saves: 0.25"]


# --- invariants ----------------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from referee.core.docstate import apply_changes, revert_changes  # noqa: E402


@hsettings(max_examples=150, deadline=None)
@given(dice=st.lists(st.integers(1, 6), min_size=40, max_size=40), casualties=st.integers(0, 4),
       stamina=st.one_of(st.none(), st.integers(1, 4)), shooting=st.integers(1, 4),
       shooter_rules=st.lists(st.sampled_from(["First Fire", "Sharp Shooters", "Poor Shooters", "Freshly Raised"]),
                              unique=True),
       target_rules=st.lists(st.sampled_from(["Crack", "Stubborn", "Wavering", "Valiant", "Steady"]), unique=True),
       kind=st.sampled_from(["normal", "closing_fire", "traversing"]), band=st.sampled_from(["short", "medium", "long"]),
       guns=st.sampled_from([None, "foot", "howitzer", "rocket"]))
def test_after_any_shot_casualties_never_exceed_stamina(dice, casualties, stamina, shooting, shooter_rules,
                                                        target_rules, kind, band, guns, after, artillery, fire, infantry):
    shooter = artillery("s", artillery_kind=guns) if guns else \
        infantry("s", shooting=shooting, special_rules=shooter_rules)
    target = infantry("t", "red", casualties=min(casualties, stamina) if stamina is not None else 0, stamina=stamina,
                      special_rules=target_rules)
    battle, r = fire(shooter, target, dice, kind=kind, range_band=band)
    moved = after(battle, r)
    t = moved.unit("t")
    if t.stamina is not None:
        assert t.casualties <= t.stamina
    assert r.data["casualties"] <= r.data.get("hits", 0) or guns == "rocket"
    assert revert_changes(apply_changes(battle.doc, r.all_changes), r.all_changes) == battle.doc
