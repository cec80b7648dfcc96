"""A form's pick lists of units are listed once per version and shared by every field drawn from
it (battle_view._UnitChoices.listed); a new version lists what that version holds."""
from __future__ import annotations

from referee.blackpowder import board_view as battle_view
from referee.blackpowder.board_view import choices_for
from referee.blackpowder.model import Battle
from referee.data.scenarios import new_battle_from_scenario
from referee.web.forms import FieldView


def _targets(doc: dict, kept: dict) -> list:
    view = FieldView(name="target", title="Target", kind="ref", required=True, ref="unit", side="any")
    return choices_for(Battle.from_doc(doc), view, kept)


def test_each_version_lists_its_own_units_and_side_names():
    doc = new_battle_from_scenario("demo")
    kept: dict = {}
    first = _targets(doc, kept)
    gone = first[0].value
    assert _targets(doc, kept) == first  # the same version again: the same list
    # The next version, made copy-on-write as the engines make it: one unit broken.
    units = dict(doc["units"])
    units[gone] = {**units[gone], "destroyed": True}
    later = {**doc, "units": units}
    assert gone not in [c.value for c in _targets(later, kept)]
    # A side renamed with the units document untouched: the chips are grouped under the new name.
    side = doc["units"][first[-1].value]["side"]
    renamed = {**later, "sides": {**later["sides"], side: {**later["sides"][side], "name": "New name"}}}
    assert "New name" in {c.group for c in _targets(renamed, kept)}


def _checked(html: str) -> list[str]:
    import re
    return re.findall(r'value="([^"]+)" checked', html)


def test_chips_kept_with_their_choice_still_follow_what_is_picked():
    from referee.core.board import Choice
    from referee.web.chips import chips
    choices = [Choice(f"u{i}", f"Unit {i}", "Line", "Blue", "blue") for i in range(4)]

    def field(name, value, multiple=False):
        return FieldView(name=name, title=name, kind="ref", required=True, ref="unit", side="any",
                         multiple=multiple, value=value, choices=choices)

    assert _checked(chips(field("target", "u1"))) == ["u1"]
    assert _checked(chips(field("target", "u2"))) == ["u2"]  # the same choices, another pick
    assert _checked(chips(field("target", ""))) == []
    other = chips(field("shooter", "u2"))
    assert 'name="shooter"' in other and 'name="target"' not in other
    several = chips(field("supporters", ["u0", "u3"], multiple=True))
    assert _checked(several) == ["u0", "u3"] and several.count('type="checkbox"') == 4
    assert _checked(chips(field("supporters", [], multiple=True))) == []
    assert chips(field("target", "u1")).count('<span class="chip-group">Blue</span>') == 1


def _break_test_list(doc: dict, side: str, picked: list[str] = ()) -> list[str]:
    name = "commander_within_12" if side == "commander counts" else "von_zieten_within_12"
    view = FieldView(name=name, title=name, kind="ref", required=False, ref="unit", side=side, multiple=True,
                     value=list(picked))
    return [c.value for c in choices_for(Battle.from_doc(doc), view, {})]


