"""The export file: a lossless round trip for every shipped example, and a bad file names its
problem."""
from __future__ import annotations

import json

import pytest

from referee.data.blackpowder import load_unit_profiles
from referee.data.oilandiron import load_examples
from referee.lists import example_lists, export_text, import_text
from referee.lists.blackpowder import Army, ArmyUnit, Brigade, Commander
from referee.lists.examples import example_files
from referee.lists.games import game_from_lists
from referee.lists.oilandiron import Cards, Squadron, SquadronRig, WeaponPick
from referee.lists.problems import ListFileError
from referee.lists.travel import check, new_share_code, normalise_share_code

EXAMPLES = example_lists()


def test_examples_of_both_games_are_shipped():
    systems = [lst.system for lst in EXAMPLES.values()]
    assert systems.count("blackpowder") >= 2 and systems.count("oilandiron") >= 2


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_is_ready_and_round_trips_exactly(name):
    lst = EXAMPLES[name]
    assert check(lst) == [], name
    text = export_text(lst, owner="Ann", version=3)
    again = import_text(text)
    assert again == lst
    assert export_text(again, owner="Ann", version=3) == text


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_every_example_file_is_as_the_exporter_writes_it(path):
    lst = import_text(path.read_bytes())
    assert export_text(lst) == path.read_text(encoding="utf-8")


def test_every_example_starts_a_game_against_another_of_its_game():
    for system in ("blackpowder", "oilandiron"):
        same = [lst for lst in EXAMPLES.values() if lst.system == system]
        for first in same:
            second = next((o for o in same if getattr(o, "tier", None) == getattr(first, "tier", None)), first)
            doc = game_from_lists("Test", first, second)
            assert doc["name"] == "Test"


def test_every_unit_profile_round_trips_in_a_list():
    units = [ArmyUnit(profile=p, name=p, points=1, notes="n") for p in load_unit_profiles()]
    army = Army(name="Everything", nation="british", general=Commander(name="G", rules=["Decisive"]),
                brigades=[Brigade(name=f"B{i}", commander=Commander(name=f"C{i}", staff_rating=6),
                                  units=units[i:i + 6]) for i in range(0, len(units), 6)],
                unassigned_commanders=[Commander(name="Spare")])
    assert import_text(export_text(army)) == army  # a draft travels with all its problems


def test_every_example_card_round_trips_as_a_typed_in_card():
    ex = load_examples()
    renamed = lambda c: c.model_copy(update={"key": "my_" + c.key, "example": False})
    sq = Squadron(name="Cards", tier="skirmish", formation="sword",
                  cards=Cards(chassis=[renamed(c) for c in ex.chassis], engines=[renamed(e) for e in ex.engines],
                              weapons=[renamed(w) for w in ex.weapons]),
                  rigs=[SquadronRig(name="R", chassis="my_example_light_scout",
                                    weapons=[WeaponPick(card="my_example_field_gun", mount="left")])])
    assert import_text(export_text(sq)) == sq


def good() -> dict:
    return json.loads(export_text(EXAMPLES["example-sword-squadron"]))


@pytest.mark.parametrize("mangle, message", [
    (lambda d: "{not json", "not valid JSON"),
    (lambda d: "", "empty"),
    (lambda d: json.dumps([1, 2]), "not a Referee list export"),
    (lambda d: json.dumps({**d, "format": "other"}), "not a Referee list export"),
    (lambda d: json.dumps({**d, "format_version": 99}), "version 99"),
    (lambda d: json.dumps({**d, "system": "chess"}), "“system” is 'chess'"),
    (lambda d: json.dumps({**d, "extra": 1}), "Unknown field(s) at the top of the file: extra"),
    (lambda d: json.dumps({k: v for k, v in d.items() if k != "list"}), "no “list” section"),
    (lambda d: json.dumps({**d, "list": {**d["list"], "rigs": [{"name": "X"}]}}), "list.rigs.0.chassis"),
    (lambda d: json.dumps({**d, "list": {**d["list"], "tier": 5}}), "list.tier"),
    (lambda d: json.dumps({**d, "list": {**d["list"], "colour": "red"}}), "list.colour"),
    (lambda d: json.dumps({**d, "list": {**d["list"], "system": "blackpowder"}}), "its list says"),
])
def test_a_bad_file_names_its_problem(mangle, message):
    with pytest.raises(ListFileError) as err:
        import_text(mangle(good()))
    assert message in str(err.value)


def test_a_file_that_is_not_text_is_refused():
    with pytest.raises(ListFileError, match="not text"):
        import_text(b"\xff\xfe\x00garbage")


def test_share_codes_are_short_and_forgiving():
    code = new_share_code()
    assert len(code) == 16 and not set(code) & set("01OIL")  # 16 since issue 14: about 79 bits
    assert normalise_share_code(f" {code[:4].lower()}-{code[4:]} ") == code
