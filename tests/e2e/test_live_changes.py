"""A second tablet follows a change by swapping in the one card that changed: its board, every
other card and the umpire's folds stay the very elements they were (no whole-board redraw)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from test_blackpowder_battle import open_unit, second_tablet, start_demo

pytestmark = pytest.mark.e2e

MARK_EVERYTHING = """() => {
  document.querySelector('#units').dataset.kept = 'yes';
  document.querySelectorAll('#units [data-unit]').forEach((u) => { u.dataset.kept = 'yes'; });
  return document.querySelectorAll('#units [data-unit]').length;
}"""
STILL_MARKED = """() => ({
  board: document.querySelector('#units').dataset.kept === 'yes',
  kept: Array.from(document.querySelectorAll('#units [data-unit]')).filter((u) => u.dataset.kept === 'yes')
    .map((u) => u.dataset.unit),
})"""


@pytest.mark.tablet("landscape")
def test_a_second_tablet_swaps_in_the_changed_card_and_keeps_the_rest(page: Page, make_live_server, tablet, context):
    other = second_tablet(page, make_live_server, context)
    cards = other.evaluate(MARK_EVERYTHING)
    assert cards > 3
    card = other.locator("#unit-11th-leger")
    expect(card).not_to_have_attribute("data-attention", "1")

    # The umpire marks one battalion disordered on the first tablet.
    open_unit(page, "11th Léger")
    page.locator("#panel button", has_text="Mark disordered").tap()
    expect(page.locator("#panel.panel-result")).to_be_visible()

    # The second tablet shows it within its next poll, with the log line...
    expect(card).to_have_attribute("data-attention", "1", timeout=5000)
    expect(card.locator(".badge", has_text="Disordered")).to_be_visible()
    expect(other.locator("#log .entry")).to_have_count(1)
    # ...and only that card was swapped: the board and every other card are the same elements.
    after = other.evaluate(STILL_MARKED)
    assert after["board"], "the whole board was redrawn"
    assert "11th-leger" not in after["kept"]
    assert len(after["kept"]) == cards - 1
    # The swapped card still opens its panel, and the second tablet can act on the new version.
    card.locator(".card").tap()
    expect(other.locator("#panel .panel-head h2")).to_contain_text("11th Léger")
    other.locator("#panel button", has_text="Clear disorder").tap()
    expect(other.locator("#panel.panel-result")).to_be_visible()
    expect(page.locator("#unit-11th-leger")).not_to_have_attribute("data-attention", "1", timeout=5000)


@pytest.mark.tablet("landscape")
def test_a_board_button_not_redrawn_posts_the_version_the_board_shows(page: Page, make_live_server, tablet, context):
    other = second_tablet(page, make_live_server, context)
    for name in ("11th Léger", "12th Léger"):  # two changes: the second leaves the log's buttons as they were
        open_unit(page, name)
        page.locator("#panel button", has_text="Mark disordered").tap()
        expect(page.locator("#panel.panel-result")).to_be_visible()
    expect(other.locator("#log .entry")).to_have_count(2, timeout=5000)
    # The second tablet's Undo was not sent again (it differs only in the version it posts): it
    # posts the version the board shows, so it undoes rather than being told it is stale.
    other.locator("#log button", has_text="Undo").tap()
    expect(other.locator("#panel h2")).to_contain_text("Undone")
    expect(other.locator("#log .entry.undone")).to_have_count(1)
    expect(page.locator("#log .entry.undone")).to_have_count(1, timeout=5000)


ONLY_ON_A_CHANGE = """() => {
  const poll = document.getElementById('poll');
  poll.setAttribute('hx-trigger', 'board-changed from:body');
  htmx.process(poll);
  return poll.dataset.version;
}"""


@pytest.mark.tablet("portrait")
def test_the_tablet_that_wrote_gets_its_result_then_its_board_by_the_event_its_answer_sends(page: Page,
                                                                                              make_live_server, tablet):
    """A write's answer is the result alone; the event it names makes the board's poll ask at
    once. With the poll's timer taken away, only that event can bring the card up to date."""
    start_demo(page, make_live_server().url)
    # The status bar shows before the page has been read to its end: wait for the poll and htmx.
    page.wait_for_function("() => document.getElementById('poll') && window.htmx")
    seen = page.evaluate(ONLY_ON_A_CHANGE)
    open_unit(page, "11th Léger")
    held = []
    page.route("**/poll?*", lambda route: held.append(route))  # the board's poll, held back a while
    with page.expect_response(lambda r: "/act/" in r.url and r.request.method == "POST") as wrote:
        page.locator("#panel button", has_text="Mark disordered").tap()
    assert "board-changed" in (wrote.value.headers.get("hx-trigger") or "")
    expect(page.locator("#panel.panel-result")).to_be_visible()
    # The result is in; the board says it is a moment behind until its poll brings the change.
    units = page.locator("#units")
    expect(units).to_have_attribute("aria-busy", "true")
    card = page.locator("#unit-11th-leger")
    expect(card).not_to_have_attribute("data-attention", "1")
    page.wait_for_timeout(50)
    assert held, "the board's poll did not ask on board-changed"
    for route in held:
        route.continue_()
    page.unroute("**/poll?*")
    expect(card).to_have_attribute("data-attention", "1")
    expect(page.locator("#log .entry")).to_have_count(1)
    expect(units).not_to_have_attribute("aria-busy", "true")
    assert int(page.locator("#poll").get_attribute("data-version")) == int(seen) + 1


WATCH_POLLS = """() => {
  window.polls = [];
  document.addEventListener('htmx:confirm', (e) => {
    if (e.detail.elt.id === 'poll') {
      window.polls.push({at: performance.now(), timer: !e.detail.triggeringEvent, held: e.defaultPrevented});
    }
  });
  document.addEventListener('htmx:beforeRequest', (e) => {
    if (e.detail.elt.id === 'poll') window.polls.push({at: performance.now(), sent: true});
  });
}"""


@pytest.mark.tablet("portrait")
def test_the_board_polls_at_a_moment_of_its_own_after_each_tick_and_at_once_after_its_own_change(
        page: Page, make_live_server, tablet):
    """Thirty tablets that were answered together must not ask together ever after: each timed
    poll goes out up to ``data-spread`` ms after its tick, at random. The poll that follows this
    tablet's own change goes at once."""
    start_demo(page, make_live_server().url)
    assert page.locator("#poll").get_attribute("data-spread") == "100"
    page.evaluate(WATCH_POLLS)
    page.wait_for_timeout(3000)
    polls = page.evaluate("window.polls")
    ticks = [p for p in polls if "timer" in p]
    assert len(ticks) >= 3 and all(p["timer"] and p["held"] for p in ticks)
    # Each held tick is sent once, after its own wait: within the spread (and a slow machine's
    # slack), and not all at the tick itself.
    waits = []
    for tick in ticks:
        sent = [p["at"] for p in polls if p.get("sent") and p["at"] >= tick["at"]]
        if sent:
            waits.append(min(sent) - tick["at"])
    assert len(waits) >= 3 and max(waits) < 400 and max(waits) > 2

    # The umpire's own change: its poll (on board-changed) is not held.
    page.evaluate("window.polls = []")
    page.locator("#status button", has_text="Next phase").tap()
    expect(page.locator("#status .seq-step.current")).to_contain_text("Shooting")
    changed = [p for p in page.evaluate("window.polls") if "timer" in p and not p["timer"]]
    assert changed and not any(p["held"] for p in changed)
