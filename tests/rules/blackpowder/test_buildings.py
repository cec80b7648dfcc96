"""Buildings on fire: lighting, three turns burning, dousing, and undo leaving no trace."""
import pytest

from referee.blackpowder import SYSTEM
from referee.blackpowder.buildings import DouseFacts, FireBurnsFacts, SetFireFacts
from referee.blackpowder.model import Battle, RuleError
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes, revert_changes


@pytest.fixture(name="doc", scope="module")
def _doc(artillery, cavalry, infantry, make_doc):
    def doc():
        return make_doc(units=[infantry("s"), cavalry("c"), artillery("g"), artillery("h", artillery_kind="howitzer"),
                               artillery("r", artillery_kind="rocket"), infantry("in", "red", formation="building")])
    return doc


def act(d, name, facts, dice=()):
    r = SYSTEM.action(name).resolve(d, facts, ScriptedDice(dice))
    return r, apply_changes(d, r.all_changes)


def building(d, key="la-haye-sainte"):
    return d["buildings"][key]


def test_unit_rolls_its_shooting_value_any_six_lights_the_building(doc):
    r, d = act(doc(), "set_fire", SetFireFacts(building="La Haye Sainte", unit="s", garrison="in"), [1, 6, 2])
    assert r.data["lit"] and len(r.dice) == 3
    assert building(d) == {"name": "La Haye Sainte", "burning": True, "burning_turns": 0, "destroyed": False,
                           "garrison": "in"}


def test_no_six_no_fire(doc):
    r, d = act(doc(), "set_fire", SetFireFacts(building="La Haye Sainte", unit="s"), [5, 5, 5])
    assert not r.data["lit"] and "buildings" not in d


def test_howitzer_needs_a_six(doc):
    r, _ = act(doc(), "set_fire", SetFireFacts(building="Farm", unit="h"), [5])
    assert not r.data["lit"] and len(r.dice) == 1
    r, _ = act(doc(), "set_fire", SetFireFacts(building="Farm", unit="r"), [6])
    assert r.data["lit"]


def test_howitzer_or_rocket_plus_one_if_hit_more_than_once(doc):
    r, _ = act(doc(), "set_fire", SetFireFacts(building="Farm", unit="h", hit_more_than_once=True), [5])
    assert r.data["lit"] and [m.rule for m in r.modifiers] == ["Hit more than once"]


def test_cannon_cannot_set_fires(doc):
    with pytest.raises(RuleError, match="howitzers and rockets"):
        act(doc(), "set_fire", SetFireFacts(building="Farm", unit="g"), [6])


def test_unit_without_shooting_cannot_set_fires(doc):
    with pytest.raises(RuleError):
        act(doc(), "set_fire", SetFireFacts(building="Farm", unit="c"), [6])


def test_infantry_gets_no_repeated_hit_bonus(doc):
    with pytest.raises(RuleError):
        act(doc(), "set_fire", SetFireFacts(building="Farm", unit="s", hit_more_than_once=True), [6, 6, 6])


def test_three_consecutive_turns_destroy_the_building_and_garrison(doc):
    _, d = act(doc(), "set_fire", SetFireFacts(building="La Haye Sainte", unit="s", garrison="in"), [6, 1, 1])
    for turn in (1, 2):
        r, d = act(d, "fire_burns", FireBurnsFacts(building="La Haye Sainte"))
        assert building(d)["burning_turns"] == turn and not r.data["destroyed"]
    r, d = act(d, "fire_burns", FireBurnsFacts(building="La Haye Sainte"))
    assert r.data["destroyed"] and building(d)["destroyed"] and not building(d)["burning"]
    assert Battle.from_doc(d).unit("in").destroyed
    with pytest.raises(RuleError, match="burnt down"):
        act(d, "set_fire", SetFireFacts(building="La Haye Sainte", unit="s"), [6, 6, 6])


def test_already_burning_cannot_be_lit_again(doc):
    _, d = act(doc(), "set_fire", SetFireFacts(building="Farm", unit="s"), [6, 1, 1])
    with pytest.raises(RuleError, match="already burning"):
        act(d, "set_fire", SetFireFacts(building="Farm", unit="s"), [6, 1, 1])


@pytest.mark.parametrize("die,out", [(1, False), (2, False), (3, False), (4, True), (5, True), (6, True)])
def test_douse_fire_on_four_to_six(die, out, doc):
    _, d = act(doc(), "set_fire", SetFireFacts(building="Farm", unit="s", garrison="in"), [6, 1, 1])
    _, d = act(d, "fire_burns", FireBurnsFacts(building="Farm"))
    r, d = act(d, "douse_fire", DouseFacts(building="Farm"), [die])
    assert r.data["doused"] is out
    assert building(d, "farm")["burning"] is not out
    assert building(d, "farm")["burning_turns"] == (0 if out else 1)


def test_douse_needs_a_garrison(doc):
    _, d = act(doc(), "set_fire", SetFireFacts(building="Farm", unit="s"), [6, 1, 1])
    with pytest.raises(RuleError, match="inside"):
        act(d, "douse_fire", DouseFacts(building="Farm"), [6])


def test_fire_burns_only_when_burning(doc):
    with pytest.raises(RuleError, match="not on fire"):
        act(doc(), "fire_burns", FireBurnsFacts(building="Farm"))


def test_undo_of_the_first_fire_restores_the_document_exactly(doc):
    before = doc()
    r, d = act(before, "set_fire", SetFireFacts(building="Farm", unit="s"), [6, 1, 1])
    assert revert_changes(d, r.all_changes) == before


def test_fire_odds(doc):
    d = doc()
    assert SYSTEM.action("set_fire").odds(d, SetFireFacts(building="Farm", unit="s")) == ["Fire starts: 42.1%"]
    assert SYSTEM.action("set_fire").odds(d, SetFireFacts(building="Farm", unit="h", hit_more_than_once=True)) == \
        ["Fire starts: 33.3%"]
    assert SYSTEM.action("douse_fire").odds(d, DouseFacts(building="Farm", garrison="in")) == ["Fire put out: 50.0%"]
