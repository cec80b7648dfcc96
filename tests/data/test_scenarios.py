"""Scenarios build valid battles; typed-in forces give the umpire clear errors."""
import shutil
from collections import Counter

import pytest

from referee.blackpowder.model import Battle, Unit
from referee.data.errors import DataError, ForceError
from referee.data.scenarios import (
    SCENARIOS,
    ForceSpec,
    list_scenarios,
    load_scenarios,
    new_battle_from_forces,
    new_battle_from_scenario,
)


def _all_units_valid(doc: dict) -> None:
    for uid, u in doc["units"].items():
        unit = Unit.from_dict(u)
        assert unit.id == uid
        assert unit.brigade in doc["brigades"]
        assert doc["brigades"][unit.brigade]["side"] == unit.side


# --- the shipped scenarios ---------------------------------------------------------------

def test_every_scenario_file_loads_and_builds():
    scenarios = load_scenarios()
    assert set(scenarios) == {"demo", "ligny-saint-amand", "quatre-bras", "hougoumont", "derlons-attack",
                              "plancenoit", "waterloo", "wavre"}
    for sid in scenarios:
        doc = new_battle_from_scenario(sid)
        _all_units_valid(doc)
        assert doc["scenario"]["id"] == sid


def test_no_scenario_is_left_an_outline():
    # Issue 12: the four outlines became whole forces, so none is marked an outline any more.
    outline = {s.id for s in list_scenarios() if s.outline}
    assert outline == set()
    for sid, s in load_scenarios().items():
        assert not s.outline and not s.title.endswith("(outline)"), sid


def test_demo_is_listed_first():
    infos = list_scenarios()
    assert infos[0].id == "demo"
    assert infos[0].title.startswith("Demo") and infos[0].summary and not infos[0].outline


def test_scenario_info_names_the_sides():
    demo = next(i for i in list_scenarios() if i.id == "demo")
    assert (demo.blue, demo.red, demo.turns) == ("French", "Prussians", 6)


def test_other_games_scenarios():
    engagements = list_scenarios("oilandiron")
    assert engagements and all(i.id and i.title for i in engagements)
    with pytest.raises(ValueError, match="no scenarios"):
        list_scenarios("chess")


def test_demo_builds_a_ready_battle():
    doc = new_battle_from_scenario("demo")
    battle = Battle.from_doc(doc)
    assert doc["system"] == "blackpowder" and doc["turn"] == 1 and doc["active_side"] == "blue"
    assert (battle.sides["blue"].name, battle.sides["red"].name) == ("French", "Prussians")
    for side in ("blue", "red"):
        assert len(battle.brigades_of_side(side)) == 2
        assert battle.sides[side].general is not None
        for b in battle.brigades_of_side(side):
            assert b.commander and 5 <= b.commander.staff_rating <= 10
            assert battle.units_of_brigade(b.id)
    _all_units_valid(doc)
    names = {u.name for u in battle.units.values()}
    assert {"1/7th Musketeers", "2/7th Musketeers", "11th Léger"} <= names


def test_scenario_units_and_armies_carry_their_nations():
    battle = Battle.from_doc(new_battle_from_scenario("demo"))
    assert (battle.sides["blue"].nation, battle.sides["red"].nation) == ("french", "prussian")
    assert {battle.nation_of(u) for u in battle.units_of_side("blue")} == {"french"}
    assert {battle.nation_of(u) for u in battle.units_of_side("red")} == {"prussian"}


def test_demo_prussian_foot_fight_the_french_as_tough_fighters():
    from referee.blackpowder.attacks import plan_attacks
    from referee.blackpowder.combat_records import new_combat_record

    doc = new_battle_from_scenario("demo")
    doc["combats"] = {"c1": new_combat_record("c1", ["82nd-ligne"], ["1-7th-musketeers", "6th-uhlans"], turn=1)}
    battle = Battle.from_doc(doc)
    rec = doc["combats"]["c1"]
    assert plan_attacks(battle, rec, "defenders", battle.unit("1-7th-musketeers")).reroll_one.startswith("Tough")
    assert plan_attacks(battle, rec, "defenders", battle.unit("6th-uhlans")).reroll_one is None
    assert plan_attacks(battle, rec, "attackers", battle.unit("82nd-ligne")).reroll_one is None