def test_a_break_test_list_holds_only_the_units_whose_tests_it_can_change():
    """"Units with their brigade commander within 12\"" lists only the units of brigades whose
    commander changes a test (Inspirational, Loathed, one who adds to tests); "within 12\" of von
    Zieten" lists every unit in play only when he is in the battle. A unit already picked stays."""
    doc = new_battle_from_scenario("demo")
    battle = Battle.from_doc(doc)
    assert _break_test_list(doc, "commander counts") == []  # the demo's commanders are Decisive only
    assert _break_test_list(doc, "von Zieten present") == []
    some = next(iter(doc["units"]))
    assert _break_test_list(doc, "commander counts", [some]) == [some]  # what is picked stays listed
    # One brigade's commander made Inspirational, copy-on-write as the engines change a document.
    bid = next(iter(doc["brigades"]))
    brigade = doc["brigades"][bid]
    inspired = {**doc, "brigades": {**doc["brigades"], bid: {
        **brigade, "commander": {**brigade["commander"], "rules": ["Inspirational"]}}}}
    in_play = [u.id for u in battle.units_of_brigade(bid) if u.in_play]
    assert in_play and sorted(_break_test_list(inspired, "commander counts")) == sorted(in_play)
    loathed = {**doc, "brigades": {**doc["brigades"], bid: {
        **brigade, "commander": {**brigade["commander"], "rules": ["Loathed"]}}}}
    assert sorted(_break_test_list(loathed, "commander counts")) == sorted(in_play)
    # von Zieten leading an army: every unit in play may be near him.
    side = next(iter(doc["sides"]))
    zieten = {**doc, "sides": {**doc["sides"], side: {
        **doc["sides"][side], "general": {**doc["sides"][side]["general"], "break_test_bonus_within_12": 1}}}}
    everyone = sorted(u.id for u in battle.units.values() if u.in_play)
    assert sorted(_break_test_list(zieten, "von Zieten present")) == everyone
    # He is a commander whose nearness counts for his own brigade's units as well.
    led = {**doc, "brigades": {**doc["brigades"], bid: {
        **brigade, "commander": {**brigade["commander"], "break_test_bonus_within_12": 1}}}}
    assert sorted(_break_test_list(led, "commander counts")) == sorted(in_play)
    assert sorted(_break_test_list(led, "von Zieten present")) == everyone


