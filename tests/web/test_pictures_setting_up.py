"""The scenario picker's pictures say the scenario file's numbers: each side's units by arm (bars
as long as the counts, those arriving later dashed) and every arrival on the turn it comes."""
from __future__ import annotations

import html as htmllib
import re

import pytest

from referee.data import list_scenarios

ITEM = re.compile(r'<input type="hidden" name="scenario" value="([\w-]+)">(.*?)</form>', re.S)


def picture(cls: str, body: str) -> tuple[str, str] | None:
    m = re.search(rf'<svg[^>]*class="picture {cls}"[^>]*aria-label="([^"]*)"(.*?)</svg>', body, re.S)
    return (htmllib.unescape(m.group(1)), m.group(2)) if m else None


@pytest.fixture(scope="module")
def scenarios():
    return {s.id: s for s in list_scenarios()}


def test_every_scenarios_strength_bars_say_and_draw_its_counts(client, scenarios):
    page = client.get("/games/new").get_data(as_text=True)
    drawn = dict(ITEM.findall(page))
    assert set(drawn) == set(scenarios)
    for sid, body in drawn.items():
        label, svg = picture("strength-bars", body)
        sides = scenarios[sid].strengths
        for side in sides:
            assert side.words() in label, sid
        top = max(s.total(a) for s in sides for a in ("infantry", "cavalry", "artillery"))
        widths = [float(w) for w in re.findall(r'<rect x="64" y="[\d.]+" width="([\d.]+)" height="11" fill="#(?:0072B2|E69F00)"', svg)]
        starts = [s.start[a] for a in ("infantry", "cavalry", "artillery") for s in sides]
        assert widths == pytest.approx([132 * n / top for n in starts], abs=0.1), sid


def test_every_arrival_is_on_the_timeline_at_its_turn(client, scenarios):
    page = client.get("/games/new").get_data(as_text=True)
    for sid, body in ITEM.findall(page):
        s = scenarios[sid]
        found = picture("arrivals", body)
        later = sum(sum(side.later.values()) for side in s.strengths)
        if not later:
            assert found is None, sid
            continue
        label, svg = found
        # The units the timeline counts are every unit the strength says arrives later.
        counted = sum(int(n) for n in re.findall(r"(\d+) units (?:on turn|rolling from turn|at the umpire)", label))
        assert counted == later, sid
        for side in s.strengths:
            for a in side.arrivals:
                if a.kind == "turn":
                    assert f"{side.name}: {a.units} units on turn {a.turn}" in label, (sid, a)
        assert f"({s.turns} turns" in label


def test_quatre_bras_rolls_its_reserves_from_turn_six(client, scenarios):
    page = client.get("/games/new").get_data(as_text=True)
    body = dict(ITEM.findall(page))["quatre-bras"]
    label, svg = picture("arrivals", body)
    assert "French: 5 units rolling from turn 6" in label and "turn 1 at 14:00" in label
    # the French rolls on turn 6 drawn as one diamond with their 24 units
    assert re.search(r'<path d="M[\d.]+ [\d.]+l6 6-6 6-6-6z"[^>]*/><text[^>]*>24</text>', svg)
