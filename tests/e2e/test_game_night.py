"""Game night at Waterloo scale, on a tablet held either way: the bar that stays on screen is
small (turn, phase, Next phase, the log), the first screen shows units, the bar is still there
deep down the board, the log and Undo are one tap away in portrait, an opened unit's title and
Close are not under the bar, and a reserve that is due opens its box below the bar, not in it.
And the game night itself: Waterloo's first two turns and Bülow's arrival on the umpire's and a
French player's tablets, every button double-tapped and applied once. Every page fails the test
on a console error (``watch``)."""
from __future__ import annotations

import re

import pytest
from _board import double_tap
from playwright.sync_api import Page, expect
from test_roles import umpire_starts_the_demo

from referee.table import service
from referee.table.db import make_engine
from referee.table.db import session as db_session

pytestmark = pytest.mark.e2e

BAR_MOST = 120  # px: the most the bar may take of a 768 px high screen


def watch(page: Page) -> list[str]:
    """Console errors and warnings, and failed requests, as the page meets them."""
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: said.append(f"page error: {e}"))
    # A request cut short because the page was left (the test going on to the next address) is
    # not the app's failure; htmx aborting one of its own says so in the console, caught above.
    page.on("requestfailed", lambda r: None if "ERR_ABORTED" in (r.failure or "")
            else said.append(f"failed: {r.method} {r.url} {r.failure}"))
    return said


def start(page: Page, scenario: str) -> None:
    page.goto("/games/new")
    page.locator(f"form:has(input[name=scenario][value={scenario}]) button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#status-turn")).to_be_visible()


def bar_box(page: Page) -> dict:
    return page.locator("#status-turn").bounding_box()


def next_phase(page: Page) -> None:
    before = page.locator("#status .seq-step.current").inner_text()
    turn = page.locator("#status .turn").inner_text()
    page.wait_for_timeout(400)  # a person taps Next phase again later than a double tap
    page.locator("#status-turn button", has_text="Next phase").tap()
    page.wait_for_function(
        "([s, t]) => document.querySelector('#status .seq-step.current')?.innerText !== s || "
        "document.querySelector('#status .turn')?.innerText !== t", arg=[before, turn])


def test_the_bar_is_small_stays_on_screen_and_the_first_screen_shows_units(page: Page, tablet):
    said = watch(page)
    start(page, "waterloo")
    bar = bar_box(page)
    height = page.viewport_size["height"]
    if tablet == "landscape":
        assert bar["height"] <= BAR_MOST, f"the bar takes {bar['height']:.0f} px"
    assert bar["y"] == 0
    for word in ("Turn 1", "Command", "Next phase"):
        expect(page.locator("#status-turn")).to_contain_text(word)
    # The first screen shows a unit's card, whole.
    first = page.locator("#units [data-unit] .card:visible").first.bounding_box()
    assert first["y"] + first["height"] <= height, f"the first unit card starts at {first['y']:.0f} px"

    # Far down the board, the bar and Next phase are still there.
    page.mouse.wheel(0, 6000)
    page.wait_for_function("() => window.scrollY > 3000")
    assert bar_box(page)["y"] == 0
    expect(page.locator("#status-turn button", has_text="Next phase")).to_be_in_viewport()

    if tablet == "portrait":
        # The log and Undo, one tap away.
        page.locator("#status-turn .log-jump").tap()
        expect(page.locator("#log-buttons button", has_text="Undo")).to_be_in_viewport()
        undo = page.locator("#log-buttons button", has_text="Undo").bounding_box()
        assert undo["y"] >= bar_box(page)["height"], "Undo sits under the bar"

    # A unit opened from deep down the board: its name and Close are below the bar.
    card = page.locator("#units [data-unit] a.card:visible").nth(40)
    card.scroll_into_view_if_needed()
    name = card.locator(".card-name").inner_text()
    card.tap()
    head = page.locator("#panel .panel-head")
    expect(head).to_contain_text(name)
    page.wait_for_timeout(400)  # the swap scrolls the panel into view
    title = head.locator("h2").bounding_box()
    close = head.get_by_role("link", name="Close").bounding_box()
    below = bar_box(page)["y"] + bar_box(page)["height"]
    assert title["y"] >= below and close["y"] >= below, f"the panel's head is under the bar ({title['y']:.0f} < {below:.0f})"
    assert said == [], said


