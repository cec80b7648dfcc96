"""An Of Oil and Iron campaign's roster engagement by engagement: each Rig's structure carried,
experience and traits as each Aftermath left them, the roster as it stood when it closed."""
from __future__ import annotations

import html

from test_aftermath import in_aftermath

from referee.campaigns import roster_by_engagement
from referee.systems.replay import initial_state
from referee.web.pictures import roster_timeline


def closed():
    step = in_aftermath()
    step("recovery_roll", dice=[12], rig="p2/r1")
    step("salvage_roll", dice=[1], player="p1")
    step("salvage_roll", dice=[1], player="p2")
    step("experience")
    step("close_aftermath")
    return step


def test_each_rig_is_read_as_the_aftermath_closed():
    step = closed()
    first_results = step.results
    entries = [{"changes": [c.to_dict() for c in r.all_changes]} for r in first_results]
    first = initial_state(step.doc, entries)
    roster = roster_by_engagement(first, entries)
    assert roster.engagements == ["1"] and not roster.open
    for ref, [at] in roster.rigs.items():
        p, k = ref.split("/")
        r = step.doc["rosters"][p]["rigs"][k]
        most = sum(r["structure_max"].values())
        assert (at.structure, at.most, at.xp, at.status) == (most - sum(r["damage"].values()), most, r["xp"], r["status"])
    ox = step.doc["rosters"]["p2"]["rigs"]["r2"]
    assert sum(ox["damage"].values()) >= 2  # the Ox carries its Hull damage: the numbers are not all whole
    label = html.unescape(str(roster_timeline(roster)).split('aria-label="', 1)[1].split('"', 1)[0])
    most = sum(ox["structure_max"].values())
    assert f"structure {most - sum(ox['damage'].values())} of {most}, {ox['xp']} XP" in label


def test_an_aftermath_under_way_is_read_as_it_stands():
    step = in_aftermath()
    entries = [{"changes": [c.to_dict() for c in r.all_changes]} for r in step.results]
    roster = roster_by_engagement(initial_state(step.doc, entries), entries)
    assert roster.engagements == ["1"] and roster.open
    assert "#1 (now)" in str(roster_timeline(roster))
