"""Quatre Bras on the tablet: the board shows the time and what is due, the reinforcements are
placed as they arrive, I Corps rolls to come, and at the end of the last turn the umpire answers
the scenario's victory questions. At 1024×768 and 768×1024, by touch."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_blackpowder_battle import PERSON_PAUSE_MS
from test_smoke import MIN_TAP, SMALL_TARGETS_JS

pytestmark = pytest.mark.e2e


def next_phase(page: Page) -> None:
    before = page.locator("#status .seq-step.current").inner_text()
    turn = page.locator("#status .turn").inner_text()
    page.wait_for_timeout(PERSON_PAUSE_MS)  # not a double tap (static/referee.js)
    page.locator("#status button", has_text="Next phase").tap()
    page.wait_for_function(
        "([s, t]) => document.querySelector('#status .seq-step.current')?.innerText !== s || "
        "document.querySelector('#status .turn')?.innerText !== t", arg=[before, turn])


def reserve(page: Page, label: str):
    return page.locator("#status li.reserve", has=page.locator("strong", has_text=re.compile(f"^{label}$")))


def test_quatre_bras_reinforcements_and_victory(page: Page, make_live_server, tablet):
    server = make_live_server()
    page.goto(server.url + "/games/new")
    page.locator("form", has_text="The Battle of Quatre Bras").get_by_role("button").first.tap()
    expect(page.locator("#status .turn")).to_contain_text("Turn 1 of 12 · 14:00")
    expect(page.locator("#status .next-arrival")).to_contain_text("Next to arrive: 5th Division (Allied Army), turn 3 (15:00)")
    expect(page.locator("#units .card", has_text="54th Ligne").first).to_contain_text("Not yet arrived")

    # Play to turn 3 (15:00): Jérôme's division comes on for the French, then Picton's for the Allies.
    for _ in range(12):
        next_phase(page)
    expect(page.locator("#status .turn")).to_contain_text("Turn 3 of 12 · 15:00")
    reserve(page, "6th Division").get_by_role("button", name="Bring on").tap()
    expect(page.locator("#panel.panel-result")).to_contain_text("6th Division comes on, turn 3 (15:00)")
    expect(reserve(page, "6th Division")).to_have_count(0)  # the board has caught up
    for _ in range(3):
        next_phase(page)
    picton = reserve(page, "5th Division")
    expect(picton).to_contain_text("due on turn 3")
    picton.get_by_role("button", name="Bring on").tap()
    expect(page.locator("#panel.panel-result")).to_contain_text("5th Division comes on, turn 3 (15:00)")
    expect(reserve(page, "5th Division")).to_have_count(0)
    expect(page.locator("#units .card", has_text="1/79th Highlanders").first).not_to_contain_text("Not yet arrived")

    # The French turn 6 (16:30): I Corps may first roll to come back to Ney, and seldom does.
    for _ in range(15):
        next_phase(page)
    expect(page.locator("#status .turn")).to_contain_text("Turn 6 of 12 · 16:30")
    i_corps = reserve(page, "I Corps")
    i_corps.get_by_role("button", name=re.compile("Entry roll · 4.6%")).tap()
    expect(page.locator("#panel.panel-result")).to_contain_text(re.compile("I Corps (arrives|does not arrive)"))
    expect(page.locator("#panel.panel-result .die").first).to_be_visible()

    found = page.evaluate(SMALL_TARGETS_JS, MIN_TAP)
    assert found["small"] == [], found["small"]
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0

    # To the end of turn 12: no next phase then, but the victory questions.
    while "Turn 12" not in page.locator("#status .turn").inner_text() or \
            "Hand-to-Hand" not in page.locator("#status .seq-step.current").inner_text() or \
            page.locator("#status .seq-step.current.side-red").count() == 0:
        next_phase(page)
    expect(page.locator("#status")).to_contain_text("Turn 12 was the last: the battle is over")
    expect(page.locator("#status button", has_text="Next phase")).to_have_count(0)
    form = page.locator("#status form.victory-questions")
    for question, answer in (("crossroads", "Allied Army"), ("Gemioncourt", "French"), ("Bossu Wood", "Allied Army"),
                             ("Pireaumont", "Neither")):
        form.locator("fieldset", has=page.locator("legend", has_text=question)).locator(
            "label", has_text=answer).first.tap()
    form.get_by_role("button", name="End the battle").tap()
    result = page.locator("#panel.panel-result")
    expect(result).to_contain_text("The battle goes to Allied Army")
    expect(result).to_contain_text("French 1 point, Allied Army 3 points")
    expect(page.locator("#status")).to_contain_text("Battle over")
