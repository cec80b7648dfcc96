"""The first hour at the table (issue 45), tapped as a newcomer taps it at 1024×768 and 768×1024
with touch, each journey failing on any console error or warning it did not expect:

1. The demo battle through the French turn: a charge in Command, and at Hand-to-Hand "Next phase"
   says the combat is unfought, with a button that opens its round; fought, the phase still asks
   for what the fight left owed, and moves on only when "Move on anyway" is tapped, which the log
   says.
2. A Black Powder list built in the builder by a newcomer with no name yet: Save is refused, every
   typed field is kept, the name is typed in the builder itself, and the saved list holds every
   field as typed.
3. A club server: a seated player asks for the umpire's forms (Next phase, End the battle, a
   brigade's correction, the settings) and is refused when asking, never shown the form.
4. Quatre Bras against Referee playing the French: its first turn answered, and in Shooting the
   2nd Cavalry Division's horse battery, told its target is within 36", fires at long range.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from _board import resolve, type_dice
from playwright.sync_api import Page, expect
from test_builder_work_kept_e2e import build_army, fields
from test_builders import tap
from test_roles import PASSWORD, TABLETS

pytestmark = pytest.mark.e2e

# A person taps the same button again only after seeing what the last tap did (static/referee.js
# takes a second tap within a double tap's time for the first one's).
PERSON_PAUSE_MS = 400


def next_phase(page: Page) -> None:
    page.wait_for_timeout(PERSON_PAUSE_MS)
    page.locator("#status-turn button", has_text="Next phase").tap()


def current_step(page: Page):
    return page.locator("#status .seq-step.current")


def pick(page: Page, legend: str, label: str) -> None:
    """Tap a chip or a segment under a field's heading."""
    field = page.locator("#panel fieldset", has=page.locator("legend", has_text=legend)).first
    field.locator("label", has_text=label).first.tap()


# --- 1. the demo: a charge, its combat, and Next phase asking before it leaves ----------------

def test_a_demo_turn_with_a_charge_and_its_combat(page: Page, tablet):
    page.goto("/games/new")
    page.locator("form", has_text="Demo: Saint-Amand skirmish").get_by_role("button").tap()
    expect(page.locator(".turn")).to_contain_text("Turn 1")
    expect(current_step(page)).to_contain_text("Command")
    # The players throw their own dice, so the fight goes the same way every run.
    page.locator("#status button", has_text="We roll").tap()
    expect(page.locator("#status button.on", has_text="We roll")).to_be_visible()

    # The French Command phase: 82nd Ligne charges 2/7th Musketeers, which stand.
    page.locator("#units .card", has_text="82nd Ligne").first.tap()
    page.locator("#panel .unit-actions a", has_text="Charge").first.tap()
    expect(page.locator("#panel form.action-form h2")).to_have_text("Charge")
    pick(page, "Unit charged", "2/7th Musketeers")
    pick(page, "The target's response", "Stand")
    resolve(page)
    type_dice(page, lambda prompt: 1)
    expect(page.locator("#panel.panel-result > .result > .summary")).to_contain_text("combat")
    expect(page.locator("#units .combats .combat").first).to_contain_text("82nd Ligne")

    next_phase(page)
    expect(current_step(page)).to_contain_text("Shooting")
    next_phase(page)
    expect(current_step(page)).to_contain_text("Hand-to-Hand")

    # Next phase with the combat not fought: told so, with a button to fight it; the phase stays.
    next_phase(page)
    owed = page.locator("#panel.panel-owed")
    expect(owed.locator("li.owed")).to_contain_text("has not fought its round this Hand-to-Hand phase")
    expect(owed.locator("li.owed")).to_contain_text("82nd Ligne")
    expect(current_step(page)).to_contain_text("Hand-to-Hand")
    expect(owed.locator("a", has_text="Fight the round")).to_be_in_viewport()
    expect(owed.locator("button", has_text="Move on anyway")).to_be_in_viewport()
    owed.locator("a", has_text="Fight the round").tap()
    expect(page.locator("#panel form.action-form h2")).to_contain_text("hand-to-hand")
    resolve(page)
    type_dice(page, lambda prompt: 6 if "82nd Ligne" in prompt else 1)
    result = page.locator("#panel.panel-result")
    expect(result.locator(".summary").first).to_contain_text("Combat round 1")

    # Fought and won; the winners' step is still owed: Next phase asks again, and only the second,
    # deliberate tap ("Move on anyway") moves on, which the log says.
    next_phase(page)
    owed = page.locator("#panel.panel-owed")
    expect(owed.locator("li.owed")).to_have_count(1)
    expect(owed.locator("li.owed")).to_contain_text("the winners have not chosen their next step")
    expect(owed.locator("li.owed a", has_text="Choose the winners' step")).to_be_visible()
    expect(current_step(page)).to_contain_text("Hand-to-Hand")
    page.wait_for_timeout(PERSON_PAUSE_MS)  # a person reads the list, then chooses
    owed.locator("button", has_text="Move on anyway").tap()
    expect(current_step(page)).to_contain_text("Command")
    expect(page.locator("#log .entry").first).to_contain_text("leaving 1 thing undone")


