"""The heat each action of the action summary adds: 1 for Move, Fire Weapon, Called Shot, Ram,
Reload, Repair and Prepare; 0 for Shut Down; the card's own number for Use Equipment. Every Rig
starts cold, so its heat afterwards is the action's heat (a miss or a failed roll still costs it)."""
import pytest
from _oi_helpers import SHOT, activated, gun, make_doc, rig, rig_spec, run, set_rig


def ready(*equipment, **fields):
    doc = activated(make_doc(p1=[rig_spec("a", weapons=[gun()], equipment=equipment)]), "a")
    return set_rig(doc, "a", **fields) if fields else doc


def heat_after(action: str, doc: dict, dice=(), **facts) -> int:
    _, after = run(action, doc, dice, **facts)
    return rig(after, "a").heat


def test_move_heat_is_one():
    assert heat_after("move", ready(), rig="a") == 1


def test_fire_weapon_heat_is_one():
    assert heat_after("fire_weapon", ready(), [1], **SHOT) == 1  # a miss still costs the heat


def test_called_shot_heat_is_one():
    assert heat_after("called_shot", ready(), [1], location="hull", **SHOT) == 1


def test_ram_heat_is_one():
    # Both impacts roll 1 against the Heavy and the Medium: nobody is damaged, the rammer runs hotter.
    assert heat_after("ram", ready(), [1, 1, 1, 1], rig="a", target="t", moved_2_inches=True) == 1


def test_reload_heat_is_one():
    doc = ready()
    doc["rigs"]["a"]["weapons"]["gun"]["loaded"] = False
    assert heat_after("reload", doc, rig="a") == 1


def test_repair_heat_is_one():
    doc = ready(structure={"hull": 1, "arms": 3, "legs": 3, "engine": 3})
    assert heat_after("repair", doc, [1], rig="a", location="hull") == 1  # a failed repair still costs it


def test_shut_down_heat_is_zero():
    assert heat_after("shut_down", ready(), rig="a") == 0


def test_prepare_heat_is_one():
    assert heat_after("prepare", ready(), rig="a", token="Brace") == 1


@pytest.mark.parametrize("card,heat", [("smoke_dispensers", 1), ("supplementary_heat_vent", 0),
                                       ("external_fuel_tanks", 0)])
def test_use_equipment_heat_is_the_cards(card, heat):
    assert heat_after("use_equipment", ready(card), rig="a", equipment=card) == heat
