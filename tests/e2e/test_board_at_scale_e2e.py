"""The board at Waterloo scale, on a tablet: a 300-unit battle of 24 brigades, started from two
forces typed in on the start page. Folded brigades fit in two screens and stay folded after a
reload; a search narrows the board as it is typed and one more tap opens the unit; "needs
attention" after a shot shows exactly the unit it disordered, and says how many it hides; compact
rows are the default; a unit found by search is acted on in two taps; units of one brigade are
picked for one order; a second tablet keeps its folds and filter through a live update.
At 1024×768 and 768×1024, by touch."""
from __future__ import annotations

import re
import time

import pytest
from _board import resolve, tool, type_dice
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

BRIGADES = 12  # a side; the start form takes up to 12
BLUE_UNITS, RED_UNITS = 13, 12  # a brigade: 12 × 13 + 12 × 12 = 300 units
FOUND = "Quixotic Chasseurs"  # one battalion, found by its first four letters
POLL = 3.0  # seconds between a tablet's polls (games/_poll.html)


def _lines(side: str, b: int, size: int) -> list[tuple[str, str, int]]:
    """(profile, name, count) for one brigade: numbered battalions of three regiments, guns."""
    foot, guns = (("british-line-infantry", "royal-artillery") if side == "blue"
                  else ("french-line-infantry", "french-line-foot-artillery"))
    first = 10 + 3 * b
    lines = [(foot, f"{{n}}/{first}th {'Foot' if side == 'blue' else 'Ligne'}", 4),
             (foot, f"{{n}}/{first + 1}th {'Foot' if side == 'blue' else 'Ligne'}", 4),
             (guns, f"{side.title()} battery {b + 1}", 1)]
    left = size - 9
    if side == "red" and b == 6:
        lines.append((foot, FOUND, 1))
        left -= 1
    lines.append((foot, f"{{n}}/{first + 2}th {'Foot' if side == 'blue' else 'Ligne'}", left))
    return lines


def forces_form(name: str) -> dict:
    form = {"name": name}
    for side, size, army in (("blue", BLUE_UNITS, "Allied Army"), ("red", RED_UNITS, "Armée du Nord")):
        form.update({f"{side}-n": str(BRIGADES), f"{side}-name": army, f"{side}-general": f"{army} general"})
        for b in range(BRIGADES):
            key = f"{side}-b{b}"
            lines = _lines(side, b, size)
            form.update({f"{key}-n": str(len(lines)), f"{key}-name": f"{side.title()} brigade {b + 1}",
                         f"{key}-commander": f"{'Colonel' if side == 'blue' else 'Général'} {chr(65 + b)}{side[0]}",
                         f"{key}-rating": "8"})
            for i, (profile, unit, count) in enumerate(lines):
                form.update({f"{key}-u{i}-profile": profile, f"{key}-u{i}-name": unit,
                             f"{key}-u{i}-count": str(count)})
    return form


def start_big_battle(page: Page, name: str = "Waterloo at scale") -> str:
    """The 300-unit battle, through the start page's own form (its CSRF token included)."""
    page.goto("/games/new/forces")
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    response = page.request.post("/games/new/forces", form={**forces_form(name), "csrf_token": token},
                                 max_redirects=0)
    assert response.status == 303, response.text()[:500]
    url = response.headers["location"]
    page.goto(url)
    expect(page.locator("#units [data-unit]")).to_have_count(300)
    expect(page.locator("#board-tools")).to_be_visible()
    return page.url


def visible_units(page: Page):
    return page.locator("#units [data-unit]:visible")


def screen_height(page: Page) -> float:
    """What one screen shows of the board: the viewport less the status bar when it stays on top."""
    return page.evaluate("""() => {
      const status = document.getElementById('status');
      const sticky = getComputedStyle(status).position === 'sticky';
      return window.innerHeight - (sticky ? status.getBoundingClientRect().height : 0);
    }""")


def fold_all(page: Page) -> None:
    tool(page, "[data-fold-all=fold]").tap()
    expect(page.locator("#units details.brigade[open]")).to_have_count(0)


def brigades_of(page: Page, side: str):
    return page.locator(f"#units [data-side-box={side}] details.brigade")


