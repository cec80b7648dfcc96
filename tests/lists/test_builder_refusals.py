"""Every refusal of a list builder keeps what was typed (issue 45, item 1), and a list's Save
carries the version it was opened from, so two tablets editing one list never overwrite each other
without a word (issue 52, item 1). Through the Flask test client, as a browser without JavaScript."""
from __future__ import annotations

import re
from html import escape as html_escape
from html import unescape as html_unescape

import pytest
from test_routes import EXAMPLES, form_of, import_example, press, rows

from referee.lists import dump, export_text
from referee.lists.travel import SHARE_ALPHABET, SHARE_LENGTH
from referee.table.lists import ArmyList, ArmyListVersion

# Fields a form carries that are not the player's work: its tokens, the version it came from.
NOT_TYPED = {"csrf_token", "token", "_base"}
BUILDERS = {"blackpowder": "example-british-ridge", "oilandiron": "example-claymore-squadron"}


def typed(fields) -> list[tuple[str, str]]:
    return [(k, v) for k, v in fields if k not in NOT_TYPED]


@pytest.fixture
def ann(app):
    c = app.test_client()
    c.post("/lists/owner", data={"owner": "Ann"})
    return c


def full_builder(ann, example: str) -> list[tuple[str, str]]:
    """Every field of a builder filled in: an example list drawn in the builder (no button pressed)."""
    r = import_example(ann, example)
    fields = typed(form_of(ann.get(r.headers["Location"] + "/edit")))
    assert len(fields) > 30
    return fields


def message_of(response) -> str:
    found = re.search(r'<p class="message" role="alert">(.*?)</p>', response.get_data(as_text=True), re.S)
    return found.group(1) if found else ""


@pytest.mark.parametrize("system", sorted(BUILDERS))
def test_a_name_asked_for_on_save_is_asked_in_the_builder_and_nothing_typed_is_lost(app, ann, system):
    fields = full_builder(ann, BUILDERS[system])
    newcomer = app.test_client()  # no name chosen yet on this tablet
    refused = press(newcomer, f"/lists/new/{system}", fields, "save")
    assert refused.status_code == 422 and "Choose your name" in message_of(refused)
    # The builder comes back with every field as typed, and the name asked for inside it.
    again = form_of(refused)
    assert typed(again) == [("_owner", "")] + fields
    assert [r.name for r in rows(app, ArmyList)] == [EXAMPLES[BUILDERS[system]].name]
    # The name typed there, the next Save keeps the whole list under it.
    saved = press(newcomer, f"/lists/new/{system}", [("_owner", "Bea"), *fields], "save")
    assert saved.status_code == 303
    with newcomer.session_transaction() as cookie:
        assert cookie["owner"] == "Bea"
    made = [r for r in rows(app, ArmyList) if r.owner == "Bea"]
    assert len(made) == 1
    version = [v for v in rows(app, ArmyListVersion) if v.list_id == made[0].id]
    assert version[0].content == dump(EXAMPLES[BUILDERS[system]])


@pytest.mark.parametrize("system", sorted(BUILDERS))
def test_a_value_that_cannot_be_used_is_refused_with_the_whole_form_kept(app, ann, system):
    fields = full_builder(ann, BUILDERS[system])
    number = next(i for i, (k, _v) in enumerate(fields) if k.endswith((".staff_rating", ".speed", ".pivot")))
    fields[number] = (fields[number][0], "seven")
    for url in (f"/lists/new/{system}", None):
        if url is None:  # the same refusal on the list's own builder
            url = "/lists/%d/edit" % rows(app, ArmyList)[0].id
        refused = press(ann, url, fields, "save")
        assert refused.status_code == 422 and "cannot be used" in message_of(refused)
        assert typed(form_of(refused)) == fields
        assert 'value="seven" class="bad"' in refused.get_data(as_text=True)
    assert len(rows(app, ArmyListVersion)) == 1


@pytest.mark.parametrize("system", sorted(BUILDERS))
def test_each_builder_button_draws_the_form_again_with_everything_typed(app, ann, system):
    fields = full_builder(ann, BUILDERS[system])
    fields = [(k, "Notes typed on the way") if k == "notes" else (k, v) for k, v in fields]
    checked = press(ann, f"/lists/new/{system}", fields, "check")
    assert checked.status_code == 200 and typed(form_of(checked)) == fields


