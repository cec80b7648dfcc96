"""The Of Oil and Iron data files: Tables A and C exactly, the sixteen perks, labelled examples,
the twelve engagements, and errors that name file, entry and field."""
import pytest

from referee.data.oilandiron import (
    DataError,
    check_formation,
    load_engagements,
    load_equipment,
    load_examples,
    load_formations,
    load_perks,
    squadron_state,
)

TABLE_A = [(1, "Extinguisher", 1), (2, "Reinforced Iron Plating", 2), (3, "Reinforced Iron Alloy Plating", 3),
           (4, "Ablative Armour Plating", 2), (5, "Concentrated Fuel", 1), (6, "Advanced Ammo Storage", 1),
           (7, "Stabilised Weapon Joints", 1), (8, "High Calibre Ammunition", 2), (9, "Exotic Engine Coolant", 2),
           (10, "Smoke Dispensers", 1), (11, "Sophisticated Periscopes", 2), (12, "Arc-Enhanced Targeting System", 2)]
TABLE_C = [(1, "Emergency Repair Kit", 2), (2, "External Fuel Tanks", 1), (3, "Flare Launchers", 1),
           (4, "Radio Scrambler", 1), (5, "Rig Bayonet", 2), (6, "Supplementary Heat Vent", 1),
           (7, "Thermal Sights", 2), (8, "Artillery Spotting Module", 2), (9, "Battlefield Recovery Rig", 5),
           (11, "Black Market Parts Cache", 3), (12, "Contracted Recovery Crew", 3),
           (13, "Experimental Load-Bearing Frame", 3)]


def test_equipment_tables_a_and_c_exactly():
    cards = load_equipment().values()
    assert sorted((c.number, c.name, c.iron) for c in cards if c.table == "A") == TABLE_A
    assert sorted((c.number, c.name, c.iron) for c in cards if c.table == "C") == TABLE_C


def test_equipment_flags():
    cards = load_equipment()
    assert {k for k, c in cards.items() if c.campaign_only} == {
        "battlefield_recovery_rig", "black_market_parts_cache", "contracted_recovery_crew",
        "experimental_load_bearing_frame"}
    assert {k for k, c in cards.items() if c.discard} >= {"extinguisher", "ablative_armour_plating",
                                                          "advanced_ammo_storage", "emergency_repair_kit",
                                                          "external_fuel_tanks", "radio_scrambler"}
    assert cards["smoke_dispensers"].once_per_game and cards["supplementary_heat_vent"].once_per_activation


def test_sixteen_perks_with_x_where_the_rules_give_one():
    perks = load_perks()
    assert len(perks) == 16
    assert {k for k, p in perks.items() if p.x} == {"explosive", "incendiary", "limited_ammo"}


def test_examples_are_labelled():
    ex = load_examples()
    assert "not the rulebook" in ex.note
    assert all(x.example for x in [*ex.chassis, *ex.engines, *ex.weapons])
    assert {c.weight_class for c in ex.chassis} == {"light", "medium", "heavy", "colossal"}


def test_twelve_engagements():
    data = load_engagements()
    assert len(data.engagements) == 12
    assert data.destroyed_rig_vp == {"light": 2, "medium": 3, "heavy": 4, "colossal": 5}
    assert {e.category for e in data.engagements if e.key in ("ambush", "hold_the_line", "siege", "breakthrough")} \
        == {"special"}


def test_bad_file_names_file_entry_and_field(tmp_path):
    bad = tmp_path / "equipment.yaml"
    bad.write_text("equipment:\n  - {table: A, number: 1, key: kettle, name: Kettle, iron: -1, effect: x, "
                   "effect_key: cancel_heat_roll}\n")
    with pytest.raises(DataError) as err:
        load_equipment(bad)
    message = str(err.value)
    assert "equipment.yaml" in message and "kettle" in message and "iron" in message


def test_bad_weapon_perk_value_is_named(tmp_path):
    bad = tmp_path / "examples.yaml"
    bad.write_text("note: n\nchassis: []\nengines: []\nweapons:\n  - {key: popgun, name: Popgun, example: true, "
                   "rof: 1, str: 2, iron: 0, profiles: [{range: 6}], perks: [{name: explosive}]}\n")
    with pytest.raises(DataError, match=r"examples.yaml: weapons\[0\] \(popgun\).*explosive needs its X"):
        load_examples(bad)


