"""Game night at Waterloo scale, on a tablet held either way: the bar that stays on screen is
small (turn, phase, Next phase, the log), the first screen shows units, the bar is still there
deep down the board, the log and Undo are one tap away in portrait, an opened unit's title and
Close are not under the bar, and a reserve that is due opens its box below the bar, not in it.
Every page fails the test on a console error (``watch``)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

BAR_MOST = 120  # px: the most the bar may take of a 768 px high screen


def watch(page: Page) -> list[str]:
    """Console errors and warnings, and failed requests, as the page meets them."""
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: said.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: said.append(f"failed: {r.method} {r.url} {r.failure}"))
    return said


def start(page: Page, scenario: str) -> None:
    page.goto("/games/new")
    page.locator(f"form:has(input[name=scenario][value={scenario}]) button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#status-turn")).to_be_visible()


def bar_box(page: Page) -> dict:
    return page.locator("#status-turn").bounding_box()


def next_phase(page: Page) -> None:
    before = page.locator("#status .seq-step.current").inner_text()
    turn = page.locator("#status .turn").inner_text()
    page.locator("#status-turn button", has_text="Next phase").tap()
    page.wait_for_function(
        "([s, t]) => document.querySelector('#status .seq-step.current')?.innerText !== s || "
        "document.querySelector('#status .turn')?.innerText !== t", arg=[before, turn])


def test_the_bar_is_small_stays_on_screen_and_the_first_screen_shows_units(page: Page, tablet):
    said = watch(page)
    start(page, "waterloo")
    bar = bar_box(page)
    height = page.viewport_size["height"]
    if tablet == "landscape":
        assert bar["height"] <= BAR_MOST, f"the bar takes {bar['height']:.0f} px"
    assert bar["y"] == 0
    for word in ("Turn 1", "Command", "Next phase"):
        expect(page.locator("#status-turn")).to_contain_text(word)
    # The first screen shows a unit's card, whole.
    first = page.locator("#units [data-unit] .card:visible").first.bounding_box()
    assert first["y"] + first["height"] <= height, f"the first unit card starts at {first['y']:.0f} px"

    # Far down the board, the bar and Next phase are still there.
    page.mouse.wheel(0, 6000)
    page.wait_for_function("() => window.scrollY > 3000")
    assert bar_box(page)["y"] == 0
    expect(page.locator("#status-turn button", has_text="Next phase")).to_be_in_viewport()

    if tablet == "portrait":
        # The log and Undo, one tap away.
        page.locator("#status-turn .log-jump").tap()
        expect(page.locator("#log-buttons button", has_text="Undo")).to_be_in_viewport()
        undo = page.locator("#log-buttons button", has_text="Undo").bounding_box()
        assert undo["y"] >= bar_box(page)["height"], "Undo sits under the bar"

    # A unit opened from deep down the board: its name and Close are below the bar.
    card = page.locator("#units [data-unit] a.card:visible").nth(40)
    card.scroll_into_view_if_needed()
    name = card.locator(".card-name").inner_text()
    card.tap()
    head = page.locator("#panel .panel-head")
    expect(head).to_contain_text(name)
    page.wait_for_timeout(400)  # the swap scrolls the panel into view
    title = head.locator("h2").bounding_box()
    close = head.get_by_role("link", name="Close").bounding_box()
    below = bar_box(page)["y"] + bar_box(page)["height"]
    assert title["y"] >= below and close["y"] >= below, f"the panel's head is under the bar ({title['y']:.0f} < {below:.0f})"
    assert said == [], said


@pytest.mark.tablet("landscape")
def test_a_reserve_due_opens_below_the_bar_not_in_it(page: Page, tablet):
    said = watch(page)
    start(page, "quatre-bras")
    for _ in range(9):  # to the Allies' turn 2, when the 5th Division is due
        next_phase(page)
    box = page.locator("#status details.reserves")
    expect(box).to_have_attribute("open", "")
    expect(box.locator("li.reserve", has_text="5th Division")).to_be_visible()
    assert bar_box(page)["height"] <= BAR_MOST
    # It scrolls away with the board; the bar does not.
    page.mouse.wheel(0, 2000)
    page.wait_for_function("() => window.scrollY > 1000")
    assert box.bounding_box()["y"] + box.bounding_box()["height"] < 0
    assert bar_box(page)["y"] == 0
    assert said == [], said
