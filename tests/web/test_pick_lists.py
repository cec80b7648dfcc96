"""A form's pick lists of units are listed once per version and shared by every field drawn from
it (battle_view._UnitChoices.listed); a new version lists what that version holds."""
from __future__ import annotations

from referee.blackpowder.model import Battle
from referee.data.scenarios import new_battle_from_scenario
from referee.web.battle_view import choices_for
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
    from referee.web.chips import chips
    from referee.web.forms import Choice
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
