"""The sign-in, register and join forms on a tablet: every box and button at least 44 px high,
the text at least 16 px, and the games list's menu icon drawn without an emoji font (an inline SVG)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

SIZES_JS = """() => Array.from(document.querySelectorAll('main input:not([type=hidden]), main button')).map(e => {
  const r = e.getBoundingClientRect();
  return [e.name || e.innerText.trim(), r.height, parseFloat(getComputedStyle(e).fontSize)];
})"""


@pytest.mark.parametrize("path", ["/login", "/register", "/join"])
def test_the_forms_to_sign_in_and_join_are_finger_sized(page: Page, tablet, path):
    page.goto(path)
    sizes = page.evaluate(SIZES_JS)
    assert sizes, f"{path} drew no form"
    small = [s for s in sizes if s[1] < 44 or s[2] < 16]
    assert small == [], f"{path}: {small}"


def test_the_games_link_on_the_join_page_is_a_drawing_not_an_emoji(page: Page, tablet):
    page.goto("/join")
    link = page.locator("header a.btn", has_text="Games")
    assert link.locator("svg.icon").count() == 1
    assert "☰" not in link.inner_text()
