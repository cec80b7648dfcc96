"""Campaigns on a tablet (1024×768, touch): an Of Oil and Iron campaign of two engagements through
both Aftermaths, a Rig's damage and experience visibly carried into the second engagement; and
a Hundred Days campaign of Ligny then Waterloo, Ligny's losses shaping Waterloo's starting
forces. The games themselves are played from a second "tablet" through the table service (the
same one path the board uses), so this test is about the campaign's own screens."""
from __future__ import annotations

import re

import pytest
from _campaign_play import act, wreck_and_finish
from playwright.sync_api import Page, expect

from referee.table import service

pytestmark = pytest.mark.e2e


@pytest.fixture
def browser_context_args(browser_context_args, server):
    return {**browser_context_args, "base_url": server.url}


def finish_engagement(db, game_id: int, hull_of_p1_r1: int) -> None:
    """The umpire's tablet: Anna's first Rig takes Hull damage, Ben's squadron is wrecked, the round
    is played out and the engagement ends."""
    wreck_and_finish(db, game_id, hurt={"p1-r1": {"hull": hull_of_p1_r1}})


def start_campaign(page: Page, form, typed: dict[str, str], chosen: dict[str, str] | None = None) -> str:
    """Type into a new campaign's form (``typed``, by box name), choose (``chosen``) and start it:
    the campaign's address."""
    for name, value in typed.items():
        form.locator(f"input[name={name}]").fill(value)
    for name, value in (chosen or {}).items():
        form.locator(f"select[name={name}]").select_option(value)
    form.get_by_role("button", name="Start the campaign").click()
    page.wait_for_url(re.compile(r"/campaigns/\d+"))
    return page.url.split("?")[0].split("#")[0]


SWORD = "example:example-sword-squadron"


def new_oil_campaign(page: Page, name: str) -> str:
    """An Of Oil and Iron campaign for Anna and Ben, both fielding the example Sword scouts (a
    Jackal, a Hyena and a Warthog each): its address."""
    page.goto("/campaigns")
    form = page.locator("form", has=page.get_by_role("button", name="Start the campaign")).first
    return start_campaign(page, form, {"name": name, "p1-name": "Anna", "p2-name": "Ben"},
                          {"p1-squadron": SWORD, "p2-squadron": SWORD})


def game_id_of(page: Page) -> int:
    return int(re.search(r"/games/(\d+)", page.url).group(1))


