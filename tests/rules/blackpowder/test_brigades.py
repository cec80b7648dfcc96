"""Broken brigades, broken armies, standing and the winner."""
from referee.blackpowder.brigades import (
    EndBattle,
    battle_standing,
    brigade_should_break,
    check_side,
    resolve_end_battle,
)
from referee.core.docstate import apply_changes


def _brigade(infantry, side, bid, n, lost=0, how="destroyed"):
    units = []
    for i in range(n):
        over = {}
        if i < lost:
            over = {"destroyed": True} if how == "destroyed" else \
                {"casualties": 3} if how == "shaken" else {"off_table": True}
        units.append(infantry(f"{bid}u{i}", side=side, brigade=bid, **over))
    return units


def test_brigade_breaks_when_half_its_units_are_destroyed(make_battle, infantry):
    battle = make_battle(units=_brigade(infantry, "blue", "b1", 4, lost=2))
    assert brigade_should_break(battle, "b1")


def test_brigade_holds_with_less_than_half_lost(make_battle, infantry):
    battle = make_battle(units=_brigade(infantry, "blue", "b1", 5, lost=2))
    assert not brigade_should_break(battle, "b1")


def test_shaken_units_count_towards_a_broken_brigade(make_battle, infantry):
    battle = make_battle(units=_brigade(infantry, "blue", "b1", 3, lost=2, how="shaken"))
    assert brigade_should_break(battle, "b1")


def test_units_off_table_count_towards_a_broken_brigade(make_battle, infantry):
    battle = make_battle(units=_brigade(infantry, "blue", "b1", 4, lost=2, how="off"))
    assert brigade_should_break(battle, "b1")


def test_two_unit_brigade_needs_both_units_lost(make_battle, infantry):
    one = make_battle(units=_brigade(infantry, "blue", "b1", 2, lost=1))
    both = make_battle(units=_brigade(infantry, "blue", "b1", 2, lost=2))
    assert not brigade_should_break(one, "b1")
    assert brigade_should_break(both, "b1")


def test_army_breaks_when_half_its_brigades_are_broken(make_battle, infantry):
    units = _brigade(infantry, "blue", "b1", 2, lost=2) + _brigade(infantry, "blue", "b2", 3) + \
        _brigade(infantry, "red", "r1", 3)
    battle = make_battle(units=units)
    result = check_side(battle, "blue")
    after = battle.with_changes(result.changes)
    assert after.brigades["b1"].broken and not after.brigades["b2"].broken
    assert after.sides["blue"].army_broken
    assert after.doc["first_army_broken"] == "blue"
    assert any("retire-broken move" in n for n in result.notes)


def test_army_holds_with_fewer_than_half_brigades_broken(make_battle, infantry):
    units = _brigade(infantry, "blue", "b1", 2, lost=2) + _brigade(infantry, "blue", "b2", 3) + \
        _brigade(infantry, "blue", "b3", 3)
    battle = make_battle(units=units)
    after = battle.with_changes(check_side(battle, "blue").changes)
    assert after.brigades["b1"].broken and not after.sides["blue"].army_broken


def test_battle_standing_gives_proportion_intact(make_battle, infantry):
    units = _brigade(infantry, "blue", "b1", 2, lost=2) + _brigade(infantry, "blue", "b2", 3) + \
        _brigade(infantry, "red", "r1", 3)
    standing = battle_standing(make_battle(units=units))
    assert standing["blue"]["broken"] == ["b1"] and standing["blue"]["intact"] == ["b2"]
    assert standing["blue"]["proportion_intact"] == 0.5
    assert standing["red"]["proportion_intact"] == 1.0


def test_side_whose_army_breaks_first_loses(make_doc, infantry):
    doc = make_doc(units=_brigade(infantry, "blue", "b1", 3) + _brigade(infantry, "red", "r1", 3),
                   first_army_broken="red")
    doc["sides"]["red"]["army_broken"] = True
    doc["sides"]["blue"]["army_broken"] = True
    result = resolve_end_battle(doc, EndBattle(), None)
    after = apply_changes(doc, result.all_changes)
    assert after["winner"] == "blue" and after["ended"] is True


def test_largest_proportion_of_intact_brigades_wins_at_the_end(make_doc, infantry):
    units = _brigade(infantry, "blue", "b1", 2, lost=2) + _brigade(infantry, "blue", "b2", 3) + \
        _brigade(infantry, "red", "r1", 3) + _brigade(infantry, "red", "r2", 3)
    doc = make_doc(units=units)
    result = resolve_end_battle(doc, EndBattle(), None)
    assert result.data["winner"] == "red"


def test_equal_standing_is_a_draw(make_doc, infantry):
    doc = make_doc(units=_brigade(infantry, "blue", "b1", 3) + _brigade(infantry, "red", "r1", 3))
    result = resolve_end_battle(doc, EndBattle(), None)
    assert apply_changes(doc, result.all_changes)["winner"] == "draw"


def test_umpire_may_decide_the_winner(make_doc, infantry):
    doc = make_doc(units=_brigade(infantry, "blue", "b1", 3) + _brigade(infantry, "red", "r1", 3))
    result = resolve_end_battle(doc, EndBattle(decision="red", reason="scenario: village held"), None)
    assert apply_changes(doc, result.all_changes)["winner"] == "red"
