"""Accessibility as a test: axe-core (installed from npm as a development dependency, injected from
node_modules, never from the internet) runs on every page and form of both games and the list
builders, and any violation fails the run. The rule that a control's accessible name contains its
visible text (off by default in axe) is switched on, since the audit found it broken."""
from __future__ import annotations

from pathlib import Path

import pytest
from _board import tool
from playwright.sync_api import Page, expect
from test_board_at_scale_e2e import start_big_battle

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}}


@pytest.fixture
def browser_context_args(browser_context_args):
    # axe-core is injected as a script of the test's own: the app's content security policy
    # (scripts from its own static files only) would refuse it, so this browser lets it past.
    return {**browser_context_args, "bypass_csp": True}


def violations(page: Page, idle: bool = True) -> list[str]:
    """axe-core's violations on the page as it stands, one line per failing element. ``idle``: wait
    for the network to go quiet first (a page that polls every half second never does: the test
    waits for what it needs itself)."""
    assert AXE.exists(), "axe-core is missing: run `npm ci` (make test does)"
    page.wait_for_load_state("networkidle" if idle else "load")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("async (options) => (await axe.run(document, options)).violations.map(v => "
                          "v.nodes.map(n => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.html.slice(0, 120)}`)"
                          ").flat()", OPTIONS)
    return found


def check(page: Page, what: str, seen: dict, idle: bool = True) -> None:
    seen[f"{what} {page.url}"] = violations(page, idle)


def assert_clean(seen: dict) -> None:
    bad = {k: v for k, v in seen.items() if v}
    assert not bad, "axe-core found violations:\n" + "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in bad.items())


def start_demo(page: Page) -> str:
    page.goto("/games/new")
    page.locator("form", has_text="Demo: Saint-Amand skirmish").get_by_role("button").tap()
    expect(page.locator(".turn")).to_contain_text("Turn 1")
    return page.url


def test_every_black_powder_page_and_form_passes_axe(page: Page, tablet):
    seen: dict = {}
    for url in ("/", "/games/new", "/games/new/forces"):
        page.goto(url)
        check(page, "page", seen)
    game = start_demo(page)
    check(page, "board", seen)
    page.locator("#units .card", has_text="11th Léger").tap()
    expect(page.locator("#panel .panel-head h2")).to_contain_text("11th Léger")
    check(page, "unit panel", seen)
    for action in ("order?units=11th-leger", "shoot?shooter=11th-leger", "charge?chargers=11th-leger",
                   "break_test?unit=11th-leger", "take_hits?unit=11th-leger", "adjust_unit?unit=11th-leger"):
        page.goto(f"{game}/act/{action}")
        expect(page.locator("#panel form.action-form")).to_be_visible()
        check(page, "form", seen)
    # A result with its dice, a unit off the table, the log and the settings.
    page.goto(f"{game}/units/82nd-ligne")
    page.locator("#panel button", has_text="Mark destroyed").tap()
    expect(page.locator("#panel.panel-result")).to_be_visible()
    page.goto(f"{game}/act/order?units=11th-leger")
    page.locator("#panel form.action-form .form-buttons button[type=submit]").tap()
    expect(page.locator("#panel.panel-result .die").first).to_be_visible()
    check(page, "result", seen)
    for url in (f"{game}/log", f"{game}/settings"):
        page.goto(url)
        check(page, "page", seen)
    assert_clean(seen)


def test_the_board_at_scale_passes_axe_with_its_tools_in_use(page: Page, tablet):
    seen: dict = {}
    start_big_battle(page)
    check(page, "compact board", seen)
    tool(page, "[data-view-toggle]").tap()
    tool(page, "[data-fold-all=fold]").tap()
    check(page, "folded board", seen)
    page.locator("#board-find").fill("foot")
    tool(page, "[data-filter=unordered]").tap()
    page.locator("#board-tools [data-pick-mode]").tap()
    page.locator("#units [data-unit]:visible .card").first.tap()
    expect(page.locator("#pick-count")).to_contain_text("1 picked")
    check(page, "found, filtered and picking", seen)
    assert_clean(seen)


def test_every_of_oil_and_iron_page_and_form_passes_axe(page: Page, tablet):
    seen: dict = {}
    page.goto("/games/new/oilandiron")
    check(page, "start", seen)
    page.locator("form button[type=submit]:not([name=grow])").last.tap()
    expect(page.locator("#units article.ooi-card").first).to_be_visible()
    check(page, "board", seen)
    page.locator("#units .ooi-card-name").first.tap()
    expect(page.locator("#panel.panel-unit")).to_be_visible()
    check(page, "rig panel", seen)
    page.locator("#status a.btn.primary").first.tap()
    expect(page.locator("#panel form.action-form")).to_be_visible()
    check(page, "form", seen)
    game = page.url.split("/act/")[0]
    page.goto(f"{game}/act/adjust_rig")
    check(page, "correction", seen)
    assert_clean(seen)


