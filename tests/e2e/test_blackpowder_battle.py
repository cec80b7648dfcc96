"""A short Black Powder battle played through the tablet as an umpire would: an order, a shot with
the players' own dice typed in, a charge met by closing fire and fought out, a break test, an undo,
and the server restarted with the game still there. At 1024×768 and 768×1024, by touch."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from _board import resolve, submit_dice, type_dice
from playwright.sync_api import Page, expect
from test_smoke import MIN_TAP, SMALL_TARGETS_JS

pytestmark = pytest.mark.e2e


def start_demo(page: Page, base: str) -> str:
    """A fresh demo battle of its own, so the run at the other tablet size starts from the same place."""
    page.goto(base + "/games/new")
    page.locator("form", has_text="Demo: Saint-Amand skirmish").get_by_role("button").tap()
    expect(page.locator(".turn")).to_contain_text("Turn 1")
    return page.url


def open_unit(page: Page, name: str) -> None:
    page.locator("#units .card", has_text=name).first.tap()
    expect(page.locator("#panel .panel-head h2")).to_contain_text(name)


def panel_action(page: Page, label: str) -> None:
    page.locator("#panel .unit-actions a", has_text=label).first.tap()
    expect(page.locator("#panel form.action-form h2")).to_have_text(label)


def pick(page: Page, legend: str, label: str) -> None:
    """Tap a chip or a segment under a field's heading."""
    field = page.locator("#panel fieldset", has=page.locator("legend", has_text=legend)).first
    field.locator("label", has_text=label).first.tap()


# A person taps the same button again only after seeing what the last tap did: the same tap
# within a double tap's time of the first is taken for a double tap and done once (static/referee.js).
PERSON_PAUSE_MS = 400


def next_phase(page: Page, expected: str) -> None:
    page.wait_for_timeout(PERSON_PAUSE_MS)
    page.locator("#status button", has_text="Next phase").tap()
    expect(page.locator("#status .seq-step.current")).to_contain_text(expected)


def log_lines(page: Page):
    return page.locator("#log .entry")


