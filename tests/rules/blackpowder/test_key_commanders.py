"""The five key commanders: their attacks in a fight and their gifts before the battle, with the
numbers they bring from the army lists."""
import pytest

from referee.blackpowder import SYSTEM
from referee.blackpowder.attacks import commander_attacks
from referee.blackpowder.combat import CombatRound
from referee.blackpowder.combat_records import new_combat_record
from referee.blackpowder.key_commanders import GiftsFacts, odds_gifts
from referee.blackpowder.model import Battle, RuleError
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes


def gifts(doc, dice=(), **facts):
    r = SYSTEM.action("commander_gifts").resolve(doc, GiftsFacts(**facts), ScriptedDice(dice))
    return r, apply_changes(doc, r.all_changes)


def army(make_doc, infantry, key_commander, key, side="blue", units=3, **unit_over):
    return make_doc(units=[infantry(f"u{i}", side=side, **unit_over) for i in range(1, units + 1)],
                    sides={side: {"general": key_commander(key)}})


# --- attacks in a fight ---------------------------------------------------------------------

@pytest.mark.parametrize("key, charged, defending", [
    ("wellington", 1, 3), ("napoleon", 3, 3), ("ney", 2, 2), ("blucher", 2, 2), ("von-zieten", 2, 2)])
def test_key_commander_attacks_when_his_side_charged_and_when_it_defends(make_doc, infantry, key_commander, key,
                                                                         charged, defending):
    doc = make_doc(units=[infantry("a"), infantry("d", side="red")],
                   sides={"blue": {"general": key_commander(key)}, "red": {"general": key_commander(key)}})
    battle = Battle.from_doc(doc)
    rec = new_combat_record("c1", ["a"], ["d"], turn=1)

    def added(key_, uid):
        return sum(m.amount for m in commander_attacks(battle, rec, key_, battle.unit(uid),
                                                       brigade_commander=False, general=True))
    assert (added("attackers", "a"), added("defenders", "d")) == (charged, defending)


def test_ney_adds_two_attacks_to_the_unit_he_fights_with(make_doc, infantry, key_commander):
    doc = make_doc(units=[infantry("a", hand_to_hand=1, in_combat=True), infantry("d", side="red", hand_to_hand=1,
                                                                                   in_combat=True)],
                   sides={"blue": {"general": key_commander("ney")}}, phase="hand_to_hand")
    doc["combats"] = {"c1": new_combat_record("c1", ["a"], ["d"], turn=1)}
    # Ney's unit rolls 1 + 2 dice, all hitting; the red unit's one die misses; red fails its
    # three saves, then holds its break test.
    r = SYSTEM.action("combat_round").resolve(doc, CombatRound(combat="c1", general_with=["a"]),
                                              ScriptedDice([4, 4, 4, 1, 1, 1, 1, 6, 6]))
    assert r.data["hits"]["attackers"] == 3


# --- gifts before the battle ------------------------------------------------------------------

@pytest.mark.parametrize("die, count", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_ney_gives_valiant_to_d3_units_named_first(make_doc, infantry, key_commander, die, count):
    doc = army(make_doc, infantry, key_commander, "ney")
    r, after = gifts(doc, [die], side="blue", valiant=["u3", "u1", "u2"])
    gained = [u for u in ("u3", "u1", "u2") if "Valiant" in after["units"][u]["special_rules"]]
    assert gained == ["u3", "u1", "u2"][:count]
    assert [d.value for d in r.dice] == [die]


def test_ney_with_too_few_units_named_says_the_rest_is_lost(make_doc, infantry, key_commander):
    r, after = gifts(army(make_doc, infantry, key_commander, "ney"), [6], side="blue", valiant=["u1"])
    assert "Valiant" in after["units"]["u1"]["special_rules"]
    assert any("Only 1 unit" in n for n in r.notes)


def test_blucher_gives_one_unit_ferocious_charge_and_prussians_a_free_move(make_doc, infantry, key_commander):
    doc = army(make_doc, infantry, key_commander, "blucher", side="red", nation="prussian")
    r, after = gifts(doc, side="red", ferocious_charge=["u2"])
    assert after["units"]["u2"]["special_rules"] == ["Ferocious Charge"]
    assert any("3 Prussian units may each make a free move" in n for n in r.notes)
    with pytest.raises(RuleError, match="Only 1 unit"):
        gifts(doc, side="red", ferocious_charge=["u1", "u2"])


def test_blucher_free_move_counts_only_prussian_units(make_doc, infantry, key_commander):
    doc = make_doc(units=[infantry("p", side="red", nation="prussian"), infantry("b", side="red", nation="british")],
                   sides={"red": {"general": key_commander("blucher")}})
    r, _ = gifts(doc, side="red")
    assert any("1 Prussian unit " in n for n in r.notes)


def test_wellington_chooses_the_deployment_side(make_doc, infantry, key_commander):
    r, _ = gifts(army(make_doc, infantry, key_commander, "wellington"), side="blue")
    assert any("Wellington chooses which table side" in n for n in r.notes) and r.dice == ()


def test_gifts_once_per_army_and_only_before_the_battle(make_doc, infantry, key_commander):
    doc = army(make_doc, infantry, key_commander, "wellington")
    _, after = gifts(doc, side="blue")
    with pytest.raises(RuleError, match="already"):
        gifts(after, side="blue")
    with pytest.raises(RuleError, match="before the battle"):
        gifts(dict(doc, phase="shooting"), side="blue")


def test_no_gifts_from_ordinary_commanders(make_doc, infantry, key_commander):
    with pytest.raises(RuleError, match="gives anything"):
        gifts(make_doc(units=[infantry("u1")]), side="blue")
    with pytest.raises(RuleError, match="grants Valiant"):
        gifts(army(make_doc, infantry, key_commander, "wellington"), side="blue", valiant=["u1"])


def test_gifts_go_to_units_of_the_army_only(make_doc, infantry, key_commander):
    doc = make_doc(units=[infantry("u1"), infantry("e", side="red")], sides={"blue": {"general": key_commander("ney")}})
    with pytest.raises(RuleError, match="not a unit of this army"):
        gifts(doc, [6], side="blue", valiant=["e"])


def test_gifts_undo_exactly(make_doc, infantry, key_commander):
    doc = army(make_doc, infantry, key_commander, "ney")
    r, after = gifts(doc, [6], side="blue", valiant=["u1", "u2", "u3"])
    assert revert_changes(after, r.all_changes) == doc


def test_ney_gift_odds(make_doc, infantry, key_commander):
    doc = army(make_doc, infantry, key_commander, "ney")
    assert odds_gifts(doc, GiftsFacts(side="blue", valiant=["u1"])) == ["Units gaining Valiant: 1, 2 or 3, each 33.3%"]
