"""A lone player plays three turns of Quatre Bras against Referee, which commands the French: it
starts the battle with "Referee plays the French", answers the Foe's questions one tap each,
has its orders carried out, plays the Allied turns on the board, and comes back to Referee's turn.
At 1024×768 with touch; any console error fails the test (but the board's own poll noise, below).

And a whole Iron Clash, Referee commanding Ben's squadron: the player answers, carries out, plays
Anna's Rigs (each activates and ends at once) and makes her Rigs' Heat Threshold rolls when the
Foe's shots have driven them over (the Foe waits on those, as a person would: left out, the game
never got past Maintenance), until the length roll ends the engagement."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from referee.table.db import make_engine
from referee.table.db import session as db_session
from referee.table.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.tablet("landscape")]


# The board's poll names a box that exists only while a roll waits for another side
# (templates/games/_poll.html, hx-include="#pending-seen"), and htmx reports the miss at every poll:
# the board's own, not this feature's, and left to its owner.
# So does htmx when the player leaves the board while its 700 ms poll is in the air.
BOARD_NOISE = ('The selector "#pending-seen" on hx-include returned no matches!',
               "htmx:afterRequest, [object HTMLDivElement]", "htmx:sendAbort, [object HTMLDivElement]")


def watch_console(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text} at {page.url}") if m.type == "error"
            and m.text not in BOARD_NOISE else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def varied(n: int, count: int) -> int:
    """A band a little nearer each time, now and then "can't tell" (the last option)."""
    return count - 1 if n % 6 == 5 else n % max(1, count - 1)


def referee_turn(page: Page, taps: list[str], choose=varied) -> int:
    """Answer and carry out until Referee says it is the player's move (or the game is over);
    returns its decisions. ``choose(n, options)`` is the n-th answer's option."""
    decisions = 0
    carried = False
    for _ in range(200):
        if page.locator("#foe-wait, #foe-over").count():
            return decisions
        options = page.locator("a.foe-answer")
        if options.count():
            pick = choose(len(taps), options.count())
            taps.append(options.nth(pick).inner_text())
            with page.expect_navigation():  # a tap loads the next question: read that page, not this one
                options.nth(pick).click()
            carried = False
            continue
        expect(page.locator("ul.foe-orders li").first).to_be_visible()
        if carried:  # the same button again: a person reads the new orders first; a second tap within
            page.wait_for_timeout(400)  # a double tap's 350 ms is taken for the first one's (static/referee.js)
        with page.expect_navigation():
            page.locator("#foe-carry-out").click()
        carried = True
        decisions += 1
    raise AssertionError("Referee never handed the turn back")


def back_to_the_board(page: Page) -> None:
    """From the Foe's screen to the board, and on it before the test looks for what to tap: read
    on the Foe's page still, it found neither an Activate nor a Heat Threshold roll there."""
    page.get_by_role("link", name="Back to the board").click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#units")).not_to_have_attribute("aria-busy", "true")


def activate_one(page: Page) -> bool:
    """Anna's next Rig activates and ends its activation at once; False when none is left to."""
    activate = page.locator("#units").get_by_role("button", name="Activate", exact=True)
    if not activate.count():
        return False
    activate.first.click()
    expect(page.locator("article.ooi-card.active")).to_have_count(1)
    page.locator("article.ooi-card.active").get_by_role("button", name="End activation", exact=True).click()
    expect(page.locator("article.ooi-card.active")).to_have_count(0)
    return True


def heat_roll(page: Page) -> bool:
    """Anna's next Rig over its threshold makes its Heat Threshold roll; False when none owes one."""
    heat = page.locator("#units").get_by_role("link", name="Heat Threshold roll", exact=True)
    if not heat.count():
        return False
    heat.first.click()
    page.locator("#panel").get_by_role("button", name="Resolve", exact=True).click()
    expect(page.locator("#panel.panel-result")).to_be_visible()
    return True


def turn_number(page: Page) -> int:
    text = page.locator("#status").inner_text()
    return int(re.search(r"Turn (\d+)", text).group(1))


