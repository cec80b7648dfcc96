"""Errors a single tablet met in its console, each provoked as it happened. The console watch
(conftest) fails the test on any of them.

- A 409 on Next phase: tapped again after its first answer came, while the board's poll was still
  on its way (a slow network), the button posted the version the board last polled, one behind
  the tablet's own write, and was refused as stale. A board button now posts the newest version
  the tablet knows, its own write's included (static/referee.js).
- ``htmx:oobErrorNoTarget #log-entry-NN``: a form opened before Next phase and resolved after it
  is refused as stale, and the refusal brought the board up to date from the version the form was
  drawn at, not the one the board shows: it deleted log lines the board had already let go (no
  target) and added again the lines it had (twice in the log)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_campaigns import start_campaign
from test_game_night import advance_by_the_table

pytestmark = pytest.mark.e2e


@pytest.mark.tablet("landscape")
def test_next_phase_twice_on_a_slow_network_is_not_refused(page: Page):
    page.goto("/games/new")
    page.locator("form:has(input[name=scenario][value=demo]) button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    held = []
    page.route("**/poll?**", lambda route: held.append(route))  # a slow network: the poll waits
    next_phase = page.locator("#status-turn button", has_text="Next phase")
    next_phase.tap()
    expect(page.locator("#panel.panel-result .summary").first).to_contain_text("Shooting")
    page.wait_for_timeout(400)  # a person reads the result, then taps on
    next_phase.tap()
    expect(page.locator("#panel.panel-result .summary").first).to_contain_text("Hand-to-Hand")
    for route in held:
        route.continue_()
    page.unroute("**/poll?**")
    expect(page.locator("#status .seq-step.current")).to_contain_text("Hand-to-Hand")


@pytest.mark.tablet("landscape")
def test_a_form_refused_as_stale_brings_the_board_from_what_it_shows(page: Page, live_server, console):
    page.goto("/games/new")
    page.locator("form:has(input[name=scenario][value=demo]) button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    advance_by_the_table(live_server.database_url, game_id, 13)  # a log longer than the board's ten lines
    page.goto(f"/games/{game_id}/act/shoot?shooter=11th-leger&target=1-7th-musketeers&range_band=short")
    expect(page.locator("#odds")).to_contain_text("%")
    newest = page.locator("#log-entries > li.entry").first.get_attribute("id")
    # Another tablet moves the game on; this one's board follows, its form still open.
    advance_by_the_table(live_server.database_url, game_id, 1)
    expect(page.locator("#log-entries > li.entry").first).not_to_have_id(newest)
    # The refusal is meant, and an answer: shown in the panel, with no red line in the console.
    page.locator("#panel form.action-form .form-buttons button[type=submit]").tap()
    expect(page.locator("#panel [role=alert]")).to_be_visible()
    page.wait_for_timeout(400)
    ids = page.locator("#log-entries > li.entry").evaluate_all("(els) => els.map((e) => e.id)")
    assert len(ids) == len(set(ids)) == 10, ids


@pytest.mark.tablet("portrait")
def test_steps_refused_on_pages_of_their_own_are_said_without_a_red_line(page: Page):
    """A Hundred Days step and the Foe's "Carry it out", each tapped on a page another tablet has
    already moved on: the page says why, drawn again as it now stands; the console stays quiet
    (these forms were the browser's own posts, and their 409 was logged in red)."""
    page.goto("/campaigns")
    form = page.locator("form", has=page.locator("input[name=french]"))
    campaign = start_campaign(page, form, {"name": "1815", "french": "Nap", "coalition": "Duke"})
    other = page.context.new_page()  # a second tablet on the same campaign
    other.goto(campaign)
    other.get_by_role("button", name="Start Ligny from the rosters", exact=True).click()
    other.wait_for_url(re.compile(r"/games/\d+"))
    page.get_by_role("button", name="Start Ligny from the rosters", exact=True).click()
    expect(page.locator("p.message[role=alert]")).to_contain_text("Ligny has been started already")
    expect(page.locator("li[data-battle=ligny]")).to_contain_text("the battle")  # the page as it now stands

    page.goto("/games/new")
    battle = page.locator("form:has(input[name=scenario][value=quatre-bras])")
    battle.locator("label.seg", has=page.locator("input[name=foe][value=blue]")).tap()
    battle.locator("button[type=submit]").tap()
    page.wait_for_url(re.compile(r"/foe$"))
    for _ in range(12):  # answered until it decides
        if page.locator("#foe-carry-out").count():
            break
        with page.expect_navigation():
            page.locator("a.foe-answer").first.click()
    other.goto(page.url)  # the other tablet carries out the same decision first
    with other.expect_navigation():
        other.locator("#foe-carry-out").click()
    page.locator("#foe-carry-out").click()
    expect(page.locator("p.message[role=alert]")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("Referee plays French")  # still the Foe's screen
    other.close()