def two_tablets_open(app, ann, example="example-claymore-squadron"):
    r = import_example(ann, example)
    url = r.headers["Location"] + "/edit"
    first, second = form_of(ann.get(url)), form_of(ann.get(url))
    assert ("_base", "1") in first and ("_base", "1") in second
    return url, first, second


def changed(fields, name, value):
    assert any(k == name for k, _v in fields), name
    return [(k, value) if k == name else (k, v) for k, v in fields]


def latest(app) -> dict:
    lst = rows(app, ArmyList)[0]
    return next(v.content for v in rows(app, ArmyListVersion) if v.number == lst.latest)


def test_two_tablets_saving_different_parts_of_one_list_keep_both(app, ann):
    url, a, b = two_tablets_open(app, ann)
    assert press(ann, url, changed(a, "notes", "Bring the spare dice"), "save").status_code == 303
    saved = press(ann, url, changed(b, "rigs.0.name", "Old Faithful"), "save")
    assert saved.status_code == 303
    content = latest(app)
    assert content["notes"] == "Bring the spare dice" and content["rigs"][0]["name"] == "Old Faithful"
    notes = [v.note for v in rows(app, ArmyListVersion)]
    assert notes[-1].startswith("edited (merged with version 2")


def test_two_tablets_changing_the_same_part_the_second_is_refused_with_its_form_kept(app, ann):
    url, a, b = two_tablets_open(app, ann)
    assert press(ann, url, changed(a, "notes", "From tablet A"), "save").status_code == 303
    mine = changed(changed(b, "notes", "From tablet B"), "rigs.1.name", "Second Wind")
    refused = press(ann, url, mine, "save")
    assert refused.status_code == 409
    said = message_of(refused)
    assert "saved from another tablet" in said and "version 2" in said and "Notes" in said and "Nothing was saved" in said
    assert "Rig" not in said.split("both changed")[1].split(".")[0]  # only the clash is named
    assert latest(app)["notes"] == "From tablet A" and len(rows(app, ArmyListVersion)) == 2
    again = form_of(refused)
    assert typed(again) == typed(mine) and ("_base", "2") in again  # the next Save is over version 2
    assert re.search(r'<textarea name="notes"[^>]*class="bad"', refused.get_data(as_text=True))
    # Saving again, told, keeps tablet B's notes over A's, with B's renamed Rig.
    assert press(ann, url, again, "save").status_code == 303
    content = latest(app)
    assert content["notes"] == "From tablet B" and content["rigs"][1]["name"] == "Second Wind"


def test_a_save_from_a_version_that_is_not_there_is_refused_with_its_form_kept(app, ann):
    url, a, _b = two_tablets_open(app, ann)
    for base in ("0", "7"):
        mine = changed(changed(a, "_base", base), "notes", "Typed on a form of no version")
        refused = press(ann, url, mine, "save")
        assert refused.status_code == 422 and "open the list again" in message_of(refused)
        assert typed(form_of(refused)) == typed(mine)
    assert len(rows(app, ArmyListVersion)) == 1


def test_copy_rig_fills_a_blank_rig_row_before_adding_one(app, ann):
    page = ann.get("/lists/new/oilandiron")
    fields = typed(form_of(page))
    assert sum(1 for k, _v in fields if re.fullmatch(r"rigs\.\d+\.name", k)) == 3  # a Sword's three rows
    fields = changed(changed(fields, "rigs.0.name", "Jackal"), "rigs.0.chassis", "example_light_scout")
    fields = changed(fields, "rigs.1.name", "Hyena")
    copied = typed(form_of(press(ann, "/lists/new/oilandiron", fields, "copy-rig:0")))
    names = [v for k, v in copied if re.fullmatch(r"rigs\.\d+\.name", k)]
    chassis = [v for k, v in copied if re.fullmatch(r"rigs\.\d+\.chassis", k)]
    # The third row, untouched, took the copy; Hyena (named) was left as it was.
    assert names == ["Jackal", "Hyena", ""] and chassis == ["example_light_scout", "", "example_light_scout"]
    # No blank row left: the next copy is a row of its own, after the one copied.
    again = typed(form_of(press(ann, "/lists/new/oilandiron", copied, "copy-rig:1")))
    assert [v for k, v in again if re.fullmatch(r"rigs\.\d+\.name", k)] == ["Jackal", "Hyena", "", ""]


