"""The Black Powder army lists: every profile of the rules summary is present with its numbers,
and a broken file says which file, entry and field to fix."""
import dataclasses
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from referee.blackpowder.model import Commander, Unit
from referee.data.blackpowder import ARMYLISTS, load_commanders, load_nations, load_unit_profiles, unit_from_profile
from referee.data.errors import DataError

# The rules summary's unit tables, row by row, as data (the summary stays outside the repository).
SUMMARY = yaml.safe_load((Path(__file__).with_name("blackpowder_summary.yaml")).read_text(encoding="utf-8"))
TABLES = {  # heading in the summary -> number of rows
    "British & KGL Infantry": 8, "British & KGL Cavalry": 5, "British & KGL Artillery": 4,
    "Hanoverian Units": 4, "Netherlands, Nassau & Brunswick": 12, "Prussian Units": 11,
    "French Line Units": 8, "Imperial Guard Units": 9,
}


@pytest.fixture(scope="module")
def profiles():
    return load_unit_profiles()


# --- every file loads ---------------------------------------------------------------------

def test_every_data_file_loads(profiles):
    files = {p.name for p in ARMYLISTS.glob("*.yaml")}
    assert {"nations.yaml", "commanders.yaml", "british-kgl.yaml", "prussian.yaml"} <= files
    assert len(profiles) == 71  # 63, and 8 lines derived for the Waterloo battles (issue 38)
    assert set(load_nations()) >= {"british", "kgl", "hanoverian", "netherlands", "nassau", "brunswick",
                                   "prussian", "french"}
    assert set(load_commanders()) == {"wellington", "napoleon", "ney", "blucher", "von-zieten"}


def test_counts_per_nation(profiles):
    published = Counter(p.nation for p in profiles.values() if not p.example)
    assert published == {"british": 12, "kgl": 5, "hanoverian": 4, "netherlands": 5, "nassau": 3,
                         "brunswick": 4, "prussian": 11, "french": 17}


def test_counts_per_list(profiles):
    per_list = Counter(p.army_list for p in profiles.values() if not p.example)
    assert per_list == {"British & KGL": 17, "Hanoverian": 4, "Netherlands, Nassau & Brunswick": 12,
                        "Prussian": 11, "French Line": 8, "Imperial Guard": 9}


# --- row by row ---------------------------------------------------------------------------

SAMPLE = [
    # id, type, size, bases, H-t-H, shooting (or artillery dice), morale, stamina, range, rules
    ("british-foot-guards", "infantry", "standard", 4, 7, 4, 3, 4, 18,
     ["Column of Companies", "Cannot Form Attack Column", "Elite 3+", "First Fire", "Four-Deep Line",
      "Lie Down", "Mixed Formation", "Must Form Square", "Reliable", "Steady Line"]),
    ("highland-infantry", "infantry", "standard", 4, 6, 3, 4, 3, 18,
     ["Column of Companies", "Cannot Form Attack Column", "First Fire", "Four-Deep Line", "Lie Down",
      "Mixed Formation", "Must Form Square", "Steady Line", "Tough Fighters"]),
    ("british-riflemen-small", "infantry", "small", 3, 4, 3, 4, 2, 24,
     ["Column of Companies", "Cannot Form Attack Column", "Elite 4+", "First Fire", "Four-Deep Line",
      "Lie Down", "Must Form Square", "Reliable", "Rifle Mixed Formation", "Sharp Shooters", "Skirmishers"]),
    ("british-household-cavalry-small", "cavalry", "small", 2, 6, None, 3, 2, 12,
     ["Deep Formation", "Gallop at Anything", "Heavy Cavalry D3", "Reliable"]),
    ("royal-horse-artillery", "artillery", "standard", 3, 1, "3-2-1", 4, 1, 36,
     ["Marauder", "Reliable", "Shrapnel"]),
    ("hanoverian-field-light-infantry", "infantry", "standard", 4, 6, 3, 4, 3, 18,
     ["Column of Companies", "Cannot Form Attack Column", "Must Form Square", "Sharp Shooters", "Skirmishers"]),
    ("dutch-militia", "infantry", "standard", 4, 6, 3, 5, 3, 18,
     ["Freshly Raised", "Mixed Formation", "Must Form Square"]),
    ("nassau-jager-company", "infantry", "small", 3, 2, 1, 4, 1, 24,
     ["Must Form Square", "Sharp Shooters", "Skirmishers"]),
    ("brunswick-uhlans", "cavalry", "standard", 3, 7, None, 4, 3, 12, ["Deep Formation", "Lancer", "Marauder"]),
    ("prussian-fusilier-infantry", "infantry", "standard", 4, 6, 3, 4, 3, 18,
     ["Column of Companies", "Mixed Formation", "Must Form Square", "Sharp Shooters", "Skirmishers"]),
    ("prussian-jager-companies-small", "infantry", "small", 3, 4, 2, 4, 2, 24,
     ["Column of Companies", "Elite 5+", "Mixed Formation", "Must Form Square", "Reliable",
      "Sharp Shooters", "Skirmishers"]),
    ("prussian-landwehr-cavalry", "cavalry", "standard", 3, 5, None, 4, 3, 12, ["Lancer", "Marauder", "Unreliable"]),
    ("prussian-line-foot-artillery", "artillery", "standard", 3, 1, "3-2-1", 4, 2, 48, []),
    ("french-light-infantry", "infantry", "standard", 4, 6, 3, 4, 3, 18,
     ["Column of Companies", "Mixed Formation", "Must Form Square", "Pas de Charge", "Sharp Shooters",
      "Skirmishers"]),
    ("french-cuirassiers", "cavalry", "standard", 3, 9, None, 3, 3, 12, ["Heavy Cavalry D3", "Reliable"]),
    ("old-guard-grenadiers-chasseurs", "infantry", "standard", 4, 8, 4, 3, 4, 18,
     ["Elite 3+", "Mixed Formation", "Must Form Square", "Pas de Charge", "Reliable", "Tough Fighters"]),
    ("guard-heavy-cavalry-large", "cavalry", "large", 4, 11, None, 3, 4, 12, ["Heavy Cavalry D3", "Reliable"]),
    ("guard-heavy-artillery", "artillery", "standard", 3, 1, "3-2-1", 4, 3, 48, ["Elite 4+", "Reliable"]),
]


