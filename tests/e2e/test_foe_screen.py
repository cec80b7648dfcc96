"""The Foe's screen as a lone player meets it in a Point of Control engagement, Referee commanding
Ben's squadron: "Can't tell" is said once on a decision, with the rungs its ladder went down; the
result of a carried-out decision lists no code-font line of the Foe's own record ("→ The Foe: …");
and "Carry it out" on "end the round" ends the round on the first tap. At 1024×768 with touch; any
console error fails the test (but the board's own poll noise)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_play_alone import activate_one, back_to_the_board, heat_roll, watch_console

pytestmark = [pytest.mark.e2e, pytest.mark.tablet("landscape")]


def start_point_of_control(page: Page) -> None:
    page.goto("/games/new/oilandiron")
    page.locator("label.ooi-type", has_text="Point of Control").click()
    page.locator("#p1-name").fill("Anna")
    page.locator("#p2-name").fill("Ben")
    page.get_by_role("button", name="Start the engagement").click()
    expect(page.locator("#status")).to_contain_text("Round 1")
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    page.goto(f"/games/{game_id}/foe/settings")
    page.get_by_label("Ben").check()
    page.locator("#foe-declare").click()
    expect(page).to_have_url(re.compile(r"/foe$"))


def annas_move(page: Page) -> None:
    """Anna's Rigs on the board: each activates and ends at once; her heat rolls; the round's score."""
    back_to_the_board(page)
    if not activate_one(page) and not heat_roll(page):
        page.get_by_role("link", name=re.compile("Score", re.I)).first.click()
        page.locator("#panel form button[type=submit].primary").first.click()
        expect(page.locator("#panel.panel-result")).to_be_visible()
    page.locator("a.foe-link").click()
    expect(page).to_have_url(re.compile(r"/foe$"))


def test_the_foes_screen_in_a_round_of_point_of_control(page: Page):
    errors = watch_console(page)
    start_point_of_control(page)
    unsure = ended = False
    for _ in range(150):
        if page.locator("#foe-wait").count():
            annas_move(page)
            continue
        options = page.locator("a.foe-answer")
        if options.count():
            # The first question of Ben's first activation is answered "can't tell"; the rest, first option.
            pick = options.count() - 1 if not unsure and page.get_by_text("front arc and in sight").count() else 0
            unsure = unsure or pick > 0
            with page.expect_navigation():
                options.nth(pick).click()
            continue
        heading = page.locator("#foe-d").inner_text()
        # What "can't tell" cost is said once (it was said twice, with two counts).
        assert page.locator("main").inner_text().count("cost it") <= 1
        told = page.locator("details", has_text="What you told it")
        if told.count() and "Can't tell" in told.text_content():
            expect(page.locator("#foe-why")).to_contain_text("“Can't tell” cost it a rung.")
        page.wait_for_timeout(600)  # a person reads the orders before tapping
        with page.expect_navigation(timeout=10_000):  # one tap: it is carried out
            page.locator("#foe-carry-out").tap()
        # What was carried out is said in words: no "→ The Foe: …" line of its own record.
        last = page.locator("details.foe-last")
        expect(last).to_have_count(1)
        expect(last.locator("ul.changes", has_text="The Foe:")).to_have_count(0)
        if "end the round" in heading:
            expect(last).to_contain_text("end the round")
            expect(page.locator("#foe-d, #foe-wait, a.foe-answer").first).to_be_visible()
            if page.locator("#foe-d").count():
                assert page.locator("#foe-d").inner_text() != heading
            ended = True
            break
    assert unsure and ended
    assert errors == []
