"""The list builders on a tablet: a Black Powder army of two brigades and an Of Oil and Iron Sword
squadron built through the UI, a problem shown and fixed, each exported and imported again, and
a game started from two saved lists. Runs at 1024×768 and 768×1024 with touch."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

MIN_TAP = 44
SMALL_TARGETS_JS = """
(min) => {
  const tappable = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const out = [];
  for (const el of document.querySelectorAll(tappable)) {
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (el.labels && el.labels.length) {
      for (const label of el.labels) {
        const l = label.getBoundingClientRect();
        if (l.width * l.height > box.width * box.height) box = l;
      }
    }
    if (box.width < min || box.height < min) {
      const name = (el.innerText || el.value || el.name || '').trim();
      out.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return out;
}
"""


def answered(page: Page) -> None:
    """A form sent through htmx (a page's own form, web/serving/page_forms.py) is busy until its
    answer is in: a person waits for the page to come back before typing on."""
    expect(page.locator("form[aria-busy=true]")).to_have_count(0)


def tap(page: Page, label: str, nth: int = 0) -> None:
    page.get_by_role("button", name=label, exact=True).nth(nth).click()
    answered(page)


def fits_a_finger_and_the_screen(page: Page, where: str) -> None:
    small = page.evaluate(SMALL_TARGETS_JS, MIN_TAP)
    assert small == [], f"{where}: smaller than {MIN_TAP}px: {small}"
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{where}: {overflow}px wider than the screen"


def choose_owner(page: Page, name: str) -> None:
    page.goto("/lists/")
    page.get_by_label("Your name").fill(name)
    with page.expect_navigation():  # the lists page drawn again under the name, as a person waits for it
        page.get_by_role("button", name=re.compile("Use this name|Change name")).click()
    expect(page.get_by_label("Your name")).to_have_value(name)


def problems(page: Page):
    return page.locator("#problems")


def export_and_import(page: Page, tmp_path: Path, name: str) -> str:
    """Export the open list, import the file back; the URL of the imported copy."""
    with page.expect_download() as info:
        page.get_by_role("link", name="Export file").click()
    path = tmp_path / f"{name}.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["format"] == "referee-list" and exported["list"]["name"] == name
    page.goto("/lists/")
    page.get_by_label("Exported file (.json)").set_input_files(str(path))
    tap(page, "Import")
    # Imported beside the list it came from, it is named apart from it (issue 52, item 9).
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{name} (imported)")
    expect(page.locator("p.message")).to_contain_text(f"A list called “{name}” is already here")
    with page.expect_download() as again:
        page.get_by_role("link", name="Export file").click()
    again_path = tmp_path / f"{name}-again.json"
    again.value.save_as(again_path)
    back = json.loads(again_path.read_text())["list"]
    assert back == {**exported["list"], "name": f"{name} (imported)"}, "the round trip changed the list"
    return page.url


def start_game(page: Page, system_button: str, first: str, second: str, **choices) -> None:
    page.goto("/lists/")
    page.get_by_role("link", name=system_button).click()
    page.locator("select[name=first]").select_option(label=first)
    page.locator("select[name=second]").select_option(label=second)
    for name, label in choices.items():
        page.locator(f"select[name={name}]").select_option(label=label)
    fits_a_finger_and_the_screen(page, "start page")
    tap(page, "Start")
    expect(page).to_have_url(re.compile(r"/games/\d+"))


def add_unit(page: Page, brigade: int, profile: str, name: str) -> None:
    page.locator(f"#brigade-{brigade}").get_by_role("button", name=re.compile("Add a unit")).click()
    answered(page)
    row = page.locator(f"#brigade-{brigade} .unit-row").last
    row.locator("select").select_option(profile)
    row.get_by_label("Name").fill(name)


def test_a_black_powder_army_of_two_brigades(page: Page, tablet, tmp_path):
    owner = f"Arthur {tablet}"
    choose_owner(page, owner)
    page.get_by_role("link", name="+ New Black Powder army").click()
    fits_a_finger_and_the_screen(page, "army builder")

    army = f"Ridge {tablet}"
    page.get_by_label("Army name").fill(army)
    page.get_by_label("Nation").select_option("british")
    page.locator("#builder fieldset").nth(1).get_by_label("General name").fill("Wellington")
    page.locator("input[name='general.staff_rating']").fill("9")
    page.locator("input[name='brigades.0.name']").fill("Picton")
    page.locator("input[name='brigades.0.commander.name']").fill("Picton")
    add_unit(page, 0, "british-line-infantry", "28th Foot")
    add_unit(page, 0, "highland-infantry", "42nd Highlanders")
    # Two units: the builder says which brigade is short, and by how much.
    tap(page, "Check")
    expect(problems(page)).to_contain_text("Brigade 1 “Picton”: a brigade has 3 to 6 units; this one has 2")
    add_unit(page, 0, "highland-infantry", "92nd Highlanders")
    # Live check (htmx): the third unit's profile and name are in; the problem has gone.
    expect(problems(page)).not_to_contain_text("this one has 2")

    tap(page, "+ Add a brigade")
    page.locator("input[name='brigades.1.name']").fill("Union")
    page.locator("input[name='brigades.1.commander.name']").fill("Ponsonby")
    page.locator("input[name='brigades.1.commander.staff_rating']").fill("7")
    for name in ("Royals", "Scots Greys", "Inniskillings"):
        add_unit(page, 1, "british-dragoons", name)
    # Units from another nation's list are named as such, live, without pressing anything.
    page.get_by_label("Nation").select_option("french")
    expect(problems(page)).to_contain_text("Brigade 2 “Union”, unit 3 “Inniskillings”: Dragoon Guards & Dragoons is from the British list")
    page.get_by_label("Nation").select_option("british")
    expect(problems(page)).to_contain_text("Ready to play")
    fits_a_finger_and_the_screen(page, "army builder, two brigades")

    tap(page, "Save")
    expect(page.locator(".badge.ready")).to_have_text("Ready to play")
    expect(page.locator(".brigade-sheet")).to_have_count(2)
    fits_a_finger_and_the_screen(page, "army page")

    export_and_import(page, tmp_path, army)
    start_game(page, "Start a battle from two armies", f"{army} ({owner}, v1)", f"{army} ({owner}, v1)")
    expect(page.locator("body")).to_contain_text("Picton")


def test_an_of_oil_and_iron_sword_squadron(page: Page, tablet, tmp_path):
    owner = f"Ida {tablet}"
    choose_owner(page, owner)
    page.get_by_role("link", name="+ New Of Oil and Iron squadron").click()
    squadron = f"Sword {tablet}"
    page.get_by_label("Squadron name").fill(squadron)
    page.get_by_label("Tier and formation").select_option("sword")
    rigs = [("Jackal", "example_light_scout", "example_autocannon"),
            ("Hyena", "example_light_scout", "example_flamer"),
            ("Warthog", "example_light_scout", "example_hydraulic_claw")]
    # A new squadron opens with a row for each Rig its formation fields.
    expect(page.locator("fieldset.rig")).to_have_count(3)
    for i, (name, chassis, weapon) in enumerate(rigs):
        page.locator(f"input[name='rigs.{i}.name']").fill(name)
        page.locator(f"select[name='rigs.{i}.chassis']").select_option(chassis)
        tap(page, "+ Weapon", i)
        page.locator(f"select[name='rigs.{i}.weapons.0.card']").select_option(weapon)
    # Three Lights: a Sword fields two Lights and a Medium.
    tap(page, "Check")
    expect(problems(page)).to_contain_text("Sword fields 2 Light, 1 Medium: 1 Light too many, 1 Medium missing")
    page.locator("select[name='rigs.2.chassis']").select_option("example_medium_brawler")
    expect(problems(page)).to_contain_text("Ready to play")
    # The Rig's line follows the new chassis as soon as it is chosen, with no Check pressed.
    expect(page.locator("#rig-2-summary")).to_contain_text("Medium · 2 weapon slots · uses")
    fits_a_finger_and_the_screen(page, "squadron builder")

    tap(page, "Save")
    expect(page.locator(".badge.ready")).to_have_text("Ready to play")
    expect(page.locator(".sheet-card")).to_have_count(3)
    expect(page.locator(".sheet-card").first.locator(".heat span")).to_have_count(11)

    page.get_by_role("link", name="Print").click()
    expect(page.locator(".sheet-card")).to_have_count(3)
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    page.emulate_media(media="screen")
    page.go_back()

    export_and_import(page, tmp_path, squadron)
    start_game(page, "Start an engagement from two squadrons", f"{squadron} ({owner}, v1)",
               f"{squadron} ({owner}, v1)", engagement="Iron Clash")
    expect(page.locator("body")).to_contain_text("Warthog")


# Printable width at 96 px per inch with the 12 mm margins of the print stylesheet.
PAPER = {"A4": (210, 297), "Letter": (215.9, 279.4)}


def mm_to_px(mm: float) -> int:
    return int(mm / 25.4 * 96)


@pytest.mark.tablet("landscape")
@pytest.mark.parametrize("paper", sorted(PAPER))
def test_record_sheets_fit_a4_and_letter(page: Page, tablet, paper):
    choose_owner(page, "Printer")
    for example in ("example-claymore-squadron", "example-prussian-brigade"):
        page.goto("/lists/")
        page.locator(f"form[action='/lists/examples/{example}'] button").click()
        page.wait_for_url(re.compile(r"/lists/\d+"))
        page.get_by_role("link", name="Print").click()
        page.wait_for_url(re.compile(r"/lists/\d+/print"))
        page.wait_for_load_state()
        width, height = PAPER[paper]
        page.set_viewport_size({"width": mm_to_px(width - 24), "height": mm_to_px(height - 24)})
        page.emulate_media(media="print")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{example} on {paper}: {overflow}px wider than the printable width"
        # No sheet is taller than a page, so none has to be split across two.
        tallest = page.evaluate("() => Math.max(...[...document.querySelectorAll('.sheet-card, .brigade-sheet')]"
                                ".map(e => e.getBoundingClientRect().height))")
        assert tallest <= mm_to_px(height - 24), f"{example}: a sheet is {tallest}px, taller than a {paper} page"
        pdf = page.pdf(format=paper, print_background=True)
        assert pdf.startswith(b"%PDF")
        page.emulate_media(media="screen")
        page.set_viewport_size({"width": 1024, "height": 768})
