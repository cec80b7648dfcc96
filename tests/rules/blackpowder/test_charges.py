"""Charges: who may charge, each response of the target, Terrifying Charge and contact."""
import pytest

from referee.blackpowder.charges import ChargeFacts, odds_charge, resolve_charge
from referee.blackpowder.model import RuleError
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes


def charge_doc(make_doc, units, **kw):
    return make_doc(units=units, phase="command", **kw)


def charge(doc, dice=(), **facts):
    facts.setdefault("chargers", ["a"])
    facts.setdefault("target", "t")
    source = ScriptedDice(list(dice))
    result = resolve_charge(doc, ChargeFacts(**facts), source)
    assert source.remaining == 0, "every scripted die is used"
    return result, apply_changes(doc, result.all_changes)


# --- who may charge -----------------------------------------------------------------------------

@pytest.mark.parametrize("over, why", [
    ({"casualties": 3}, "shaken"),
    ({"formation": "march_column"}, "march column"),
    ({"formation": "square"}, "square"),
    ({"disordered": True}, "disordered"),
    ({"in_combat": True}, "already fighting"),
])
def test_units_forbidden_to_charge(make_doc, infantry, over, why):
    doc = charge_doc(make_doc, [infantry("a", **over), infantry("t", side="red")])
    with pytest.raises(RuleError, match=why):
        charge(doc)


def test_artillery_never_charges(make_doc, artillery, infantry):
    doc = charge_doc(make_doc, [artillery("a"), infantry("t", side="red")])
    with pytest.raises(RuleError, match="artillery"):
        charge(doc)


