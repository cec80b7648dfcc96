"""The builders' problems at their rows (issue 52 item 8), tapped on a tablet at 1024×768 and
768×1024: a weapon, equipment or unit problem is drawn in its own row as it is typed and after
Check; a tap on it in the summary brings that row into the editing area and focuses it; and the
editing area (between the summary stuck on top and the Save bar at the foot) keeps at least half
the screen. The console stays quiet throughout (the suite's own check)."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from test_builders import add_unit, fits_a_finger_and_the_screen, problems, tap

# The part of the screen left to edit in, with the page scrolled into the form: from the bottom
# of the problems summary (stuck on top) to the top of the Save bar (stuck at the foot).
EDITING_AREA_JS = """
() => {
  const summary = document.getElementById('problems').getBoundingClientRect();
  const bar = document.querySelector('.sticky-actions').getBoundingClientRect();
  return {top: Math.max(0, summary.bottom), bottom: Math.min(window.innerHeight, bar.top),
          height: window.innerHeight};
}
"""


def editing_area(page: Page) -> dict:
    # Scrolled into the middle of the form, where the summary and the bar are both stuck.
    page.evaluate("() => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2)")
    area = page.evaluate(EDITING_AREA_JS)
    area["share"] = (area["bottom"] - area["top"]) / area["height"]
    return area


def takes_me_to(page: Page, words: str, row_id: str) -> None:
    """Tap the summary's line holding ``words``: its row comes into the editing area, focused."""
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    problems(page).get_by_role("link", name=re.compile(re.escape(words))).click()
    row = page.locator(f"#{row_id}")
    expect(row).to_be_focused()
    box = row.bounding_box()
    area = page.evaluate(EDITING_AREA_JS)
    assert area["top"] <= box["y"] + 1, f"{row_id} is under the summary: {box} {area}"
    assert box["y"] + min(box["height"], 60) <= area["bottom"], f"{row_id} is under the Save bar: {box} {area}"
    expect(row.locator(".row-problems")).to_contain_text(words)


def test_squadron_problems_at_their_rows(page: Page, tablet):
    page.goto("/lists/new/oilandiron")
    page.get_by_label("Squadron name").fill(f"Rust Hounds {tablet}")
    for i, (name, chassis) in enumerate((("Jackal", "example_light_scout"), ("Hyena", "example_light_scout"),
                                         ("Warthog", "example_medium_brawler"))):
        page.locator(f"input[name='rigs.{i}.name']").fill(name)
        page.locator(f"select[name='rigs.{i}.chassis']").select_option(chassis)
    # Never the same button twice in a row: a second tap that quick is a double tap, not sent.
    for label, rig, row in (("+ Weapon", 0, "rigs.0.weapons.0.card"), ("+ Equipment", 0, "rigs.0.equipment.0.key"),
                            ("+ Weapon", 0, "rigs.0.weapons.1.card"), ("+ Equipment", 0, "rigs.0.equipment.1.key"),
                            ("+ Weapon", 2, "rigs.2.weapons.0.card")):  # the last left unchosen
        tap(page, label, rig)  # the builder is drawn again with the new row
        expect(page.locator(f"select[name='{row}']")).to_be_attached()
    page.locator("select[name='rigs.0.weapons.0.card']").select_option("example_autocannon")
    page.locator("select[name='rigs.0.weapons.0.mount']").select_option("left")
    page.locator("select[name='rigs.0.weapons.1.card']").select_option("example_flamer")
    page.locator("select[name='rigs.0.weapons.1.mount']").select_option("left")
    page.locator("select[name='rigs.0.equipment.0.key']").select_option("extinguisher")
    page.locator("select[name='rigs.0.equipment.1.key']").select_option("extinguisher")

    # As it is typed (the live check), each problem shows in its own row, the rows beside clean.
    expect(page.locator("#problems-at-rigs-0-weapons-1")).to_contain_text("two weapons on the left mount")
    expect(page.locator("#problems-at-rigs-0-equipment-1")).to_contain_text("Extinguisher is taken twice")
    expect(page.locator("#problems-at-rigs-2-weapons-0")).to_contain_text("choose a weapon card")
    expect(page.locator("#problems-at-rigs-0-weapons-0")).to_be_hidden()
    expect(page.locator("#problems-at-rigs-1")).to_be_hidden()

    # After Check too, with the box at fault marked.
    tap(page, "Check")
    expect(page.locator("#problems-at-rigs-0-weapons-1")).to_contain_text("two weapons on the left mount")
    expect(page.locator("select[name='rigs.0.weapons.1.mount']")).to_have_class(re.compile(r"\bbad\b"))
    fits_a_finger_and_the_screen(page, "squadron builder with problems at their rows")

    takes_me_to(page, "two weapons on the left mount", "at-rigs-0-weapons-1")
    takes_me_to(page, "choose a weapon card", "at-rigs-2-weapons-0")
    takes_me_to(page, "Extinguisher is taken twice", "at-rigs-0-equipment-1")

    area = editing_area(page)
    assert area["share"] >= 0.5, f"the squadron builder leaves {area} to edit in"

    # Fixed in its row, the problem leaves the row and the summary.
    page.locator("select[name='rigs.0.weapons.1.mount']").select_option("right")
    expect(page.locator("#problems-at-rigs-0-weapons-1")).to_be_hidden()
    expect(problems(page)).not_to_contain_text("two weapons")


def test_army_problems_at_their_rows(page: Page, tablet):
    page.goto("/lists/new/blackpowder")
    page.get_by_label("Army name").fill(f"Ridge {tablet}")
    page.get_by_label("Nation").select_option("british")
    page.locator("input[name='general.name']").fill("Hill")
    page.locator("input[name='brigades.0.name']").fill("Picton")
    page.locator("input[name='brigades.0.commander.name']").fill("Picton")
    add_unit(page, 0, "british-line-infantry", "28th Foot")
    # Hussars fielded while the Prussians are allies, who then are not: the unit is out of list.
    allies = page.get_by_role("group", name="Allies")
    allies.locator("input[value=prussian]").check()
    add_unit(page, 0, "prussian-hussars", "Hussars")
    page.get_by_role("group", name="Allies").locator("input[value=prussian]").uncheck()
    tap(page, "+ Add a brigade")
    page.locator("input[name='brigades.1.name']").fill("Union")
    add_unit(page, 1, "british-dragoons", "Royals")

    expect(page.locator("#problems-at-brigades-0-units-1")).to_contain_text("from the Prussian list")
    expect(page.locator("#problems-at-brigades-0-units")).to_contain_text("this one has 2")
    expect(page.locator("#problems-at-brigades-1-commander")).to_contain_text("the commander needs a name")
    expect(page.locator("#problems-at-brigades-0-units-0")).to_be_hidden()
    tap(page, "Check")
    expect(page.locator("select[name='brigades.0.units.1.profile']")).to_have_class(re.compile(r"\bbad\b"))
    fits_a_finger_and_the_screen(page, "army builder with problems at their rows")

    takes_me_to(page, "from the Prussian list", "at-brigades-0-units-1")
    takes_me_to(page, "the commander needs a name", "at-brigades-1-commander")
    takes_me_to(page, "this one has 1", "at-brigades-1-units")

    area = editing_area(page)
    assert area["share"] >= 0.5, f"the army builder leaves {area} to edit in"