def test_forces_units_carry_their_profiles_nation_whatever_the_army():
    blue = {"name": "Allies", "nation": "british", "brigades": [
        {"name": "Mixed", "commander": {"name": "Ompteda"},
         "units": [{"profile": "prussian-musketeer-infantry", "name": "Lost Prussians"}]}]}
    red = {"name": "French", "brigades": [
        {"name": "Line", "commander": {"name": "Quiot"}, "units": [{"profile": "french-line-infantry", "name": "54th"}]}]}
    battle = Battle.from_doc(new_battle_from_forces("x", blue, red))
    assert battle.nation_of(battle.unit("lost-prussians")) == "prussian"
    assert battle.sides["red"].nation is None and battle.nation_of(battle.unit("54th")) == "french"


def test_demo_is_the_same_every_time():
    assert new_battle_from_scenario("demo") == new_battle_from_scenario("demo")


def test_ligny_forces_as_the_summary_gives_them():
    doc = new_battle_from_scenario("ligny-saint-amand")
    battle = Battle.from_doc(doc)
    brigades = {b.name: b for b in battle.brigades.values()}

    def profiles(name):
        return Counter(u.profile for u in battle.units_of_brigade(brigades[name].id))

    assert profiles("7th Division") == {"french-light-infantry": 2, "french-line-infantry": 2,
                                        "french-line-foot-artillery": 1}
    assert profiles("8th Division") == {"french-light-infantry": 1, "french-line-infantry": 3,
                                        "french-line-foot-artillery": 1}
    # The Swiss battalion fights as French Line.
    assert profiles("10th Division") == {"french-line-infantry": 4, "french-line-foot-artillery": 1}
    assert profiles("11th Division") == {"french-line-infantry": 4, "french-line-foot-artillery": 1}
    assert profiles("3rd Cavalry Division") == {"guard-chasseurs-a-cheval": 1}
    assert profiles("3rd Brigade") == {"prussian-musketeer-infantry": 4, "prussian-landwehr-infantry": 2,
                                       "prussian-line-foot-artillery": 1}
    # The Silesian Schützen fight as Jäger.
    assert profiles("1st Brigade") == {"prussian-musketeer-infantry": 4, "prussian-landwehr-infantry": 2,
                                       "prussian-jager-battalion": 1, "prussian-line-foot-artillery": 1}
    assert profiles("4th Brigade") == {"prussian-musketeer-infantry": 4, "prussian-landwehr-infantry": 2}
    assert battle.units["2nd-swiss"].profile == "french-line-infantry"
    assert battle.units["silesian-schutzen"].profile == "prussian-jager-battalion"
    for name in ("7th Division", "3rd Brigade"):
        assert brigades[name].commander.staff_rating == 8
    assert brigades["7th Division"].commander.name == "Girard"
    assert brigades["3rd Brigade"].commander.name == "Jagow"
    assert battle.sides["blue"].general.name == "Vandamme"
    assert doc["scenario"]["turns"] == 8 and '9"' in doc["scenario"]["victory"]


def test_prussian_commanders_are_decisive():
    battle = Battle.from_doc(new_battle_from_scenario("ligny-saint-amand"))
    for b in battle.brigades_of_side("red"):
        assert b.commander.has("Decisive"), b.name
    for b in battle.brigades_of_side("blue"):
        assert not b.commander.has("Decisive"), b.name
    general = battle.sides["red"].general
    assert general.personality == "von_zieten" and general.attacks == 2 and general.has("Brave")


def test_unit_ids_are_unique_across_both_sides():
    doc = new_battle_from_scenario("ligny-saint-amand")
    assert len(doc["units"]) == 42
    assert len(set(doc["units"]) | set(doc["brigades"])) == 42 + 8


def test_attacker_is_blue():
    scenarios = load_scenarios()
    for sid in ("demo", "ligny-saint-amand", "quatre-bras", "hougoumont", "derlons-attack"):
        assert scenarios[sid].sides.blue.name == "French", sid
    assert scenarios["plancenoit"].sides.blue.name == "Prussians"


def test_hougoumont_garrison_starts_in_the_chateau():
    doc = new_battle_from_scenario("hougoumont")
    unit = doc["units"]["guards-in-the-chateau"]
    assert (unit["formation"], unit["building_size"]) == ("building", "large")