def test_armour_thresholds_must_rise(tmp_path):
    bad = tmp_path / "examples.yaml"
    bad.write_text("note: n\nengines: []\nweapons: []\nchassis:\n  - {key: box, name: Box, example: true, "
                   "weight_class: light, speed: 6, pivot: 2, aim: 4, iron: 3, structure: {hull: 1, arms: 1, legs: 1, "
                   "engine: 1}, armour: {direct: 9, severe: 8, critical: 10}, exhaust: 1, heat_threshold: 4, "
                   "heat_track: 8}\n")
    with pytest.raises(DataError, match="box.*armour.*rise"):
        load_examples(bad)


def test_squadron_state_builds_rig_documents():
    rigs = squadron_state("p1", [{"id": "r1", "name": "Rusty", "chassis": "example_light_scout",
                                  "engine": "example_turbo_diesel", "weapons": ["example_autocannon"],
                                  "equipment": ["thermal_sights"]}])
    r = rigs["r1"]
    assert r["speed"] == 9 and r["exhaust"] == 1 and r["structure"] == r["structure_max"]
    assert r["weapons"]["example_autocannon"]["mount"] == "left"
    assert r["equipment"]["thermal_sights"]["used"] is False


def test_squadron_iron_and_slots_are_checked():
    with pytest.raises(DataError, match="weapon slots"):
        squadron_state("p1", [{"id": "r", "name": "R", "chassis": "example_light_scout",
                               "weapons": ["example_autocannon"] * 3}])
    with pytest.raises(DataError, match="Iron"):
        squadron_state("p1", [{"id": "r", "name": "R", "chassis": "example_light_scout",
                               "weapons": ["example_field_gun", "example_rotary_gun"],
                               "equipment": ["thermal_sights"]}])  # 2 + 2 + 2 Iron on a 4-Iron chassis


def test_formations_by_tier():
    tiers = {t.key: {f.key: f.counts() for f in t.formations} for t in load_formations().tiers}
    assert tiers["skirmish"]["sword"] == {"light": 2, "medium": 1, "heavy": 0, "colossal": 0}
    assert tiers["operation"]["broadsword"] == {"light": 3, "medium": 1, "heavy": 0, "colossal": 1}
    assert tiers["warfront"]["greatsword"] == {"light": 4, "medium": 2, "heavy": 1, "colossal": 1}
    assert [len(t) for t in tiers.values()] == [3, 5, 5]


def test_squadron_must_match_its_formation():
    rigs = squadron_state("p1", [{"id": "m", "name": "M", "chassis": "example_medium_brawler"},
                                 {"id": "h", "name": "H", "chassis": "example_heavy_siege"}])
    check_formation(rigs, "mace")
    with pytest.raises(DataError, match="A Sword squadron fields 2 light, 1 medium; this one has 1 medium, 1 heavy"):
        check_formation(rigs, "sword")


def test_example_squadrons_are_data_and_build_with_the_example_cards():
    from referee.data.oilandiron import example_squadrons
    squadrons = example_squadrons()
    assert [r["name"] for r in squadrons["p1"]] == ["Scout", "Brawler", "Siege"]
    assert [r["name"] for r in squadrons["p2"]] == ["Lancer", "Bulwark", "Hammer"]
    for side, rigs in squadrons.items():
        built = squadron_state(side, [{**r, "id": f"{side}-{i}"} for i, r in enumerate(rigs)])
        assert len(built) == 3


def test_an_example_squadron_naming_a_missing_card_is_refused(tmp_path):
    from referee.data.oilandiron import load_example_squadrons
    bad = tmp_path / "example_squadrons.yaml"
    bad.write_text("note: n\nsquadrons:\n  p1:\n    - {name: Odd, chassis: example_teapot}\n  p2: []\n")
    with pytest.raises(DataError, match="example_squadrons.yaml: squadrons.p1: .*example_teapot"):
        load_example_squadrons(bad)


def test_each_engagement_carries_the_destroyed_rig_table_and_has_its_scoring():
    from referee.oilandiron.engagements import SCORING
    data = load_engagements()
    assert all(e.destroyed_rig_vp == data.destroyed_rig_vp for e in data.engagements)
    assert {e.key for e in data.engagements} == set(SCORING)
    assert all(SCORING[key].__name__ == key for key in SCORING)  # each findable by its name


def test_an_engagement_the_engine_cannot_score_is_refused(tmp_path):
    bad = tmp_path / "engagements.yaml"
    bad.write_text("destroyed_rig_vp: {light: 1, medium: 2, heavy: 3, colossal: 4}\nengagements:\n"
                   "  - {key: king_of_the_hill, name: King of the Hill, category: standard, summary: s, scoring: [], "
                   "victory: most_vp}\n")
    with pytest.raises(DataError, match=r"engagements\[0\] \(king_of_the_hill\).*no scoring"):
        load_engagements(bad)