def test_folded_brigades_fit_in_two_screens_and_stay_folded_after_a_reload(page: Page, tablet):
    start_big_battle(page)
    fold_all(page)
    screen = screen_height(page)
    for side in ("blue", "red"):
        boxes = [brigades_of(page, side).nth(i).bounding_box() for i in range(BRIGADES)]
        span = boxes[-1]["y"] + boxes[-1]["height"] - boxes[0]["y"]
        assert span <= 2 * screen, f"{side}'s {BRIGADES} folded brigades take {span:.0f} px, two screens are {2 * screen:.0f}"

    page.reload()
    expect(page.locator("#board-tools")).to_be_visible()
    # Folded brigades are sent without their cards (web/serving/folds.py).
    expect(page.locator("#units [data-unit]")).to_have_count(0)
    expect(page.locator("#units details.brigade[open]")).to_have_count(0)
    # One tap opens a brigade again, its cards fetched; that too is kept.
    third = brigades_of(page, "blue").nth(2)
    third.locator("summary").tap()
    expect(third).to_have_attribute("open", "")
    expect(third.locator("[data-unit]")).to_have_count(BLUE_UNITS)
    expect(third.locator("[data-unit]").first).to_be_visible()
    page.reload()
    expect(page.locator("#units details.brigade[open]")).to_have_count(1)
    expect(brigades_of(page, "blue").nth(2)).to_have_attribute("open", "")
    expect(page.locator("#units [data-unit]")).to_have_count(BLUE_UNITS)
    tool(page, "[data-fold-all=open]").tap()
    expect(page.locator("#units details.brigade:not([open])")).to_have_count(0)
    expect(page.locator("#units [data-unit]")).to_have_count(300)