@pytest.mark.tablet("landscape")
def test_a_reserve_due_opens_below_the_bar_not_in_it(page: Page, tablet):
    said = watch(page)
    start(page, "quatre-bras")
    for _ in range(15):  # to the Allies' turn 3, when Picton's 5th Division is due (docs/scenarios.md)
        next_phase(page)
    box = page.locator("#status details.reserves")
    expect(box).to_have_attribute("open", "")
    expect(box.locator("li.reserve", has_text="5th Division")).to_be_visible()
    assert bar_box(page)["height"] <= BAR_MOST
    # It scrolls away with the board; the bar does not.
    past = int(box.bounding_box()["y"] + box.bounding_box()["height"]) + 20
    page.mouse.wheel(0, past + 200)
    page.wait_for_function(f"() => window.scrollY >= {past}")
    # Scrolled past it, it is gone above the screen. The board may still grow above it as the last
    # phase's answer settles: then it is scrolled past again (a box held on screen never leaves).
    page.wait_for_function("""() => {
        const r = document.querySelector('#status details.reserves').getBoundingClientRect();
        if (r.bottom < 0) return true;
        window.scrollBy(0, r.bottom + 20);
        return false;
    }""", timeout=5000)
    assert bar_box(page)["y"] == 0
    assert said == [], said


# --- a club's table: the umpire's tablet and a French player's ------------------------------------

PASSWORD = "correct horse battery"
FRENCH_UNIT, ALLIED_UNIT = "11th-leger", "1-7th-musketeers"  # the demo battle's two sides


@pytest.fixture(scope="module")
def club(make_live_server):
    return make_live_server(REFEREE_MODE="club", REFEREE_SEED_DEMO="0")


def club_tablets(browser, club, tablet):
    sizes = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}
    return [browser.new_context(base_url=club.url, viewport=sizes[tablet], has_touch=True) for _ in range(2)]


def seat_name(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('#status-turn .my-role'), '::after').content")


def test_each_tablet_is_offered_only_what_its_seat_may_do(browser, club, tablet):
    umpire_ctx, player_ctx = club_tablets(browser, club, tablet)
    umpire, player = umpire_ctx.new_page(), player_ctx.new_page()
    umpire_said, player_said = watch(umpire), watch(player)
    try:
        game_id = umpire_starts_the_demo(umpire, f"Umpire of game night {tablet}")
        expect(umpire.locator("#status-turn button", has_text="Next phase")).to_be_visible()
        assert seat_name(umpire) == '"Umpire"'

        # The seats page: the sides' codes first; the umpire's role is handed on only on purpose.
        umpire.locator("a.seat-link").tap()
        codes = umpire.locator(".seat-code")
        expect(codes.first).to_have_attribute("data-role", "blue")
        expect(umpire.locator(".seat-code[data-role=umpire]")).not_to_be_visible()
        umpire.locator("details.hand-over > summary").tap()
        expect(umpire.locator(".seat-code[data-role=umpire]")).to_be_visible()
        french_code = umpire.locator(".seat-code[data-role=blue] .join-code code").inner_text()
        umpire_code = umpire.locator(".seat-code[data-role=umpire] .join-code code").inner_text()

        # The umpire's code asks the tablet taking it to confirm.
        player.goto(f"/join/{umpire_code}")
        expect(player.get_by_role("button", name="Take over as the umpire")).to_be_visible()
        expect(player.locator("input[name=confirm]")).to_have_attribute("required", "")

        player.goto(f"/join/{french_code}")
        player.get_by_role("button", name=re.compile("Join as French")).tap()
        player.wait_for_url(re.compile(rf"/games/{game_id}$"))
        assert seat_name(player) == '"French"'
        # The table's own steps are the umpire's: not offered on the player's tablet.
        expect(player.locator("#status-turn button", has_text="Next phase")).to_have_count(1)
        expect(player.locator("#status-turn button", has_text="Next phase")).not_to_be_visible()
        expect(player.locator("#status-top .dice-mode")).not_to_be_visible()

        # An Allied unit: nothing to do for it here, and no corrections.
        player.goto(f"/games/{game_id}/units/{ALLIED_UNIT}")
        panel = player.locator("#panel")
        expect(panel).to_contain_text("player or the umpire acts for")
        expect(panel.locator(".unit-actions a")).to_have_count(0)
        expect(panel).not_to_contain_text("Umpire's corrections")
        # A French unit: its actions, still no corrections.
        player.goto(f"/games/{game_id}/units/{FRENCH_UNIT}")
        expect(panel.locator(".unit-actions a").first).to_be_visible()
        expect(panel).not_to_contain_text("Umpire's corrections")
        # The umpire's tablet has them.
        umpire.goto(f"/games/{game_id}/units/{FRENCH_UNIT}")
        expect(umpire.locator("#panel")).to_contain_text("Umpire's corrections")
    finally:
        umpire_ctx.close()
        player_ctx.close()
    assert umpire_said == [] and player_said == [], (umpire_said, player_said)


# --- forms at Waterloo scale ----------------------------------------------------------------------

