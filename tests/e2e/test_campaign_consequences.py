"""A campaign's consequences on a tablet at both sizes (1024×768, 768×1024, touch), when both
players field the same example squadron: the Aftermath names each Rig's owner, each Rig offers
only its own repairs and a refused repair keeps what was typed, and the repair traits and rank it
gives are on the second engagement's cards. In a plain engagement with the players' own dice, an
overflow is asked beside the dice as it arises, and the end of a round with one side wiped out
says, before the roll, that the engagement ends. The games are moved on from a second "tablet"
through the table service where the test is not about them."""
from __future__ import annotations

import re

import pytest
from _campaign_play import act, wreck_and_finish
from playwright.sync_api import Page, expect
from test_accessibility import assert_clean, check
from test_campaigns import new_oil_campaign, plan_and_start, tap
from test_oilandiron_engagement import activate_everyone_left, card, open_form, resolve_with_dice, roll_initiative

from referee.table import service

pytestmark = pytest.mark.e2e


@pytest.fixture
def browser_context_args(browser_context_args, server):
    # bypass_csp: axe-core is injected as the test's own script (test_accessibility)
    return {**browser_context_args, "base_url": server.url, "bypass_csp": True}


def recover(page: Page, name: str, dice: str) -> None:
    form = page.locator("#now form", has=page.get_by_role("button", name=f"Recovery roll for {name}"))
    form.locator("input[name=typed]").fill(dice)
    tap(page, f"Recovery roll for {name}")
    expect(page.get_by_role("button", name=f"Recovery roll for {name}")).to_have_count(0)


def test_owners_repairs_traits_and_rank_from_one_engagement_to_the_next(page: Page, db, tablet, console):
    campaign_url = new_oil_campaign(page, f"Twins {tablet}")  # Anna and Ben both field Jackal, Hyena, Warthog
    first = plan_and_start(page, 1)
    hull_max = service.get_game(db, first).state["rigs"]["p1-r1"]["structure_max"]["hull"]
    wreck_and_finish(db, first, hurt={"p1-r1": {"hull": hull_max - 1}})  # Ben's three wrecked
    page.goto(campaign_url)
    tap(page, "Begin the Aftermath")

    # Each Rig named with its owner, in the buttons and the odds.
    now = page.locator("#now")
    for name in ("Jackal (Ben)", "Hyena (Ben)", "Warthog (Ben)"):
        expect(now.get_by_role("button", name=f"Recovery roll for {name}")).to_be_visible()
    recover(page, "Jackal (Ben)", "12")  # whole
    recover(page, "Hyena (Ben)", "6 5")  # with a trait: 5, Twisted Frame (Pivot −1)
    recover(page, "Warthog (Ben)", "6 11")  # with a trait: 11, Hardened Joints (Legs structure +1)
    expect(now).to_contain_text("Jackal (Ben) rolled 12 (recovered)")
    expect(now).to_contain_text("Hyena (Ben) rolled 6 (recovered with a repair trait)")
    expect(now).not_to_contain_text("p2/r")

    # Repairs: each Rig lists only its own; a refused one keeps what was typed.
    anna_jackal = now.locator("form[data-repairs='p1/r1']")
    expect(anna_jackal.locator("option")).to_have_count(1)
    expect(anna_jackal.locator("option")).to_contain_text("Hull SP (1 lost)")
    ben_hyena = now.locator("form[data-repairs='p2/r2']")
    expect(ben_hyena.locator("option", has_text="Strip the trait Twisted Frame")).to_have_count(1)
    expect(now.locator("option", has_text="Twisted Frame")).to_have_count(1)  # under Ben's Hyena only
    anna_jackal.locator("input[name=sp]").fill("4")
    anna_jackal.get_by_role("button", name="Repair Jackal").click()
    expect(page.locator("#campaign-live .message")).to_contain_text("Jackal (Anna)'s Hull has lost 1 SP; 4 cannot be restored")
    expect(page.locator("#campaign-live .message")).not_to_contain_text("p1/")
    expect(now.locator("form[data-repairs='p1/r1'] input[name=sp]")).to_have_value("4")
    seen: dict = {}
    check(page, "aftermath with a refused repair", seen)

    for who in ("Anna", "Ben"):
        tap(page, f"Salvage rolls for {who}")
        expect(page.get_by_role("button", name=f"Salvage rolls for {who}")).to_have_count(0)
    tap(page, "Give experience and rewards")
    expect(page.get_by_role("button", name="Give experience and rewards")).to_have_count(0)
    tap(page, "Close the Aftermath")
    expect(page.locator("#now h2")).to_have_text("Before the next engagement")

    # The second engagement: the traits and the rank are on the cards, the figures changed.
    second = plan_and_start(page, 2)
    rigs = service.get_game(db, second).state["rigs"]
    assert rigs["p2-r2"]["pivot"] == rigs["p1-r2"]["pivot"] - 1
    assert rigs["p2-r3"]["structure_max"]["legs"] == rigs["p1-r3"]["structure_max"]["legs"] + 1
    ben_hyena, anna_hyena = page.locator("#rig-p2-r2"), page.locator("#rig-p1-r2")
    expect(ben_hyena.locator(".ooi-card-name")).to_have_text("Hyena (Ben)")
    expect(anna_hyena.locator(".ooi-card-name")).to_have_text("Hyena (Anna)")
    expect(ben_hyena.locator(".ooi-campaign")).to_contain_text("Twisted Frame (Pivot −1)")
    expect(ben_hyena.locator(".ooi-speed")).to_contain_text(f"{rigs['p2-r2']['pivot']} pivots")
    expect(anna_hyena.locator(".ooi-speed")).to_contain_text(f"{rigs['p1-r2']['pivot']} pivots")
    legs = rigs["p2-r3"]["structure_max"]["legs"]
    expect(page.locator("#rig-p2-r3 [data-location=legs]")).to_contain_text(f"{legs}/{legs}")
    expect(page.locator("#rig-p2-r3 .ooi-campaign")).to_contain_text("Hardened Joints (Legs structure +1)")
    expect(page.locator("#rig-p1-r1 .ooi-campaign")).to_contain_text("XP 3 · Green")  # took part, survived, won
    expect(page.locator("#rig-p2-r1 .ooi-campaign")).to_contain_text("XP 1 · Green")
    check(page, "second engagement's board", seen)
    assert_clean(seen)
    page.goto(campaign_url)
    expect(page.locator("#now")).to_contain_text("Jackal (Anna) starts damaged: Hull −1 SP")
    expect(page.locator("#now")).to_contain_text("Hyena (Ben): Twisted Frame — Pivot −1")


