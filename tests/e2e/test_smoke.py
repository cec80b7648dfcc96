"""The home page on a tablet: it opens, htmx comes from our own server, every control is big
enough for a finger, and a restarted server still has the same games."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

MIN_TAP = 44  # px: the smallest target a finger hits reliably (Apple's and WCAG's guidance)

# Everything a finger can tap. A checkbox or radio is measured with its label, which takes the tap.
SMALL_TARGETS_JS = """
(min) => {
  const tappable = 'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [role=link], [role=tab], [role=checkbox], [role=switch], [role=menuitem], '
    + '[hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete], [onclick], [tabindex]:not([tabindex="-1"])';
  const out = [];
  let counted = 0;
  for (const el of document.querySelectorAll(tappable)) {
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not rendered (a closed <details>, display:none)
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    if (el.labels && el.labels.length) {
      for (const label of el.labels) {
        const l = label.getBoundingClientRect();
        if (l.width * l.height > box.width * box.height) box = l;
      }
    }
    counted += 1;
    if (box.width < min || box.height < min) {
      const name = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '').trim();
      out.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return {counted, small: out};
}
"""


def test_home_page_opens_with_htmx_from_our_own_server(page, live_server, tablet):
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)

    response = page.goto("/")

    assert response is not None and response.ok, f"the home page answered {response and response.status}"
    expect(page.locator("body")).to_be_visible()
    assert page.title().strip(), "the home page has no title"
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.evaluate("htmx.version").startswith("2."), "htmx 2 is the version the templates are written for"
    htmx = [u for u in scripts if u.endswith("/htmx.min.js")]
    assert htmx, f"htmx was not loaded from a file of ours; scripts: {scripts}"
    assert all(urlsplit(u).hostname == "127.0.0.1" for u in scripts), scripts


def test_every_control_on_the_home_page_is_big_enough_for_a_finger(page, tablet):
    page.goto("/")
    found = page.evaluate(SMALL_TARGETS_JS, MIN_TAP)
    assert found["counted"] > 0, "the home page offers nothing to tap"
    assert found["small"] == [], f"smaller than {MIN_TAP}×{MIN_TAP} px at {tablet}: {found['small']}"


def test_the_home_page_fits_the_tablet_without_sideways_scrolling(page, tablet):
    page.goto("/")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the {tablet} screen"


@pytest.mark.tablet("landscape")
def test_a_restarted_server_shows_the_same_games(page, make_live_server, tablet, console):
    server = make_live_server()
    page.goto(server.url + "/")
    before = page.locator("body").inner_text()
    # The server is stopped on purpose: a request of the page's still on its way then (the browser
    # fetching the icon after the page loaded) is refused, and says so in the console.
    console.expect("ERR_CONNECTION_REFUSED")

    server.restart()
    page.goto(server.url + "/")

    # Same text: the demo is not seeded a second time and nothing was kept only in memory.
    assert page.locator("body").inner_text() == before