# --- 2. a list built, refused and saved, nothing typed lost --------------------------------------

def test_a_list_built_refused_and_saved_keeps_every_field(page: Page, tablet, console):
    # The refused Save comes back through htmx (serving/page_forms.py) as 200 + X-Refused: no red
    # console line, which the console watch would fail on.
    page.goto("/lists/new/blackpowder")
    army = f"First hour ridge {tablet}"
    build_army(page, army, "Picton's Division")
    typed = fields(page)

    tap(page, "Save")  # no name chosen yet: refused, the builder as typed
    expect(page.get_by_role("alert")).to_contain_text("Choose your name first")
    assert fields(page) == typed, "the refused Save changed the builder"
    page.get_by_label("Your name (the list is kept under it)").fill(f"Newcomer {tablet}")
    assert fields(page) == typed
    tap(page, "Save")
    expect(page.get_by_role("heading", level=1)).to_contain_text(army)
    expect(page.locator(".badge.ready")).to_have_text("Ready to play")
    for name in ("28th Foot", "42nd Highlanders", "92nd Highlanders", "Picton wears a top hat"):
        expect(page.locator("body")).to_contain_text(name)
    # The stored list is the one typed, field for field.
    page.goto(re.sub(r"(/lists/\d+).*", r"\1/edit", page.url))
    expect(page.get_by_label("Army name")).to_have_value(army)
    assert fields(page) == typed


# --- 3. a seated player asks for the umpire's forms ------------------------------------------

@pytest.fixture(scope="module")
def club(make_live_server):
    return make_live_server(REFEREE_MODE="club")


def tablet_page(browser, club, tablet, console, outside: list[str]) -> Page:
    """A tablet of its own on the club server, its console watched as ``page``'s is, and every
    request it tries off this machine refused and kept in ``outside``."""
    context = browser.new_context(base_url=club.url, viewport=TABLETS[tablet], has_touch=True)

    def guard(route):
        if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()
    context.route("**/*", guard)
    page = context.new_page()
    console.watch(page)
    return page


UMPIRES_FORMS = {
    "Next phase": "/act/next_phase",
    "End the battle": "/act/end_battle",
    "a brigade's correction": "/act/adjust_brigade",
    "the settings": "/settings",
}


# The links, buttons and forms a person can see that lead to one of these addresses.
SHOWN_WAYS_TO_JS = """(paths) => [...document.querySelectorAll('a[href], [hx-get], [hx-post], form[action]')]
  .filter(el => el.checkVisibility() || el.tagName === 'FORM' && [...el.querySelectorAll('button')].some(b => b.checkVisibility()))
  .map(el => el.getAttribute('href') || el.getAttribute('hx-get') || el.getAttribute('hx-post') || el.getAttribute('action'))
  .filter(url => paths.some(p => url.split('?')[0].endsWith(p)))"""