def form_fits(page: Page) -> tuple[float, float]:
    """How far below the form's top its Resolve button ends, and two screens under the bar."""
    return page.evaluate("""() => {
      const form = document.querySelector('#panel form.action-form');
      const end = form.querySelector('.form-buttons').getBoundingClientRect().bottom - form.getBoundingClientRect().top;
      const bar = document.getElementById('status-turn').getBoundingClientRect().height;
      return [end, 2 * (window.innerHeight - bar)];
    }""")


def test_a_waterloo_order_picks_the_brigade_first_and_a_shot_finds_its_target(page: Page, tablet):
    said = watch(page)
    start(page, "waterloo")
    game = page.url
    page.goto(game + "/act/order")
    units = page.locator("#f-units")
    folds = units.locator("details.chip-fold")
    expect(folds.first).to_be_visible()
    assert folds.count() >= 17 and units.locator("details.chip-fold[open]").count() == 0
    expect(units.locator("label.chip").first).not_to_be_visible()
    end, two = form_fits(page)
    assert end <= two, f"the order form's Resolve button is {end:.0f} px down, two screens are {two:.0f}"
    # The brigade first, then its units.
    folds.filter(has_text="1st Division").locator("summary").tap()
    expect(units.locator("label.chip", has_text="54th Ligne")).to_be_visible()
    units.locator("label.chip", has_text="54th Ligne").tap()
    units.locator("label.chip", has_text="55th Ligne").tap()
    expect(page.locator("#odds")).to_contain_text("%")

    # A shot: the shooter picked from its card stands alone; the targets fold by side and brigade,
    # the enemies' first, all folded (nothing is likely yet: tests/e2e/test_shoot_form.py), and
    # typing finds one.
    page.goto(game + "/act/shoot?shooter=54th-ligne")
    shooter = page.locator("#f-shooter")
    expect(shooter.locator("label.chip:visible")).to_have_count(1)
    target = page.locator("#f-target")
    sides = target.locator("details.chip-side")
    expect(sides.first.locator("> summary")).to_contain_text("Allied")
    expect(sides.first).not_to_have_attribute("open", "")
    expect(sides.nth(1)).not_to_have_attribute("open", "")
    end, two = form_fits(page)
    assert end <= two, f"the shoot form's Resolve button is {end:.0f} px down, two screens are {two:.0f}"
    target.locator("[data-chip-find]").fill("2/coldstream")
    found = target.locator("label.chip:visible")
    expect(found).to_have_count(1)
    expect(found).to_contain_text("2/Coldstream Guards")
    found.tap()
    # Emptied, the box leaves open only the brigade of what was picked.
    target.locator("[data-chip-find]").fill("")
    expect(target.locator("details.chip-fold[open]")).to_have_count(1)
    expect(target.locator("label.chip:has(input:checked)")).to_be_visible()
    expect(page.locator("#odds")).to_contain_text("%")
    assert said == [], said


# --- the game night itself: Waterloo on the umpire's and a French player's tablets ----------------

DOUBLE_TAP_MS = 120  # two taps of a finger that meant one
# The sequence of a turn (referee/blackpowder/turns.py): the French (Blue) play first.
PHASES_A_TURN = 6
ALLIED_COMMAND = 3


def newest_entry(page: Page) -> int:
    """The newest line of the board's log: its number, the count of entries of a game never undone."""
    first = page.locator("#log-entries > li.entry").first
    return int(first.get_attribute("id").rsplit("-", 1)[1]) if first.count() else 0


def place(page: Page) -> tuple[int, int]:
    """The turn and the step of the turn the bar shows as current."""
    return tuple(page.evaluate("""() => [
      Number(document.querySelector('#status .turn').innerText.match(/Turn (\\d+)/)[1]),
      [...document.querySelectorAll('#status .seq-step')].findIndex((s) => s.classList.contains('current'))]"""))


def step_after(turn: int, step: int) -> tuple[int, int]:
    return (turn, step + 1) if step + 1 < PHASES_A_TURN else (turn + 1, 0)


def applied_once(page: Page, entries: int) -> None:
    """After a double tap: one more line in the log, and still one a person's pause later (the
    second tap's answer has come by then)."""
    page.wait_for_function(
        "(n) => { const e = document.querySelector('#log-entries > li.entry'); "
        "return e && Number(e.id.split('-').pop()) > n && !document.querySelector('#status[aria-busy]'); }",
        arg=entries)
    page.wait_for_timeout(400)
    assert newest_entry(page) == entries + 1, f"a double tap made {newest_entry(page) - entries} log entries"


