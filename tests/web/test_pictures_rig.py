"""Each Rig card's picture says the Rig's own numbers: every location's structure left of its most,
filled in proportion and crossed out at nothing, and its heat against the Heat Threshold."""
from __future__ import annotations

import re

import pytest
from _web_helpers import Table, start_form

from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
from referee.oilandiron.model import Engagement
from referee.table import service

PICTURE = re.compile(r'<div class="ooi-picture" id="rig-([\w-]+)-picture">'
                     r'<svg[^>]*class="picture rig-diagram"[^>]*aria-label="([^"]*)"(.*?)</svg>', re.S)


@pytest.fixture
def damaged(app, db) -> Table:
    doc = build_engagement(start_form(), {side: len(rigs) for side, rigs in EXAMPLE_SQUADRONS.items()})
    rig = doc["rigs"]["p1-1"]
    rig["structure"]["engine"] = 0
    rig["structure"]["hull"] = 1
    rig["heat"] = rig["heat_threshold"] + 1
    return Table(app, service.create_game(db, doc["name"], "oilandiron", doc, seed=3).id)


def test_every_rig_cards_picture_matches_its_structure_and_heat(client, damaged):
    html = client.get(f"/games/{damaged.id}").get_data(as_text=True)
    drawn = {rid: (label, body) for rid, label, body in PICTURE.findall(html)}
    eng = Engagement.from_doc(damaged.state)
    assert set(drawn) == set(eng.rigs)
    for rid, rig in eng.rigs.items():
        label, body = drawn[rid]
        for loc, word in (("hull", "Hull"), ("arms", "Arms"), ("legs", "Legs"), ("engine", "Engine")):
            assert f"{word} {rig.structure[loc]} of {rig.structure_max[loc]}" in label, (rid, loc)
        assert f"heat {rig.heat} of {rig.heat_track}, threshold {rig.heat_threshold}" in label
        assert ("above its threshold" in label) == rig.above_threshold
        assert f">Heat {rig.heat}</text>" in body and f">T {rig.heat_threshold}</text>" in body


def test_the_hulls_fill_is_its_share_of_structure_and_a_lost_engine_is_crossed_out(client, damaged):
    html = client.get(f"/games/{damaged.id}").get_data(as_text=True)
    label, body = next((lab, b) for rid, lab, b in PICTURE.findall(html) if rid == "p1-1")
    rig = Engagement.from_doc(damaged.state).rigs["p1-1"]
    hull = re.search(r'<rect x="43" y="([\d.]+)" width="64" height="([\d.]+)"', body)
    assert float(hull.group(2)) == pytest.approx(40 * rig.structure["hull"] / rig.structure_max["hull"], abs=0.1)
    assert "Engine 0 of" in label and ("(destroyed)" in label or "(catastrophic)" in label)
    assert re.search(r'<path d="M52 2L98 18M98 2L52 18"', body)  # the engine's cross
    assert "above its threshold" in label
