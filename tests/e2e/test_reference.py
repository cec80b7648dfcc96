"""The rules reference on a tablet: a modifier in a shot's result opens its entry in the rules
dialog; closing it leaves the page and a half-filled form exactly as they were; searching
"closing fire" in the dialog reaches the entry. The printed quick-reference sheets fit two
sides of A4 and of Letter. At 1024×768 and 768×1024, by touch."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_accessibility import violations
from test_blackpowder_battle import next_phase, open_unit, panel_action, pick, start_demo
from test_smoke import MIN_TAP, SMALL_TARGETS_JS

pytestmark = pytest.mark.e2e


@pytest.fixture
def browser_context_args(browser_context_args):
    # axe-core is injected as a script of the test's own; the app's content security policy
    # (scripts from the app only) is right to refuse it, so the test's browser lets it in.
    return {**browser_context_args, "bypass_csp": True}


def _open_unit_action(page: Page, unit: str, action: str) -> None:
    open_unit(page, unit)
    panel_action(page, action)


def test_a_rule_opens_beside_the_form_and_search_reaches_it(page: Page, make_live_server, tablet):
    # The demo battle started as the battle test starts it (one way in for every test).
    start_demo(page, make_live_server().url)
    next_phase(page, "Shooting")

    # A shot at close range, the app rolling: its result names the close-range modifier.
    _open_unit_action(page, "11th Léger", "Shoot")
    pick(page, "Target", "1/7th Musketeers")
    pick(page, "Range", "6\" or less")
    page.locator("#panel form.action-form .form-buttons button[type=submit]").tap()
    result = page.locator("#panel.panel-result")
    modifier = result.locator(".modifiers a.rule-link", has_text="Close range or closing fire").first
    expect(modifier).to_be_visible()

    # Tap it: the entry opens in the dialog, the result stays under it.
    modifier.tap()
    dialog = page.locator("#rule-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".rule-title")).to_have_text("Closing fire")
    expect(dialog.locator(".rule-reading")).to_contain_text("retire")
    assert violations(page) == []  # the open dialog, its entry and its search forms pass axe
    dialog.locator("[data-close-rules]").tap()
    expect(dialog).to_be_hidden()
    expect(result.locator(".modifiers")).to_be_visible()

    # A second shot half filled in, then the first shot's modifier read from the log.
    _open_unit_action(page, "82nd Ligne", "Shoot")
    pick(page, "Target", "2/7th Musketeers")
    pick(page, "Range", "6\" or less")
    form = page.locator("#panel form.action-form")
    chosen = form.locator("input:checked")
    checked_before = chosen.evaluate_all("(els) => els.map((e) => e.name + '=' + e.value)")
    assert len(checked_before) >= 2
    url_with_form = page.url
    entry = page.locator("#log .entry").first  # the first shot: its details load as it opens
    entry.locator("summary").tap()
    expect(entry.locator(".modifiers a.rule-link").first).to_be_visible()
    entry.locator(".modifiers a.rule-link", has_text="Close range or closing fire").first.tap()
    expect(dialog.locator(".rule-title")).to_have_text("Closing fire")
    dialog.locator("[data-close-rules]").tap()
    expect(dialog).to_be_hidden()
    expect(page.locator("#panel form.action-form h2")).to_have_text("Shoot")
    assert chosen.evaluate_all("(els) => els.map((e) => e.name + '=' + e.value)") == checked_before
    assert page.url == url_with_form  # the page was never left: the form is the same element
    assert form.evaluate("(f) => f.isConnected")

    # Search in the dialog for "closing fire" and reach the entry.
    page.locator("#panel .modifiers a.rule-link, #log .modifiers a.rule-link").first.tap()
    expect(dialog).to_be_visible()
    expect(dialog.locator(".rule-title")).to_be_visible()  # the entry is in: its search form is live
    box = dialog.locator("input[name=q][type=search]")
    box.fill("closing fire")
    box.press("Enter")
    hit = dialog.locator(".rule-hits a", has_text=re.compile("^Closing fire$"))
    expect(hit).to_be_visible(timeout=10_000)  # a loaded CI machine answers slowly
    expect(dialog.locator(".rule-hits mark").first).to_be_visible()
    hit.tap()
    expect(dialog.locator("[data-entry='blackpowder/closing-fire']")).to_be_visible()
    dialog.locator("[data-close-rules]").tap()
    expect(page.locator("#panel form.action-form")).to_be_visible()


@pytest.mark.tablet("landscape")
@pytest.mark.parametrize("game", ["blackpowder", "oilandiron"])
def test_the_quick_reference_sheet_prints_on_two_sides(page: Page, live_server, tablet, game):
    page.goto(live_server.url + f"/rules/{game}/sheet")
    expect(page.locator(".sheet-panel").first).to_be_visible()
    for size in ("A4", "Letter"):
        pdf = page.pdf(format=size, print_background=False)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert 1 <= pages <= 2, f"{game} on {size}: {pages} pages"


@pytest.mark.parametrize("path", ["/rules", "/rules/blackpowder/closing-fire", "/rules/oilandiron/heat-threshold",
                                  "/rules/search?q=fire", "/rules/ask?q=how+does+ramming+work"])
def test_the_rules_pages_fit_the_tablet_take_a_finger_and_pass_axe(page: Page, live_server, tablet, path):
    page.goto(live_server.url + path)
    found = page.evaluate(SMALL_TARGETS_JS, MIN_TAP)
    assert found["small"] == [], found["small"]
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert violations(page) == []
