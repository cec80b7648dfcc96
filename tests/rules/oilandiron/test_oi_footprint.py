"""What an Of Oil and Iron action reads and what its changes touch (``referee/oilandiron/footprint.py``
through ``GameRules.reads`` and ``referee.core.footprint``): the pure part of "two tablets on different
Rigs both land; on the same Rig the later one is refused"."""
from __future__ import annotations

from _oi_helpers import SHOT, activated, gun, make_doc, rig_spec, run

from referee.core.footprint import MOMENT, overlap, touched
from referee.oilandiron import SYSTEM


def doc_of_four() -> dict:
    return make_doc([rig_spec("a", weapons=[gun()]), rig_spec("b")], [rig_spec("t"), rig_spec("u")])


def clash(doc, action, facts, changed_doc, result) -> set:
    read = SYSTEM.reads(doc, action, SYSTEM.action(action).facts(**facts).model_dump(mode="json"))
    return overlap(read, touched(changed_doc, [(c.path, c.before, c.after) for c in result.all_changes], SYSTEM.links))


def test_a_rig_action_reads_its_rig_and_the_moment_and_touches_only_its_rig():
    doc = activated(doc_of_four(), "a")
    assert SYSTEM.reads(doc, "move", {"rig": "a"}) == {MOMENT, ("rigs", "a")}
    result, after = run("move", doc, rig="a")
    assert touched(after, [(c.path, c.before, c.after) for c in result.all_changes], SYSTEM.links) == {("rigs", "a")}


def test_a_change_to_one_rig_meets_a_tap_on_it_and_not_one_on_another_rig():
    doc = activated(doc_of_four(), "a")
    result, after = run("adjust_rig", doc, rig="t", field="heat", value="3")
    assert clash(doc, "adjust_rig", {"rig": "u", "field": "heat", "value": "2"}, after, result) == set()
    assert clash(doc, "move", {"rig": "a"}, after, result) == set()
    assert clash(doc, "adjust_rig", {"rig": "t", "field": "heat", "value": "1"}, after, result) == {("rigs", "t")}
    # A shot reads its target: the target changed since the screen, the shot is refused.
    assert clash(doc, "fire_weapon", SHOT, after, result) == {("rigs", "t")}


def test_ending_an_activation_reads_the_active_rig_its_facts_do_not_name():
    doc = activated(doc_of_four(), "a")
    assert ("rigs", "a") in SYSTEM.reads(doc, "end_activation", {})
    result, after = run("adjust_rig", doc, rig="a", field="heat", value="3")
    assert clash(doc, "end_activation", {}, after, result) == {("rigs", "a")}
    result, after = run("adjust_rig", doc, rig="b", field="heat", value="3")
    assert clash(doc, "end_activation", {}, after, result) == set()


def test_scoring_a_round_reads_every_rig_and_objective():
    doc = make_doc(engagement="sabotage")
    read = SYSTEM.reads(doc, "score_round", {})
    assert {("rigs", r) for r in doc["rigs"]} | {("objectives", o) for o in doc["objectives"]} <= read


def test_a_rig_carrying_salvage_reads_it_and_taking_it_touches_the_rig():
    doc = make_doc(engagement="salvage_heist")
    salvage = next(iter(doc["objectives"]))
    doc["objectives"] = {**doc["objectives"], salvage: {**doc["objectives"][salvage], "collected_by": ["a"]}}
    assert ("objectives", salvage) in SYSTEM.reads(doc, "heat_roll", {"rig": "a"})
    assert ("objectives", salvage) not in SYSTEM.reads(doc, "heat_roll", {"rig": "t"})
    changes = [(("objectives", salvage, "collected_by"), [], ["a"])]
    assert ("rigs", "a") in touched(doc, changes, SYSTEM.links)
