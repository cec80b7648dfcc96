"""What a tap reads and what a change touches (``referee.core.footprint``), on a battle's document with
a combat: the pure part of "refused only when something it read or would change has changed"."""
from __future__ import annotations

from referee.blackpowder.game import GAME
from referee.core.footprint import MOMENT, overlap, reads, touched
from referee.data.scenarios import new_battle_from_scenario

LINKS = GAME.links


def battle_with_a_combat() -> dict:
    doc = new_battle_from_scenario("demo")
    return {**doc, "combats": {"c1": {"id": "c1", "attackers": ["11th-leger"], "defenders": ["1-7th-musketeers"],
                                      "status": "open"}},
            "turn_state": {"units_ordered": []}}


def clash(doc, facts, changes) -> set:
    return overlap(reads(doc, facts, LINKS), touched(doc, changes, LINKS))


def test_a_tap_reads_the_moment_its_units_their_brigade_and_the_combats_they_are_in():
    doc = battle_with_a_combat()
    got = reads(doc, {"unit": "1-7th-musketeers", "field": "casualties"}, LINKS)
    assert {MOMENT, ("units", "1-7th-musketeers"), ("brigades", "red-3rd-brigade"), ("combats", "c1"),
            ("units", "11th-leger"), ("brigades", "blue-7th-division")} <= got
    assert ("units", "4th-chasseurs-a-cheval") not in got and ("brigades", "blue-domons-light-cavalry") not in got


def test_changes_meet_a_tap_only_where_they_touch_what_it_reads():
    doc = battle_with_a_combat()
    casualties = lambda unit: [(("units", unit, "casualties"), 0, 1)]  # noqa: E731
    # Another unit of another brigade, out of the combat: no clash.
    assert clash(doc, {"unit": "4th-chasseurs-a-cheval"}, casualties("6th-uhlans")) == set()
    # The enemy in its combat: the combat is read, so its units are.
    assert ("units", "11th-leger") in clash(doc, {"unit": "1-7th-musketeers"}, casualties("11th-leger"))
    # A unit of its brigade: the brigade.
    assert clash(doc, {"unit": "82nd-ligne"}, casualties("12th-leger")) == {("brigades", "blue-7th-division")}
    # The phase: everything.
    assert clash(doc, {"unit": "6th-uhlans"}, [(("phase",), "command", "shooting")]) == {MOMENT}
    # A setting alone clashes with nothing (the tap lands reading the new one).
    assert clash(doc, {"unit": "6th-uhlans"}, [(("settings", "foot_artillery_range"), 48, 36)]) == set()
    # A turn's bookkeeping naming a unit touches that unit (and its brigade), not the others.
    ordered = [(("turn_state", "units_ordered"), [{"units": ["11th-leger"]}],
                [{"units": ["11th-leger"]}, {"units": ["4th-chasseurs-a-cheval"]}])]
    assert clash(doc, {"units": ["4th-chasseurs-a-cheval"]}, ordered) >= {("units", "4th-chasseurs-a-cheval")}
    assert clash(doc, {"units": ["1-7th-musketeers"]}, ordered) == set()