def umpire_next_phase(umpire: Page) -> None:
    """The umpire double-taps Next phase: the bar moves on by one step, the log by one line. (The
    person's pause before the next button is ``applied_once``'s.)"""
    was, entries = place(umpire), newest_entry(umpire)
    double_tap(umpire, umpire.locator("#status-turn button", has_text="Next phase"), DOUBLE_TAP_MS)
    applied_once(umpire, entries)
    assert place(umpire) == step_after(*was), f"Next phase went from {was} to {place(umpire)}"


def player_orders(player: Page, game_id: int, unit: str, name: str) -> None:
    """The French player double-taps Resolve on an order to one unit: one order, one line."""
    entries = newest_entry(player)
    player.goto(f"/games/{game_id}/act/order?units={unit}")
    expect(player.locator("#panel label.chip", has_text=name).locator("input")).to_be_checked()
    expect(player.locator("#odds")).to_contain_text("%")
    double_tap(player, player.locator("#panel form.action-form .form-buttons button[type=submit]"), DOUBLE_TAP_MS)
    expect(player.locator("#panel.panel-result .summary").first).to_contain_text(name)
    applied_once(player, entries)


def advance_by_the_table(database_url: str, game_id: int, steps: int) -> None:
    """``steps`` Next phases through the table's one write path (each a logged next_phase, as the
    button's), from another tablet of the umpire's."""
    engine = make_engine(database_url)
    try:
        with db_session(engine) as s:
            for _ in range(steps):
                s.expire_all()
                service.perform(s, game_id, service.get_game(s, game_id).version, "next_phase", {})
    finally:
        engine.dispose()


@pytest.mark.tablet("landscape")  # a double tap is the same at either size; the screen is tested above
def test_game_night_at_waterloo_two_tablets_and_double_taps(browser, club, tablet):
    """Waterloo's turns 1 and 2 and Bülow's arrival, on the umpire's tablet and a French player's
    seated by the French side's code. Every button pressed that changes the game is double-tapped
    (two taps 120 ms apart) and applies once: the turn moves on by one step, the log by one line.
    Turns 3 to 11 (57 steps between) are moved on through the table's write path, as the Next phase
    button does it (each a logged next_phase), not tapped: 57 more taps of a 300-unit board would
    cost the suite a minute and prove nothing the first twelve do not. Bülow's vanguard is then due
    by the scenario's own rule (announced as the Allies' turn 12 begins), and the umpire brings it on
    from the reserves box. Any console error or failed request on either tablet fails the test."""
    umpire_ctx, player_ctx = club_tablets(browser, club, tablet)
    umpire, player = umpire_ctx.new_page(), player_ctx.new_page()
    umpire_said, player_said = watch(umpire), watch(player)
    try:
        game_id = umpire_starts_the_demo(umpire, f"Waterloo umpire {tablet}", scenario="waterloo")
        umpire.locator("a.seat-link").tap()
        french_code = umpire.locator(".seat-code[data-role=blue] .join-code code").inner_text()
        umpire.goto(f"/games/{game_id}")
        player.goto(f"/join/{french_code}")
        player.get_by_role("button", name=re.compile("Join as French")).tap()
        player.wait_for_url(re.compile(rf"/games/{game_id}$"))

        for turn, (unit, name) in ((1, ("54th-ligne", "54th Ligne")), (2, ("55th-ligne", "55th Ligne"))):
            assert place(umpire) == (turn, 0)
            player_orders(player, game_id, unit, name)
            umpire.goto(f"/games/{game_id}")  # the umpire's board, as the player's order left it
            for _ in range(PHASES_A_TURN):
                umpire_next_phase(umpire)
            # The player's tablet follows without a reload.
            expect(player.locator("#status .turn")).to_contain_text(f"Turn {turn + 1}")

        advance_by_the_table(club.database_url, game_id, 9 * PHASES_A_TURN + ALLIED_COMMAND)
        umpire.goto(f"/games/{game_id}")
        assert place(umpire) == (12, ALLIED_COMMAND)
        vanguard = umpire.locator("#status li.reserve", has_text="Bülow's vanguard")
        expect(vanguard).to_contain_text("due on turn 12")
        entries = newest_entry(umpire)
        double_tap(umpire, vanguard.locator("button", has_text="Bring on"), DOUBLE_TAP_MS)
        applied_once(umpire, entries)
        expect(umpire.locator("#log-entries > li.entry").first).to_contain_text("Bülow's vanguard comes on")
        expect(umpire.locator("#status li.reserve", has_text="Bülow's vanguard")).to_have_count(0)
        expect(player.locator("#units .card", has_text="1/18th Infantry").first).to_be_attached()
    finally:
        umpire_ctx.close()
        player_ctx.close()
    assert umpire_said == [] and player_said == [], (umpire_said, player_said)