def test_a_short_battle_played_on_the_tablet(page: Page, make_live_server, tablet, tmp_path):
    # REFEREE_SCREENSHOTS=<folder> keeps the screenshots to look at the pages as a person would.
    shots = Path(os.environ.get("REFEREE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    server = make_live_server()
    game_url = start_demo(page, server.url)
    page.screenshot(path=str(shots / f"board-{tablet}.png"))

    # Nothing on the board is too small for a finger, and nothing runs off the side.
    found = page.evaluate(SMALL_TARGETS_JS, MIN_TAP)
    assert found["small"] == [], found["small"]
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0

    # 1. An order in the French Command phase, the app rolling.
    open_unit(page, "11th Léger")
    panel_action(page, "Give an order")
    expect(page.locator("#panel label.chip", has_text="11th Léger").locator("input")).to_be_checked()
    expect(page.locator("#odds")).to_contain_text("%")
    resolve(page)
    expect(page.locator("#panel.panel-result > .result > .summary")).to_contain_text(re.compile("order to 11th Léger"))
    expect(page.locator("#panel .die").first).to_be_visible()
    expect(log_lines(page)).to_have_count(1)

    # 2. The players roll their own dice from now on; a shot in the Shooting phase.
    page.locator("#status button", has_text="We roll").tap()
    expect(page.locator("#status button.on", has_text="We roll")).to_be_visible()
    next_phase(page, "Shooting")
    open_unit(page, "11th Léger")
    panel_action(page, "Shoot")
    pick(page, "Target", "1/7th Musketeers")
    pick(page, "Range", "6\" or less")
    expect(page.locator("#odds")).to_contain_text("%")
    resolve(page)
    expect(page.locator("#panel .dice-prompt")).to_contain_text("Roll 1 D6 — to hit")
    # The question is brought into view: it sits below the facts, off the screen otherwise.
    expect(page.locator("#panel .dice-entry")).to_be_in_viewport()
    # The to-hit die by tapping the keypad's faces (a wrong one taken back, a tap too many not
    # taken), the rest typed.
    keypad = page.locator("#panel .keypad")
    keypad.locator("[data-die='3']").tap()
    keypad.locator("[data-die='back']").tap()
    keypad.locator("[data-die='6']").tap()
    keypad.locator("[data-die='5']").tap()
    expect(page.locator("#more-dice")).to_have_value("6")
    page.screenshot(path=str(shots / f"dice-{tablet}.png"))
    submit_dice(page)
    type_dice(page, lambda prompt: 1)
    result = page.locator("#panel.panel-result")
    expect(result.locator(".die.top").first).to_be_visible()
    expect(result.locator(".changes").first).to_contain_text("1/7th Musketeers")
    expect(page.locator("#units .card", has_text="1/7th Musketeers").locator(".badge")).to_contain_text(
        re.compile("Disordered|Shaken"))

    # 3. Round to the French Command phase of turn 2, where charges are ordered.
    for step in ("Hand-to-Hand", "Command", "Shooting", "Hand-to-Hand", "Command"):
        next_phase(page, step)
    expect(page.locator(".turn")).to_contain_text("Turn 2")

    # A charge met by closing fire: the defenders' muskets miss (1s), and the fight is joined.
    open_unit(page, "82nd Ligne")
    panel_action(page, "Charge")
    pick(page, "Unit charged", "2/7th Musketeers")
    pick(page, "The target's response", "Closing fire")
    resolve(page)
    prompts = type_dice(page, lambda prompt: 1)
    assert any("to hit" in p for p in prompts), prompts
    expect(page.locator("#panel.panel-result > .result > .summary")).to_contain_text("combat")
    combat = page.locator("#units .combats .combat").first
    expect(combat).to_contain_text("82nd Ligne")
    page.screenshot(path=str(shots / f"charge-{tablet}.png"), full_page=True)

    # The round of hand-to-hand: the chargers hit with everything, the defenders miss and fail
    # their saves; the losers take a break test, shown inside the combat's result.
    next_phase(page, "Shooting")
    next_phase(page, "Hand-to-Hand")
    page.locator("#units .combats a", has_text="Fight round").first.tap()
    expect(page.locator("#panel form.action-form h2")).to_contain_text("hand-to-hand")
    resolve(page)
    type_dice(page, lambda prompt: 6 if "82nd Ligne" in prompt else 1)
    result = page.locator("#panel.panel-result")
    expect(result.locator(".summary").first).to_contain_text("Combat round 1")
    expect(result.locator(".result .result").first).to_be_visible()  # the nested break test
    page.screenshot(path=str(shots / f"combat-{tablet}.png"), full_page=True)

    # 4. A break test called by the umpire, the app rolling again.
    page.locator("#status button", has_text="App rolls").tap()
    expect(page.locator("#status button.on", has_text="App rolls")).to_be_visible()
    open_unit(page, "1/29th Musketeers")
    panel_action(page, "Break test")
    resolve(page)
    expect(page.locator("#panel.panel-result > .result > .summary")).to_contain_text("Break test")
    entries_before = log_lines(page).count()

    # 5. Undo takes the break test back: struck through in the log, the board as before.
    page.locator("#log button", has_text="Undo").tap()
    expect(page.locator("#panel.panel-result h2")).to_contain_text("Undone")
    expect(page.locator("#log .entry.undone").first).to_contain_text("Break test")
    expect(log_lines(page)).to_have_count(entries_before)
    expect(page.locator("#log button", has_text="Redo")).to_be_enabled()
    board = page.locator("#units").inner_text()

    # 6. The server restarts: the game is all still there.
    server.restart()
    page.goto(game_url)
    expect(page.locator(".turn")).to_contain_text("Turn 2")
    expect(page.locator("#status .seq-step.current")).to_contain_text("Hand-to-Hand")
    assert page.locator("#units").inner_text() == board
    expect(page.locator("#log .entry.undone").first).to_contain_text("Break test")


def second_tablet(page: Page, make_live_server, context) -> Page:
    """The demo started on ``page`` in a fresh server, and a second tablet showing the same game."""
    url = start_demo(page, make_live_server().url)
    other = context.new_page()
    other.goto(url)
    return other


@pytest.mark.tablet("landscape")
def test_another_tablet_sees_the_change_without_reloading(page: Page, make_live_server, tablet, context):
    other = second_tablet(page, make_live_server, context)
    page.locator("#status button", has_text="Next phase").tap()
    expect(page.locator("#status .seq-step.current")).to_contain_text("Shooting")
    # The other tablet polls every 3 s and redraws the board by itself.
    expect(other.locator("#status .seq-step.current")).to_contain_text("Shooting", timeout=8000)
    expect(other.locator("#log .entry")).to_have_count(1)


def _refused_then_shown_the_fresh_board(page: Page, other: Page) -> None:
    """The first tablet moves the phase on; the second, still showing the old version, taps Next
    phase too: it is told so and shown the fresh board, with nothing on it still marked behind."""
    page.locator("#status button", has_text="Next phase").tap()
    expect(page.locator("#panel")).to_contain_text("Shooting")
    other.locator("#status button", has_text="Next phase").tap()
    expect(other.locator("#panel .message")).to_contain_text("Another tablet changed the turn and phase first")
    expect(other.locator("#status .seq-step.current")).to_contain_text("Shooting")
    expect(other.locator("#log .entry")).to_have_count(1)
    expect(other.locator("#units")).not_to_have_attribute("aria-busy", "true")


@pytest.mark.tablet("portrait")
def test_a_stale_tablet_is_told_and_shown_the_fresh_board(page: Page, make_live_server, tablet, context):
    other = second_tablet(page, make_live_server, context)
    other.evaluate("document.querySelector('#poll').remove()")  # this tablet has not refreshed yet
    _refused_then_shown_the_fresh_board(page, other)
    expect(page.locator("#status .seq-step.current")).to_contain_text("Shooting")


@pytest.mark.tablet("landscape")
def test_a_tablet_refused_before_the_new_board_is_drawn_catches_up_through_its_poll(
        page: Page, make_live_server, tablet, context):
    other = second_tablet(page, make_live_server, context)
    # No tablet draws the new version before the refusal: the first tablet's board stops polling,
    # and the second's polls only when told to (its clock stopped, the event still heard). The
    # refusal's event sends that poll at once.
    page.evaluate("document.querySelector('#poll').remove()")
    other.evaluate("""() => { const poll = document.querySelector('#poll');
        poll.setAttribute('hx-trigger', 'board-changed from:body'); htmx.process(poll); }""")
    _refused_then_shown_the_fresh_board(page, other)


PAGES = ["/", "/games/new", "/games/new/forces", "{game}", "{game}/units/11th-leger", "{game}/units/7th-division-foot-battery",
         "{game}/act/shoot?shooter=11th-leger", "{game}/act/charge?chargers=82nd-ligne", "{game}/act/order",
         "{game}/act/combat_round", "{game}/settings", "{game}/log"]


def test_every_page_fits_the_tablet_and_every_control_takes_a_finger(page: Page, make_live_server, tablet):
    server = make_live_server()
    game = start_demo(page, server.url).removeprefix(server.url)
    problems = []
    for path in PAGES:
        url = server.url + path.format(game=game)
        response = page.goto(url)
        assert response is not None and response.ok, f"{url}: {response and response.status}"
        # Folded groups and rule descriptions open, so what they hold is measured too.
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        found = page.evaluate(SMALL_TARGETS_JS, MIN_TAP)
        problems += [f"{path}: {s}" for s in found["small"]]
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0:
            problems.append(f"{path}: {overflow}px wider than the screen")
    assert problems == [], problems
