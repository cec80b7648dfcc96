"""A double tap on a list's or a campaign's button does it once (issue 37, items 3 and 4 for the
lists and the campaigns): the second tap of a campaign step is either not sent (the first still on
its way, its button disabled) or answered with the first step's result; the second tap on a list
builder's 'Add a unit' lands on the page the first one drew and is not sent. At 1024×768."""
from __future__ import annotations

import re

import pytest
from _board import double_tap
from playwright.sync_api import Page, expect
from test_builders import choose_owner
from test_campaigns import new_oil_campaign as new_campaign

from referee.table import campaigns as tc

pytestmark = pytest.mark.e2e


@pytest.fixture
def browser_context_args(browser_context_args, server):
    return {**browser_context_args, "base_url": server.url}


@pytest.mark.tablet("landscape")
@pytest.mark.parametrize("gap_ms", [120, 300])
def test_a_double_tap_on_a_campaign_step_takes_the_step_once(page: Page, db, tablet, gap_ms):
    campaign_url = new_campaign(page, f"Double tap {gap_ms}")
    cid = int(re.search(r"/campaigns/(\d+)", campaign_url).group(1))
    now = page.locator("#now")
    now.locator("select[name=engagement]").select_option("iron_clash")
    now.locator("select[name=deployment]").select_option("Battle Lines")
    now.locator("select[name=battlefield]").select_option("Open Plains")
    double_tap(page, "#now form[action$='/act/plan_engagement'] button[type=submit]", gap_ms)
    expect(now).to_contain_text("Next: Iron Clash — Battle Lines deployment, on Open Plains")
    page.wait_for_timeout(1000)  # long enough for a second step to land, were there one
    assert [e.action for e in tc.log(db, cid)] == ["plan_engagement"]
    expect(page.locator("body")).not_to_contain_text("Another tablet changed")


@pytest.mark.tablet("landscape")
@pytest.mark.parametrize("gap_ms", [120, 300])
def test_a_double_tap_on_add_a_unit_adds_one_unit(page: Page, tablet, gap_ms):
    choose_owner(page, "Ann")
    page.goto("/lists/new/blackpowder")
    rows = page.locator("#brigade-0 .unit-row")
    before = rows.count()
    button = "#brigade-0 button[value='add-unit:0']"
    expect(page.locator(button)).to_be_enabled()
    double_tap(page, button, gap_ms)
    expect(rows).to_have_count(before + 1)
    page.wait_for_timeout(1000)  # long enough for a second unit to show, were there one
    expect(rows).to_have_count(before + 1)
    expect(page.locator(button)).to_be_enabled()
