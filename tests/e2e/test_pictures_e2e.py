"""The pictures as a person sees them, at both tablet sizes: the scenario picker's strength and
arrivals, the board's brigade strips, a shot's odds bars redrawn as its facts change, the battle's
story one tap from the bar and in the report, and the Rig cards. Each page passes axe, scrolls
nowhere sideways and logs no console error (conftest). Screenshots go to REFEREE_SCREENSHOTS, or
test-results/pictures/ (ignored by git), for a person to look at."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from _campaign_play import act
from playwright.sync_api import Page, expect
from test_accessibility import assert_clean, check
from test_campaigns import game_id_of, start_campaign, step, tap

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ.get("REFEREE_SCREENSHOTS") or Path(__file__).resolve().parents[2] / "test-results" / "pictures")


@pytest.fixture
def browser_context_args(browser_context_args, server):
    # axe-core is injected as the test's own script (test_accessibility.py): past the app's CSP. The
    # file's own server (conftest), whose database the campaign's games are played on (``db``).
    return {**browser_context_args, "base_url": server.url, "bypass_csp": True}


def shot(page: Page, name: str, tablet: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{tablet}.png"), full_page=full)


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0, page.url


def named(page: Page, selector: str) -> list[str]:
    """The accessible names (aria-label) of the pictures the selector finds, each role=img."""
    return page.locator(selector).evaluate_all(
        "els => els.map(e => e.getAttribute('role') === 'img' ? e.getAttribute('aria-label') : '')")


def test_the_black_powder_pictures_at_both_sizes(page: Page, tablet):
    seen: dict = {}
    page.goto("/games/new")
    quatre = page.locator("li.scenario", has_text="Quatre Bras")
    expect(quatre.locator("svg.strength-bars")).to_be_visible()
    expect(quatre.locator("svg.arrivals")).to_be_visible()
    assert all(named(page, "svg.strength-bars")) and all(named(page, "svg.arrivals"))
    quatre.scroll_into_view_if_needed()
    no_sideways_scroll(page)
    check(page, "scenario picker", seen)
    shot(page, "scenario-picker", tablet, full=False)

    page.locator("form", has_text="Demo: Saint-Amand skirmish").get_by_role("button").tap()
    expect(page.locator(".turn")).to_contain_text("Turn 1")
    game = page.url.split("?")[0]
    strips = page.locator("svg.brigade-strip")
    expect(strips).to_have_count(4)
    assert "7th Division: 5 units, 5 fresh" in named(page, "svg.brigade-strip")[0]
    no_sideways_scroll(page)
    check(page, "board", seen)
    shot(page, "board-strips", tablet, full=False)

    page.goto(f"{game}/act/shoot?shooter=11th-leger&target=1-7th-musketeers")
    bars = page.locator("#odds svg.odds-bars")
    expect(bars.first).to_be_visible()
    before = bars.first.get_attribute("aria-label")
    # A fact changed on the form redraws the bars with the new odds.
    page.locator("#panel form.action-form label", has=page.locator('input[name="range_band"][value="short"]')).tap()
    expect(bars.first).not_to_have_attribute("aria-label", before)
    no_sideways_scroll(page)
    check(page, "shot form with odds bars", seen)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#odds").screenshot(path=str(SHOTS / f"odds-bars-{tablet}.png"))

    page.goto(game)
    page.locator("a.bar-story").tap()
    expect(page.locator("svg.battle-story")).to_be_visible()
    page.locator("details.story-numbers summary").tap()
    expect(page.locator("details.story-numbers table").first).to_be_visible()
    no_sideways_scroll(page)
    check(page, "story", seen)
    shot(page, "battle-story", tablet)

    page.goto(f"{game}/report")
    expect(page.locator("svg.battle-story")).to_be_visible()
    no_sideways_scroll(page)
    check(page, "report", seen)
    assert_clean(seen)


def test_the_rig_cards_pictures_at_both_sizes(page: Page, tablet):
    seen: dict = {}
    page.goto("/games/new/oilandiron")
    page.locator("form button[type=submit]:not([name=grow])").last.tap()
    expect(page.locator("#units article.ooi-card").first).to_be_visible()
    rigs = page.locator("#units article.ooi-card svg.rig-diagram")
    expect(rigs).to_have_count(page.locator("#units article.ooi-card").count())
    assert all("threshold" in n for n in named(page, "#units svg.rig-diagram"))
    no_sideways_scroll(page)
    check(page, "engagement board", seen)
    shot(page, "rig-cards", tablet, full=False)
    page.locator("a.bar-story").tap()
    expect(page.locator("svg.score-by-round")).to_be_visible()
    assert "round 1 0 VP" in page.locator("svg.score-by-round").get_attribute("aria-label")
    no_sideways_scroll(page)
    check(page, "score by round", seen)
    shot(page, "score-by-round", tablet)
    assert_clean(seen)


def test_the_hundred_days_day_by_day_at_both_sizes(page: Page, tablet, db):
    seen: dict = {}
    page.goto("/campaigns")
    form = page.locator("form", has=page.locator("input[name=french]"))
    campaign_url = start_campaign(page, form, {"name": "1815", "french": "Nap", "coalition": "Duke"}, {"recovery": "none"})
    tap(page, "Start Ligny from the rosters")
    page.wait_for_url(re.compile(r"/games/\d+"))
    ligny = game_id_of(page)
    act(db, ligny, "adjust_unit", unit="silesian-schutzen", field="destroyed", value="yes", reason="overrun")
    act(db, ligny, "end_battle", decision="blue", reason="Saint-Amand taken")
    page.goto(campaign_url)
    step(page, "Record the result of Ligny")
    picture = page.locator("svg.campaign-timeline")
    expect(picture).to_be_visible()
    label = picture.get_attribute("aria-label")
    assert "Ligny done" in label or "Ligny fought" in label, label
    no_sideways_scroll(page)
    check(page, "campaign", seen)
    SHOTS.mkdir(parents=True, exist_ok=True)
    picture.screenshot(path=str(SHOTS / f"campaign-{tablet}.png"))
    assert_clean(seen)