def tap(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def step(page: Page, name: str) -> None:
    """A Hundred Days step taken: the tablet draws the campaign page again (a page load) before
    the next tap, as a person sees it done before tapping on."""
    with page.expect_event("load"):
        tap(page, name)


def plan_and_start(page: Page, n: int) -> int:
    now = page.locator("#now")
    now.locator("select[name=engagement]").select_option("iron_clash")
    now.locator("select[name=deployment]").select_option("Battle Lines")
    now.locator("select[name=battlefield]").select_option("Open Plains")
    tap(page, "Choose or roll")
    expect(page.locator("#now")).to_contain_text("Next: Iron Clash — Battle Lines deployment, on Open Plains")
    tap(page, f"Start engagement {n} from the rosters")
    page.wait_for_url(re.compile(r"/games/\d+"))
    return game_id_of(page)


def aftermath(page: Page, campaign_url: str, recover: str) -> None:
    page.goto(campaign_url)
    tap(page, "Begin the Aftermath")
    expect(page.locator("#now h2")).to_contain_text("The Aftermath of engagement")
    for name in ("Jackal (Ben)", "Hyena (Ben)", "Warthog (Ben)"):  # both players field these names
        form = page.locator("#now form", has=page.get_by_role("button", name=f"Recovery roll for {name}"))
        expect(form.locator(".odds")).to_contain_text(f"Recovery of {name}")
        form.locator("input[name=typed]").fill(recover)
        tap(page, f"Recovery roll for {name}")
        # each step is swapped in place (htmx): its button goes once the answer is in
        expect(page.get_by_role("button", name=f"Recovery roll for {name}")).to_have_count(0)
    for who in ("Anna", "Ben"):
        form = page.locator("#now form", has=page.get_by_role("button", name=f"Salvage rolls for {who}"))
        expect(form.locator(".odds")).to_contain_text("Each salvage roll (D12)")
        tap(page, f"Salvage rolls for {who}")  # the app rolls
        expect(page.get_by_role("button", name=f"Salvage rolls for {who}")).to_have_count(0)
    tap(page, "Give experience and rewards")
    expect(page.get_by_role("button", name="Give experience and rewards")).to_have_count(0)
    tap(page, "Close the Aftermath")
    expect(page.locator("#now h2")).to_have_text("Before the next engagement")


@pytest.mark.tablet("landscape")
def test_an_oil_and_iron_campaign_carries_damage_and_experience(page: Page, db):
    campaign_url = new_oil_campaign(page, "Oil Night")
    jackal = page.locator(".roster[aria-label='Roster of Anna'] .rig[data-rig='p1/r1']")
    expect(jackal).to_contain_text("XP 0 · Green")

    first = plan_and_start(page, 1)
    hull_max = service.get_game(db, first).state["rigs"]["p1-r1"]["structure_max"]["hull"]
    finish_engagement(db, first, hull_max - 1)
    aftermath(page, campaign_url, "12")
    expect(jackal).to_contain_text("XP 3 · Green")  # took part, survived, won
    expect(jackal.locator(".sp.hurt")).to_have_text(f"Hull {hull_max - 1}/{hull_max}")
    expect(page.get_by_text("Engagement 1: Iron Clash")).to_be_visible()

    second = plan_and_start(page, 2)
    # The second engagement's board: Anna's Jackal starts with the Hull damage it carried.
    expect(page.locator("article.ooi-card[aria-label='Jackal (Anna)']").get_by_role(
        "img", name=f"Hull {hull_max - 1} of {hull_max} structure points")).to_be_visible()
    page.goto(campaign_url)
    expect(page.locator("#now")).to_contain_text("Jackal (Anna) starts damaged: Hull −1 SP")
    finish_engagement(db, second, hull_max - 2)
    aftermath(page, campaign_url, "12")
    expect(jackal).to_contain_text("XP 6 · Blooded")
    expect(jackal).to_contain_text("Service: 2 engagement(s)")
    page.goto(campaign_url + "/log")
    expect(page.locator(".entries")).to_contain_text("Recovery roll")


@pytest.mark.tablet("landscape")
def test_a_hundred_days_campaign_ligny_shapes_waterloo(page: Page, db):
    page.goto("/campaigns")
    form = page.locator("form", has=page.locator("input[name=french]"))
    campaign_url = start_campaign(page, form, {"name": "1815", "french": "Nap", "coalition": "Duke"},
                                  {"recovery": "none"})

    tap(page, "Start Ligny from the rosters")
    page.wait_for_url(re.compile(r"/games/\d+"))
    ligny = game_id_of(page)
    act(db, ligny, "adjust_unit", unit="1-1st-westphalian-landwehr", field="casualties", value="2", reason="volleys")
    act(db, ligny, "adjust_unit", unit="silesian-schutzen", field="destroyed", value="yes", reason="overrun")
    act(db, ligny, "end_battle", decision="blue", reason="Saint-Amand taken")
    page.goto(campaign_url)
    step(page, "Record the result of Ligny")
    expect(page.locator("li[data-battle=ligny]")).to_contain_text("Minor Armée du Nord victory, 0 campaign VP")

    tap(page, "Start Quatre Bras from the rosters")
    page.wait_for_url(re.compile(r"/games/\d+"))
    act(db, game_id_of(page), "end_battle", decision="draw", reason="night falls")
    page.goto(campaign_url)
    step(page, "Record the result of Quatre Bras")
    step(page, "End 16 June")
    expect(page.get_by_label("Score")).to_contain_text("Campaign VP: French 0 · Coalition 0")
    expect(page.get_by_text("casualties carried — 1/1st Westphalian Landwehr 2")).to_be_visible()

    tap(page, "Start Waterloo from the rosters")
    page.wait_for_url(re.compile(r"/games/\d+"))
    # On the Waterloo board: the Landwehr battalion arrives with Ligny's casualties; the Schützen never come.
    expect(page.locator("#unit-1-1st-westphalian-landwehr .card-cas")).to_contain_text("2")
    expect(page.locator("#unit-1-1st-westphalian-landwehr .badges")).to_contain_text("2 lost before this battle")
    expect(page.locator("#unit-silesian-schutzen")).to_have_count(0)
    waterloo = service.get_game(db, game_id_of(page)).state
    assert waterloo["units"]["1-1st-westphalian-landwehr"]["casualties"] == 2
    assert "silesian-schutzen" not in waterloo["units"]
    page.goto(campaign_url)
    notes = page.locator("li[data-battle=waterloo]")  # the timeline entry (a live table has the key too)
    expect(notes).to_contain_text("Casualties carried: 1/1st Westphalian Landwehr 2")
    expect(notes).to_contain_text("Lost in earlier battles, not on the field: Silesian Schützen")


@pytest.mark.tablet("landscape")
def test_the_after_action_report_of_waterloo_prints_on_at_most_two_sheets(page: Page, db):
    from referee.data.scenarios import new_battle_from_scenario
    game = service.create_game(db, "Waterloo, the whole day", "blackpowder", new_battle_from_scenario("waterloo"))
    for i, uid in enumerate(list(game.state["units"])[::3]):  # a third of the army hurt or lost
        field, value = ("destroyed", "yes") if i % 4 == 0 else ("casualties", "2")
        act(db, game.id, "adjust_unit", unit=uid, field=field, value=value, reason="the day's fighting")
    act(db, game.id, "end_battle", decision="red", reason="the Guard recoils")
    page.goto(f"/games/{game.id}/report")
    expect(page.get_by_role("heading", name="Result: Allied and Prussian armies win")).to_be_visible()
    expect(page.locator(".aar-moments li")).to_have_count(24)
    page.emulate_media(media="print")
    for size in ("A4", "Letter"):
        pdf = page.pdf(format=size)
        sheets = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        assert 1 <= sheets <= 2, f"{size}: {sheets} sheets"
