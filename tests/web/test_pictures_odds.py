"""The odds bars beside a form's odds line say the engine's own numbers: each bar is as long as
its outcome's chance, the likeliest is marked, and the picture's label agrees with the words."""
from __future__ import annotations

import copy
import re

import pytest
from _web_helpers import HTMX, build_engagement, start_form, text
from markupsafe import Markup

from referee.core.odds import Chances
from referee.data.starts import EXAMPLE_SQUADRONS
from referee.systems import OIL_AND_IRON, system_for
from referee.table.write_path import odds_of
from referee.web.pictures import odds_bars

SVG = re.compile(r'<svg[^>]*class="picture odds-bars"[^>]*aria-label="([^"]*)".*?</svg>', re.S)


def pictures(html: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(0)) for m in SVG.finditer(html)]


def said(label: str) -> dict[str, float]:
    """The picture's outcomes and chances as its label says them ("Holds 58.3%, ...")."""
    body = label.split(": ", 1)[1].split(". Likeliest")[0]
    return {k.strip(): float(p) / 100 for k, p in re.findall(r"([^,]+?) ([\d.]+)%", body.replace("&#39;", "'"))}


def test_a_shot_draws_its_hits_whose_mean_is_the_lines_expected_hits(client, game_id):
    r = client.get(f"/games/{game_id}/act/shoot/odds?shooter=11th-leger&target=1-7th-musketeers&range_band=short",
                   headers=HTMX)
    html = r.get_data(as_text=True)
    [(label, svg)] = pictures(html)
    chances = said(label)
    expected = float(re.search(r"Expected hits: ([\d.]+)", text(r)).group(1))
    assert abs(sum(int(k) * p for k, p in chances.items()) - expected) < 0.01
    assert abs(sum(chances.values()) - 1) < 0.01
    likeliest = max(chances, key=chances.get)
    assert f"Likeliest: {likeliest}." in label


def test_a_break_test_draws_holds_retires_and_breaks_as_its_line_says(client, game_id):
    r = client.get(f"/games/{game_id}/act/break_test/odds?unit=11th-leger&context=shooting", headers=HTMX)
    words = text(r)
    [(label, svg)] = pictures(r.get_data(as_text=True))
    chances = said(label)
    for outcome in ("Holds", "Retires", "Breaks"):
        assert f"{outcome}: {chances[outcome]:.1%}" in words
    # Each bar's length is its chance of the whole track (130 wide).
    widths = [float(w) for w in re.findall(r'<rect x="112" y="[\d.]+" width="([\d.]+)" height="12" fill="#(?:0072B2|D55E00)"', svg)]
    assert widths == pytest.approx([130 * chances[o] for o in ("Holds", "Retires", "Breaks")], abs=0.1)


def test_an_order_draws_each_outcome_of_the_test(client, game_id):
    r = client.get(f"/games/{game_id}/act/order/odds?units=11th-leger", headers=HTMX)
    words = text(r)
    [(label, _)] = pictures(r.get_data(as_text=True))
    for outcome, p in said(label).items():
        assert f"{outcome}: {p * 100:.1f}%" in words


def test_a_heat_threshold_roll_draws_the_tables_rows(db):
    doc = build_engagement(start_form(), {side: len(rigs) for side, rigs in EXAMPLE_SQUADRONS.items()})
    doc = copy.deepcopy(doc)
    doc["phase"] = "maintenance"
    rig = doc["rigs"]["p1-1"]
    rig["heat"] = rig["heat_threshold"] + 2
    lines = odds_of(system_for(OIL_AND_IRON), doc, "heat_roll", {"rig": "p1-1"})
    chances = said(re.search(r'aria-label="([^"]*)"', str(odds_bars(lines[0]))).group(1))
    assert [f"{k}: {p:.1%}" for k, p in chances.items()] == lines


def test_the_likeliest_outcome_is_marked_in_words_not_only_in_colour():
    svg = str(odds_bars(Chances("Holds: 20.0%", [("Holds", 0.2), ("Retires", 0.3), ("Breaks", 0.5)], "Test")))
    assert "Likeliest: Breaks." in svg
    assert svg.count("&#9660;") == 2  # the mark on the Breaks bar and in the key
    assert re.search(r"50% &#9660;", svg)


def test_a_plain_line_has_no_picture():
    assert odds_bars("No dice are rolled for this.") == Markup("")