def test_overflow_asked_beside_the_dice_and_the_rounds_end_read_before_its_roll(page: Page, db, tablet, console):
    page.goto("/games/new/oilandiron")
    page.locator("#p1-name").fill("Anna")
    page.locator("#p2-name").fill("Ben")
    page.get_by_role("button", name="Start the engagement", exact=True).click()
    expect(page.locator("#status")).to_contain_text("Round 1")
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
    tap(page.locator("#status"), "We roll")
    expect(page.locator("#status").get_by_role("button", name="We roll")).to_be_disabled()
    page.reload()  # the board as it now stands, before the next tap
    roll_initiative(page, 9, 2)
    act(db, game_id, "adjust_rig", rig="p2-1", field="structure", location="hull", value="1",
        reason="an earlier hit")  # from the umpire's tablet: Lancer's Hull at 1 SP
    page.reload()
    scout = card(page, "Scout")
    tap(scout, "Activate")
    expect(card(page, "Lancer").locator("[data-location=hull]")).to_contain_text("1/3")

    # One hit (5; a 6 is two with Sustained Fire), Hull (1), impact 6 + STR 5 = Severe: 2 SP, 1 overflows.
    open_form(scout, "Fire Example Autocannon")
    page.locator("#panel form.action-form #f-target label.chip", has_text="Lancer").click()
    tap(page.locator("#panel"), "Resolve")
    typed: list[str] = []
    for batch, asked in ((["5", "2", "2"], "Roll 3 D6"), (["1"], "Roll 1 D12"), (["6"], "Roll 1 D6 — impact")):
        if typed:  # the answer to the last batch is in
            expect(page.locator("#panel .typed-so-far")).to_have_text(" ".join(typed))
        expect(page.locator("#panel .dice-prompt")).to_contain_text(asked)
        page.locator("#more-dice").fill(" ".join(batch))
        typed += batch
        tap(page.locator("#panel"), "Enter the dice")
    choice = page.locator("#panel .choice-entry")
    expect(choice).to_contain_text("1 damage overflows from Lancer's Hull: Ben, where does it go?")
    expect(choice.locator(".typed-so-far")).to_have_text(" ".join(typed))  # the dice, kept beside it
    expect(choice.locator("label.chip")).to_have_text(["Arms", "Legs", "Engine"])
    seen: dict = {}
    check(page, "overflow asked", seen)
    assert_clean(seen)
    choice.locator("label.chip", has_text="Legs").scroll_into_view_if_needed()
    choice.locator("label.chip", has_text="Legs").click()
    tap(page.locator("#panel"), "Send it there")
    expect(page.locator("#panel.panel-result")).to_be_visible()
    lancer = card(page, "Lancer")
    expect(lancer.locator("[data-location=hull]")).to_contain_text("0/3")
    expect(lancer.locator("[data-location=legs]")).to_contain_text("2/3")

    # Ben's squadron is wiped out in round 1: the end of the round says it ends, and it does.
    for rid in ("p2-1", "p2-2", "p2-3"):
        act(db, game_id, "adjust_rig", rig=rid, field="destroyed", value="yes", reason="wrecked")
    page.reload()
    expect(card(page, "Lancer")).to_contain_text("Destroyed")
    tap(card(page, "Scout"), "End activation")
    expect(page.locator("article.ooi-card.active")).to_have_count(0)
    activate_everyone_left(page)
    expect(page.locator("#status [aria-current=step]")).to_have_text("Maintenance")
    open_form(page.locator("#status"), "End the round")
    expect(page.locator("#odds")).to_contain_text("The engagement ends: 100% (Ben has no Rig left on the table)")
    expect(page.locator("#odds")).not_to_contain_text("goes on")
    resolve_with_dice(page, [])
    expect(page.locator("#panel")).to_contain_text("The engagement ends after round 1")