def test_a_seated_player_is_refused_the_umpires_forms_when_asking(browser, club, tablet, console):
    outside: list[str] = []
    umpire, player = (tablet_page(browser, club, tablet, console, outside) for _ in range(2))
    try:
        umpire.goto("/register")
        umpire.fill("input[name=name]", f"First hour umpire {tablet}")
        umpire.fill("input[name=password]", PASSWORD)
        umpire.fill("input[name=again]", PASSWORD)
        umpire.get_by_role("button", name="Register").tap()
        expect(umpire).not_to_have_url(re.compile(r"/register$"))
        umpire.goto("/games/new")
        umpire.locator("form:has(input[name=scenario][value=demo]) button[type=submit]").tap()
        umpire.wait_for_url(re.compile(r"/games/\d+$"))
        game = re.search(r"/games/\d+", umpire.url).group(0)
        umpire.locator("a.seat-link").tap()
        code = umpire.locator(".seat-code[data-role=blue] .join-code code").inner_text()

        player.goto("/join")
        player.fill("input[name=code]", code)
        player.get_by_role("button", name="Join").tap()
        player.wait_for_url(re.compile(rf"{game}$"))
        # The player's board offers none of the umpire's forms ...
        expect(player.locator("#status")).to_be_visible()
        expect(player.locator("#units .card").first).to_be_visible()
        assert player.evaluate(SHOWN_WAYS_TO_JS, list(UMPIRES_FORMS.values())) == []
        expect(player.locator("button", has_text="Next phase")).to_be_hidden()
        # ... and a link to one (shared, or typed in the address bar) answers the refusal in place
        # of the form. Loaded as a page of its own, the browser itself logs its 403.
        console.expect("status of 403")
        for what, path in UMPIRES_FORMS.items():
            player.goto(game + path)
            expect(player.locator("[role=alert]"), what).to_contain_text("Only the umpire")
            expect(player.locator("form.action-form, form.settings-form"), what).to_have_count(0)
        # Nothing changed: the umpire's board is still at the French Command phase of turn 1.
        umpire.goto(game)
        expect(umpire.locator(".turn")).to_contain_text("Turn 1")
        expect(current_step(umpire)).to_contain_text("Command")
        # The umpire's own board shows the ways to them (the check above can see one).
        shown = umpire.evaluate(SHOWN_WAYS_TO_JS, list(UMPIRES_FORMS.values()))
        assert any(u.endswith("/act/next_phase") for u in shown) and any(u.endswith("/settings") for u in shown)
    finally:
        umpire.context.close()
        player.context.close()
    assert console.unexpected() == [], console.unexpected()
    assert outside == [], f"the tablets tried to reach other hosts: {outside}"


# --- 4. the Foe's turn at Quatre Bras: a horse battery fires past 24" ----------------------------

def answer(page: Page, option: str | re.Pattern) -> None:
    with page.expect_navigation():
        page.locator("a.foe-answer", has_text=option).first.tap()


def carry_out(page: Page) -> str:
    heading = page.locator("#foe-d").inner_text()
    page.wait_for_timeout(PERSON_PAUSE_MS)  # a person reads the orders, then taps
    with page.expect_navigation():
        page.locator("#foe-carry-out").tap()
    return heading


def test_a_foe_turn_at_quatre_bras_with_a_long_range_battery(page: Page, tablet):
    page.goto("/games/new")
    scenario = page.locator("li.scenario", has_text="Quatre Bras")
    scenario.get_by_label("The French").check()
    scenario.get_by_role("button", name=re.compile("Start")).tap()
    expect(page).to_have_url(re.compile(r"/games/\d+/foe$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Referee plays French")

    # Command: its brigades see no enemy yet (the player says so) and are ordered on; then Shooting.
    carried = []
    for _ in range(30):
        question = page.locator("#foe-q")
        if question.count():
            text = question.inner_text()
            if "How far is the nearest enemy" in text:
                answer(page, "None seen")
            elif "within 12\"" in text:
                answer(page, "Yes")
            elif "shooters see" in text and "2nd Cavalry Division" in text:
                break
            elif "shooters see" in text:
                answer(page, "None in sight and range")
            else:
                raise AssertionError(f"an unexpected question: {text}")
            continue
        carried.append(carry_out(page))
    else:
        raise AssertionError(f"the Foe never asked the horse battery's brigade: {carried}")
    assert any("move on" in c for c in carried), carried

    # The horse battery's brigade: an Allied brigade in sight, the target between 24" and 36".
    answer(page, re.compile(r"^(?!None)"))  # the first enemy brigade offered
    while "How far is" not in page.locator("#foe-q").inner_text():
        answer(page, re.compile(r"^(?!Can't tell)"))  # a tie between targets: the first
    expect(page.locator("#foe-q")).to_contain_text("2nd Cavalry Division Horse Battery")
    bands = page.locator("a.foe-answer").all_inner_texts()
    assert "Within 36\"" in bands and "Beyond 36\"" in bands and "Beyond 24\"" not in bands, bands
    answer(page, "Within 36\"")
    expect(page.locator("#foe-d")).to_contain_text("2nd Cavalry Division shoots: fire at")
    expect(page.locator("ul.foe-orders")).to_contain_text("2nd Cavalry Division Horse Battery: fire at")
    expect(page.locator("ul.foe-orders")).to_contain_text("(long range)")
    carry_out(page)
    last = page.locator("details.foe-last")
    expect(last).to_contain_text("2nd Cavalry Division Horse Battery")
    page.goto(re.sub(r"/foe$", "/log", page.url))
    expect(page.locator("main")).to_contain_text("2nd Cavalry Division Horse Battery")
