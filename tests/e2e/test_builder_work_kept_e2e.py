"""Nothing typed in a list builder is lost (issue 45 item 1, issue 52 items 1 and 2), tapped on a
tablet at 1024×768 and 768×1024: a squadron built by a newcomer whose Save asks for a name keeps
every field and is saved under the name typed in the builder; unsaved work warns before leaving
and is offered back after a reload; a Save over a list changed meanwhile on another tablet says so
and keeps the form."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from test_builders import add_unit, choose_owner, fits_a_finger_and_the_screen, problems, tap

FIELDS_JS = """
() => [...new FormData(document.getElementById('builder'))]
  .filter(([k]) => !['csrf_token', 'token', '_owner', '_base'].includes(k)).map(([k, v]) => k + '=' + v)
"""


def fields(page: Page) -> list[str]:
    return page.evaluate(FIELDS_JS)


def build_squadron(page: Page, squadron: str) -> None:
    page.get_by_label("Squadron name").fill(squadron)
    page.get_by_label("Tier and formation").select_option("sword")
    rigs = [("Jackal", "example_light_scout", "example_autocannon"),
            ("Hyena", "example_light_scout", "example_flamer"),
            ("Warthog", "example_medium_brawler", "example_hydraulic_claw")]
    expect(page.locator("fieldset.rig")).to_have_count(3)
    for i, (name, chassis, weapon) in enumerate(rigs):
        page.locator(f"input[name='rigs.{i}.name']").fill(name)
        page.locator(f"select[name='rigs.{i}.chassis']").select_option(chassis)
        tap(page, "+ Weapon", i)
        page.locator(f"select[name='rigs.{i}.weapons.0.card']").select_option(weapon)
    page.get_by_label("Anything the umpire should know").fill("Jackal's left track squeaks")
    expect(problems(page)).to_contain_text("Ready to play")


def build_army(page: Page, army: str, brigade: str) -> None:
    """A British army, ready to play: Wellington, one brigade under Picton of three battalions."""
    page.get_by_label("Army name").fill(army)
    page.get_by_label("Nation").select_option("british")
    page.locator("#builder fieldset").nth(2).get_by_label("General name").fill("Wellington")
    page.locator("input[name='general.staff_rating']").fill("9")
    page.locator("input[name='brigades.0.name']").fill(brigade)
    page.locator("input[name='brigades.0.commander.name']").fill("Picton")
    for profile, name in (("british-line-infantry", "28th Foot"), ("highland-infantry", "42nd Highlanders"),
                          ("highland-infantry", "92nd Highlanders")):
        add_unit(page, 0, profile, name)
    page.get_by_label("Anything the umpire should know").fill("Picton wears a top hat")
    expect(problems(page)).to_contain_text("Ready to play")


def test_a_newcomer_asked_for_a_name_on_save_keeps_the_whole_squadron(page: Page, tablet, console):
    page.goto("/lists/new/oilandiron")
    squadron = f"Newcomer's Sword {tablet}"
    build_squadron(page, squadron)
    typed = fields(page)
    tap(page, "Save")
    expect(page.get_by_role("alert")).to_contain_text("Choose your name first")
    assert fields(page) == typed, "the refused Save changed the builder"
    fits_a_finger_and_the_screen(page, "squadron builder asking a name")
    # The name is asked in the builder itself: typed there, the next Save keeps the squadron.
    page.get_by_label("Your name (the squadron is kept under it)").fill(f"Nadia {tablet}")
    tap(page, "Save")
    expect(page.get_by_role("heading", level=1)).to_contain_text(squadron)
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Nadia {tablet}")
    expect(page.locator(".sheet-card")).to_have_count(3)
    expect(page.locator("body")).to_contain_text("Jackal's left track squeaks")


def test_a_newcomer_asked_for_a_name_on_save_keeps_the_whole_army(page: Page, tablet, console):
    page.goto("/lists/new/blackpowder")
    army = f"Newcomer's ridge {tablet}"
    build_army(page, army, "Picton")
    typed = fields(page)
    tap(page, "Save")
    expect(page.get_by_role("alert")).to_contain_text("Choose your name first")
    assert fields(page) == typed, "the refused Save changed the builder"
    page.get_by_label("Your name (the list is kept under it)").fill(f"Arthur {tablet}")
    tap(page, "Save")
    expect(page.get_by_role("heading", level=1)).to_contain_text(army)
    expect(page.locator(".badge.ready")).to_have_text("Ready to play")
    expect(page.locator("body")).to_contain_text("92nd Highlanders")


def test_unsaved_work_warns_before_leaving_and_comes_back_after_a_reload(page: Page, tablet):
    choose_owner(page, f"Dora {tablet}")
    page.get_by_role("link", name="+ New Of Oil and Iron squadron").click()
    build_squadron(page, f"Draft {tablet}")
    tap(page, "+ Weapon", 1)  # a row added by a button: the builder is drawn again, unsaved
    page.locator("select[name='rigs.1.weapons.1.card']").select_option("example_autocannon")
    typed = fields(page)

    # Leaving by the head's button asks first; staying keeps everything.
    asked: list[str] = []

    def stay(dialog):
        asked.append(dialog.type)
        dialog.dismiss()
    page.once("dialog", stay)
    page.get_by_role("link", name="◀ Lists").click()
    expect(page.get_by_label("Squadron name")).to_have_value(f"Draft {tablet}")
    assert asked == ["beforeunload"] and fields(page) == typed

    # Left anyway (the tablet reloaded, the tab closed): the builder offers the work back.
    page.once("dialog", lambda d: d.accept())
    page.goto("/lists/new/oilandiron")
    expect(page.get_by_label("Squadron name")).to_have_value("")
    expect(page.locator(".draft-offer")).to_contain_text("not saved")
    fits_a_finger_and_the_screen(page, "builder offering a draft back")
    tap(page, "Bring it back")
    expect(page.get_by_label("Squadron name")).to_have_value(f"Draft {tablet}")
    assert fields(page) == typed

    tap(page, "Save")
    expect(page.locator(".badge.ready")).to_have_text("Ready to play")
    page.goto("/lists/new/oilandiron")  # saved: nothing is offered any more
    expect(page.get_by_label("Squadron name")).to_be_visible()
    expect(page.locator(".draft-offer")).to_have_count(0)


def test_two_tablets_editing_one_list(page: Page, tablet, context, console):
    choose_owner(page, f"Tess {tablet}")
    page.get_by_role("link", name="+ New Of Oil and Iron squadron").click()
    build_squadron(page, f"Shared {tablet}")
    tap(page, "Save")
    expect(page).to_have_url(re.compile(r"/lists/\d+$"))  # saved: the address follows to the list
    edit = page.url + "/edit"
    other = context.new_page()  # the second tablet, opened on the same version
    console.watch(other)
    other.goto(edit)
    page.goto(edit)
    page.get_by_label("Anything the umpire should know").fill("Tablet A's note")
    tap(page, "Save")
    expect(page.locator("body")).to_contain_text("Tablet A's note")

    # Tablet B changed a Rig's name: merged with A's note, both kept.
    other.locator("input[name='rigs.0.name']").fill("Old Jackal")
    other.get_by_role("button", name="Save", exact=True).click()
    expect(other.locator("body")).to_contain_text("Old Jackal")
    expect(other.locator("body")).to_contain_text("Tablet A's note")

    # Both change the note: the later Save is refused, naming it, the form as typed.
    page.goto(edit)
    other.goto(edit)
    page.get_by_label("Anything the umpire should know").fill("A again")
    tap(page, "Save")
    expect(page.locator("body")).to_contain_text("A again")
    other.get_by_label("Anything the umpire should know").fill("B's word")
    typed = fields(other)
    other.get_by_role("button", name="Save", exact=True).click()
    expect(other.get_by_role("alert")).to_contain_text("saved from another tablet")
    expect(other.get_by_role("alert")).to_contain_text("Notes")
    assert fields(other) == typed
    expect(other.get_by_label("Anything the umpire should know")).to_have_class(re.compile("bad"))
    other.get_by_role("button", name="Save", exact=True).click()  # told, B keeps its own
    expect(other.locator("body")).to_contain_text("B's word")
    other.close()
