"""Steps on a board that several e2e tests take: sending the action form, and typing the dice it
asks for until its result shows."""
from __future__ import annotations

import re

from playwright.sync_api import Page


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