def test_the_combat_round_form_lists_no_unit_for_a_break_test_fact_that_changes_nothing(client, table):
    html = client.get(f"/games/{table.id}/act/combat_round", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'name="commander_within_12" value=' not in html
    assert 'name="von_zieten_within_12" value=' not in html
    assert html.count('name="cannot_retire" value=') == sum(
        1 for u in table.state["units"].values() if not (u.get("destroyed") or u.get("off_table")))


def test_a_support_list_leaves_out_units_fighting_in_another_combat():
    """The chargers' supports: their side's units in play and fighting nowhere (the engine refuses
    a supporter that is fighting itself); one already picked stays listed so it can be unpicked."""
    doc = new_battle_from_scenario("demo")
    battle = Battle.from_doc(doc)
    blue = [u.id for u in battle.units.values() if u.side == "blue" and u.in_play]
    red = [u.id for u in battle.units.values() if u.side == "red" and u.in_play]
    charger, elsewhere, free = blue[0], blue[1], blue[2:]
    units = {**doc["units"], charger: {**doc["units"][charger], "in_combat": True},
             elsewhere: {**doc["units"][elsewhere], "in_combat": True},
             red[0]: {**doc["units"][red[0]], "in_combat": True}}
    combats = {"c1": {"id": "c1", "status": "open", "attackers": [charger], "defenders": [red[0]], "round": 1}}
    fight = {**doc, "units": units, "combats": combats}

    def supports(picked=()):
        view = FieldView(name="attacker_rear_support", title="rear", kind="ref", required=False, ref="unit",
                         side="chargers", of="combat", of_value="c1", multiple=True, value=list(picked))
        return [c.value for c in choices_for(Battle.from_doc(fight), view, {})]

    assert supports() == free
    assert sorted(supports([elsewhere])) == sorted([elsewhere, *free])


def test_what_a_form_works_out_once_per_version_follows_the_next_version():
    """The units fighting and those whose commander counts are worked out once per document and
    kept in the game's store (battle_view._UnitChoices): a new version, made copy-on-write, is
    worked out again."""
    doc = new_battle_from_scenario("demo")
    kept: dict = {}
    view = FieldView(name="commander_within_12", title="c", kind="ref", required=False, ref="unit",
                     side="commander counts", multiple=True, value=[])
    assert choices_for(Battle.from_doc(doc), view, kept) == []
    bid = next(iter(doc["brigades"]))
    brigade = doc["brigades"][bid]
    inspired = {**doc, "brigades": {**doc["brigades"], bid: {
        **brigade, "commander": {**brigade["commander"], "rules": ["Inspirational"]}}}}
    in_play = sorted(u.id for u in Battle.from_doc(doc).units_of_brigade(bid) if u.in_play)
    assert sorted(c.value for c in choices_for(Battle.from_doc(inspired), view, kept)) == in_play
    assert choices_for(Battle.from_doc(doc), view, kept) == []  # the first version again

    blue = [u.id for u in Battle.from_doc(doc).units.values() if u.side == "blue" and u.in_play]
    red = next(u.id for u in Battle.from_doc(doc).units.values() if u.side == "red" and u.in_play)
    combats = {"c1": {"id": "c1", "status": "open", "attackers": [blue[0]], "defenders": [red], "round": 1}}

    def supports(units):
        fight = {**doc, "units": units, "combats": combats}
        support = FieldView(name="attacker_rear_support", title="rear", kind="ref", required=False, ref="unit",
                            side="chargers", of="combat", of_value="c1", multiple=True, value=[])
        return [c.value for c in choices_for(Battle.from_doc(fight), support, kept)]
    fighting = {**doc["units"], blue[0]: {**doc["units"][blue[0]], "in_combat": True}}
    assert supports(fighting) == blue[1:]
    elsewhere = {**fighting, blue[1]: {**fighting[blue[1]], "in_combat": True}}
    assert supports(elsewhere) == blue[2:]


def test_a_new_version_lists_again_only_the_units_it_changed(monkeypatch):
    """The listing of the version before is kept: a new version made copy-on-write lists the same
    as a listing made afresh, with the very chips of the units it left alone, and looks at no other
    unit's chip; units that came or went are listed afresh."""
    doc = new_battle_from_scenario("demo")
    kept: dict = {}
    first = _targets(doc, kept)
    hit = first[1].value
    units = dict(doc["units"])
    units[hit] = {**units[hit], "disordered": True}
    later = {**doc, "units": units}
    looked: list[str] = []
    one = battle_view._UnitChoices.one
    monkeypatch.setattr(battle_view._UnitChoices, "one", lambda self, uid: looked.append(uid) or one(self, uid))
    again = _targets(later, kept)
    assert looked == [hit]
    assert again == _targets(later, {})
    assert [a is b for a, b in zip(first, again)] == [c.value != hit for c in first]
    assert again[1] != first[1] and again[1].tone == "disordered"
    # A unit gone from the document: listed afresh, without it.
    fewer = {**later, "units": {k: v for k, v in units.items() if k != first[0].value}}
    assert _targets(fewer, kept) == _targets(fewer, {}) and first[0].value not in [c.value for c in _targets(fewer, kept)]


def test_the_units_whose_commander_counts_are_kept_while_brigades_and_sides_are_the_same(monkeypatch):
    doc = new_battle_from_scenario("demo")
    bid = next(iter(doc["brigades"]))
    brigade = doc["brigades"][bid]
    inspired = {**doc, "brigades": {**doc["brigades"], bid: {
        **brigade, "commander": {**brigade["commander"], "rules": ["Inspirational"]}}}}
    kept: dict = {}
    view = FieldView(name="commander_within_12", title="c", kind="ref", required=False, ref="unit",
                     side="commander counts", multiple=True, value=[])
    listed = sorted(c.value for c in choices_for(Battle.from_doc(inspired), view, kept))
    # The next version changes a unit, not the brigades, the sides or who is in which brigade: no
    # commander is asked about again.
    uid = listed[0]
    later = {**inspired, "units": {**inspired["units"], uid: {**inspired["units"][uid], "casualties": 1}}}
    asked: list[str] = []
    counts = battle_view.commander_counts
    monkeypatch.setattr(battle_view, "commander_counts", lambda battle, unit: asked.append(unit.id) or counts(battle, unit))
    assert sorted(c.value for c in choices_for(Battle.from_doc(later), view, kept)) == listed
    assert asked == []
    # A unit moved to another brigade: worked out again.
    other = next(b for b in doc["brigades"] if b != bid)
    moved = {**later, "units": {**later["units"], uid: {**later["units"][uid], "brigade": other}}}
    assert uid not in [c.value for c in choices_for(Battle.from_doc(moved), view, kept)]
