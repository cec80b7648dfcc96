"""A shot at Waterloo scale fits in two screens with its Resolve button, at 1024×768 and 768×1024:
the likely targets come first, open (the units fighting the shooter's brigade, then what its
brigade shot at lately, as the engine reads them from the game: ``blackpowder.likely``), and the
rest of the army folds by side and brigade behind the find box."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_game_night import form_fits

from referee.table import service
from referee.table.db import make_engine
from referee.table.db import session as db_session

pytestmark = pytest.mark.e2e

TARGET = "2-coldstream-guards"  # what the 55th Ligne shot at, in the 54th Ligne's division


def played(database_url: str, game_id: int) -> None:
    """The French Shooting phase of turn 1, the 55th Ligne having shot at the Coldstream."""
    engine = make_engine(database_url)
    try:
        with db_session(engine) as s:
            for action, facts in (("next_phase", {}),
                                  ("shoot", {"shooter": "55th-ligne", "target": TARGET, "range_band": "long"})):
                s.expire_all()
                service.perform(s, game_id, service.get_game(s, game_id).version, action, facts)
    finally:
        engine.dispose()


def test_a_waterloo_shot_offers_its_likely_targets_first_in_two_screens(page: Page, live_server, tablet):
    page.goto("/games/new")
    page.locator("form:has(input[name=scenario][value=waterloo]) button[type=submit]").first.tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    played(live_server.database_url, game_id)

    page.goto(f"/games/{game_id}/act/shoot?shooter=54th-ligne")
    target = page.locator("#f-target")
    likely = target.locator(".chip-likely")
    expect(likely.locator("label.chip").first).to_contain_text("2/Coldstream Guards")
    expect(likely.locator("label.chip").first).to_be_visible()
    end, two = form_fits(page)
    assert end <= two, f"the shoot form's Resolve button is {end:.0f} px down, two screens are {two:.0f}"
    # The rest by side and brigade, behind the find box.
    target.locator("[data-chip-find]").fill("3/1st foot guards")
    found = target.locator("label.chip:visible")
    expect(found).to_have_count(1)
    found.tap()
    expect(page.locator("#odds")).to_contain_text("%")