def test_skirmishers_cannot_charge_formed_infantry(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", formation="skirmish"), infantry("t", side="red")])
    with pytest.raises(RuleError, match="skirmishers"):
        charge(doc)
    doc = charge_doc(make_doc, [infantry("a", formation="skirmish"), infantry("t", side="red", formation="skirmish")])
    assert charge(doc)[0].data["contact"]


def test_a_broken_army_does_not_charge(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")], sides={"blue": {"army_broken": True}})
    with pytest.raises(RuleError, match="army is broken"):
        charge(doc)


def test_cavalry_cannot_charge_a_steady_square(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", formation="square")])
    with pytest.raises(RuleError, match="square"):
        charge(doc)
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", formation="square", disordered=True)])
    assert charge(doc)[0].data["contact"]


def test_a_blunder_charge_may_be_made_while_disordered(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", disordered=True), infantry("t", side="red")])
    assert charge(doc, how="blunder")[0].data["contact"]


def test_charges_are_made_by_the_side_in_its_command_phase(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    doc["phase"] = "shooting"
    with pytest.raises(RuleError, match="Command phase"):
        charge(doc)


def test_determined_charge_is_noted(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", special_rules=["Determined Charge"]), infantry("t", side="red")])
    assert any("Determined Charge" in n for n in charge(doc)[0].notes)


# --- contact ------------------------------------------------------------------------------------

def test_contact_opens_a_combat_with_both_sides_in_combat(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    result, after = charge(doc)
    rec = after["combats"][result.data["combat"]]
    assert rec["attackers"] == ["a"] and rec["defenders"] == ["t"] and rec["charging"] == ["a"]
    assert rec["round"] == 1 and rec["status"] == "open" and rec["flank_rear"] == []
    assert after["units"]["a"]["in_combat"] and after["units"]["t"]["in_combat"]


def test_a_charge_to_the_flank_is_recorded(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    result, after = charge(doc, facing="flank")
    assert after["combats"]["c1"]["flank_rear"] == ["t"]


def test_charging_a_unit_already_fighting_joins_that_combat(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("b"), infantry("t", side="red")])
    _, after = charge(doc)
    _, after = charge(after, chargers=["b"], facing="rear")
    rec = after["combats"]["c1"]
    assert rec["attackers"] == ["a", "b"] and rec["flank_rear"] == ["t"] and len(after["combats"]) == 1


def test_charge_undoes_exactly(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    result, after = charge(doc, [3, 3, 3, 6, 6, 6], response="closing_fire")
    assert revert_changes(after, result.all_changes) == doc


# --- closing fire -------------------------------------------------------------------------------

def test_closing_fire_shoots_at_the_chargers_at_plus_one(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    result, after = charge(doc, [3, 3, 1, 1, 6], response="closing_fire")
    shot = next(c for c in result.children if c.kind == "shoot")
    assert shot.data["hits"] == 2 and shot.data["need"] == 3
    assert after["units"]["a"]["casualties"] == 1 and result.data["contact"]


def test_chargers_shaken_by_closing_fire_test_and_fail_if_they_break(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", casualties=2), infantry("t", side="red")])
    result, after = charge(doc, [4, 1, 1] + [1] + [1, 2], response="closing_fire")
    assert not result.data["contact"]
    assert after["units"]["a"]["destroyed"] and not after["units"]["t"]["in_combat"]
    assert "combats" not in after or not after["combats"]


def test_chargers_who_hold_against_closing_fire_go_in(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", casualties=2), infantry("t", side="red")])
    result, after = charge(doc, [4, 1, 1] + [1] + [6, 6], response="closing_fire")
    assert result.data["contact"] and after["units"]["a"]["casualties"] == 3


def test_any_casualty_from_artillery_closing_fire_forces_a_test(make_doc, infantry, artillery):
    doc = charge_doc(make_doc, [infantry("a"), artillery("t", side="red")])
    result, after = charge(doc, [5, 1, 1] + [1] + [6, 6], response="closing_fire")
    shot = next(c for c in result.children if c.kind == "shoot")
    assert shot.data["break_test"] == "holds"


@pytest.mark.parametrize("over", [{"formation": "march_column"}, {"formation": "skirmish"}])
def test_no_closing_fire_from_march_column_or_skirmish_order(make_doc, infantry, over):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red", **over)])
    with pytest.raises(RuleError, match="closing fire"):
        charge(doc, response="closing_fire")


def test_closing_fire_is_to_the_front_only(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    with pytest.raises(RuleError, match="front"):
        charge(doc, response="closing_fire", facing="flank")


def test_closing_fire_odds(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")])
    lines = odds_charge(doc, ChargeFacts(chargers=["a"], target="t", response="closing_fire"))
    assert lines[0] == "Closing fire: At least one hit: 96.3%"


# --- evade ---------------------------------------------------------------------------------------

def test_cavalry_charged_by_infantry_may_evade(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red")])
    result, after = charge(doc, [2, 2], response="evade")
    assert not result.data["contact"] and not after["units"]["t"]["in_combat"]
    assert any("evades with" in n for n in result.notes)


def test_a_failed_evade_still_gives_one_free_move(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red")])
    result, _ = charge(doc, [5, 6], response="evade")
    assert any(n.startswith("t evades with 1 move away") for n in result.notes), result.notes
    assert any("still makes one free move" in n for n in result.notes)


def test_caught_evaders_are_destroyed(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red")])
    _, after = charge(doc, [5, 6], response="evade", evaders_caught=True)
    assert after["units"]["t"]["destroyed"] is True


def test_skirmishers_charged_by_formed_troops_may_evade(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red", formation="skirmish")])
    assert not charge(doc, [2, 2], response="evade")[0].data["contact"]


def test_cavalry_charged_by_cavalry_cannot_evade(make_doc, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red")])
    with pytest.raises(RuleError, match="evade"):
        charge(doc, response="evade")


# --- countercharge and turn to face -----------------------------------------------------------------

def test_countercharged_infantry_are_disordered_and_lose_the_charge_bonus(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red")])
    _, after = charge(doc, response="countercharge")
    rec = after["combats"]["c1"]
    assert after["units"]["a"]["disordered"] is True
    assert rec["charging"] == [] and rec["countercharging"] == ["t"]


def test_countercharging_cavalry_meet_cavalry_as_both_charging(make_doc, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red")])
    _, after = charge(doc, response="countercharge")
    rec = after["combats"]["c1"]
    assert rec["charging"] == ["a"] and rec["countercharging"] == ["t"]
    assert after["units"]["a"]["disordered"] is False


@pytest.mark.parametrize("over, facing", [({"disordered": True}, "front"), ({"casualties": 3}, "front"), ({}, "flank")])
def test_countercharge_needs_steady_cavalry_charged_to_the_front(make_doc, infantry, cavalry, over, facing):
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red", **over)])
    with pytest.raises(RuleError, match="countercharge"):
        charge(doc, response="countercharge", facing=facing)


def test_cavalry_turn_to_face_a_flank_charge(make_doc, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red")])
    _, after = charge(doc, response="turn_to_face", facing="rear")
    assert after["combats"]["c1"]["flank_rear"] == []


def test_disordered_cavalry_cannot_turn_to_face_unless_marauders(make_doc, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red", disordered=True)])
    with pytest.raises(RuleError, match="Marauders"):
        charge(doc, response="turn_to_face", facing="flank")
    doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red", disordered=True, special_rules=["Marauder"])])
    assert charge(doc, response="turn_to_face", facing="flank")[1]["combats"]["c1"]["flank_rear"] == []


# --- form square -------------------------------------------------------------------------------------

def test_form_square_units_charged_by_cavalry_must_try(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Must Form Square"])])
    with pytest.raises(RuleError, match="must try to form square"):
        charge(doc, response="closing_fire")


def test_form_square_passed_forms_square(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Form Square"])])
    _, after = charge(doc, [2, 3], response="form_square")
    assert after["units"]["t"]["formation"] == "square" and not after["units"]["t"]["disordered"]


def test_form_square_failed_stays_in_formation(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Form Square"])])
    _, after = charge(doc, [5, 6], response="form_square")
    assert after["units"]["t"]["formation"] == "line"


def test_form_square_double_six_forms_but_disordered(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Form Square"])])
    _, after = charge(doc, [6, 6], response="form_square")
    assert after["units"]["t"]["formation"] == "square" and after["units"]["t"]["disordered"]


def test_form_square_double_one_disorders_and_fails(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Form Square"])])
    _, after = charge(doc, [1, 1], response="form_square")
    assert after["units"]["t"]["formation"] == "line" and after["units"]["t"]["disordered"]


def test_form_square_may_be_tried_while_disordered(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Form Square"], disordered=True)])
    _, after = charge(doc, [2, 3], response="form_square")
    assert after["units"]["t"]["formation"] == "square"


# --- Terrifying Charge -------------------------------------------------------------------------------

def test_terrifying_charge_tests_the_target_on_contact(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", special_rules=["Terrifying Charge"]), infantry("t", side="red")])
    result, after = charge(doc, [1, 2], response="closing_fire")
    assert not result.data["contact"] and after["units"]["t"]["destroyed"]
    assert not any(c.kind == "shoot" for c in result.children)  # the test comes before closing fire


def test_terrifying_charge_held_goes_on_to_closing_fire(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", special_rules=["Terrifying Charge"]), infantry("t", side="red")])
    result, _ = charge(doc, [6, 6] + [1, 1, 1], response="closing_fire")
    assert [c.kind for c in result.children][:2] == ["break_test", "shoot"] and result.data["contact"]


def test_only_infantry_assault_a_building(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", formation="building")])
    with pytest.raises(RuleError, match="only infantry assault a building"):
        charge(doc)


def test_chargers_retiring_from_closing_fire_do_not_reach_the_target(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", casualties=2), infantry("t", side="red")])
    result, after = charge(doc, [4, 1, 1] + [1] + [2, 3], response="closing_fire")
    assert not result.data["contact"] and after["units"]["a"]["disordered"]


def test_retiring_chargers_may_go_in_by_setting(make_doc, infantry):
    doc = charge_doc(make_doc, [infantry("a", casualties=2), infantry("t", side="red")],
                     settings={"retiring_chargers_fail": False})
    result, _ = charge(doc, [4, 1, 1] + [1] + [2, 3], response="closing_fire")
    assert result.data["contact"]


def test_odds_for_evade_and_terrifying_charge(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [infantry("a", special_rules=["Terrifying Charge"]), cavalry("t", side="red")])
    lines = odds_charge(doc, ChargeFacts(chargers=["a"], target="t", response="stand"))
    assert lines == ["Terrifying Charge: t holds 58.3%, retires 25.0%, breaks 16.7%"]
    lines = odds_charge(doc, ChargeFacts(chargers=["a"], target="t", response="evade"))
    assert lines and all(line.startswith("Evade order: ") for line in lines)


def test_disordered_marauder_cavalry_may_still_evade(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red", disordered=True)])
    with pytest.raises(RuleError, match="Marauders"):
        charge(doc, [2, 2], response="evade")
    doc = charge_doc(make_doc, [infantry("a"), cavalry("t", side="red", disordered=True, special_rules=["Marauder"])])
    result, _ = charge(doc, [2, 2], response="evade")
    assert not result.data["contact"]


# --- when Referee plays the charged side (docs/foe.md) -------------------------------------------

def test_referee_answers_for_its_own_charged_unit(make_doc, infantry, cavalry):
    """The Foe's unit meets a charge as the Foe's ladder says, whatever the form's response, and
    says why, in the odds before Resolve and in the result; the player may overrule it."""
    doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red")], foe={"side": "red"})
    lines = odds_charge(doc, ChargeFacts(chargers=["a"], target="t"))
    assert lines[0] == ("Referee answers for Red: t — countercharge. Cavalry charged to their front "
                        "countercharge.")
    result, after = charge(doc, [], response="stand")
    assert result.notes[0].startswith("Referee answers for Red") and after["units"]["t"]["in_combat"]
    assert any("countercharges" in c.summary for c in result.children)
    mine, _ = charge(doc, [], response="stand", overrule_foe=True)
    assert not any("Referee" in n for n in mine.notes)
    assert not any("countercharges" in c.summary for c in mine.children)
    # Infantry charged by infantry to its front gives closing fire; from the rear it stands.
    doc = charge_doc(make_doc, [infantry("a"), infantry("t", side="red")], foe={"side": "red"})
    assert "closing fire" in odds_charge(doc, ChargeFacts(chargers=["a"], target="t"))[0]
    assert "stand" in odds_charge(doc, ChargeFacts(chargers=["a"], target="t", facing="rear"))[0]
    # Referee plays the chargers' side, or nobody: the form's response stands.
    for foe in ({"side": "blue"}, {}):
        doc = charge_doc(make_doc, [cavalry("a"), cavalry("t", side="red")], foe=foe)
        assert not any("Referee" in line for line in odds_charge(doc, ChargeFacts(chargers=["a"], target="t")))


def test_referee_forms_square_when_forced(make_doc, infantry, cavalry):
    doc = charge_doc(make_doc, [cavalry("a"), infantry("t", side="red", special_rules=["Form Square"])],
                     foe={"side": "red"})
    assert "form square" in odds_charge(doc, ChargeFacts(chargers=["a"], target="t"))[0]