@pytest.mark.parametrize("row", SAMPLE, ids=[r[0] for r in SAMPLE])
def test_sample_rows_match_the_tables(profiles, row):
    pid, type_, size, bases, hth, shooting, morale, stamina, rng, rules = row
    p = profiles[pid]
    assert (p.type, p.size, p.bases, p.hand_to_hand, p.morale, p.stamina, p.weapon_range) == \
        (type_, size, bases, hth, morale, stamina, rng)
    if isinstance(shooting, str):
        assert p.shooting is None and p.artillery_dice == shooting and p.artillery_kind
    else:
        assert p.shooting == shooting and p.artillery_dice is None
    assert list(p.special_rules) == rules


def _summary_rows() -> dict[int, list[str]]:
    """Line number -> cells of every unit row in the summary's unit tables."""
    rows = {}
    for heading, table in SUMMARY["unit_tables"].items():
        if heading in TABLES:
            rows.update({int(n): [str(c).strip() for c in cells] for n, cells in table.items()})
    return rows


def _expand(rules: str, previous: list[str], named: dict[str, list[str]]) -> list[str]:
    """The summary's shorthand ("As Line + …", "As above", "As Jäger Battalion") written out."""
    if rules in ("–", ""):
        return []
    m = re.fullmatch(r"As (above|Line|Musketeer|Jäger Battalion)(?: \+ (.*))?", rules)
    if not m:
        return [r.strip() for r in rules.split(",")]
    base = previous if m.group(1) == "above" else named[m.group(1)]
    return base + ([r.strip() for r in m.group(2).split(",")] if m.group(2) else [])


def test_every_row_of_the_summary_is_a_profile_with_its_numbers(profiles):
    rows = _summary_rows()
    assert len(rows) == sum(TABLES.values())
    by_line = {int(p.source.rsplit(":", 1)[1]): p for p in profiles.values() if not p.example}
    assert set(by_line) == set(rows), "each table row has exactly one profile"
    previous: list[str] = []
    named: dict[str, list[str]] = {}
    for n in sorted(rows):
        name, hth, shoot, morale, stamina, rules = rows[n]
        p = by_line[n]
        expected_rules = _expand(rules, previous, named)
        for key, label in (("Line Infantry", "Line"), ("Musketeer", "Musketeer"),
                           ("Jäger Battalion", "Jäger Battalion")):
            if key in name and not rules.startswith("As"):
                named[label] = expected_rules
        previous = expected_rules
        assert p.hand_to_hand == int(hth), name
        assert p.shooting_text == shoot, name
        assert p.morale_text == morale, name
        assert p.stamina == int(stamina), name
        assert list(p.special_rules) == expected_rules, name
        assert ("(Small)" in name) == (p.size == "small"), name
        assert ("(Large)" in name) == (p.size == "large"), name


def test_bases_follow_the_sizes_table(profiles):
    expected = {("infantry", "large"): 5, ("infantry", "standard"): 4, ("infantry", "small"): 3,
                ("cavalry", "large"): 4, ("cavalry", "standard"): 3, ("cavalry", "small"): 2,
                ("artillery", "standard"): 3}
    for p in profiles.values():
        assert p.bases == expected[(p.type, p.size)], p.id


