"""The 300-unit board brought up to date by its poll, at 1024×768 and 768×1024: a poll that brings
thirty changed cards at once puts each of them on the board as it now is, the filter counts follow,
and what the tablet folded, searched and filtered stays as it was (static/board.js applies the
board only to what was swapped in). Folded brigades open again and show their units, live ones
included."""
from __future__ import annotations

import json
import re

import pytest
from _board import tool
from playwright.sync_api import Page, expect
from test_board_at_scale_e2e import BRIGADES, brigades_of, fold_all, start_big_battle

pytestmark = pytest.mark.e2e

CHANGED = 30


def _disorder(page: Page, url: str, units: list[str], token: str = "", version: int = 0) -> None:
    """Mark these units disordered from this tablet's session, one write each, without its page
    taking part: the board learns of them only from its poll. ``token`` and ``version`` are read
    from the page unless given (a frozen page answers nothing)."""
    game = re.search(r"/games/(\d+)", url).group(1)
    token = token or page.locator("input[name=csrf_token]").first.get_attribute("value")
    version = version or int(page.locator("#poll").get_attribute("data-version"))
    for unit in units:
        response = page.request.post(f"/games/{game}/act/adjust_unit", max_redirects=0, form={
            "csrf_token": token, "version": str(version), "unit": unit, "field": "disordered", "value": "yes"})
        assert response.status in (200, 303), response.text()[:300]
        version += 1


def _frozen(page: Page, cdp, state: str) -> None:
    """Freeze the page (its timers stop, so it does not poll) or let it run again."""
    cdp.send("Page.setWebLifecycleState", {"state": state})


def test_a_poll_bringing_thirty_cards_updates_each_and_keeps_folds_and_filters(page: Page, tablet):
    url = start_big_battle(page)
    red = brigades_of(page, "red")
    # Fold the first three red brigades; filter on "needs attention" afterwards.
    for i in range(3):
        red.nth(i).locator("summary").tap()
        expect(red.nth(i)).not_to_have_attribute("open", "")
    ids = page.locator("#units [data-side-box=red] [data-unit]").evaluate_all(
        f"els => els.slice(0, {CHANGED}).map(e => e.dataset.unit)")
    assert len(ids) == CHANGED
    attention = tool(page, "[data-filter=attention]")
    expect(attention.locator(".hides")).to_have_text("· hides 300")

    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    version = int(page.locator("#poll").get_attribute("data-version"))
    cdp = page.context.new_cdp_session(page)
    _frozen(page, cdp, "frozen")
    try:
        _disorder(page, url, ids, token, version)
    finally:
        _frozen(page, cdp, "active")

    for unit in ids:
        card = page.locator(f"#unit-{unit}")
        expect(card).to_have_attribute("data-attention", "1", timeout=10_000)
        expect(card.locator(".badge", has_text="Disordered")).to_have_count(1)
    expect(attention.locator(".hides")).to_have_text(f"· hides {300 - CHANGED}")
    # The folds stayed: the three folded brigades are still folded, the rest still open.
    for i in range(3):
        expect(red.nth(i)).not_to_have_attribute("open", "")
    expect(page.locator("#units details.brigade[open]")).to_have_count(2 * BRIGADES - 3)

    # The filter shows exactly the changed cards, their brigades opened for the search.
    attention.tap()
    expect(page.locator("#board-count")).to_have_text(f"{CHANGED} of 300 units shown, {300 - CHANGED} hidden")
    shown = page.locator("#units [data-unit]:visible")
    expect(shown).to_have_count(CHANGED)
    assert sorted(shown.evaluate_all("els => els.map(e => e.dataset.unit)")) == sorted(ids)
    expect(page.locator("#units [data-side-box=blue]")).to_be_hidden()

    # A filter on while a poll brings one more change: the new card joins what it shows.
    blue_one = page.locator("#units [data-side-box=blue] [data-unit]").first.get_attribute("data-unit")
    _disorder(page, url, [blue_one])
    expect(page.locator("#board-count")).to_have_text(
        f"{CHANGED + 1} of 300 units shown, {300 - CHANGED - 1} hidden", timeout=10_000)
    expect(page.locator(f"#unit-{blue_one}")).to_be_visible()
    expect(page.locator("#units [data-side-box=blue]")).to_be_visible()
    attention.tap()
    expect(page.locator("#board-count")).to_have_text("")
    in_open = page.locator("#units details.brigade[open] [data-unit]").count()
    assert in_open < 300
    expect(page.locator("#units [data-unit]:visible")).to_have_count(in_open)

def test_folded_brigades_open_and_show_their_units_after_live_changes(page: Page, tablet):
    url = start_big_battle(page)
    fold_all(page)
    expect(page.locator("#units [data-unit]:visible")).to_have_count(0)
    first = brigades_of(page, "blue").first
    # Folded, a brigade lets its cards go; its folded line lists its units (web/serving/folds.py).
    expect(first.locator("[data-unit]")).to_have_count(0)
    unit = json.loads(first.locator("summary").get_attribute("data-index"))[0][0]
    _disorder(page, url, [unit])
    # The poll brings its folded line, counting the disordered unit, and not its card.
    expect(first.locator("summary .badge.disordered")).to_have_text("1 disordered", timeout=10_000)
    expect(page.locator(f"#unit-{unit}")).to_have_count(0)
    # Still folded after the poll; one tap opens it and shows its units, the changed one as it is now.
    expect(page.locator("#units details.brigade[open]")).to_have_count(0)
    first.locator("summary").tap()
    expect(first).to_have_attribute("open", "")
    expect(first.locator("[data-unit]").first).to_be_visible()
    expect(page.locator(f"#unit-{unit} .badge", has_text="Disordered")).to_be_visible()
    n = first.locator("[data-unit]").count()
    expect(page.locator("#units [data-unit]:visible")).to_have_count(n)
    # Folding it again folds it.
    first.locator("summary").tap()
    expect(first).not_to_have_attribute("open", "")
    expect(page.locator("#units [data-unit]:visible")).to_have_count(0)


def test_the_folded_waterloo_board_takes_at_most_four_screens(page: Page, tablet):
    page.goto("/games/new")
    page.locator("select[name=scenario], input[name=scenario]").first.wait_for(state="attached")
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    response = page.request.post("/games/new", form={"scenario": "waterloo", "csrf_token": token}, max_redirects=0)
    assert response.status == 303, response.text()[:300]
    page.goto(response.headers["location"])
    fold_all(page)
    screens = page.evaluate("document.documentElement.scrollHeight / window.innerHeight")
    assert screens <= 4, f"the folded Waterloo board is {screens:.2f} screens"
    # A folded brigade opens across the whole row and shows its units.
    brigade = page.locator("#units details.brigade").nth(5)
    brigade.locator("summary").tap()
    expect(brigade).to_have_attribute("open", "")
    expect(brigade.locator("[data-unit]").first).to_be_visible()
    side = brigade.locator("xpath=..")
    assert abs(brigade.bounding_box()["width"] - side.bounding_box()["width"]) < 2
