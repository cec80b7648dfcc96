"""The builders draw each problem at the row it is about (issue 52 item 8), through the Flask test
client: the weapon row holds "two weapons on the left mount" and its mount box is marked, the
summary's line is a link to that row, and the live check refreshes every row's problems (and
only rows the page has, so htmx finds each one)."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from test_routes import form_of, press
from werkzeug.datastructures import MultiDict

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict, parent: "Node | None"):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""

    def all(self):
        yield self
        for c in self.children:
            yield from c.all()

    def words(self) -> str:
        return " ".join(" ".join(n.text for n in self.all()).split())

    def by_id(self, id_: str) -> "Node | None":
        return next((n for n in self.all() if n.attrs.get("id") == id_), None)


class Tree(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.root = self.at = Node("#root", {}, None)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag):
        node = self.at
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.at = node.parent

    def handle_data(self, data):
        self.at.text += data


def tree(response) -> Node:
    return Tree(response.get_data(as_text=True)).root


@pytest.fixture
def ann(app):
    c = app.test_client()
    c.post("/lists/owner", data={"owner": "Ann"})
    return c


def squadron_fields(ann) -> list[tuple[str, str]]:
    """A Sword whose first Rig has two weapons on its left mount and an extinguisher taken twice,
    and whose second Rig has a weapon row with no card chosen."""
    fields = dict(form_of(ann.get("/lists/new/oilandiron")))
    fields.update({"name": "Rust Hounds", "formation": "sword"})
    for i, (name, chassis) in enumerate((("Jackal", "example_light_scout"), ("Hyena", "example_light_scout"),
                                         ("Warthog", "example_medium_brawler"))):
        fields.update({f"rigs.{i}.name": name, f"rigs.{i}.chassis": chassis})
    fields.update({"rigs.0.weapons.0.card": "example_autocannon", "rigs.0.weapons.0.mount": "left",
                   "rigs.0.weapons.1.card": "example_flamer", "rigs.0.weapons.1.mount": "left",
                   "rigs.0.equipment.0.key": "extinguisher", "rigs.0.equipment.1.key": "extinguisher",
                   "rigs.1.weapons.0.card": "", "rigs.1.weapons.0.mount": ""})
    return list(fields.items())


def row_problems(page: Node, row_id: str) -> str:
    row = page.by_id(row_id)
    assert row is not None, f"no row {row_id}"
    assert row.attrs.get("tabindex") == "-1"
    lists = [n for n in row.children if "row-problems" in n.attrs.get("class", "")]
    assert len(lists) == 1, f"{row_id} draws its problems once"
    # The row is described by them: brought there by a problem's link, a screen reader says them.
    assert row.attrs.get("aria-describedby") == lists[0].attrs.get("id") == f"problems-{row_id}"
    return "" if "hidden" in lists[0].attrs else lists[0].words()


def test_the_squadron_builder_draws_each_problem_at_its_row(ann):
    page = tree(press(ann, "/lists/new/oilandiron", squadron_fields(ann), "check"))
    assert "two weapons on the left mount" in row_problems(page, "at-rigs-0-weapons-1")
    assert row_problems(page, "at-rigs-0-weapons-0") == ""
    assert "Extinguisher is taken twice" in row_problems(page, "at-rigs-0-equipment-1")
    assert "choose a weapon card" in row_problems(page, "at-rigs-1-weapons-0")
    assert row_problems(page, "at-rigs-2") == "" and row_problems(page, "at-list") == ""
    # The box at fault is marked too, not only the row.
    mount = next(n for n in page.all() if n.attrs.get("name") == "rigs.0.weapons.1.mount")
    assert "bad" in mount.attrs["class"] and mount.attrs["aria-invalid"] == "true"
    card = next(n for n in page.all() if n.attrs.get("name") == "rigs.1.weapons.0.card")
    assert "bad" in card.attrs["class"]
    # Each line of the summary leads to its row.
    links = {a.attrs["href"]: a.words() for a in page.by_id("problems").all() if a.tag == "a"}
    assert "two weapons on the left mount" in links["#at-rigs-0-weapons-1"]
    assert "taken twice" in links["#at-rigs-0-equipment-1"]
    assert all(page.by_id(href[1:]) is not None for href in links)


def test_too_many_weapons_are_drawn_at_the_rigs_weapons(ann):
    fields = dict(squadron_fields(ann))
    fields.update({"rigs.0.weapons.0.mount": "", "rigs.0.weapons.1.mount": "",
                   "rigs.0.weapons.2.card": "example_autocannon", "rigs.0.weapons.2.mount": ""})
    page = tree(press(ann, "/lists/new/oilandiron", list(fields.items()), "check"))
    assert "3 weapons, but a Light Rig has 2 weapon slots" in row_problems(page, "at-rigs-0-weapons")
    assert "two weapons" not in row_problems(page, "at-rigs-0-weapons-1")


def test_the_army_builder_draws_each_problem_at_its_row(ann):
    fields = dict(form_of(press(ann, "/lists/new/blackpowder", form_of(ann.get("/lists/new/blackpowder")),
                                "add-unit:0")))
    fields.update({"name": "Ridge", "general.name": "Hill", "brigades.0.name": "Picton",
                   "brigades.0.commander.name": "", "brigades.0.units.0.profile": "prussian-hussars",
                   "brigades.0.units.0.name": "Hussars"})
    page = tree(press(ann, "/lists/new/blackpowder", list(fields.items()), "check"))
    assert "from the Prussian list" in row_problems(page, "at-brigades-0-units-0")
    assert "this one has 1" in row_problems(page, "at-brigades-0-units")
    assert "the commander needs a name" in row_problems(page, "at-brigades-0-commander")
    assert row_problems(page, "at-general") == "" and row_problems(page, "at-brigades-0") == ""


def checked(ann, system: str):
    """A builder's fields with problems in several rows (a squadron's, or an army with a unit
    added), and its page after Check."""
    url = f"/lists/new/{system}"
    fields = squadron_fields(ann) if system == "oilandiron" else form_of(
        press(ann, url, form_of(ann.get(url)), "add-unit:0"))
    return fields, tree(press(ann, url, fields, "check"))


@pytest.mark.parametrize("system", ["oilandiron", "blackpowder"])
def test_the_live_check_refreshes_every_rows_problems_and_only_rows_the_page_has(ann, system):
    fields, page = checked(ann, system)
    drawn = {n.attrs["id"] for n in page.all() if "row-problems" in n.attrs.get("class", "")}
    live = ann.post(f"/lists/check/{system}", data=MultiDict(fields), headers={"HX-Request": "true"})
    body = live.get_data(as_text=True)
    sent = set(re.findall(r'<ul class="row-problems" id="([^"]+)"[^>]*hx-swap-oob="true"', body))
    assert sent == drawn
    if system == "oilandiron":
        slot = tree(live).by_id("problems-at-rigs-0-weapons-1")
        assert "two weapons on the left mount" in slot.words() and "hidden" not in slot.attrs
        assert "hidden" in tree(live).by_id("problems-at-rigs-2").attrs


def test_the_live_check_ignores_the_button_htmx_sends_with_it(ann):
    """htmx adds the button last tapped ("+ Weapon") to a live check sent while that tap is on its
    way: the check is of the form on the page, whose new row is not drawn yet."""
    fields = form_of(ann.get("/lists/new/oilandiron"))
    live = ann.post("/lists/check/oilandiron", data=MultiDict([*fields, ("op", "add-weapon:0")]),
                    headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="problems-at-rigs-0"' in live and "problems-at-rigs-0-weapons-0" not in live


@pytest.mark.parametrize("system", ["oilandiron", "blackpowder"])
def test_every_row_is_described_by_a_problem_list_the_page_has(ann, system):
    fields, page = checked(ann, system)
    described = [n.attrs["aria-describedby"] for n in page.all() if n.attrs.get("aria-describedby", "").startswith("problems-")]
    assert len(described) > 5 and all(page.by_id(d) is not None for d in described)
