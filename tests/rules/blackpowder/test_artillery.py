"""Guns: dice by range band, Shrapnel, the artillery to-hit and save modifiers, howitzers,
enfilade, ranges and Congreve rockets with the mishap table."""
import pytest

from referee.blackpowder.artillery import gun_dice, max_range
from referee.blackpowder.model import RuleError, Settings
from referee.blackpowder.shooting import ShootFacts, shoot
from referee.core.dice import ScriptedDice


@pytest.fixture
def T(infantry):
    return infantry("t", "red")


@pytest.fixture(name="gun", scope="module")
def _gun(artillery):
    def gun(**over):
        return artillery("g", **over)
    return gun


@pytest.fixture(name="fire", scope="module")
def _fire(infantry, make_battle):
    def fire(shooter, target, dice, settings=None, **facts):
        battle = make_battle(units=[shooter, target, infantry("friend", "red")], settings=settings)
        f = ShootFacts(shooter=shooter["id"], target=target["id"], **facts)
        return battle, shoot(battle, f.shooter, f.target, f, ScriptedDice(dice))
    return fire



def save_rules(result):
    saves = [c for c in result.children if c.kind == "morale_saves"]
    return {m.rule: m.amount for m in saves[0].modifiers}


@pytest.mark.parametrize("band,count", [("short", 3), ("medium", 2), ("long", 1)])
def test_three_two_one_dice_by_range(band, count, T, fire, gun):
    _, r = fire(gun(), T, [1] * count, range_band=band)
    assert r.data["dice_count"] == count


def test_shrapnel_medium_range_three_dice_needing_fives(T, fire, gun):
    _, r = fire(gun(special_rules=["Shrapnel"]), T, [4, 4, 5, 6], range_band="medium")
    assert r.data["dice_count"] == 3 and r.data["need"] == 5 and r.data["hits"] == 1


def test_shrapnel_may_be_declined(T, fire, gun):
    _, r = fire(gun(special_rules=["Shrapnel"]), T, [1, 1], range_band="medium", use_shrapnel=False)
    assert r.data["dice_count"] == 2 and r.data["need"] == 4


def test_shrapnel_only_at_medium_range(gun, make_battle):
    assert gun_dice(make_battle(units=[gun(special_rules=["Shrapnel"])]).unit("g"), "short").count == 3
    assert gun_dice(make_battle(units=[gun(special_rules=["Shrapnel"])]).unit("g"), "long").count == 1


def test_howitzer_two_dice_at_every_range_and_minus_two_saves(T, fire, gun, make_battle):
    for band in ("short", "medium", "long"):
        assert gun_dice(make_battle(units=[gun(artillery_kind="howitzer")]).unit("g"), band).count == 2
    _, r = fire(gun(artillery_kind="howitzer"), T, [5, 1, 6], range_band="long")
    assert save_rules(r) == {"Howitzer shell": -2}


def test_limbered_guns_cannot_shoot(T, fire, gun):
    with pytest.raises(RuleError, match="limbered"):
        fire(gun(formation="limbered"), T, [])


@pytest.mark.parametrize("formation", ["attack_column", "march_column", "square"])
def test_gun_target_in_column_or_square_plus_one(formation, fire, gun, infantry, rules_of):
    _, r = fire(gun(), infantry("t", "red", formation=formation), [1, 1], range_band="medium")
    assert rules_of(r) == {"Gun target in column or square": 1}


def test_long_range_minus_one(T, fire, gun, rules_of):
    _, r = fire(gun(), T, [1], range_band="long")
    assert rules_of(r) == {"Long range": -1} and r.data["need"] == 5


def test_short_range_is_close_range_for_guns(T, fire, gun, rules_of):
    _, r = fire(gun(), T, [1, 1, 1], range_band="short")
    assert rules_of(r) == {"Close range or closing fire": 1}


def test_over_intervening_units_minus_one(T, fire, gun, rules_of):
    _, r = fire(gun(), T, [1, 1], over_intervening=True)
    assert rules_of(r) == {"Shooting over intervening units": -1}


def test_howitzer_shoots_overhead_without_penalty(T, fire, gun, rules_of):
    _, r = fire(gun(artillery_kind="howitzer"), T, [1, 1], over_intervening=True)
    assert rules_of(r) == {}


def test_artillery_long_range_saves_minus_one(T, fire, gun):
    _, r = fire(gun(), T, [5, 4], range_band="long")
    assert save_rules(r) == {"Artillery at long range": -1} and r.data["casualties"] == 1


@pytest.mark.parametrize("band", ["short", "medium"])
def test_artillery_close_or_medium_saves_minus_two(band, T, fire, gun):
    _, r = fire(gun(), T, [5] + [1] * 2 + [5], range_band=band)
    assert save_rules(r) == {"Artillery at close or medium range": -2}


def test_attack_column_gets_no_save_bonus_against_guns(fire, gun, infantry):
    _, r = fire(gun(), infantry("t", "red", formation="attack_column"), [5, 1, 6], range_band="medium")
    assert "Attack Column" not in save_rules(r)