def test_unknown_scenario():
    with pytest.raises(KeyError, match="no scenario"):
        new_battle_from_scenario("waterloo-in-space")


# --- broken scenario files ----------------------------------------------------------------

@pytest.fixture
def scenarios_copy(tmp_path):
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS / "blackpowder", folder)
    return folder


def _error(folder) -> DataError:
    with pytest.raises(DataError) as info:
        load_scenarios(directory=folder)
    return info.value


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_unknown_profile_in_a_scenario(scenarios_copy):
    _edit(scenarios_copy / "demo.yaml", "profile: prussian-lancers", "profile: prussian-lancer")
    err = _error(scenarios_copy)
    assert err.file == "demo.yaml" and err.field == "profile"
    assert "Lützow's Cavalry" in err.entry and "6th Uhlans" in err.entry
    assert "prussian-lancers" in err.message  # the suggestion


def test_staff_rating_out_of_range_in_a_scenario(scenarios_copy):
    _edit(scenarios_copy / "demo.yaml", "{name: Girard, staff_rating: 8}", "{name: Girard, staff_rating: 12}")
    err = _error(scenarios_copy)
    assert (err.file, err.entry) == ("demo.yaml", "demo")
    assert err.field == "sides.blue.brigades.0.commander.staff_rating" and "5..10" in err.message


def test_missing_title_and_unknown_field(scenarios_copy):
    _edit(scenarios_copy / "hougoumont.yaml", 'title: "Hougoumont"\n', "titel: Hougoumont\n")
    err = _error(scenarios_copy)
    assert err.file == "hougoumont.yaml" and err.entry == "hougoumont"
    assert {err.field} | {e.field for e in err.more} == {"title", "titel"}


def test_building_without_size(scenarios_copy):
    _edit(scenarios_copy / "hougoumont.yaml", ", building_size: large", "")
    err = _error(scenarios_copy)
    assert err.field.endswith("units.0.building_size")


def test_duplicate_scenario_id(scenarios_copy):
    (scenarios_copy / "zz.yaml").write_text((scenarios_copy / "demo.yaml").read_text(encoding="utf-8"),
                                            encoding="utf-8")
    err = _error(scenarios_copy)
    assert (err.file, err.entry, err.field) == ("zz.yaml", "demo", "id")


# --- forces typed in on the spot ---------------------------------------------------------

def _forces():
    blue = {"name": "French", "nation": "french", "general": "napoleon", "brigades": [
        {"name": "7th Division", "commander": {"name": "Girard", "staff_rating": 8},
         "units": [{"profile": "french-line-infantry", "name": "{n}/82nd Ligne", "count": 2},
                   {"profile": "french-line-foot-artillery", "name": "Foot Battery"}]}]}
    red = {"name": "Prussians", "nation": "prussian", "general": {"key": "blucher"}, "brigades": [
        {"name": "3rd Brigade", "commander": {"name": "Jagow", "staff_rating": 7, "rules": ["Hesitant"]},
         "units": [{"profile": "prussian-musketeer-infantry", "name": "{n}/7th Musketeers", "count": 2},
                   {"profile": "prussian-line-foot-artillery", "name": "Foot Battery"}]}]}
    return blue, red


def test_forces_build_a_battle():
    blue, red = _forces()
    doc = new_battle_from_forces("Friday night", blue, red)
    battle = Battle.from_doc(doc)
    _all_units_valid(doc)
    assert doc["name"] == "Friday night" and doc["scenario"] == {}
    assert {u.name for u in battle.units.values()} == {"1/82nd Ligne", "2/82nd Ligne", "Foot Battery",
                                                       "1/7th Musketeers", "2/7th Musketeers"}
    jagow = battle.brigades["red-3rd-brigade"].commander
    assert jagow.staff_rating == 7 and jagow.rules == ("Hesitant", "Decisive")
    assert battle.sides["blue"].general.staff_rating == 10
    assert battle.sides["red"].general.rules == ("Aggressive", "Decisive")


def test_forces_accept_forcespec_models():
    blue, red = _forces()
    doc = new_battle_from_forces("x", ForceSpec.model_validate(blue), ForceSpec.model_validate(red))
    assert len(doc["units"]) == 6