def test_a_bad_paste_is_refused_on_the_lists_page_with_the_text_kept(app, ann):
    pasted = '{"format": "referee-list", "list": {"name": "Half a list"'
    r = ann.post("/lists/import", data={"text": pasted})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "The list was not imported" in page
    box = re.search(r'<textarea name="text"[^>]*class="bad"[^>]*>(.*?)</textarea>', page, re.S)
    assert box and html_unescape(box.group(1)) == pasted
    assert 'id="import"' in page and "+ New Of Oil and Iron squadron" in page  # the lists page itself
    assert rows(app, ArmyList) == []


def test_an_imported_list_is_named_apart_from_one_already_here(app, ann):
    name = EXAMPLES["example-sword-squadron"].name
    first, second, third = (import_example(ann, "example-sword-squadron") for _ in range(3))
    assert [r.name for r in sorted(rows(app, ArmyList), key=lambda r: r.id)] == [
        name, f"{name} (imported)", f"{name} (imported 2)"]
    told = ann.get(second.headers["Location"]).get_data(as_text=True)
    assert html_escape(f"A list called “{name}” is already here") in told
    page = ann.get(third.headers["Location"]).get_data(as_text=True)
    assert html_escape(f"{name} (imported 2)") in page
    # The list's own content carries its new name, as its export does.
    assert ann.get(third.headers["Location"] + "/export").get_json()["list"]["name"] == f"{name} (imported 2)"


def test_the_share_code_box_shows_a_code_as_long_as_a_real_one(ann):
    page = ann.get("/lists/").get_data(as_text=True)
    example = re.search(r'name="code"[^>]*placeholder="e\.g\. ([^"]+)"', page).group(1)
    assert re.fullmatch(r"[A-Z0-9]{4}(-[A-Z0-9]{4}){3}", example)
    assert len(example.replace("-", "")) == SHARE_LENGTH and set(example) - {"-"} <= set(SHARE_ALPHABET)


@pytest.mark.parametrize("system", sorted(BUILDERS))
def test_a_save_refused_because_the_tablet_is_someone_else_now_keeps_the_builder(app, ann, system):
    r = import_example(ann, BUILDERS[system])
    url = r.headers["Location"] + "/edit"
    fields = changed(form_of(ann.get(url)), "notes", "Typed before the name changed")
    ann.post("/lists/owner", data={"owner": "Bea"})  # the tablet's name changed meanwhile
    refused = press(ann, url, fields, "save")
    assert refused.status_code == 403 and "belongs to Ann" in message_of(refused)
    assert typed(form_of(refused)) == typed(fields)
    assert len(rows(app, ArmyListVersion)) == 1


def test_an_address_a_refused_form_showed_leads_back_to_its_form(app, ann):
    assert ann.get("/lists/import").headers["Location"].endswith("/lists/#import")
    assert ann.get("/campaigns/new").headers["Location"].endswith("/campaigns")
    assert ann.get("/campaigns/import").headers["Location"].endswith("/campaigns")
    assert ann.get("/campaigns/99/act/change_setting").status_code == 404


def test_an_import_asks_the_name_beside_it_and_keeps_the_text_meanwhile(app):
    newcomer = app.test_client()
    text = export_text(EXAMPLES["example-sword-squadron"])
    refused = newcomer.post("/lists/import", data={"text": text})
    assert refused.status_code == 422 and "Choose your name first" in refused.get_data(as_text=True)
    page = refused.get_data(as_text=True)
    assert 'name="_owner"' in page and html_unescape(re.search(r'<textarea name="text"[^>]*>(.*?)</textarea>', page, re.S).group(1)) == text
    assert newcomer.post("/lists/import", data={"text": text, "_owner": "Cleo"}).status_code == 303
    assert [r.owner for r in rows(app, ArmyList)] == ["Cleo"]