def test_the_list_builders_pass_axe(page: Page, tablet):
    seen: dict = {}
    for url in ("/lists/", "/lists/new/blackpowder", "/lists/new/oilandiron", "/lists/start", "/rules/"):
        page.goto(url)
        check(page, "page", seen)
    assert_clean(seen)


def test_the_board_tools_work_by_keyboard_alone(page: Page, tablet):
    start_demo(page)
    find = page.locator("#board-find")
    expect(find).to_be_visible()  # the tools show once board.js has started; a hidden box takes no typing
    find.focus()
    page.keyboard.type("léger")
    expect(page.locator("#units [data-unit]:visible")).to_have_count(2)
    for _ in range(2):  # Pick units beside the box, then the drawer of the other tools
        page.keyboard.press("Tab")
    drawer = page.locator("#tools-drawer")
    expect(drawer.locator("summary")).to_be_focused()
    page.keyboard.press("Enter")  # opens it
    expect(drawer).to_have_attribute("open", "")
    for _ in range(4):  # Fold all, Open all, Compact rows; then the side buttons
        page.keyboard.press("Tab")
    expect(page.locator("#board-tools [data-side-filter='']")).to_be_focused()
    for _ in range(3):  # the two sides, then the filters
        page.keyboard.press("Tab")
    attention = page.locator("#board-tools [data-filter=attention]")
    expect(attention).to_be_focused()
    page.keyboard.press("Space")
    expect(attention).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#units [data-unit]:visible")).to_have_count(0)
    page.keyboard.press("Space")
    find.fill("")
    summary = page.locator("#units details.brigade summary").first
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#units details.brigade").first).not_to_have_attribute("open", "")
    page.keyboard.press("Enter")
    expect(page.locator("#units details.brigade").first).to_have_attribute("open", "")
    # The builder's problems list scrolls: a keyboard reaches it.
    page.goto("/lists/new/oilandiron")
    expect(page.locator("#problems")).to_have_attribute("tabindex", "0")


def test_every_campaign_page_passes_axe(page: Page, tablet):
    """The campaigns' list with its forms (the import field included), a Hundred Days campaign, its
    log, settings and roster sheets, the day started on two tables with each table's page and
    board, and an Of Oil and Iron campaign: every page a campaign shows."""
    seen: dict = {}
    page.goto("/campaigns")
    check(page, "campaigns", seen)
    days = page.locator("form", has=page.locator("input[name=kind][value=hundred_days]"))
    days.locator("input[name=name]").fill("Axe days")
    days.locator("input[name=french]").fill("Nap")
    days.locator("input[name=coalition]").fill("Duke")
    days.get_by_role("button", name="Start the campaign").tap()
    expect(page.get_by_role("button", name="Start Ligny and Quatre Bras side by side")).to_be_visible()
    campaign = page.url.split("#")[0]
    check(page, "hundred days", seen)
    for url in (f"{campaign}/log", f"{campaign}/settings", f"{campaign}/print"):
        page.goto(url)
        check(page, "page", seen)
    page.goto(campaign)
    page.get_by_role("button", name="Start Ligny and Quatre Bras side by side").tap()
    expect(page.locator("#tables-live [data-battle=ligny]")).to_contain_text("Turn 1")
    check(page, "day on two tables", seen, idle=False)
    page.locator("[data-battle=ligny] a", has_text="its table").tap()
    expect(page.get_by_role("link", name="Open the Ligny board")).to_be_visible()
    check(page, "table page", seen, idle=False)
    page.get_by_role("link", name="Open the Ligny board").tap()
    expect(page.locator("#way-back")).to_be_visible()
    check(page, "campaign board", seen, idle=False)
    page.goto("/campaigns")
    squadrons = page.locator("form", has=page.locator("input[name=kind][value=oilandiron]"))
    squadrons.locator("input[name=name]").fill("Axe iron")
    squadrons.locator("input[name=p1-name]").fill("Anna")
    squadrons.locator("input[name=p2-name]").fill("Ben")
    squadrons.get_by_role("button", name="Start the campaign").tap()
    expect(page.locator("h1")).to_contain_text("Axe iron")
    check(page, "of oil and iron campaign", seen)
    assert_clean(seen)
