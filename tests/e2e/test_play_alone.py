"""A lone player plays three turns of Quatre Bras against Referee, which commands the French: it
starts the battle with "Referee plays the French", answers the Foe's questions one tap each,
has its orders carried out, plays the Allied turns on the board, and comes back to Referee's turn.
At 1024×768 with touch; any console error fails the test."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.e2e, pytest.mark.tablet("landscape")]


def watch_console(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def referee_turn(page: Page, taps: list[str]) -> int:
    """Answer and carry out until Referee says it is the player's move; returns its decisions."""
    decisions = 0
    for _ in range(200):
        if page.locator("#foe-wait").count():
            return decisions
        options = page.locator("a.foe-answer")
        if options.count():
            n = len(taps)
            # A band a little nearer each time, now and then "can't tell" (the last option).
            pick = options.count() - 1 if n % 6 == 5 else n % max(1, options.count() - 1)
            taps.append(options.nth(pick).inner_text())
            options.nth(pick).click()
            continue
        expect(page.locator("ul.foe-orders li").first).to_be_visible()
        page.locator("#foe-carry-out").click()
        decisions += 1
    raise AssertionError("Referee never handed the turn back")


def turn_number(page: Page) -> int:
    text = page.locator("#status").inner_text()
    return int(re.search(r"Turn (\d+)", text).group(1))


def test_a_lone_player_plays_three_turns_of_quatre_bras(page: Page):
    errors = watch_console(page)
    page.goto("/games/new")
    scenario = page.locator("li.scenario", has_text="Quatre Bras")
    scenario.get_by_label("The French").check()
    scenario.get_by_role("button", name=re.compile("Start")).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/foe$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Referee plays French")

    taps: list[str] = []
    decided = 0
    for turn in (1, 2, 3):
        decided += referee_turn(page, taps)
        page.get_by_role("link", name="Back to the board").click()
        assert turn_number(page) == turn
        # The Allied turn: the player moves their own models and moves the phases on from the board
        # (Command, Shooting, Hand-to-Hand), which brings the French turn round again.
        version = page.locator("form:has(button.next-phase) input[name=version]")
        for _ in range(3):
            before = version.get_attribute("value")
            page.locator("button.next-phase").click()
            expect(version).not_to_have_value(before)
        assert turn_number(page) == turn + 1
        page.locator("a.foe-link").click()
        expect(page).to_have_url(re.compile(r"/foe$"))
    assert decided >= 10 and len(taps) >= 10
    assert "Can't tell" in taps
    # Every decision is in the log, with what it was told.
    page.goto(re.sub(r"/foe$", "/log", page.url))
    expect(page.get_by_text(re.compile("The Foe:")).first).to_be_visible()
    assert errors == []


def test_a_lone_player_plays_a_whole_iron_clash(page: Page):
    """Referee commands Ben's squadron; Anna activates each of hers and ends at once (she is
    moving Ben's Rigs as told), until the length roll ends the engagement."""
    errors = watch_console(page)
    page.goto("/games/new/oilandiron")
    page.locator("label.ooi-type", has_text="Iron Clash").click()
    page.locator("#p1-name").fill("Anna")
    page.locator("#p2-name").fill("Ben")
    page.get_by_role("button", name="Start the engagement").click()
    expect(page.locator("#status")).to_contain_text("Round 1")
    page.goto(re.sub(r"/games/(\d+).*", r"/games/\1/foe/settings", page.url))
    page.get_by_label("Ben").check()
    page.locator("#foe-declare").click()
    expect(page).to_have_url(re.compile(r"/foe$"))

    taps: list[str] = []
    decided = 0
    for _ in range(60):
        if page.locator("#foe-over").count():
            break
        decided += referee_turn(page, taps) if not page.locator("#foe-over").count() else 0
        if page.locator("#foe-over").count():
            break
        page.get_by_role("link", name="Back to the board").click()
        units = page.locator("#units")
        expect(units).not_to_have_attribute("aria-busy", "true")
        activate = units.get_by_role("button", name="Activate", exact=True)
        if activate.count():
            activate.first.click()
            active = page.locator("article.ooi-card.active")
            expect(active).to_have_count(1)
            active.get_by_role("button", name="End activation", exact=True).click()
            expect(page.locator("article.ooi-card.active")).to_have_count(0)
        page.locator("a.foe-link").click()
        expect(page).to_have_url(re.compile(r"/foe$"))
    expect(page.locator("#foe-over")).to_be_visible()
    assert decided >= 8
    page.get_by_role("link", name="Back to the board").click()
    expect(page.locator("#status")).to_contain_text(re.compile("wins|draw|Draw|over", re.I))
    assert errors == []
