"""Each builder problem names the row it is drawn at (issue 52 item 8): the weapon, the
equipment, the Rig, the unit, the brigade ... not only a field or the list as a whole. Pure: the
checks and the row patterns, no web."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.lists import forms
from referee.lists.blackpowder import ROWS as ARMY_ROWS
from referee.lists.blackpowder import Army, ArmyUnit, Brigade, Commander, check_army
from referee.lists.oilandiron import ROWS as SQUADRON_ROWS
from referee.lists.oilandiron import EquipmentPick, Squadron, SquadronRig, WeaponPick, check_squadron
from referee.lists.problems import Problem, by_row, placed, row_of, rows_in
from referee.systems import BLACK_POWDER, OIL_AND_IRON

LIGHT, MEDIUM, COLOSSAL = "example_light_scout", "example_medium_brawler", "example_colossal_walker"


def rig(chassis=LIGHT, weapons=(("example_autocannon", None),), equipment=(), name="R"):
    return SquadronRig(name=name, chassis=chassis, weapons=[WeaponPick(card=c, mount=m) for c, m in weapons],
                       equipment=[EquipmentPick(key=k) for k in equipment])


def sword(first: SquadronRig) -> Squadron:
    return Squadron(name="S", tier="skirmish", formation="sword",
                    rigs=[rig(name="A"), first, rig(MEDIUM, name="C")])


def at(problems: list[Problem], words: str) -> tuple[str, str]:
    """(row, path) of the one problem whose message holds ``words``."""
    found = [(p.row, p.path) for p in problems if words in p.message]
    assert len(found) == 1, (words, problems)
    return found[0]


# --- Of Oil and Iron: each problem the issue names, at its row -----------------------------------

def test_two_weapons_on_one_mount_are_at_the_second_weapon_and_its_mount_box():
    sq = sword(rig(weapons=(("example_autocannon", "left"), ("example_flamer", "left")), name="B"))
    assert at(check_squadron(sq), "two weapons on the left mount") == ("rigs.1.weapons.1", "rigs.1.weapons.1.mount")


def test_a_hull_weapon_on_a_light_rig_is_at_that_weapon():
    by_card = sword(rig(weapons=(("example_siege_howitzer", None),), name="B"))
    assert at(check_squadron(by_card), "only a Colossal Rig has a Hull mount") == ("rigs.1.weapons.0",
                                                                                  "rigs.1.weapons.0.card")
    by_mount = sword(rig(weapons=(("example_autocannon", "hull"),), name="B"))
    assert at(check_squadron(by_mount), "only a Colossal Rig has a Hull mount") == ("rigs.1.weapons.0",
                                                                                   "rigs.1.weapons.0.mount")


def test_too_many_weapons_are_at_the_rigs_weapons():
    sq = sword(rig(weapons=(("example_autocannon", None),) * 3, name="B"))
    assert at(check_squadron(sq), "3 weapons, but a Light Rig") == ("rigs.1.weapons", "rigs.1.weapons")


def test_two_hull_weapons_on_a_colossal_are_at_its_weapons():
    big = Squadron(name="C", tier="operation", formation="claymore", rigs=[
        rig(name="L"), rig(MEDIUM, name="M"), rig("example_heavy_siege", name="H"),
        rig(COLOSSAL, weapons=(("example_siege_howitzer", None),) * 2, name="Big")])
    assert at(check_squadron(big), "only one per Rig") == ("rigs.3.weapons", "rigs.3.weapons")


def test_a_card_taken_twice_is_at_the_second_equipment_row():
    sq = sword(rig(equipment=("extinguisher", "extinguisher"), name="B"))
    assert at(check_squadron(sq), "taken twice") == ("rigs.1.equipment.1", "rigs.1.equipment.1.key")


def test_unchosen_cards_are_at_their_rows():
    sq = sword(SquadronRig(name="B", chassis=LIGHT, weapons=[WeaponPick(card="")], equipment=[EquipmentPick(key="")]))
    problems = check_squadron(sq)
    assert at(problems, "choose a weapon card") == ("rigs.1.weapons.0", "rigs.1.weapons.0.card")
    assert at(problems, "choose an equipment card") == ("rigs.1.equipment.0", "rigs.1.equipment.0.key")


def test_equipment_for_a_weapon_and_campaign_cards_are_at_the_equipment_row():
    sq = sword(SquadronRig(name="B", chassis=LIGHT, weapons=[WeaponPick(card="example_autocannon")],
                           equipment=[EquipmentPick(key="extinguisher", weapon="example_autocannon"),
                                      EquipmentPick(key="black_market_parts_cache")]))
    problems = check_squadron(sq)
    assert at(problems, "does not name a weapon") == ("rigs.1.equipment.0", "rigs.1.equipment.0.weapon")
    assert at(problems, "for campaigns only") == ("rigs.1.equipment.1", "rigs.1.equipment.1.key")


def test_a_rigs_own_problems_are_at_the_rig_and_the_squadrons_at_its_head():
    unnamed = SquadronRig(name="", chassis="", weapons=[])
    problems = check_squadron(Squadron(name="", tier="skirmish", formation="sword", rigs=[unnamed]))
    assert at(problems, "the Rig needs a name") == ("rigs.0", "rigs.0.name")
    assert at(problems, "choose a chassis card") == ("rigs.0", "rigs.0.chassis")
    assert at(problems, "the squadron needs a name") == ("", "name")
    assert at(problems, "Sword fields") == ("", "rigs")
    heavy = rig(weapons=(("example_field_gun", None), ("example_mortar", None)), equipment=("extinguisher",), name="B")
    assert at(check_squadron(sword(heavy)), "weigh 5 Iron") == ("rigs.1", "rigs.1.iron")


# --- Black Powder: each problem at its row -------------------------------------------------------

def army(units=3, commander=True, **over) -> Army:
    brigade = Brigade(name="First", commander=Commander(name="Adam", staff_rating=8) if commander else None,
                      units=[ArmyUnit(profile="british-line-infantry", name=f"{i} Foot") for i in range(units)])
    return Army(**{"name": "A", "nation": "british", "general": Commander(name="Hill", staff_rating=8),
                   "brigades": [brigade], **over})


def test_black_powder_problems_are_at_their_rows():
    assert at(check_army(army(units=2)), "this one has 2") == ("brigades.0.units", "brigades.0.units")
    assert at(check_army(army(commander=False)), "no commander") == ("brigades.0.commander", "brigades.0.commander")
    odd = army(brigades=[Brigade(name="", commander=Commander(name="", staff_rating=12), units=[
        ArmyUnit(profile="prussian-hussars", name="Hussars"), ArmyUnit(profile="", name=""),
        ArmyUnit(profile="british-line-infantry", name="3rd")])])
    problems = check_army(odd)
    assert at(problems, "the brigade needs a name") == ("brigades.0", "brigades.0.name")
    assert at(problems, "the commander needs a name") == ("brigades.0.commander", "brigades.0.commander.name")
    assert at(problems, "Staff Rating 12") == ("brigades.0.commander", "brigades.0.commander.staff_rating")
    assert at(problems, "from the Prussian list") == ("brigades.0.units.0", "brigades.0.units.0.profile")
    assert at(problems, "choose what kind of unit") == ("brigades.0.units.1", "brigades.0.units.1.profile")
    assert at(problems, "the unit needs a name") == ("brigades.0.units.1", "brigades.0.units.1.name")
    head = check_army(army(name="", general=Commander(name="", staff_rating=8), points_limit=1,
                           unassigned_commanders=[Commander(name="Spare")],
                           brigades=[army().brigades[0].model_copy(update={"units": [
                               ArmyUnit(profile="british-line-infantry", name=f"{i}", points=5) for i in range(3)]})]))
    assert at(head, "the army needs a name") == ("", "name")
    assert at(head, "the commander needs a name") == ("general", "general.name")
    assert at(head, "over the limit") == ("", "points_limit")
    assert at(head, "has no brigade") == ("unassigned_commanders.0", "unassigned_commanders.0")
    assert at(check_army(army(general=None)), "needs a General") == ("general", "general")


# --- boxes that cannot be read, and the rows a builder draws ------------------------------------

def test_a_box_that_cannot_be_read_is_at_its_row():
    data = {"name": "S", "tier": "skirmish", "formation": "sword",
            "rigs": [{"name": "A", "chassis": LIGHT, "weapons": [{"card": "x", "mount": "middle"}]}]}
    _data, model, problems = forms.validate(OIL_AND_IRON, data)
    assert model is None
    assert [(p.row, p.path) for p in problems] == [("rigs.0.weapons.0", "rigs.0.weapons.0.mount")]
    _data, _model, problems = forms.validate(BLACK_POWDER, {"name": "A", "nation": "british", "notes": "x" * 3000})
    assert [p.row for p in problems] == ["notes"]


def test_row_of_takes_the_longest_pattern_and_the_paths_own_numbers():
    assert row_of("rigs.12.weapons.3.mount", SQUADRON_ROWS) == "rigs.12.weapons.3"
    assert row_of("rigs.2.weapons", SQUADRON_ROWS) == "rigs.2.weapons"
    assert row_of("rigs.2.engine", SQUADRON_ROWS) == "rigs.2"
    assert row_of("cards.weapons.1.profiles.0.range", SQUADRON_ROWS) == "cards.weapons.1"
    assert row_of("rigs", SQUADRON_ROWS) == "" and row_of("", SQUADRON_ROWS) == ""
    assert row_of("rigs.x.weapons", SQUADRON_ROWS) == ""  # not a row number: the head
    assert row_of("brigades.0.commander.rules", ARMY_ROWS) == "brigades.0.commander"


def test_the_rows_a_builder_draws_hold_every_problems_row():
    data = {"rigs": [{"name": "A", "weapons": [{}, {}], "equipment": [{}]}, {}],
            "cards": {"weapons": [{}], "chassis": []}}
    rows = rows_in(data, SQUADRON_ROWS)
    assert rows == ["", "rigs.0", "rigs.1", "rigs.0.weapons", "rigs.1.weapons", "rigs.0.weapons.0",
                    "rigs.0.weapons.1", "rigs.0.equipment", "rigs.1.equipment", "rigs.0.equipment.0",
                    "cards.weapons.0", "notes"]
    army_rows = rows_in({"brigades": [{"units": [{}]}], "unassigned_commanders": [{}]}, ARMY_ROWS)
    assert "brigades.0.commander" in army_rows and "brigades.0.units.0" in army_rows and "general" in army_rows


@pytest.mark.parametrize("system, model", [(OIL_AND_IRON, Squadron), (BLACK_POWDER, Army)])
def test_every_problem_of_a_builders_list_has_its_row_drawn(system, model):
    from referee.lists.examples import example_lists
    from referee.lists.travel import ROWS, check, dump
    for lst in example_lists():
        if not isinstance(lst, model):
            continue
        data = dump(lst)
        broken = check(model.model_validate({**data, "name": ""}))
        assert broken and {p.row for p in broken} <= set(rows_in(data, ROWS[system]))


@given(st.lists(st.sampled_from(["rigs", "0", "1", "12", "weapons", "equipment", "card", "cards", "chassis", "x"]),
                max_size=6))
def test_a_paths_row_is_a_whole_part_prefix_of_it_and_its_own_row(parts):
    path = ".".join(parts)
    row = row_of(path, SQUADRON_ROWS)
    assert row == "" or path == row or path.startswith(row + ".")
    assert row_of(row, SQUADRON_ROWS) == row
    numbered = ".".join("#" if part.isdigit() else part for part in row.split(".")) if row else ""
    assert numbered == "" or numbered in SQUADRON_ROWS


def test_problems_grouped_by_row_keep_their_order():
    ps = placed([Problem("rigs.0.name", "Rig 1", "a"), Problem("name", "S", "b"), Problem("rigs.0.iron", "Rig 1", "c")],
                SQUADRON_ROWS)
    assert by_row(ps) == {"rigs.0": [ps[0], ps[2]], "": [ps[1]]}
