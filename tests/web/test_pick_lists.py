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
