"""The forms a Waterloo turn opens most (a charge, a shot, an order, a break test, hits) fit in two
screens with their Resolve button, at 1024×768 and 768×1024: the long pick lists fold by side and
brigade, who acts comes from the side to play and the targets' enemies first."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

FORMS = ("charge", "shoot", "order", "break_test", "take_hits")


@pytest.fixture
def waterloo(page: Page) -> int:
    page.goto("/games/new")
    page.locator("form:has(input[name=scenario][value=waterloo]) button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/games/\d+$"), timeout=60_000)
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def test_each_form_fits_in_two_screens_with_its_resolve_button(page: Page, waterloo: int, tablet):
    screen = page.viewport_size["height"]
    tall = {}
    for action in FORMS:
        page.goto(f"/games/{waterloo}/act/{action}")
        form = page.locator("#panel form.action-form")
        expect(form).to_be_visible()
        resolve = form.locator(".form-buttons button[type=submit]").first
        expect(resolve).to_be_visible()
        top = form.evaluate("(el) => el.getBoundingClientRect().top + window.scrollY")
        bottom = resolve.evaluate("(el) => el.getBoundingClientRect().bottom + window.scrollY")
        tall[action] = round(bottom - top)
    assert all(h <= 2 * screen for h in tall.values()), (screen, tall)
