"""Steps on a board that several e2e tests take: a finger's double tap, sending the action form,
and typing the dice it asks for until its result shows."""
from __future__ import annotations

import re
import time

from playwright.sync_api import Locator, Page, expect


def double_tap(page: Page, target: str | Locator, gap_ms: int) -> None:
    """Two taps where the button is, the second ``gap_ms`` after the first, as a finger does; it
    lands on whatever is there by then (the button disabled in flight, or what the first tap's
    answer drew). Each touch carries the moment it happened, as a tablet's touches do: a busy page
    (or a loaded test machine) handles the second late, and timed by when it was handled the test
    would have tapped later than the finger did."""
    button = page.locator(target) if isinstance(target, str) else target
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    try:
        first = time.time()
        for at in (first, first + gap_ms / 1000):
            page.wait_for_timeout(max(0, (at - time.time()) * 1000))
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point], "timestamp": at})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + 0.03})
    finally:
        cdp.detach()


def resolve(page: Page) -> None:
    page.locator("#panel form.action-form .form-buttons button[type=submit]").tap()


def submit_dice(page: Page) -> None:
    """Send the dice and wait for the answer: the result, or the next prompt carrying every die so far."""
    typed = page.locator("#panel input[name=typed]").get_attribute("value")
    resolve(page)
    page.wait_for_function(
        "(old) => document.querySelector('#panel.panel-result') || "
        "(document.querySelector('#panel input[name=typed]') || {}).value !== old", arg=typed)


def type_dice(page: Page, choose) -> list[str]:
    """Answer every dice prompt until the result shows; ``choose(prompt)`` gives the face typed."""
    prompts = []
    for _ in range(12):
        page.wait_for_selector("#panel.panel-result, #panel .dice-prompt")
        if page.locator("#panel.panel-result").count():
            return prompts
        text = page.locator("#panel .dice-prompt").inner_text()
        prompts.append(text)
        count = int(re.search(r"Roll (\d+) D6", text).group(1))
        page.locator("#more-dice").fill(" ".join([str(choose(text))] * count))
        submit_dice(page)
    raise AssertionError(f"the dice prompts never ended: {prompts}")


def tool(page: Page, which: str) -> Locator:
    """One of the board's find-and-filter tools (``which``: a selector inside #board-tools): all
    but the find box and Pick units fold into a drawer, opened here first if it is folded."""
    drawer = page.locator("#tools-drawer")
    if drawer.get_attribute("open") is None:
        drawer.locator("summary").tap()
        expect(drawer).to_have_attribute("open", "")
    return page.locator(f"#board-tools {which}")


# Every box whose content runs out of it (a table wider than its card), at any depth: the page's
# own sideways scroll misses a box that spills inside a page that fits. A box that scrolls or clips
# on purpose (overflow other than visible) keeps its content in; a box not shown (visibility) is not read.
SPILLED_JS = """() => [...document.querySelectorAll('body *')].filter(el => {
    const css = getComputedStyle(el);
    if (css.display === 'inline' || css.display === 'contents' || css.overflowX !== 'visible') return false;
    if (el.clientWidth === 0 || css.visibility !== 'visible' || css.position === 'absolute' && css.clip !== 'auto') return false;
    return el.scrollWidth - el.clientWidth > 1;
  }).map(el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')}: `
             + `${el.scrollWidth - el.clientWidth}px ("${el.innerText.slice(0, 60)}" on ${location.pathname})`)"""


def spilled(page: Page) -> list[str]:
    """The boxes on the page whose content runs out of them sideways, and by how much."""
    return page.evaluate(SPILLED_JS)