def test_break_test_after_gunfire_counts_hit_by_artillery(after, fire, gun, infantry):
    battle, r = fire(gun(), infantry("t", "red", casualties=3), [5, 1, 1, 4, 4], range_band="medium")
    test = r.children[-1]
    assert {m.rule: m.amount for m in test.modifiers} == {"Excess casualties": -1, "Hit by artillery this turn": -1}
    assert test.data["score"] == 6 and after(battle, r).unit("t").casualties == 3


def test_cannon_enfilade_up_to_half_range(T, fire, gun, rules_of):
    _, r = fire(gun(), T, [1, 1], range_band="medium", enfilade=True)
    assert rules_of(r) == {"Enfilading fire": 1}
    with pytest.raises(RuleError, match="half"):
        fire(gun(), T, [1], range_band="long", enfilade=True)


def test_cannon_enfilade_short_range_only_when_set(T, fire, gun, rules_of):
    with pytest.raises(RuleError, match="short range"):
        fire(gun(), T, [1, 1], range_band="medium", enfilade=True,
             settings={"cannon_enfilade_to_half_range": False})
    _, r = fire(gun(), T, [1, 1, 1], range_band="short", enfilade=True,
                settings={"cannon_enfilade_to_half_range": False})
    assert "Enfilading fire" in rules_of(r)


def test_howitzers_cannot_enfilade(T, fire, gun):
    with pytest.raises(RuleError, match="loft"):
        fire(gun(artillery_kind="howitzer"), T, [1, 1], range_band="short", enfilade=True)


def test_ranges_come_from_settings(T, fire, gun, make_battle):
    battle = make_battle(units=[gun(), gun(id="h", artillery_kind="horse")], settings={"foot_artillery_range": 40})
    assert max_range(battle.unit("g"), battle.settings) == 40
    assert max_range(battle.unit("h"), Settings()) == 36
    _, r = fire(gun(), T, [1, 1])
    assert any('48"' in n for n in r.notes)


# --- Congreve rockets --------------------------------------------------------------------

@pytest.fixture(name="rocket", scope="module")
def _rocket(gun):
    def rocket():
        return gun(artillery_kind="rocket")
    return rocket


def test_rocket_hits_on_a_six_disorders_and_minus_two_saves(T, after, fire, rocket):
    battle, r = fire(rocket(), T, [6, 5])
    assert r.data["hits"] == 1 and after(battle, r).unit("t").disordered
    assert save_rules(r) == {"Congreve rocket": -2} and r.data["casualties"] == 1


def test_rocket_ignores_to_hit_modifiers(fire, infantry, rocket, rules_of):
    _, r = fire(rocket(), infantry("t", "red", formation="skirmish"), [6, 6], range_band="short", over_intervening=True)
    assert rules_of(r) == {} and r.data["hits"] == 1


def test_rocket_mishap_misfire_explodes_and_destroys_the_team(T, after, fire, rocket):
    battle, r = fire(rocket(), T, [3, 1, 1])
    assert r.data["rocket"] == "explodes" and after(battle, r).unit("g").destroyed


def test_rocket_mishap_misfire_hits_own_team(T, after, fire, rocket):
    battle, r = fire(rocket(), T, [3, 1, 2, 1])
    assert r.data["rocket"] == "hits team" and after(battle, r).unit("g").casualties == 1


def test_rocket_mishap_misfire_hits_the_nearest_unit_named_by_the_umpire(T, after, fire, rocket):
    battle, r = fire(rocket(), T, [3, 1, 3, 1], stray_rocket_unit="friend")
    assert after(battle, r).unit("friend").casualties == 1 and not after(battle, r).unit("friend").disordered


def test_rocket_mishap_nearest_unit_unnamed_leaves_a_note(T, fire, rocket):
    battle, r = fire(rocket(), T, [3, 1, 3])
    assert any("Name that unit" in n for n in r.notes) and not r.children


@pytest.mark.parametrize("misfire", [4, 5, 6])
def test_rocket_mishap_misfire_dud(misfire, T, fire, rocket):
    _, r = fire(rocket(), T, [5, 1, misfire])
    assert r.data["rocket"] == "dud" and not r.all_changes


@pytest.mark.parametrize("mishap", [2, 3])
def test_rocket_mishap_dud(mishap, T, fire, rocket):
    _, r = fire(rocket(), T, [1, mishap])
    assert r.data["rocket"] == "dud" and "dud" in r.summary


@pytest.mark.parametrize("mishap,veer,reach", [(4, 1, 'up to 6"'), (5, 2, 'up to 6"'), (6, 3, 'up to 12"'),
                                               (4, 4, 'up to 12"'), (5, 5, "any distance"), (6, 6, "any distance")])
def test_rocket_mishap_veers(mishap, veer, reach, T, after, fire, rocket):
    battle, r = fire(rocket(), T, [2, mishap, veer, 1], stray_rocket_unit="friend")
    assert r.data["rocket"] == "veers" and reach in r.summary
    moved = after(battle, r)
    assert moved.unit("friend").disordered and moved.unit("friend").casualties == 1


def test_guns_in_a_building_shoot_their_usual_dice(T, fire, gun):
    _, r = fire(gun(formation="building"), T, [1, 1, 1], range_band="short")
    assert r.data["dice_count"] == 3
