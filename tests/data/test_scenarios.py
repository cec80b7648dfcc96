"""Scenarios build valid battles; typed-in forces give the umpire clear errors."""
from referee.blackpowder.model import Battle, Unit
from referee.data.scenarios import list_scenarios, new_battle_from_scenario


def test_demo_builds_a_ready_battle():
    doc = new_battle_from_scenario("demo")
    battle = Battle.from_doc(doc)
    assert doc["system"] == "blackpowder"
    assert {s.name for s in battle.sides.values()} == {"French", "Prussians"}
    for side in ("blue", "red"):
        assert len(battle.brigades_of_side(side)) == 2
        assert battle.sides[side].general is not None
        for b in battle.brigades_of_side(side):
            assert b.commander and 5 <= b.commander.staff_rating <= 10
            assert battle.units_of_brigade(b.id)
    for uid, u in doc["units"].items():
        assert Unit.from_dict(u).id == uid
    assert "1/7th Musketeers" in {u.name for u in battle.units.values()}


def test_demo_is_listed_first():
    assert list_scenarios()[0].id == "demo"
