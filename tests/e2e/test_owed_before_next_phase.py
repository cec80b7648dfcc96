"""Next phase tapped in Hand-to-Hand with a combat not fought: the board says what is undone with a
button to fight it, and moves on only when the umpire taps "Move on anyway", which the log says.
At 1024×768 and 768×1024, by touch; no console error (the first tap is an answer, not a fault)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from referee.blackpowder.combat_records import new_combat_record
from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.table.db import make_engine
from referee.table.db import session as db_session

pytestmark = pytest.mark.e2e

FIGHT = "The fight of 11th Léger against 1/7th Musketeers has not fought its round this Hand-to-Hand phase."


def _hand_to_hand_with_a_fight(database_url: str) -> int:
    """The demo in the French Hand-to-Hand, 11th Léger fighting 1/7th Musketeers (a charge's outcome)."""
    doc = new_battle_from_scenario("demo")
    doc["phase"] = "hand_to_hand"
    for uid in ("11th-leger", "1-7th-musketeers"):
        doc["units"][uid]["in_combat"] = True
    doc["combats"] = {"c1": new_combat_record("c1", ["11th-leger"], ["1-7th-musketeers"], turn=1)}
    engine = make_engine(database_url)
    try:
        with db_session(engine) as s:
            return service.create_game(s, "A fight owed", "blackpowder", doc, seed=5).id
    finally:
        engine.dispose()


def test_next_phase_names_the_unfought_combat_and_moves_on_only_when_told(page: Page, live_server, tablet):
    game_id = _hand_to_hand_with_a_fight(live_server.database_url)
    page.goto(f"/games/{game_id}")
    page.locator("#status-turn button", has_text="Next phase").tap()
    panel = page.locator("#panel.panel-owed")
    expect(panel.locator("h2")).to_have_text("Before “Next phase”")
    expect(panel.locator("li.owed")).to_have_text(re.compile(re.escape(FIGHT)))
    expect(page.locator("#status .seq-step.current")).to_contain_text("Hand-to-Hand")
    # Its button, and the way on, are on the screen without scrolling.
    expect(panel.locator("a", has_text="Fight the round")).to_be_in_viewport()
    expect(panel.locator("button", has_text="Move on anyway")).to_be_in_viewport()

    # The button does what is owed: the combat's form, for that combat.
    panel.locator("a", has_text="Fight the round").tap()
    expect(page.locator("#panel form.action-form h2")).to_contain_text("hand-to-hand")
    page.go_back()
    page.goto(f"/games/{game_id}")

    # Tapped again, the umpire chooses to leave it undone: the phase moves on, and the log says so.
    page.locator("#status-turn button", has_text="Next phase").tap()
    page.wait_for_timeout(400)  # a person reads the list, then chooses
    page.locator("#panel.panel-owed button", has_text="Move on anyway").tap()
    expect(page.locator("#panel.panel-result .summary").first).to_contain_text("leaving 1 thing undone")
    expect(page.locator("#status .seq-step.current")).to_contain_text("Command")
    expect(page.locator("#log .entry").first).to_contain_text("leaving 1 thing undone")