def test_ranges_by_weapon(profiles):
    for p in profiles.values():
        if p.artillery_kind == "horse":
            assert p.weapon_range == 36, p.id
        elif p.artillery_kind == "foot":
            assert p.weapon_range == 48, p.id
        elif p.type == "cavalry":
            assert (p.weapon, p.weapon_range) == ("smoothbore carbines", 12), p.id
        elif p.type == "infantry":
            assert p.weapon_range == (24 if p.weapon == "rifled muskets" else 18), p.id


def test_no_shorthand_rules_left(profiles):
    for p in profiles.values():
        assert not any(r.startswith("As ") for r in p.special_rules), p.id


def test_howitzer_and_rockets_are_labelled_examples(profiles):
    examples = {p.id: p for p in profiles.values() if p.example}
    # Issue 38: the lines the Waterloo battles need and the lists lack are derived examples too.
    assert set(examples) == {"example-field-howitzer", "example-congreve-rocket-troop", "french-line-horse-artillery",
                             "french-horse-howitzer", "hanoverian-hussars", "hanoverian-foot-artillery",
                             "netherlands-foot-artillery", "netherlands-horse-artillery",
                             "brunswick-foot-artillery", "brunswick-horse-artillery"}
    assert examples["example-field-howitzer"].weapon_range == 36
    assert examples["example-field-howitzer"].artillery_kind == "howitzer"
    assert examples["example-congreve-rocket-troop"].weapon_range == 60
    assert all(p.note for p in examples.values())


# --- nations and commanders -----------------------------------------------------------------

def test_prussian_national_rules_are_data():
    prussia = load_nations()["prussian"]
    assert prussia.infantry_tough_fighters_against == ("french",)
    assert prussia.commander_rules == ("Decisive",)
    assert prussia.sub_commander_points == 10


@pytest.mark.parametrize("cid,rating,rules,attacks,defending", [
    ("wellington", 9, ("Decisive",), 1, 3),
    ("napoleon", 10, ("Aggressive", "Decisive"), 3, 3),
    ("ney", 8, ("Headstrong",), 2, 2),
    ("blucher", 8, ("Aggressive",), 2, 2),
    ("von-zieten", 8, ("Decisive", "Brave"), 2, 2),
])
def test_key_commanders(cid, rating, rules, attacks, defending):
    c = load_commanders()[cid]
    assert (c.staff_rating, c.rules, c.attacks, c.attacks_defending) == (rating, rules, attacks, defending)


@pytest.mark.parametrize("cid,effect,value", [
    ("wellington", "chooses_deployment_side", True),
    ("napoleon", "supporters_retake_break_tests", True),
    ("ney", "valiant_units", "D3"),
    ("blucher", "ferocious_charge_units", 1),
    ("blucher", "free_move_before_game", True),
    ("von-zieten", "break_test_bonus_within_12", 1),
])
def test_key_commanders_personal_rules_are_data(cid, effect, value):
    assert getattr(load_commanders()[cid], effect) == value


def test_the_battle_document_carries_everything_the_engine_reads_of_a_commander():
    """The engine never reads commanders.yaml: each key commander reaches it whole through the
    battle document, so a field added to one side and not the other fails here."""
    engine_fields = {f.name for f in dataclasses.fields(Commander)}
    for c in load_commanders().values():
        doc = c.as_commander()
        assert set(doc) == engine_fields, c.id
        read = Commander.from_dict(doc)
        for name in engine_fields - {"rules"}:
            assert getattr(read, name) == getattr(c, name), (c.id, name)
        assert read.rules == c.rules


def test_units_carry_their_profiles_nation():
    d = unit_from_profile("prussian-landwehr-infantry", "u1", "1st Westphalian", "red", "b1")
    assert d["nation"] == "prussian"
    assert Unit.from_dict(d).nation == "prussian"


# --- units for a battle -------------------------------------------------------------------

def test_unit_from_profile_is_a_valid_unit(profiles):
    for pid in profiles:
        d = unit_from_profile(pid, "u1", "Test", "blue", "b1")
        u = Unit.from_dict(d)
        assert u.profile == pid and u.stamina == profiles[pid].stamina
        assert u.formation == ("deployed" if u.is_artillery else "line")


def test_unit_from_profile_takes_status():
    d = unit_from_profile("french-line-infantry", "u1", "82nd Ligne", "blue", "b1",
                          formation="attack_column", casualties=1, disordered=True)
    assert (d["formation"], d["casualties"], d["disordered"]) == ("attack_column", 1, True)


