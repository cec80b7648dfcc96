"""The board on the first screen: opening a battle, the first unit card a person meets starts
within 200 px of the top in landscape (1024×768) and 260 px in portrait (768×1024), for the umpire
and for a seated player, on the demo and at Waterloo. Before, the game's name, the armies, the
reserves, "Other actions", a four-row tools box and the victory notes came first, and the first
card started at y = 638. The tools stand in one row (the rest in a drawer that opens with a tap),
a card's last stat label is whole ("Stamina", not "STAMIN"), and portrait shows one Log button."""
from __future__ import annotations

import re

import pytest
from _board import tool
from playwright.sync_api import Page, expect
from test_roles import PASSWORD, _tablet

pytestmark = pytest.mark.e2e

FIRST_CARD_TOP = {"landscape": 200, "portrait": 260}
SCENARIOS = ["demo", "waterloo"]


@pytest.fixture(scope="module")
def club(make_live_server):
    return make_live_server(REFEREE_MODE="club", REFEREE_SEED_DEMO="0")


def start(page: Page, scenario: str) -> str:
    page.goto("/games/new")
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    response = page.request.post("/games/new", form={"scenario": scenario, "csrf_token": token}, max_redirects=0)
    assert response.status == 303, response.text()[:300]
    return response.headers["location"]


def assert_first_screen(page: Page, tablet: str) -> None:
    """What a person meets on opening the board, measured where the browser drew it."""
    card = page.locator("#units [data-unit] .card").first
    expect(card).to_be_visible()
    top = card.bounding_box()["y"]
    assert top <= FIRST_CARD_TOP[tablet], f"the first unit card starts at y = {top:.0f} ({tablet})"
    # The find box, Pick units and the drawer of the other tools: one row above the board in
    # portrait; beside the board, in the column of the log, in landscape.
    find = page.locator("#board-find")
    expect(find).to_be_visible()
    tools = page.locator("#board-tools .tools-row").first.bounding_box()
    if tablet == "portrait":
        assert tools["height"] <= 60, f"the tools take {tools['height']:.0f} px"
    else:
        assert tools["x"] >= page.locator("#units").bounding_box()["x"] + page.locator("#units").bounding_box()["width"]
    expect(page.locator("#tools-drawer")).not_to_have_attribute("open", "")
    # One Log button to reach the log where it is below the board, none where it stands beside it.
    logs = page.get_by_role("link", name=re.compile(r"^\W*Log$"))
    visible = [i for i in range(logs.count()) if logs.nth(i).is_visible()]
    assert len(visible) == (1 if tablet == "portrait" else 0), f"{len(visible)} Log buttons ({tablet})"


def assert_stat_labels_whole(page: Page) -> None:
    """Every stat label of the first full cards is drawn whole inside its card."""
    clipped = page.evaluate("""() => [...document.querySelectorAll('#units .card')].slice(0, 6).flatMap(card => {
        const edge = card.getBoundingClientRect().right;
        return [...card.querySelectorAll('.stat small')].filter(label =>
            label.scrollWidth > label.clientWidth + 1 || label.getBoundingClientRect().right > edge - 1)
          .map(label => label.textContent);
      })""")
    assert clipped == [], f"stat labels cut at the card's edge: {clipped}"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_umpire_meets_a_unit_card_on_the_first_screen(page: Page, tablet, scenario):
    page.goto(start(page, scenario))
    assert_first_screen(page, tablet)
    if scenario == "demo":  # full cards (a big battle opens in compact rows)
        assert_stat_labels_whole(page)
    # The drawer opens with one tap and holds the rest of the tools.
    expect(tool(page, "[data-fold-all=fold]")).to_be_visible()
    expect(page.locator("#board-tools [data-filter=attention]")).to_be_visible()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_seated_player_meets_a_unit_card_on_the_first_screen(browser, club, tablet, scenario):
    umpire_ctx, out1 = _tablet(browser, club, tablet)
    player_ctx, out2 = _tablet(browser, club, tablet)
    umpire, player = umpire_ctx.new_page(), player_ctx.new_page()
    try:
        umpire.goto("/register")
        umpire.fill("input[name=name]", f"Umpire {tablet} {scenario}")
        umpire.fill("input[name=password]", PASSWORD)
        umpire.fill("input[name=again]", PASSWORD)
        umpire.get_by_role("button", name="Register").click()
        expect(umpire).not_to_have_url(re.compile(r"/register"))  # registered: the page it leads to
        game = start(umpire, scenario)
        game_id = int(re.search(r"/games/(\d+)", game).group(1))
        umpire.goto(f"/games/{game_id}/seats")
        code = umpire.locator(".seat-code[data-role=blue] .join-code code").inner_text()
        player.goto("/join")
        player.fill("input[name=code]", code.lower())
        player.get_by_role("button", name="Join").click()
        player.wait_for_url(re.compile(rf"/games/{game_id}"))
        player.goto(f"/games/{game_id}")
        expect(player.locator("#status-top .dice-mode")).not_to_be_visible()  # a player's tablet
        assert_first_screen(player, tablet)
        assert not out1 and not out2
    finally:
        umpire_ctx.close()
        player_ctx.close()

