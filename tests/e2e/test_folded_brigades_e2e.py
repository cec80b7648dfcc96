"""A folded brigade on the 300-unit board, at 1024×768 and 768×1024, by touch (web/serving/folds.py): the
folded board is loaded without any unit card; a search finds a unit of a folded brigade and
shows its card; another tablet's change to a unit of a folded brigade brings that brigade's folded
line up to date and not its card; opening the brigade then fetches its cards as they are now, the
next change brings its card, and folded again it lets its cards go."""
from __future__ import annotations

import json

import pytest
from _board import tool
from playwright.sync_api import Page, expect
from test_board_at_scale_e2e import FOUND, brigades_of, fold_all, start_big_battle
from test_board_redraws_e2e import _disorder

pytestmark = pytest.mark.e2e

ELEMENTS = "document.getElementsByTagName('*').length"


def test_a_folded_brigade_has_no_cards_until_opened_and_its_line_follows_the_game(page: Page, tablet):
    url = start_big_battle(page)
    opened = page.evaluate(ELEMENTS)
    fold_all(page)
    page.reload()
    expect(page.locator("#board-tools")).to_be_visible()
    expect(page.locator("#units details.brigade")).to_have_count(24)
    expect(page.locator("#units [data-unit]")).to_have_count(0)
    assert page.evaluate(ELEMENTS) < opened / 5

    # The search finds a unit of a folded brigade: counted at once, its card fetched and shown.
    find = page.locator("#board-find")
    find.fill(FOUND[:5].lower())
    expect(page.locator("#board-count")).to_have_text("1 of 300 units shown, 299 hidden")
    shown = page.locator("#units [data-unit]:visible")
    expect(shown).to_have_count(1)
    expect(shown.first).to_contain_text(FOUND)
    find.fill("")
    expect(page.locator("#units details.brigade[open]")).to_have_count(0)
    expect(page.locator("#units [data-unit]")).to_have_count(0)

    # Another tablet disorders a unit of a folded brigade: its line counts it, no card comes.
    brigade = brigades_of(page, "red").nth(2)
    unit = json.loads(brigade.locator("summary").get_attribute("data-index"))[1][0]
    version = int(page.locator("#poll").get_attribute("data-version"))
    _disorder(page, url, [unit])
    expect(page.locator("#poll")).to_have_attribute("data-version", str(version + 1), timeout=10_000)
    expect(brigade.locator("summary .badge.disordered")).to_have_text("1 disordered")
    expect(page.locator("#units [data-unit]")).to_have_count(0)
    # The "needs attention" filter finds it from the folded line's index.
    attention = tool(page, "[data-filter=attention]")
    expect(attention.locator(".hides")).to_have_text("· hides 299")

    # Opened, the brigade's cards come as the game stands now.
    brigade.locator("summary").tap()
    expect(brigade).to_have_attribute("open", "")
    expect(brigade.locator("[data-unit]")).to_have_count(12)
    expect(brigade.locator(f"#unit-{unit} .badge", has_text="Disordered")).to_be_visible()
    expect(page.locator("#units [data-unit]")).to_have_count(12)
    # Open, it is no longer lacking its cards: the next change to one of them brings the card.
    other = json.loads(brigade.locator("summary").get_attribute("data-index"))[2][0]
    _disorder(page, url, [other])
    expect(brigade.locator(f"#unit-{other} .badge", has_text="Disordered")).to_be_visible(timeout=10_000)
    expect(brigade.locator("summary .badge.disordered")).to_have_text("2 disordered")
    # Folded again, it lets its cards go.
    brigade.locator("summary").tap()
    expect(brigade).not_to_have_attribute("open", "")
    expect(page.locator("#units [data-unit]")).to_have_count(0)
