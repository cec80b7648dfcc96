"""The address bar shows the page a form made, not the form (issue 45, item 7), tapped at 1024×768
and 768×1024: after starting a game, creating a campaign, importing a list and registering, the
address is the new page's, and reloading it shows that page again; the address a refused form
showed, opened again, leads back to that form rather than to "method not allowed"."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from referee.lists import example_lists, export_text

PASSWORD = "correct horse battery"


def reloads_to_itself(page: Page, heading: str) -> None:
    url = page.url
    page.reload()
    assert page.url == url
    expect(page.get_by_role("heading", level=1)).to_contain_text(heading)


def test_a_game_a_campaign_and_an_imported_list_are_at_their_own_address(page: Page, tablet, console):
    page.goto("/games/new")
    page.locator("form:has(input[name=scenario][value=demo]) button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    page.reload()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))

    page.goto("/campaigns")
    form = page.locator("form:has(input[name=kind][value=oilandiron])")
    form.locator("input[name=name]").fill(f"Iron summer {tablet}")
    form.locator("input[name=p1-name]").fill("Tom")
    form.locator("input[name=p2-name]").fill("   ")  # a name of spaces: refused by the server
    form.get_by_role("button", name="Start the campaign").click()
    expect(page.get_by_role("alert")).to_contain_text("Player 2 needs a name")
    expect(form.locator("input[name=name]")).to_have_value(f"Iron summer {tablet}")
    # Refused, the form is drawn again at its page's own address (no red line in the console).
    page.goto(page.url)  # the address it shows, opened again: the campaigns, not an error
    expect(page).to_have_url(re.compile(r"/campaigns$"))
    form.locator("input[name=name]").fill(f"Iron summer {tablet}")
    form.locator("input[name=p1-name]").fill("Tom")
    form.locator("input[name=p2-name]").fill("Marie")
    form.get_by_role("button", name="Start the campaign").click()
    expect(page).to_have_url(re.compile(r"/campaigns/\d+$"))
    reloads_to_itself(page, f"Iron summer {tablet}")

    page.goto("/lists/")
    page.get_by_label("…or paste its text").fill('{"format": "referee-list"')
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("The list was not imported")
    expect(page.get_by_label("…or paste its text")).to_have_value('{"format": "referee-list"')
    page.goto(page.url)
    expect(page).to_have_url(re.compile(r"/lists/$"))
    page.get_by_label("…or paste its text").fill(export_text(example_lists()["example-prussian-brigade"]))
    page.get_by_label("Keep it under this name").fill(f"Paul {tablet}")  # no name chosen yet: asked here
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page).to_have_url(re.compile(r"/lists/\d+$"))
    reloads_to_itself(page, "Prussian advance guard")


@pytest.fixture(scope="module")
def club(make_live_server):
    return make_live_server(REFEREE_MODE="club", REFEREE_SEED_DEMO="0")


def test_registering_leads_to_the_games(browser, club, tablet):
    context = browser.new_context(base_url=club.url, viewport={"landscape": {"width": 1024, "height": 768},
                                                               "portrait": {"width": 768, "height": 1024}}[tablet],
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto("/register")
        page.fill("input[name=name]", f"Newcomer {tablet}")
        page.fill("input[name=password]", PASSWORD)
        page.fill("input[name=again]", PASSWORD)
        page.get_by_role("button", name="Register").click()
        expect(page).not_to_have_url(re.compile(r"/register"))
        page.reload()
        expect(page).not_to_have_url(re.compile(r"/register"))
        expect(page.locator("body")).to_contain_text(f"Newcomer {tablet}")
    finally:
        context.close()
