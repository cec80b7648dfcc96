"""18 June on two tables at once, four tablets (1024×768 and 768×1024, touch): the Waterloo umpire,
the Wavre umpire, the French player watching Wavre's campaign page and the Coalition player on
Waterloo's. The day is started side by side from the campaign page; Wavre is held until Waterloo
has begun its turn 2; a French breakthrough at Wavre in its turn 2 (a Prussian battalion in
hand-to-hand taking hits it fails to save) shows as a choice on the Coalition's Waterloo tablet
without a reload; the choice lands in Waterloo's log and Wavre's, with where it came from."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from _board import spilled, type_dice
from playwright.sync_api import Page, expect

from referee.table import campaign_games as cg
from referee.table import service

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TABLETS = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}
STEPS = ("Shooting", "Hand-to-Hand", "Command", "Shooting", "Hand-to-Hand", "Command")

# Long enough for a few of the pages' polls (every half second to a second) on a busy shared
# machine: this test says that the other tablets follow without a reload; how soon is measured by
# the benchmark, not here.
FOLLOWS = 5000


def eighteenth(db) -> int:
    plan = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "hundred-days.yaml").read_text())
    plan = copy.deepcopy(plan)
    plan["days"] = plan["days"][::-1]
    return cg.new_hundred_days(db, "Fall of Eagles", "Nap", "Wel", plan=plan).id


def tablet_page(browser, server, tablet, errors: list) -> Page:
    ctx = browser.new_context(base_url=server.url, viewport=TABLETS[tablet], has_touch=True)
    page = ctx.new_page()
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught on {page.url}: {e}"))
    return page


def next_phase(page: Page, expected: str) -> None:
    page.wait_for_timeout(400)  # a person taps Next phase again later than a double tap
    page.locator("#status button", has_text="Next phase").tap()
    expect(page.locator("#status .seq-step.current")).to_contain_text(expected)


def test_a_breakthrough_at_wavre_is_a_choice_on_the_waterloo_tablet_without_a_reload(browser, server, db, tablet):
    errors: list[str] = []
    cid = eighteenth(db)
    waterloo_umpire, wavre_umpire, french, coalition = (tablet_page(browser, server, tablet, errors) for _ in range(4))

    # The Waterloo umpire starts the day side by side from the campaign page.
    waterloo_umpire.goto(f"/campaigns/{cid}")
    waterloo_umpire.get_by_role("button", name="Start Wavre and Waterloo side by side").tap()
    expect(waterloo_umpire.locator("#tables-live [data-battle=wavre]")).to_contain_text("Turn 1")
    expect(waterloo_umpire.locator("#tables-live [data-battle=waterloo]")).to_contain_text("Turn 1")
    db.expire_all()
    doc = cg.get_campaign(db, cid).state
    wavre_id, waterloo_id = doc["battles"]["wavre"]["game_id"], doc["battles"]["waterloo"]["game_id"]
    assert wavre_id != waterloo_id

    # Each table's tablets: the umpires on their boards, the players on their table's campaign page.
    waterloo_umpire.locator("[data-battle=waterloo] a", has_text="its table").tap()
    waterloo_umpire.get_by_role("link", name="Open the Waterloo board").tap()
    waterloo_umpire.wait_for_url(re.compile(rf"/games/{waterloo_id}"))
    wavre_umpire.goto(f"/campaigns/{cid}/table/wavre")
    wavre_umpire.get_by_role("link", name="Open the Wavre board").tap()
    wavre_umpire.wait_for_url(re.compile(rf"/games/{wavre_id}"))
    french.goto(f"/campaigns/{cid}/table/wavre")
    coalition.goto(f"/campaigns/{cid}/table/waterloo")
    expect(coalition.locator("form.choice")).to_have_count(0)

    # Wavre waits for Waterloo's turn 2.
    wavre_umpire.locator("#status button", has_text="Next phase").tap()
    expect(wavre_umpire.get_by_text("Wavre begins 1 turn after Waterloo").first).to_be_visible()
    for step in STEPS:
        next_phase(waterloo_umpire, step)
    expect(waterloo_umpire.locator(".turn")).to_contain_text("Turn 2")
    expect(french.locator("[data-battle=wavre] .table-clock")).to_contain_text("Turn 1")
    wavre_umpire.reload()
    for step in (*STEPS, "Shooting"):
        next_phase(wavre_umpire, step)
    expect(wavre_umpire.locator(".turn")).to_contain_text("Turn 2")
    expect(french.locator("[data-battle=wavre] .table-clock")).to_contain_text("Turn 2 of 10 · French Shooting")

    # A Prussian battalion fighting hand-to-hand (set from the umpire's other tablet) takes hits it fails to save.
    state = service.get_game(db, wavre_id).state
    victim = next(u for u in state["units"].values() if u["side"] == "red" and not u.get("awaiting"))
    service.perform(db, wavre_id, service.get_game(db, wavre_id).version, "adjust_unit",
                    {"unit": victim["id"], "field": "in_combat", "value": "yes", "reason": "the French charge"})
    expect(wavre_umpire.locator("#log .entry").first).to_contain_text("in combat")  # the board has caught up
    wavre_umpire.locator("#status button", has_text="We roll").tap()  # the players' dice: every save fails
    expect(wavre_umpire.locator("#status button.on", has_text="We roll")).to_be_visible()
    wavre_umpire.locator("#units .card", has_text=victim["name"]).first.tap()
    expect(wavre_umpire.locator("#panel .panel-head h2")).to_contain_text(victim["name"])
    wavre_umpire.locator("#panel .unit-actions a", has_text="Hits on a unit").first.tap()
    form = wavre_umpire.locator("#panel form.action-form")
    form.locator("input[name=hits]").fill(str(victim["stamina"]))
    form.locator("fieldset", has=wavre_umpire.locator("legend", has_text="Hit by")).locator(
        "label", has_text="Hand-to-hand").first.tap()
    form.locator(".form-buttons button[type=submit]").tap()
    type_dice(wavre_umpire, lambda prompt: 1)
    result = wavre_umpire.locator("#panel.panel-result")
    expect(result).to_contain_text("French breakthrough at Wavre")

    # Without a reload (its table page polls every half second) the Coalition's Waterloo tablet asks
    # which II Corps unit arrives disordered.
    choice = coalition.locator("form.choice")
    expect(choice).to_contain_text("Which II Corps unit arrives disordered", timeout=FOLLOWS)
    # The Waterloo umpire's board follows it without a reload: its way back leads to the choice.
    owed = "A breakthrough at Wavre: choose which reinforcing unit arrives disordered"
    way = waterloo_umpire.locator("#way-back")
    expect(way).to_contain_text(owed, timeout=FOLLOWS)
    expect(french.locator("[data-battle=wavre] .reached")).to_contain_text("waiting for the Coalition's choice")
    for page in (coalition, french):  # the table pages fit the tablet: nothing runs off the side
        assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
        assert spilled(page) == [], spilled(page)  # and nothing runs out of its box inside the page
    picked = choice.locator("select[name=unit] option").nth(1).inner_text()
    choice.locator("select[name=unit]").select_option(index=1)
    choice.get_by_role("button", name="Disrupt this unit").tap()
    expect(coalition.locator("[data-battle=waterloo] .reached")).to_contain_text(f"{picked} disordered")
    expect(coalition.locator("form.choice")).to_have_count(0)
    expect(way).to_contain_text("Back to the campaign", timeout=FOLLOWS)
    expect(way).not_to_contain_text("breakthrough")

    # In both logs, with where it came from: Waterloo's board shows it, and Wavre's log.
    expect(waterloo_umpire.locator("#log .entry").first).to_contain_text("from Wavre, its turn 2")
    expect(french.locator("[data-battle=wavre] .reached")).to_contain_text(f"{picked} disordered at Waterloo")
    french.goto(f"/games/{wavre_id}/log")
    expect(french.get_by_text(re.compile("Reached Waterloo")).first).to_be_visible()
    db.expire_all()
    picked_id = next(u for u, d in service.get_game(db, waterloo_id).state["units"].items() if d["name"] == picked)
    assert service.get_game(db, waterloo_id).state["units"][picked_id]["disordered"] is True

    # Wavre takes it back, a step at a time; the Waterloo board follows each without a reload.
    wavre_umpire.locator("#log-buttons button", has_text="Undo").tap()  # "Reached Waterloo": the choice is open again
    expect(wavre_umpire.locator("#panel.panel-result h2")).to_contain_text("Undone")
    expect(way).to_contain_text(owed, timeout=FOLLOWS)
    # The umpire taps Undo again once the board shows the first undone (its buttons then carry the new version).
    expect(wavre_umpire.locator("#log-entries > li.entry").first).to_have_class(re.compile(r"\bundone\b"))
    wavre_umpire.locator("#log-buttons button", has_text="Undo").tap()  # the fight round: no breakthrough now
    expect(way).to_contain_text("Back to the campaign", timeout=FOLLOWS)
    expect(way).not_to_contain_text("breakthrough")
    # Redo is offered (the newest line is the one that cannot come back), and says what it puts back.
    redo = wavre_umpire.locator("#log-buttons button", has_text="Redo")
    expect(redo).to_be_enabled()
    expect(wavre_umpire.locator("#log-buttons .redo-what")).to_contain_text(victim["name"])
    redo.tap()
    expect(way).to_contain_text(owed, timeout=FOLLOWS)
    expect(coalition.locator("form.choice")).to_contain_text("Which II Corps unit arrives disordered", timeout=FOLLOWS)
    for page in (coalition, waterloo_umpire, wavre_umpire):  # nothing spills out of its box
        assert spilled(page) == [], spilled(page)
    # Any console error fails the test, on every tablet, the boards' included.
    assert errors == [], errors
