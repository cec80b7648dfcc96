"""Errors a single tablet met in its console, each provoked as it happened. The console watch
(conftest) fails the test on any of them.

- A 409 on Next phase: tapped again after its first answer came, while the board's poll was still
  on its way (a slow network), the button posted the version the board last polled, one behind
  the tablet's own write, and was refused as stale. A board button now posts the newest version
  the tablet knows, its own write's included (static/referee.js)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

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
