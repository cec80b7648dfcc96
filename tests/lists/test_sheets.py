"""Record sheets: every example prints with its stat lines, structure boxes and heat track; a
draft prints too, with what is missing named rather than left out. Plus a property: any army a
player can type survives export and import unchanged."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.data.blackpowder import load_unit_profiles
from referee.data.oilandiron import load_examples
from referee.lists import example_lists, export_text, import_text
from referee.lists.blackpowder import Army, ArmyUnit, Brigade, Commander
from referee.lists.oilandiron import EquipmentPick, Squadron, SquadronRig, WeaponPick
from referee.lists.sheets import army_sheet, sheet, squadron_sheet


def test_every_example_has_a_sheet():
    for name, lst in example_lists().items():
        s = sheet(lst)
        parts = s["brigades"] if s["kind"] == "blackpowder" else s["rigs"]
        assert parts, name


def test_every_example_chassis_prints_its_boxes_and_heat_track():
    ex = load_examples()
    rigs = [SquadronRig(name=c.name, chassis=c.key, engine=ex.engines[0].key,
                        weapons=[WeaponPick(card=w.key) for w in ex.weapons[:2]]) for c in ex.chassis]
    s = squadron_sheet(Squadron(name="All", tier="operation", formation="claymore", rigs=rigs))
    for card, rig in zip(ex.chassis, s["rigs"]):
        assert rig.structure == card.structure.model_dump()
        assert rig.heat_track == list(range(card.heat_track + 1))
        assert rig.heat_threshold == card.heat_threshold
        assert [w.name for w in rig.weapons] == [w.name for w in ex.weapons[:2]]


def test_every_example_weapon_prints_each_range_profile():
    ex = load_examples()
    rigs = [SquadronRig(name=w.key, chassis="example_colossal_walker", weapons=[WeaponPick(card=w.key)])
            for w in ex.weapons]
    s = squadron_sheet(Squadron(name="Guns", tier="skirmish", formation="sword", rigs=rigs))
    for card, rig in zip(ex.weapons, s["rigs"]):
        row = rig.weapons[0]
        assert [p["range"] for p in row.profiles] == [p.range for p in card.profiles]
        assert row.profiles[0]["str"] == (card.profiles[0].str_ if card.profiles[0].str_ is not None else card.str_)


def test_a_draft_prints_what_is_missing():
    sq = Squadron(name="Draft", tier="skirmish", formation="sword", rigs=[
        SquadronRig(name="Ghost", chassis="nothing", weapons=[WeaponPick(card="no_gun")],
                    equipment=[EquipmentPick(key="no_kit")])])
    rig = squadron_sheet(sq)["rigs"][0]
    assert rig.chassis is None and rig.weapons[0].missing and rig.equipment[0]["name"] == "no_kit"
    army = Army(name="A", nation="british", brigades=[Brigade(name="B", units=[ArmyUnit(profile="zzz", name="Z")])])
    s = army_sheet(army)
    assert s["brigades"][0].units[0].profile is None and s["brigades"][0].commander is None


names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
ratings = st.integers(0, 99)
commanders = st.builds(Commander, name=names, staff_rating=ratings,
                       rules=st.lists(names, max_size=3), points=st.none() | st.integers(0, 500))
units = st.builds(ArmyUnit, profile=st.sampled_from(sorted(load_unit_profiles())) | names, name=names,
                  points=st.none() | st.integers(0, 500), notes=names)
brigades = st.builds(Brigade, name=names, commander=st.none() | commanders, units=st.lists(units, max_size=7))
armies = st.builds(Army, name=names, nation=st.sampled_from(["british", "french", "prussian", "nowhere"]),
                   allies=st.lists(st.sampled_from(["kgl", "hanoverian", "netherlands"]), max_size=2),
                   general=st.none() | commanders, brigades=st.lists(brigades, max_size=4),
                   unassigned_commanders=st.lists(commanders, max_size=2),
                   points_limit=st.none() | st.integers(1, 5000), notes=names)


@given(armies)
def test_any_army_a_player_can_type_round_trips(army):
    assert import_text(export_text(army)) == army


def test_equipment_fitted_to_a_weapon_prints_the_weapon_by_its_name():
    ex = load_examples()
    gun = ex.weapons[0]
    rig = SquadronRig(name="Bulldog", chassis=ex.chassis[0].key, engine=ex.engines[0].key,
                      weapons=[WeaponPick(card=gun.key)],
                      equipment=[EquipmentPick(key="high_calibre_ammunition", weapon=gun.key)])
    printed = squadron_sheet(Squadron(name="S", tier="skirmish", formation="sword", rigs=[rig]))
    assert gun.name != gun.key
    assert printed["rigs"][0].equipment[0]["weapon"] == gun.name
