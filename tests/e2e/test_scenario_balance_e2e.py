"""Issue 50: the scenario picker shows, beside each side's strength, how often that side won when
Referee played both sides equally, on both tablet sizes and without widening the page."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from referee.data.scenario_balance import balances

pytestmark = pytest.mark.e2e


def test_the_picker_shows_each_sides_share_of_the_self_played_wins(page: Page, live_server, tablet):
    b = balances()["quatre-bras"]
    page.goto(live_server.url + "/games/new")
    form = page.locator("form", has_text="The Battle of Quatre Bras")
    table = form.locator("table.strengths")
    expect(table.locator("thead")).to_contain_text("Wins, Referee v Referee")
    expect(table.locator("tbody tr").nth(0)).to_contain_text("French")
    expect(table.locator("tbody tr").nth(0).locator("td").last).to_have_text(b.share("blue"))
    expect(table.locator("tbody tr").nth(1).locator("td").last).to_have_text(b.share("red"))
    expect(form.locator(".balance")).to_contain_text(f"{b.battles} games")
    table.scroll_into_view_if_needed()
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