def test_forces_unknown_profile_is_named():
    blue, red = _forces()
    red["brigades"][0]["units"][0]["profile"] = "prussian-musketer-infantry"
    with pytest.raises(ForceError, match="unknown unit profile “prussian-musketer-infantry”") as info:
        new_battle_from_forces("x", blue, red)
    assert "3rd Brigade" in str(info.value) and "prussian-musketeer-infantry" in str(info.value)


def test_forces_brigade_with_no_units():
    blue, red = _forces()
    blue["brigades"].append({"name": "Reserve", "commander": {"name": "Nobody"}, "units": []})
    with pytest.raises(ForceError, match="brigade “Reserve”.*at least one unit"):
        new_battle_from_forces("x", blue, red)


@pytest.mark.parametrize("rating", [4, 11])
def test_forces_staff_rating_outside_5_to_10(rating):
    blue, red = _forces()
    blue["brigades"][0]["commander"]["staff_rating"] = rating
    with pytest.raises(ForceError, match=f"Blue, brigade “7th Division”.*{rating} is outside 5..10"):
        new_battle_from_forces("x", blue, red)


def test_forces_unknown_commander_key_and_empty_name():
    blue, red = _forces()
    blue["general"] = "bonaparte"
    with pytest.raises(ForceError, match="unknown commander “bonaparte”"):
        new_battle_from_forces("x", blue, red)
    blue, red = _forces()
    with pytest.raises(ForceError, match="needs a name"):
        new_battle_from_forces("  ", blue, red)


def test_forces_bad_formation():
    blue, red = _forces()
    blue["brigades"][0]["units"][1]["formation"] = "square"
    with pytest.raises(ForceError, match="artillery unit cannot start in"):
        new_battle_from_forces("x", blue, red)


# --- issue 12: whole forces, reserves, the clock and victory as data -------------------------

def test_every_battle_has_whole_forces_commanders_and_sources():
    for sid, s in load_scenarios().items():
        doc = new_battle_from_scenario(sid)
        battle = Battle.from_doc(doc)
        for side in ("blue", "red"):
            brigades = battle.brigades_of_side(side)
            assert len(brigades) >= 2, (sid, side)
            for b in brigades:
                assert b.commander and b.commander.name and 5 <= b.commander.staff_rating <= 10, (sid, b.name)
                assert battle.units_of_brigade(b.id), (sid, b.name)
        assert s.sources and s.turns, sid
        if sid != "demo":
            # Issue 38 paired the Allied battalions two to a unit: Hougoumont, the smallest, fields 37.
            assert s.clock and s.features and len(doc["units"]) >= 35, sid
            # Facts, each with the lines it comes from.
            assert any(".txt:" in src or ".md:" in src for src in s.sources), sid


def test_waterloo_is_the_whole_day():
    s = load_scenarios()["waterloo"]
    doc = new_battle_from_scenario("waterloo")
    assert 250 <= len(doc["units"]) <= 400
    assert (s.turns, s.clock.start, s.clock.minutes_per_turn) == (20, "11:00", 30)
    names = {u["name"] for u in doc["units"].values()}
    assert {"Guards in the Chateau", "2nd Light KGL", "2/2nd Nassau"} <= names  # Hougoumont, LHS, Papelotte
    assert {q["id"] for q in doc["victory"]["questions"]} >= {"hougoumont", "haye_sainte", "papelotte"}
    vanguard = doc["reserves"]["red-bulows-vanguard"]
    assert vanguard["schedule"] == {"kind": "turn", "turn": 12}
    assert all(doc["units"][u]["awaiting"] for u in vanguard["units"])
    assert all(doc["units"][u]["nation"] == "prussian" for u in vanguard["units"])
    prussian_brigades = [doc["brigades"][b] for b in vanguard["brigades"]]
    assert all("Decisive" in b["commander"]["rules"] for b in prussian_brigades)


def test_wavre_is_grouchy_against_thielmann():
    battle = Battle.from_doc(new_battle_from_scenario("wavre"))
    assert battle.sides["blue"].general.name == "Grouchy" and battle.sides["red"].general.name == "Thielmann"
    assert load_scenarios()["wavre"].victory.otherwise == "red"