def test_unit_from_profile_refuses_bad_input():
    with pytest.raises(KeyError, match="no unit profile"):
        unit_from_profile("french-lin-infantry", "u1", "x", "blue", "b1")
    with pytest.raises(TypeError, match="stamina"):
        unit_from_profile("french-line-infantry", "u1", "x", "blue", "b1", stamina=9)
    with pytest.raises(ValueError, match="cannot start in"):
        unit_from_profile("french-dragoons", "u1", "x", "blue", "b1", formation="square")


# --- broken files -----------------------------------------------------------------------

@pytest.fixture
def lists_copy(tmp_path):
    folder = tmp_path / "lists"
    shutil.copytree(ARMYLISTS, folder)
    return folder


def _break(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _error(folder: Path) -> DataError:
    with pytest.raises(DataError) as info:
        load_unit_profiles(folder)
    return info.value


def test_bad_morale_names_file_entry_and_field(lists_copy):
    _break(lists_copy, "prussian.yaml", "  - id: prussian-hussars\n    name: Prussian Hussars\n    nation: prussian\n"
           "    type: cavalry\n    hand_to_hand: 6\n    shooting: –\n    morale: 4+",
           "  - id: prussian-hussars\n    name: Prussian Hussars\n    nation: prussian\n"
           "    type: cavalry\n    hand_to_hand: 6\n    shooting: –\n    morale: good")
    err = _error(lists_copy)
    assert (err.file, err.entry, err.field) == ("prussian.yaml", "prussian-hussars", "morale")
    assert "prussian.yaml" in str(err) and "prussian-hussars" in str(err) and "morale" in str(err)


def test_misspelt_field_is_refused(lists_copy):
    _break(lists_copy, "hanoverian.yaml", "    name: Landwehr\n    nation: hanoverian\n    type: infantry\n"
           "    hand_to_hand: 6\n    shooting: 3\n    morale: 4+\n    stamina: 3",
           "    name: Landwehr\n    nation: hanoverian\n    type: infantry\n"
           "    hand_to_hand: 6\n    shooting: 3\n    morale: 4+\n    stamina: 3\n    stamna: 3")
    err = _error(lists_copy)
    assert (err.file, err.entry, err.field) == ("hanoverian.yaml", "hanoverian-landwehr", "stamna")


def test_shorthand_rules_are_refused(lists_copy):
    _break(lists_copy, "british-kgl.yaml",
           "special_rules: [Column of Companies, Cannot Form Attack Column, First Fire, Four-Deep Line, Lie Down, "
           "Mixed Formation, Must Form Square, Steady Line, Tough Fighters]",
           "special_rules: [As Line + Tough Fighters]")
    err = _error(lists_copy)
    assert (err.file, err.entry, err.field) == ("british-kgl.yaml", "highland-infantry", "special_rules")
    assert "written out" in err.message


def test_artillery_without_kind_names_the_field(lists_copy):
    _break(lists_copy, "french-line.yaml", "    artillery_kind: foot\n", "")
    err = _error(lists_copy)
    assert (err.file, err.entry, err.field) == ("french-line.yaml", "french-line-foot-artillery", "artillery_kind")


def test_unknown_nation_and_duplicate_id(lists_copy, tmp_path):
    _break(lists_copy, "imperial-guard.yaml", "  - id: young-guard\n    name: Young Guard\n    nation: french",
           "  - id: young-guard\n    name: Young Guard\n    nation: francais")
    err = _error(lists_copy)
    assert (err.file, err.entry, err.field) == ("imperial-guard.yaml", "young-guard", "nation")

    again = tmp_path / "again"
    shutil.copytree(ARMYLISTS, again)
    copy = (again / "hanoverian.yaml").read_text(encoding="utf-8")
    (again / "zz-copy.yaml").write_text(copy, encoding="utf-8")
    err = _error(again)
    assert (err.file, err.entry, err.field) == ("zz-copy.yaml", "hanoverian-field-line-infantry", "id")
    assert "hanoverian.yaml" in err.message


def test_yaml_syntax_error_gives_the_line(lists_copy):
    (lists_copy / "broken.yaml").write_text("title: Broken\nunits:\n  - id: [unclosed\n", encoding="utf-8")
    err = _error(lists_copy)
    assert err.file == "broken.yaml" and "line" in err.message


def test_every_problem_in_a_file_is_listed(lists_copy):
    _break(lists_copy, "hanoverian.yaml", "hand_to_hand: 6", "hand_to_hand: many")
    _break(lists_copy, "hanoverian.yaml", "stamina: 3", "stamina: 0")
    err = _error(lists_copy)
    text = str(err)
    assert "hand_to_hand" in text and "stamina" in text and len(text.splitlines()) == 2
