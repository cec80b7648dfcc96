"""Roles at a club server's table, on both tablet sizes: the umpire registers and starts a game,
reads the Blue player's and the spectators' codes (with their QR codes) off the seats page; the
Blue player joins by code on another tablet, acts for a Blue unit, is refused for a Red one with
a sentence; the spectator sees the Blue player's action arrive and cannot act."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

BLUE_UNIT, RED_UNIT = "11th-leger", "1-7th-musketeers"
PASSWORD = "correct horse battery"
TABLETS = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def club(make_live_server):
    return make_live_server(REFEREE_MODE="club", REFEREE_SEED_DEMO="0")


def _tablet(browser, club, tablet):
    context = browser.new_context(base_url=club.url, viewport=TABLETS[tablet], has_touch=True)
    outside: list[str] = []

    def guard(route):
        host = re.sub(r"^\w+://([^/:]+).*$", r"\1", route.request.url)
        if host in LOCAL_HOSTS:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()
    context.route("**/*", guard)
    return context, outside


def umpire_starts_the_demo(page, name: str, scenario: str = "demo") -> int:
    """An umpire registers and starts the demo battle (or another scenario): its game id."""
    page.goto("/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=again]", PASSWORD)
    page.get_by_role("button", name="Register").click()
    expect(page).not_to_have_url(re.compile(r"/register"))  # registered: the page it leads to
    page.goto("/games/new")
    page.locator(f"form:has(input[name=scenario][value={scenario}]) button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+"))
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def _act(page, game_id: int, action: str, **facts) -> None:
    query = "&".join(f"{k}={v}" for k, v in facts.items())
    page.goto(f"/games/{game_id}/act/{action}?{query}")
    page.locator("#panel form button[type=submit].primary").click()


def test_umpire_player_and_spectator(browser, club, tablet):
    umpire_ctx, out1 = _tablet(browser, club, tablet)
    player_ctx, out2 = _tablet(browser, club, tablet)
    watcher_ctx, out3 = _tablet(browser, club, tablet)
    umpire, player, watcher = umpire_ctx.new_page(), player_ctx.new_page(), watcher_ctx.new_page()
    try:
        # The umpire registers and starts the demo battle.
        game_id = umpire_starts_the_demo(umpire, f"Umpire {tablet}")
        umpire.locator("a.seat-link").click()
        expect(umpire.locator(".my-seat")).to_have_text("the umpire")
        blue_card = umpire.locator(".seat-code[data-role=blue]")
        expect(blue_card.locator(".qr svg")).to_be_visible()
        blue_code = blue_card.locator(".join-code code").inner_text()
        watch_code = umpire.locator(".seat-code[data-role=spectator] .join-code code").inner_text()

        # A tablet without a seat sees the join form, not the game.
        player.goto(f"/games/{game_id}")
        expect(player.locator("form[action='/join']")).to_be_visible()

        # The Blue player joins by code and acts for a Blue unit.
        player.goto("/join")
        player.fill("input[name=code]", blue_code.lower())
        player.get_by_role("button", name="Join").click()
        player.wait_for_url(re.compile(rf"/games/{game_id}"))
        player.goto(f"/games/{game_id}/seats")
        expect(player.locator(".my-seat")).to_have_text("French")  # the demo's Blue side
        expect(player.locator(".seat-code")).to_have_count(0)  # the codes are the umpire's to show
        player.goto(f"/games/{game_id}")

        watcher.goto(f"/join/{watch_code}")
        watcher.get_by_role("button", name=re.compile("Join as")).click()
        watcher.wait_for_url(re.compile(rf"/games/{game_id}"))
        expect(watcher.locator("#log")).not_to_contain_text("Break test")

        _act(player, game_id, "break_test", unit=BLUE_UNIT)
        expect(player.locator("#log")).to_contain_text("Break test")

        # The spectator's tablet shows it without a reload (the poll).
        expect(watcher.locator("#log")).to_contain_text("Break test", timeout=15_000)

        # Refused for a Red unit, with a sentence; nothing is logged.
        _act(player, game_id, "break_test", unit=RED_UNIT)
        expect(player.locator("[role=alert]")).to_contain_text("it can act only for its own side")
        player.goto(f"/games/{game_id}")
        expect(player.locator("#log")).not_to_contain_text("1/7th Musketeers")

        # The spectator cannot act: told so when it asks for the form, with no form to fill in.
        watcher.goto(f"/games/{game_id}/act/break_test?unit={BLUE_UNIT}")
        expect(watcher.locator("[role=alert]")).to_contain_text("Spectators watch")
        expect(watcher.locator("#panel form.action-form")).to_have_count(0)

        # A player asking for an umpire's form (Next phase) is told at once, too.
        player.goto(f"/games/{game_id}/act/next_phase")
        expect(player.locator("[role=alert]")).to_contain_text("Only the umpire")
        expect(player.locator("#panel form.action-form")).to_have_count(0)

        # The umpire may act for either side.
        _act(umpire, game_id, "break_test", unit=RED_UNIT)
        expect(umpire.locator("#log")).to_contain_text("1/7th Musketeers")
    finally:
        for ctx in (umpire_ctx, player_ctx, watcher_ctx):
            ctx.close()
    assert out1 == out2 == out3 == []


def test_seats_survive_a_restart(browser, club, tablet):
    """The seats are rows in the database and the tablet's token is in its signed cookie."""
    ctx, outside = _tablet(browser, club, tablet)
    page = ctx.new_page()
    try:
        game_id = umpire_starts_the_demo(page, f"Restart {tablet}")
        club.restart()
        page.goto(f"/games/{game_id}/seats")
        expect(page.locator(".my-seat")).to_have_text("the umpire")
    finally:
        ctx.close()
    assert outside == []


def test_the_log_says_whose_tablet_typed_the_dice(browser, club, tablet):
    """In "We roll" mode the Blue player types Blue's dice on their own tablet: the result says so,
    and so does the log line the umpire's tablet opens."""
    umpire_ctx, out1 = _tablet(browser, club, tablet)
    player_ctx, out2 = _tablet(browser, club, tablet)
    umpire, player = umpire_ctx.new_page(), player_ctx.new_page()
    try:
        game_id = umpire_starts_the_demo(umpire, f"Dice umpire {tablet}")
        umpire.locator("#status button", has_text="We roll").tap()
        expect(umpire.locator("#status button.on", has_text="We roll")).to_be_visible()
        umpire.locator("a.seat-link").click()
        blue_code = umpire.locator(".seat-code[data-role=blue] .join-code code").inner_text()

        player.goto(f"/join/{blue_code}")
        player.get_by_role("button", name=re.compile("Join as")).click()
        player.wait_for_url(re.compile(rf"/games/{game_id}"))
        _act(player, game_id, "break_test", unit=BLUE_UNIT)
        prompt = player.locator("#panel .dice-prompt")
        expect(prompt).to_contain_text("Roll 2 D6")
        player.locator("#more-dice").fill("3 4")
        player.locator("#panel form.action-form .form-buttons button[type=submit]").tap()
        expect(player.locator("#panel.panel-result .typed-by")).to_have_text("Dice typed in: 1–2 by French.")

        umpire.goto(f"/games/{game_id}")
        line = umpire.locator("#log li.entry", has_text="Break test").first
        line.locator("summary").tap()
        expect(line.locator(".typed-by")).to_have_text("Dice typed in: 1–2 by French.")
    finally:
        for ctx in (umpire_ctx, player_ctx):
            ctx.close()
    assert out1 == out2 == []
