"""A combat round on a Waterloo day, on a tablet: the supports group opens folded with no chip in
it, the list of supporters comes as it is opened, and a supporter tapped there counts in the
result. At 1024×768 and 768×1024, by touch."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from referee.blackpowder.model import Battle
from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.table.db import make_engine
from referee.table.db import session as db_session
from referee.web.forms import LIST_LATER_ABOVE

pytestmark = pytest.mark.e2e


def start_fight(server) -> tuple[int, str]:
    """Waterloo (271 units since issue 38 paired the Allied battalions) in the Hand-to-Hand phase, one combat open; the name of a free unit of
    the chargers' side to support it."""
    doc = new_battle_from_scenario("waterloo")
    battle = Battle.from_doc(doc)
    ready = [u for u in battle.units.values() if u.in_play and not u.awaiting and not u.is_artillery]
    blue = next(u.id for u in ready if u.side == "blue")
    red = next(u.id for u in ready if u.side == "red")
    supporter = next(u for u in ready if u.side == "blue" and u.id != blue)
    units = {**doc["units"], blue: {**doc["units"][blue], "in_combat": True},
             red: {**doc["units"][red], "in_combat": True}}
    doc = {**doc, "units": units, "phase": "hand_to_hand", "active_side": "blue",
           "combats": {"c1": {"id": "c1", "status": "open", "attackers": [blue], "defenders": [red], "round": 1}}}
    engine = make_engine(server.database_url)
    try:
        with db_session(engine) as s:
            game_id = service.create_game(s, "Waterloo, a fight", "blackpowder", doc).id
    finally:
        engine.dispose()
    return game_id, supporter.name


def test_the_supporters_come_as_their_group_opens_and_count(page: Page, live_server, tablet):
    game_id, supporter = start_fight(live_server)
    page.goto(f"/games/{game_id}")
    page.goto(f"/games/{game_id}/act/combat_round?combat=c1")
    form = page.locator("#panel form.action-form")
    expect(form.locator("h2")).to_have_text("Fight a round of hand-to-hand")
    group = form.locator("details.group", has=page.locator("summary", has_text="Chargers' supports"))
    rear = group.locator("fieldset", has=page.locator("legend", has_text="Behind the chargers"))
    expect(rear.locator("input[type=checkbox]")).to_have_count(0)
    group.locator("summary").first.tap()
    # A long list comes folded by side and brigade: open the folds that hold the unit, as a tap would.
    expect(rear.locator("label.chip", has_text=supporter).first).to_be_attached()
    for fold in rear.locator("details.chip-side, details.chip-fold").all():
        if fold.locator("label.chip", has_text=supporter).count() and not fold.evaluate("d => d.open"):
            fold.locator("summary").first.tap()
    chip = rear.locator("label.chip", has_text=supporter).first
    expect(chip).to_be_visible()
    assert rear.locator("input[type=checkbox]").count() > LIST_LATER_ABOVE
    chip.tap()
    expect(chip.locator("input")).to_be_checked()
    form.locator(".form-buttons button[type=submit]").tap()
    result = page.locator("#panel.panel-result")
    expect(result).to_contain_text("Attackers: Rear support")
