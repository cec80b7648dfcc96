"""An Of Oil and Iron campaign on a tablet at both sizes: a finished engagement's board leads back
to its campaign's Aftermath, the campaign then says the engagement is over, and each Aftermath
step swaps the campaign's changing part in place (no page load, the address stays the campaign's),
with no card button the squadrons cannot use. The engagement itself is played from a second
"tablet" through the table service, as in test_campaigns."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_campaigns import finish_engagement, new_oil_campaign, plan_and_start, tap

from referee.table import service

pytestmark = pytest.mark.e2e


@pytest.fixture
def browser_context_args(browser_context_args, server):
    return {**browser_context_args, "base_url": server.url}


def step(page: Page, button: str) -> None:
    """Tap a step's button and wait for its swap: the button's form is replaced by a fresh one."""
    before = page.locator("#campaign-live").evaluate("el => el.dataset.version")
    tap(page, button)
    expect(page.locator("#campaign-live")).not_to_have_attribute("data-version", before)


def test_a_finished_engagement_leads_back_to_an_aftermath_that_swaps_in_place(page: Page, db, tablet):
    campaign_url = new_oil_campaign(page, f"Swap night {tablet}")
    first = plan_and_start(page, 1)
    expect(page.get_by_role("link", name="Back to the campaign", exact=True)).to_be_visible()
    hull_max = service.get_game(db, first).state["rigs"]["p1-r1"]["structure_max"]["hull"]
    finish_engagement(db, first, hull_max - 1)
    page.reload()
    back = page.get_by_role("link", name="Back to the campaign: begin its Aftermath")
    expect(back).to_be_in_viewport()
    back.click()
    page.wait_for_url(re.compile(re.escape(campaign_url) + r"#now$"))
    expect(page.locator("#now h2")).to_have_text("Engagement 1 is over")
    expect(page.get_by_label("Timeline")).to_contain_text("over: its Aftermath is next")
    expect(page.get_by_label("Timeline")).not_to_contain_text("being fought")

    page.evaluate("window.stillTheSamePage = true")  # a page load would forget it
    step(page, "Begin the Aftermath")
    expect(page.locator("#now h2")).to_have_text("The Aftermath of engagement 1")
    expect(page.get_by_role("button", name="Apply the frame")).to_have_count(0)
    for name in ("Jackal (Ben)", "Hyena (Ben)", "Warthog (Ben)"):
        form = page.locator("#now form", has=page.get_by_role("button", name=f"Recovery roll for {name}"))
        form.locator("input[name=typed]").fill("12")
        step(page, f"Recovery roll for {name}")
    for who in ("Anna", "Ben"):
        step(page, f"Salvage rolls for {who}")
    step(page, "Give experience and rewards")
    jackal = page.locator(".roster[aria-label='Roster of Anna'] .rig[data-rig='p1/r1']")
    expect(jackal).to_contain_text("XP 3 · Green")  # the rosters were swapped in with the step
    step(page, "Close the Aftermath")
    expect(page.locator("#now h2")).to_have_text("Before the next engagement")
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.url.split("#")[0] == campaign_url
    expect(page.get_by_label("Timeline")).to_contain_text("done")

    # the board of a finished engagement whose Aftermath is closed still leads back
    page.goto(f"/games/{first}")
    expect(page.get_by_role("link", name="Back to the campaign", exact=True)).to_be_visible()
    # and a step that opens a game takes the tablet to it, with the address in the history
    page.get_by_role("link", name="Back to the campaign", exact=True).click()
    page.wait_for_url(re.compile(re.escape(campaign_url)))
    plan_and_start(page, 2)
    page.go_back()
    page.wait_for_url(re.compile(re.escape(campaign_url)))
