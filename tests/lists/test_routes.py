"""The list pages through the Flask test client: builders without JavaScript, owners, export and
import (a bad file is a 422 and stores nothing), share codes, print and starting a game."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from io import BytesIO

import pytest
from sqlmodel import select
from werkzeug.datastructures import MultiDict

from referee.lists import example_lists, export_text
from referee.table.db import session as db_session
from referee.table.lists import ArmyList, ArmyListVersion, GameList

EXAMPLES = example_lists()


@pytest.fixture
def client(app):
    c = app.test_client()
    c.post("/lists/owner", data={"owner": "Ann"})
    return c


def rows(app, model):
    with db_session(app.extensions["referee.engine"]) as s:
        return s.exec(select(model)).all()


class FormFields(HTMLParser):
    """The fields a browser would send for the form with id ``builder`` (no button pressed)."""

    def __init__(self):
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._in_form = False
        self._select: str | None = None
        self._selected: str | None = None
        self._first: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "builder":
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "file"):
            if a.get("type") == "checkbox" and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._selected, self._first = a.get("name"), None, None
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = a.get("value", "")
            if "selected" in a:
                self._selected = a.get("value", "")
        elif tag == "textarea":
            self._textarea, self._text = a.get("name"), ""

    def handle_data(self, data):
        if self._textarea:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "form" and self._in_form:
            self._in_form = False
        elif tag == "select" and self._select:
            if not self._select.startswith("_"):
                self.fields.append((self._select, self._selected if self._selected is not None else self._first or ""))
            self._select = None
        elif tag == "textarea" and self._textarea:
            self.fields.append((self._textarea, self._text))
            self._textarea = None


def form_of(response) -> list[tuple[str, str]]:
    p = FormFields()
    p.feed(response.get_data(as_text=True))
    return p.fields


def press(client, url, fields, op):
    return client.post(url, data=MultiDict([*fields, ("op", op)]))


def import_example(client, name):
    return client.post("/lists/import", data={"file": (BytesIO(export_text(EXAMPLES[name]).encode()), "list.json")},
                       content_type="multipart/form-data")


def test_the_lists_page_and_both_builders_open(client):
    assert client.get("/lists/").status_code == 200
    for system in ("blackpowder", "oilandiron"):
        page = client.get(f"/lists/new/{system}")
        assert page.status_code == 200 and b'id="builder"' in page.data
        # A blank list is a draft from the first screen, never "ready to play".
        assert b"Ready to play" not in page.data and b"needs a name" in page.data


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_imports_views_prints_exports_and_edits_without_change(client, app, name):
    r = import_example(client, name)
    assert r.status_code == 303
    url = r.headers["Location"]
    assert client.get(url).status_code == 200
    printed = client.get(url + "/print")
    assert printed.status_code == 200 and b"lists.css" in printed.data
    exported = client.get(url + "/export")
    assert json.loads(exported.data)["list"] == json.loads(export_text(EXAMPLES[name]))["list"]
    # The builder form, sent back untouched, is the same list: no new version is made.
    edit = client.get(url + "/edit")
    saved = press(client, url + "/edit", form_of(edit), "save")
    assert saved.status_code == 303
    assert [v.number for v in rows(app, ArmyListVersion)] == [1]


def test_a_bad_import_is_refused_with_the_reason_and_stores_nothing(client, app):
    broken = json.loads(export_text(EXAMPLES["example-sword-squadron"]))
    broken["list"]["rigs"][0]["weapons"] = "lots"
    r = client.post("/lists/import", data={"text": json.dumps(broken)})
    assert r.status_code == 422 and b"list.rigs.0.weapons" in r.data
    r = client.post("/lists/import", data={"file": (BytesIO(b"{nope"), "x.json")}, content_type="multipart/form-data")
    assert r.status_code == 422 and b"not valid JSON" in r.data
    assert b'id="import"' in r.data  # answered on the lists page, where the player was importing
    del broken["format_version"]
    r = client.post("/lists/import", data={"text": json.dumps(broken)})
    assert r.status_code == 422 and b"does not say its" in r.data and b"None" not in r.data
    assert rows(app, ArmyList) == [] and rows(app, ArmyListVersion) == []


def test_building_an_army_without_javascript(client, app):
    url = "/lists/new/blackpowder"
    page = client.get(url)
    fields = dict(form_of(page))
    fields.update({"name": "Picton", "nation": "british", "general.name": "Wellington", "general.staff_rating": "9",
                   "brigades.0.name": "Kempt", "brigades.0.commander.name": "Kempt", "brigades.0.commander.staff_rating": "7"})
    for _ in range(2):
        page = press(client, url, list(fields.items()), "add-unit:0")
        fields = dict(form_of(page))
    fields.update({"brigades.0.units.0.profile": "british-line-infantry", "brigades.0.units.0.name": "28th",
                   "brigades.0.units.1.profile": "highland-infantry", "brigades.0.units.1.name": "79th"})
    page = press(client, url, list(fields.items()), "check")
    assert "a brigade has 3 to 6 units; this one has 2" in page.get_data(as_text=True)
    saved = press(client, url, list(fields.items()), "save")  # a draft may be saved
    assert saved.status_code == 303
    assert rows(app, ArmyListVersion)[0].problems == 1


def test_live_check_returns_only_the_problems(client):
    r = client.post("/lists/check/blackpowder", data={"name": "", "nation": "british"}, headers={"HX-Request": "true"})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and body.strip().startswith("<section id=\"problems\"")
    assert "the army needs a name" in body


def test_a_number_box_with_letters_comes_back_as_typed(client, app):
    page = client.get("/lists/new/blackpowder")
    fields = dict(form_of(page))
    fields.update({"name": "X", "general.staff_rating": "nine"})
    r = press(client, "/lists/new/blackpowder", list(fields.items()), "save")
    assert r.status_code == 422 and b"must be a whole number" in r.data and b'value="nine"' in r.data
    assert rows(app, ArmyList) == []


def test_the_rig_builder_enters_a_chassis_card(client, app):
    url = "/lists/new/oilandiron"
    fields = dict(form_of(client.get(url)))
    fields.update({"name": "Mine", "formation": "sword"})
    fields = dict(form_of(press(client, url, list(fields.items()), "add-card:chassis")))
    card = {"name": "Bulwark", "weight_class": "medium", "speed": "5", "pivot": "2", "aim": "4", "iron": "5",
            "structure.hull": "4", "structure.arms": "3", "structure.legs": "3", "structure.engine_sp": "3",
            "armour.direct": "8", "armour.severe": "11", "armour.critical": "13",
            "exhaust": "2", "heat_threshold": "6", "heat_track": "12"}
    fields.update({f"cards.chassis.0.{k}": v for k, v in card.items()})
    page = press(client, url, list(fields.items()), "add-rig")
    assert "Bulwark · Medium · Iron 5" in page.get_data(as_text=True)
    fields = dict(form_of(page))
    fields.update({"rigs.0.name": "B1", "rigs.0.chassis": "my_bulwark"})
    assert press(client, url, list(fields.items()), "save").status_code == 303
    content = rows(app, ArmyListVersion)[0].content
    assert content["cards"]["chassis"][0]["structure"] == {"hull": 4, "arms": 3, "legs": 3, "engine": 3}
    assert content["rigs"][0]["chassis"] == "my_bulwark"


def test_only_the_owner_can_edit_but_anyone_can_copy(app, client):
    url = import_example(client, "example-british-ridge").headers["Location"]
    bob = app.test_client()
    bob.post("/lists/owner", data={"owner": "Bob"})
    assert bob.get(url + "/edit").status_code == 403
    assert bob.post(url + "/rename", data={"name": "Mine now"}).status_code == 403
    copy = bob.post(url + "/duplicate")
    assert copy.status_code == 303
    assert bob.get(copy.headers["Location"] + "/edit").status_code == 200
    mine = bob.get("/lists/?who=mine").get_data(as_text=True)
    assert "Copy of Example: Wellington" in mine


def test_no_owner_name_no_saving(app):
    anonymous = app.test_client()
    r = anonymous.post("/lists/import", data={"text": export_text(EXAMPLES["example-french-corps"])})
    assert r.status_code == 422 and b"Choose your name" in r.data
    assert b"Type your name at the top first" in anonymous.get("/lists/").data


def test_a_share_code_opens_a_read_only_view_on_another_tablet(app, client):
    url = import_example(client, "example-sword-squadron").headers["Location"]
    client.post(url + "/share")
    code = rows(app, ArmyList)[0].share_code
    other = app.test_client()
    page = other.get(f"/lists/s/{code[:4].lower()}-{code[4:]}")
    assert page.status_code == 200 and b"read only" in page.data and b"/edit" not in page.data
    assert other.get("/lists/s/?code=" + code).status_code == 303
    assert other.get("/lists/s/NOPE1234").status_code == 404


def test_rename_makes_a_version_and_old_versions_stay_readable(client):
    url = import_example(client, "example-french-corps").headers["Location"]
    client.post(url + "/rename", data={"name": "Grand Battery"})
    assert b"Grand Battery" in client.get(url).data
    assert b"d&#39;Erlon" in client.get(url + "?v=1").data


def test_starting_a_battle_from_two_saved_armies(client, app):
    a = import_example(client, "example-british-ridge").headers["Location"].rsplit("/", 1)[1]
    b = import_example(client, "example-french-corps").headers["Location"].rsplit("/", 1)[1]
    r = client.post("/lists/start", data={"system": "blackpowder", "first": a, "second": b, "name": "Ridge"})
    assert r.status_code == 303 and r.headers["Location"].startswith("/games/")
    assert client.get(r.headers["Location"]).status_code == 200
    assert len(rows(app, GameList)) == 2
    assert b"Games started from this list" in client.get(f"/lists/{a}").data


def test_starting_an_engagement_with_roles(client):
    a = import_example(client, "example-sword-squadron").headers["Location"].rsplit("/", 1)[1]
    b = import_example(client, "example-sword-squadron").headers["Location"].rsplit("/", 1)[1]
    r = client.post("/lists/start", data={"system": "oilandiron", "first": a, "second": b,
                                          "engagement": "breakthrough", "first_role": "defender"})
    assert r.status_code == 303
    assert client.get(r.headers["Location"]).status_code == 200


def test_a_unit_from_another_nation_is_named_in_the_builder_not_shown_as_its_key(client):
    draft = json.loads(export_text(EXAMPLES["example-british-ridge"]))
    draft["list"]["allies"] = []
    draft["list"]["brigades"][0]["units"][0]["profile"] = "prussian-line-foot-artillery"
    url = client.post("/lists/import", data={"text": json.dumps(draft)}).headers["Location"]
    page = client.get(url + "/edit").get_data(as_text=True)
    assert "Line Foot Artillery · Prussian (not this army" in page
    assert ">prussian-line-foot-artillery (not" not in page


def test_a_draft_cannot_start_a_game(client, app):
    draft = json.loads(export_text(EXAMPLES["example-british-ridge"]))
    draft["list"]["brigades"][0]["units"] = draft["list"]["brigades"][0]["units"][:2]
    a = client.post("/lists/import", data={"text": json.dumps(draft)}).headers["Location"].rsplit("/", 1)[1]
    b = import_example(client, "example-french-corps").headers["Location"].rsplit("/", 1)[1]
    r = client.post("/lists/start", data={"system": "blackpowder", "first": a, "second": b})
    assert r.status_code == 422 and "this one has 2" in r.get_data(as_text=True)
    assert rows(app, GameList) == []


def test_key_commanders_and_commanders_without_a_brigade_in_the_builder(client):
    url = "/lists/new/blackpowder"
    fields = dict(form_of(client.get(url)))
    fields.update({"name": "Keys", "_key.general": "wellington"})
    page = press(client, url, list(fields.items()), "use-key:general")
    fields = dict(form_of(page))
    assert (fields["general.name"], fields["general.staff_rating"], fields["general.key"]) == ("Wellington", "9", "wellington")
    fields.update({"brigades.0.name": "Picton", "brigades.0.commander.name": "Picton"})
    fields = dict(form_of(press(client, url, list(fields.items()), "add-brigade")))
    fields.update({"brigades.1.name": "Union", "brigades.1.commander.name": "Ponsonby"})
    # Taking a brigade out keeps its commander, waiting for another brigade, and says so.
    page = press(client, url, list(fields.items()), "remove-brigade:1")
    body = re.sub(r"<[^>]+>", "", page.get_data(as_text=True))
    assert "Commander 1 “Ponsonby”: this commander has no brigade" in body
    fields = dict(form_of(page))
    assert fields["unassigned_commanders.0.name"] == "Ponsonby"
    fields["_assign.0"] = "0"
    page = press(client, url, list(fields.items()), "assign-commander:0")
    fields = dict(form_of(page))
    # He takes brigade 1; Picton, whom he replaces, now waits instead: nobody is dropped.
    assert fields["brigades.0.commander.name"] == "Ponsonby"
    assert fields["unassigned_commanders.0.name"] == "Picton"


def test_copy_a_unit_keeps_its_profile(client):
    url = "/lists/new/blackpowder"
    fields = dict(form_of(client.get(url)))
    fields = dict(form_of(press(client, url, list(fields.items()), "add-unit:0")))
    fields.update({"brigades.0.units.0.profile": "british-riflemen-small", "brigades.0.units.0.name": "95th"})
    fields = dict(form_of(press(client, url, list(fields.items()), "copy-unit:0:0")))
    assert fields["brigades.0.units.1.profile"] == "british-riflemen-small"
    assert fields["brigades.0.units.1.name"] == ""


def test_a_stale_button_changes_nothing(client):
    url = "/lists/new/oilandiron"
    fields = dict(form_of(client.get(url)))
    fields["name"] = "Kept"
    page = press(client, url, list(fields.items()), "remove-rig:7")
    assert page.status_code == 200 and dict(form_of(page))["name"] == "Kept"


def test_live_check_sends_each_rigs_iron_line_with_the_problems(client):
    """Dropping a weapon on the tablet updates that Rig's Iron in use before anyone presses Check."""
    url = import_example(client, "example-sword-squadron").headers["Location"]
    fields = form_of(client.get(url + "/edit"))
    before = client.post("/lists/check/oilandiron", data=MultiDict(fields), headers={"HX-Request": "true"})
    lines = re.findall(r'<p id="rig-0-summary"[^>]*hx-swap-oob="true">([^<]*)</p>', before.get_data(as_text=True))
    used_before = int(re.search(r"uses (\d+) of", lines[0]).group(1))
    lighter = [(k, v) for k, v in fields if not k.startswith("rigs.0.weapons.1.")]
    after = client.post("/lists/check/oilandiron", data=MultiDict(lighter), headers={"HX-Request": "true"})
    body = after.get_data(as_text=True)
    assert body.strip().startswith('<section id="problems"')
    used_after = int(re.search(r'<p id="rig-0-summary"[^>]*>[^<]*uses (\d+) of', body).group(1))
    assert used_after < used_before
    assert 'id="rig-1-summary"' in body and 'id="rig-2-summary"' in body


def test_a_box_that_cannot_be_read_is_named_in_players_words(client):
    fields = dict(form_of(press(client, "/lists/new/blackpowder", form_of(client.get("/lists/new/blackpowder")),
                                "add-unit:0")))
    fields["brigades.0.commander.staff_rating"] = "eight"
    body = client.post("/lists/check/blackpowder", data=MultiDict(list(fields.items())),
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Brigade 1 › commander › staff rating: must be a whole number" in body