def test_compact_rows_are_the_default_above_60_units_and_a_tablet_may_choose(page: Page, tablet):
    start_big_battle(page)
    toggle = tool(page, "[data-view-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    row = page.locator("#units [data-unit] .card").first
    # One row: name, formation and casualties on one line, no stat line.
    expect(row.locator(".card-cas")).to_have_text(re.compile(r"0/3"))
    expect(row.locator(".stats")).to_be_hidden()
    assert row.bounding_box()["height"] < 60
    toggle.tap()
    expect(row.locator(".stats")).to_be_visible()
    page.reload()
    expect(tool(page, "[data-view-toggle]")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#units [data-unit] .card .stats").first).to_be_visible()


def test_search_narrows_as_typed_and_one_more_tap_opens_the_unit(page: Page, tablet):
    start_big_battle(page)
    fold_all(page)
    find = page.locator("#board-find")
    find.tap()
    counts = []
    for letter in FOUND[:4].lower():
        find.press(letter)
        # Counted at once from the folded lines' index; the cards found come a moment later.
        counts.append(int(page.locator("#board-count").inner_text().split(" of ")[0]))
    assert counts[0] < 300 and counts == sorted(counts, reverse=True) and counts[-1] == 1, counts
    expect(visible_units(page)).to_have_count(1)
    found = visible_units(page).first
    expect(found).to_contain_text(FOUND)
    expect(found).to_be_in_viewport()
    expect(page.locator("#board-count")).to_have_text("1 of 300 units shown, 299 hidden")
    # A commander's name finds his brigade.
    find.fill("général gr")
    expect(visible_units(page)).to_have_count(RED_UNITS)
    find.fill(FOUND[:4].lower())
    found.locator(".card").tap()
    expect(page.locator("#panel .panel-head h2")).to_contain_text(FOUND)
    expect(page.locator("#panel .unit-actions a").first).to_be_visible()
    # Clearing the search gives the folds back.
    find.fill("")
    expect(page.locator("#units details.brigade[open]")).to_have_count(0)


def test_a_unit_found_by_search_is_acted_on_in_two_taps(page: Page, tablet):
    start_big_battle(page)
    page.locator("#board-find").fill("1/10th")
    page.locator("#units [data-unit]:visible .card", has_text="1/10th Foot").tap()  # tap 1: its panel
    page.locator("#panel .unit-actions a", has_text="Give an order").tap()  # tap 2: the form
    expect(page.locator("#panel form.action-form h2")).to_have_text("Give an order")
    expect(page.locator("#panel label.chip", has_text="1/10th Foot").locator("input")).to_be_checked()
    # Ordered, it leaves "not yet ordered" (which also hides the other army's 144, not to play).
    page.locator("#panel form.action-form .form-buttons button[type=submit]").tap()
    expect(page.locator("#panel.panel-result")).to_have_count(1)
    page.locator("#board-find").fill("")
    unordered = tool(page, "[data-filter=unordered]")
    unordered.tap()
    expect(unordered.locator(".hides")).to_have_text("· hides 145")
    expect(page.locator("#units [data-unit]:visible", has_text="1/10th Foot")).to_have_count(0)
    expect(visible_units(page)).to_have_count(155)
    unordered.tap()
    # As a target: the enemy's panel opens the shooting and charge forms with it chosen.
    page.locator("#board-find").fill(FOUND[:4].lower())
    page.locator("#units [data-unit]:visible .card").tap()
    page.locator("#panel a", has_text="Shoot at it").tap()
    expect(page.locator("#panel form.action-form h2")).to_have_text("Shoot")
    target = page.locator("#panel fieldset", has=page.locator("legend", has_text="Target"))
    expect(target.locator("label.chip", has_text=FOUND).locator("input")).to_be_checked()


def test_units_of_one_brigade_are_picked_for_one_order(page: Page, tablet):
    start_big_battle(page)
    page.locator("#board-tools [data-pick-mode]").tap()
    bar = page.locator("#pick-bar")
    expect(bar).to_be_visible()
    page.locator("#board-find").fill("/13th foot")  # Blue brigade 2's first regiment, from a search
    cards = page.locator("#units [data-unit]:visible .card")
    expect(cards).to_have_count(4)
    cards.nth(0).tap()
    cards.nth(2).tap()
    expect(page.locator("#pick-count")).to_have_text("2 picked from Blue brigade 2")
    expect(page.locator("#panel.panel-menu")).to_have_count(1)  # picking opened no panel
    # A unit of another brigade starts the pick again there: an order goes to one brigade.
    page.locator("#board-find").fill("1/10th foot")
    page.locator("#units [data-unit]:visible .card").first.tap()
    expect(page.locator("#pick-count")).to_contain_text("1 picked from Blue brigade 1")
    page.locator("#board-find").fill("/13th foot")
    cards.nth(0).tap()
    cards.nth(1).tap()
    expect(page.locator("#pick-count")).to_contain_text("2 picked from Blue brigade 2")
    bar.locator("a", has_text="Give an order").tap()
    expect(page.locator("#panel form.action-form h2")).to_have_text("Give an order")
    units = page.locator("#panel fieldset", has=page.locator("legend", has_text="Units to order"))
    expect(units.locator("input:checked")).to_have_count(2)
    expect(units.locator("label.chip", has_text="1/13th Foot").locator("input")).to_be_checked()
    expect(units.locator("label.chip", has_text="2/13th Foot").locator("input")).to_be_checked()


def _shoot_with_sixes(page: Page, shooter: str, target: str) -> None:
    page.locator("#status form", has_text="We roll").locator("button").tap()
    expect(page.locator("#status .dice-mode .on")).to_have_text("We roll")
    page.locator("#status button", has_text="Next phase").tap()
    expect(page.locator("#status .seq-step.current")).to_contain_text("Shooting")
    page.locator("#board-find").fill(shooter.lower())
    page.locator("#units [data-unit]:visible .card", has_text=shooter).tap()
    page.locator("#panel .unit-actions a", has_text="Shoot").first.tap()
    field = page.locator("#panel fieldset", has=page.locator("legend", has_text="Target"))
    field.locator("[data-chip-find]").fill(target.lower())  # the targets come folded by brigade
    field.locator("label", has_text=target).tap()
    resolve(page)
    type_dice(page, lambda prompt: 6)
    expect(page.locator("#panel.panel-result")).to_have_count(1)


def test_needs_attention_after_a_shot_shows_exactly_the_unit_it_disordered(page: Page, tablet):
    start_big_battle(page)
    attention = tool(page, "[data-filter=attention]")
    expect(attention.locator(".hides")).to_have_text("· hides 300")
    _shoot_with_sixes(page, "1/10th Foot", FOUND)
    page.locator("#board-find").fill("")
    attention.tap()
    expect(attention).to_have_attribute("aria-pressed", "true")
    expect(visible_units(page)).to_have_count(1)
    expect(visible_units(page).first).to_contain_text(FOUND)
    expect(visible_units(page).first.locator(".badge")).to_contain_text(["Disordered"])
    expect(attention.locator(".hides")).to_have_text("· hides 299")
    expect(page.locator("#board-count")).to_have_text("1 of 300 units shown, 299 hidden")


def test_a_second_tablet_keeps_its_folds_and_filter_through_a_live_update(page: Page, browser, live_server, tablet):
    url = start_big_battle(page)
    other = browser.new_context(base_url=live_server.url, viewport=page.viewport_size, has_touch=True)
    try:
        second = other.new_page()
        second.goto(url)
        expect(second.locator("#units [data-unit]")).to_have_count(300)
        fold_all(second)
        tool(second, "[data-filter=attention]").tap()
        expect(second.locator("#units [data-unit]:visible")).to_have_count(0)
        expect(second.locator("#board-count")).to_have_text("0 of 300 units shown, 300 hidden")

        # The first tablet marks a unit disordered.
        page.locator("#board-find").fill("2/16th foot")
        page.locator("#units [data-unit]:visible .card").tap()
        page.locator("#panel button", has_text="Mark disordered").tap()
        expect(page.locator("#panel.panel-result")).to_have_count(1)
        changed = time.monotonic()

        shown = second.locator("#units [data-unit]:visible")
        expect(shown).to_have_count(1, timeout=(POLL + 4) * 1000)
        waited = time.monotonic() - changed
        expect(shown.first).to_contain_text("2/16th Foot")
        assert waited <= POLL + 4, f"the second tablet saw the change after {waited:.1f}s"
        expect(tool(second, "[data-filter=attention]")).to_have_attribute("aria-pressed", "true")
        tool(second, "[data-filter=attention]").tap()
        expect(second.locator("#board-count")).to_have_text("")
        expect(second.locator("#units details.brigade[open]")).to_have_count(0)  # still folded
        # Folded again, its brigade lets the card go: the folded board holds none (web/serving/folds.py).
        expect(second.locator("#units [data-unit]")).to_have_count(0)
    finally:
        other.close()