def test_quatre_bras_i_corps_rolls_to_arrive_from_turn_6():
    doc = new_battle_from_scenario("quatre-bras")
    group = doc["reserves"]["blue-i-corps"]
    assert group["schedule"] == {"kind": "roll", "from_turn": 6, "dice": 3, "target": 16}
    assert group["status"] == "waiting" and len(group["brigades"]) == 5
    assert {doc["brigades"][b]["name"] for b in group["brigades"]} >= {"1st Division (I Corps)", "4th Division (I Corps)"}
    on_table = [u for u in doc["units"].values() if not u["awaiting"]]
    assert {u["side"] for u in on_table} == {"blue", "red"}
    assert doc["turn_limit"] == 12 and doc["clock"] == {"start": "14:00", "minutes_per_turn": 30}


def test_victory_terms_are_copied_into_the_battle():
    doc = new_battle_from_scenario("ligny-saint-amand")
    v = doc["victory"]
    assert v["checkpoint"] == 8 and v["questions"][0]["answer"] == "side"
    assert [r["winner"] for r in v["results"]] == ["blue", "red", "draw"]
    assert v["otherwise"] == "general" and v["army_break_decides"] is True
    assert doc["scenario"]["features"][0]["name"] == "Saint-Amand"


def test_scenario_info_carries_the_victory_words():
    info = {i.id: i for i in list_scenarios()}
    assert info["hougoumont"].victory.startswith("At the end of turn 12")
    assert info["waterloo"].turns == 20


@pytest.mark.parametrize("old, new, field, words", [
    ("arrives: {turn: 4,", "arrives: {turn: 14,", "sides.blue.brigades.2.arrives", "after the last turn (12)"),
    ("arrives: {turn: 10,", "arrives: {from_turn: 10, roll: 7+,", "sides.red.brigades.3.arrives.roll.target",
     "can never make 7"),
    ("arrives: {turn: 10,", "arrives: {roll: 4+,", "sides.red.brigades.3.arrives.from_turn", "from_turn"),
    ('clock: {start: "11:30"', 'clock: {start: "25:30"', "clock.start", "pattern"),
    ("{when: {main_building: blue}", "{when: {main_building: french}", "victory.results.0.when.main_building",
     "blue, red, both or neither"),
    ("{when: {main_building: blue}", "{when: {chateau: blue}", "victory.results.0.when", "no question has the id"),
    ("orchard_cleared: true}", "orchard_cleared: maybe}", "victory.results.1.when.orchard_cleared",
     "true or false"),
])
def test_scenario_terms_mistakes_name_file_field_and_line(scenarios_copy, old, new, field, words):
    path = scenarios_copy / "hougoumont.yaml"
    _edit(path, old, new)
    err = _error(scenarios_copy)
    assert (err.file, err.entry) == ("hougoumont.yaml", "hougoumont")
    assert err.field == field and words in err.message
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if new in text)
    assert f"(line {line})" in err.message


def test_a_group_arrives_one_way(scenarios_copy):
    _edit(scenarios_copy / "quatre-bras.yaml", 'arrives: {turn: 7, group: 3rd Division, at: "The western edge',
          'arrives: {turn: 8, group: 3rd Division, at: "The western edge')
    err = _error(scenarios_copy)
    assert err.file == "quatre-bras.yaml" and "group “3rd Division” arrives another way" in err.message
    assert err.field == "sides.red.brigades.8.arrives"  # Kielmansegge disagrees with Halkett


def test_unknown_profile_error_gives_its_line(scenarios_copy):
    _edit(scenarios_copy / "wavre.yaml", "profile: prussian-hussars, name: 12th Hussars",
          "profile: prussian-husars, name: 12th Hussars")
    err = _error(scenarios_copy)
    lines = (scenarios_copy / "wavre.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "prussian-husars" in text)
    assert err.field == "profile" and "12th Hussars" in err.entry and f"(line {line})" in err.message


def test_typed_in_forces_may_hold_a_brigade_back():
    blue, red = _forces()
    red["brigades"].append({"name": "Reserve", "commander": {"name": "Pirch"}, "arrives": "umpire",
                            "units": [{"profile": "prussian-landwehr-infantry", "name": "{n}/Landwehr", "count": 2}]})
    doc = new_battle_from_forces("x", blue, red)
    group = doc["reserves"]["red-reserve"]
    assert group["schedule"] == {"kind": "umpire"} and group["units"] == ["1-landwehr", "2-landwehr"]
    assert doc["units"]["1-landwehr"]["awaiting"] and not doc["units"]["1-7th-musketeers"]["awaiting"]