def test_a_lone_player_plays_three_turns_of_quatre_bras(page: Page):
    errors = watch_console(page)
    page.goto("/games/new")
    scenario = page.locator("li.scenario", has_text="Quatre Bras")
    scenario.get_by_label("The French").check()
    scenario.get_by_role("button", name=re.compile("Start")).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/foe$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Referee plays French")

    taps: list[str] = []
    decided = 0
    for turn in (1, 2, 3):
        decided += referee_turn(page, taps)
        page.get_by_role("link", name="Back to the board").click()
        assert turn_number(page) == turn
        # The Allied turn: the player moves their own models and moves the phases on from the board
        # (Command, Shooting, Hand-to-Hand), which brings the French turn round again.
        version = page.locator("form:has(button.next-phase) input[name=version]")
        for _ in range(3):
            before = version.get_attribute("value")
            page.wait_for_timeout(400)  # a person taps Next phase again later than a double tap
            page.locator("button.next-phase").click()
            # A combat left unfought this phase: Next phase says so, and the player, who fights it on
            # the table later, moves on deliberately.
            leave = page.locator("#panel.panel-owed button", has_text="Move on anyway")
            moved = page.locator(f"form:has(button.next-phase) input[name=version]:not([value='{before}'])")
            expect(leave.or_(moved)).to_have_count(1)
            if leave.count():
                leave.click()
            expect(version).not_to_have_value(before)
        assert turn_number(page) == turn + 1
        page.locator("a.foe-link").click()
        expect(page).to_have_url(re.compile(r"/foe$"))
    assert decided >= 10 and len(taps) >= 10
    assert "Can't tell" in taps
    # Every decision is in the log, with what it was told.
    page.goto(re.sub(r"/foe$", "/log", page.url))
    expect(page.get_by_text(re.compile("The Foe:")).first).to_be_visible()
    assert errors == []



def test_a_lone_player_plays_a_whole_iron_clash(page: Page, live_server):
    page.goto("/games/new/oilandiron")
    page.locator("label.ooi-type", has_text="Iron Clash").click()
    page.locator("#p1-name").fill("Anna")
    page.locator("#p2-name").fill("Ben")
    page.get_by_role("button", name="Start the engagement").click()
    expect(page.locator("#status")).to_contain_text("Round 1")
    # The table's dice are the game's seeded dice: one seed, so the same engagement every run.
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    engine = make_engine(live_server.database_url)
    with db_session(engine) as s:
        s.get(Game, game_id).seed = 38  # an engagement in which the Foe's fire drives Anna's Scout over
        s.commit()
    engine.dispose()
    page.goto(f"/games/{game_id}/foe/settings")
    page.get_by_label("Ben").check()
    page.locator("#foe-declare").click()
    expect(page).to_have_url(re.compile(r"/foe$"))

    taps: list[str] = []
    decided = rolled = 0
    # Anna's answers: the first option (the Foe's preferred target, the nearest band, a side arc),
    # and "can't tell" now and then.
    first = lambda n, count: count - 1 if n % 7 == 6 else 0  # noqa: E731
    for _ in range(40):
        decided += referee_turn(page, taps, first)
        if page.locator("#foe-over").count():
            break
        waits = " ".join(page.locator("#foe-waiting-for").all_inner_texts())  # what Referee says it waits for
        back_to_the_board(page)
        if not activate_one(page):
            # Anna's turn with nothing to activate is Maintenance: her Rigs over their threshold roll,
            # as Referee's screen said.
            assert "Heat Threshold rolls for" in waits
            expect(page.locator("#turn-line")).to_contain_text("Heat Threshold rolls for")
            assert heat_roll(page)
            rolled += 1
        page.locator("a.foe-link").click()
        expect(page).to_have_url(re.compile(r"/foe$"))
    expect(page.locator("#foe-over")).to_be_visible()
    assert decided >= 20 and rolled >= 1 and "Can't tell" in taps
    page.get_by_role("link", name="Back to the board").click()
    expect(page.locator("#status")).to_contain_text(re.compile("wins|draw", re.I))
