"""The board's facts for folding, finding and filtering, as the server writes them: data- attributes
on every unit, brigade and Rig computed from the engine state, the one line a folded brigade
shows, compact rows by default above 60 units, the bar that finds and filters (outside the live
part, so another tablet's change never wipes what is typed), and the page's favicon and
description."""
from __future__ import annotations

import copy
import re

import pytest
from _web_helpers import HTMX, Table, text

from referee.core.board import COMPACT_ABOVE
from referee.data.scenarios import new_battle_from_forces
from referee.table import service


def post(client, table, action, data):
    return client.post(f"/games/{table.id}/act/{action}", data={"version": str(table.version), **data},
                       headers=HTMX)


def unit_tag(html: str, unit_id: str) -> str:
    found = re.search(rf'<div class="unit" id="unit-{re.escape(unit_id)}"[^>]*>', html)
    assert found, f"no unit {unit_id} on the board"
    return found.group(0)


def attrs(tag: str) -> dict[str, str]:
    """The data- attributes of a tag; a flag left out is empty (the page writes only those set)."""
    return {"attention": "", "orderable": "", "reserve": "", "lost": "",
            **dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag))}


def brigade_line(html: str, brigade_id: str) -> str:
    found = re.search(rf'<details class="brigade fold[^"]*" id="brigade-{re.escape(brigade_id)}".*?</summary>', html, re.S)
    assert found, f"no brigade {brigade_id}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).strip()


def big_battle(units_a_side: int) -> dict:
    def force(name, profile):
        lines = []
        left = units_a_side
        while left:
            n = min(left, 30)
            lines.append({"profile": profile, "name": f"{{n}}/{len(lines) + 1}th {name}", "count": n})
            left -= n
        return {"name": name, "brigades": [{"name": f"{name} brigade", "commander": {"name": f"{name} colonel"},
                                            "units": lines}]}
    return new_battle_from_forces("Big", force("Foot", "british-line-infantry"), force("Ligne", "french-line-infantry"))


def test_every_unit_carries_the_facts_the_filters_compare(client, table):
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    units = table.state["units"]
    tags = re.findall(r'<div class="unit" id="unit-[^"]+"[^>]*>', html)
    assert len(tags) == len(units)
    a = attrs(unit_tag(html, "11th-leger"))
    assert a == {"unit": "11th-leger", "name": "11th leger", "side": "blue", "brigade": "blue-7th-division",
                 "attention": "", "orderable": "1", "reserve": "", "lost": ""}
    # "Not yet ordered" shows the orderable units of the side the turn bar names (board.js): the
    # side not to play is left out by the bar, so a new side to play changes no card.
    assert re.search(r'id="status-turn" data-active-side="blue"', html)
    red = attrs(unit_tag(html, "1-7th-musketeers"))
    assert red["side"] == "red" and red["orderable"] == "1"


def test_a_disordered_or_shaken_unit_needs_attention_and_its_brigade_line_counts_it(client, table):
    assert post(client, table, "adjust_unit", {"unit": "11th-leger", "field": "disordered", "value": "yes"}).status_code == 200
    stamina = table.unit("12th-leger")["stamina"]
    assert post(client, table, "adjust_unit", {"unit": "12th-leger", "field": "casualties",
                                               "value": str(stamina)}).status_code == 200
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert attrs(unit_tag(html, "11th-leger"))["attention"] == "1"
    assert attrs(unit_tag(html, "12th-leger"))["attention"] == "1"
    assert attrs(unit_tag(html, "12th-leger"))["lost"] == "1"  # a shaken unit counts towards breaking
    assert attrs(unit_tag(html, "1-7th-musketeers"))["attention"] == ""
    line = brigade_line(html, "blue-7th-division")
    assert "Girard" in line and "1 lost" in line and "1 shaken" in line and "1 disordered" in line
    assert re.search(r"\b5 on the table\b", line)


def test_a_unit_that_has_had_its_order_is_no_longer_unordered(client, table):
    assert post(client, table, "order", {"units": ["11th-leger", "12th-leger"], "order": "move"}).status_code == 200
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    for uid, u in table.state["units"].items():
        expected = "" if uid in ("11th-leger", "12th-leger") else "1"
        assert attrs(unit_tag(html, uid))["orderable"] == expected, uid
    # A new turn for the side: every unit to order again (undo takes the order back too).
    assert client.post(f"/games/{table.id}/undo", data={"version": str(table.version)}, headers=HTMX).status_code == 200
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert attrs(unit_tag(html, "11th-leger"))["orderable"] == "1"


def test_a_lost_unit_is_neither_unordered_nor_in_need_of_attention(client, table):
    assert post(client, table, "adjust_unit", {"unit": "11th-leger", "field": "destroyed", "value": "yes"}).status_code == 200
    a = attrs(unit_tag(client.get(f"/games/{table.id}").get_data(as_text=True), "11th-leger"))
    assert (a["lost"], a["orderable"], a["attention"]) == ("1", "", "")


def test_each_brigade_folds_to_one_line_with_its_commander(client, table):
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    brigades = table.state["brigades"]
    assert len(re.findall(r'<details class="brigade fold', html)) == len(brigades)
    for bid, b in brigades.items():
        assert f'data-fold-id="{bid}"' in html
        if b.get("commander"):
            assert b["commander"]["name"] in brigade_line(html, bid)


def test_compact_rows_are_the_default_above_sixty_units(client, table, db, app):
    small = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert 'data-default-view="full"' in small and 'data-units="14"' in small
    per_side = COMPACT_ABOVE // 2 + 1
    big = service.create_game(db, "Big", "blackpowder", big_battle(per_side))
    html = client.get(f"/games/{big.id}").get_data(as_text=True)
    assert f'data-units="{2 * per_side}"' in html and 'data-default-view="compact"' in html
    # A compact row holds the name, formation, casualties against Stamina and badges.
    row = re.search(r'<div class="unit" id="unit-[^"]+".*?</a>', html, re.S).group(0)
    assert re.search(r'class="card-name">1/1th Foot<', row)
    assert re.search(r'class="formation">Line<', row)
    assert re.search(r'class="card-cas">0/3<', row)


def test_the_find_and_filter_bar_is_drawn_once_outside_the_live_part(client, table):
    page = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert page.count('id="board-tools"') == 1
    assert page.index('id="board-tools"') < page.index('id="units"')
    assert 'id="board-find"' in page and 'data-filter="attention"' in page and 'data-filter="unordered"' in page
    # No reserves in this battle: no filter for them.
    assert 'data-filter="reserve"' not in page
    assert "board.js" in page and "board.css" in page
    # The poll's answer and a write's answer redraw #units, never the bar (what is typed stays).
    live = client.get(f"/games/{table.id}/poll?v=0", headers=HTMX).get_data(as_text=True)
    assert 'id="units"' in live and 'data-unit="11th-leger"' in live and 'id="board-tools"' not in live
    seen = table.version
    written = post(client, table, "adjust_unit", {"unit": "11th-leger", "field": "disordered", "value": "yes"})
    assert 'id="board-tools"' not in written.get_data(as_text=True)
    body = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True)
    assert 'data-attention="1"' in body and 'id="board-tools"' not in body


def test_a_battle_with_units_due_to_arrive_offers_that_filter(client, db, table):
    doc = copy.deepcopy(table.state)  # a stored document is never changed in place
    doc["units"]["1-7th-musketeers"]["awaiting"] = True
    game = service.create_game(db, "With reserves", "blackpowder", doc)
    html = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'data-filter="reserve"' in html
    a = attrs(unit_tag(html, "1-7th-musketeers"))
    assert (a["reserve"], a["lost"], a["orderable"]) == ("1", "", "")
    assert "Due to arrive" in text(client.get(f"/games/{game.id}"))


def test_an_enemy_unit_panel_opens_the_shooting_and_charge_forms_with_it_as_target(client, table):
    body = client.get(f"/games/{table.id}/units/1-7th-musketeers").get_data(as_text=True)
    assert f'href="/games/{table.id}/act/shoot?target=1-7th-musketeers"' in body
    assert f'href="/games/{table.id}/act/charge?target=1-7th-musketeers"' in body
    own = client.get(f"/games/{table.id}/units/11th-leger").get_data(as_text=True)
    assert 'class="menu target-actions"' not in own
    form = client.get(f"/games/{table.id}/act/shoot?target=1-7th-musketeers").get_data(as_text=True)
    assert 'name="target" value="1-7th-musketeers" checked' in form


def test_picked_units_of_one_brigade_open_one_order_form(client, table):
    html = client.get(f"/games/{table.id}/act/order?units=11th-leger&units=12th-leger").get_data(as_text=True)
    assert 'name="units" value="11th-leger" checked' in html and 'name="units" value="12th-leger" checked' in html


def test_structure_pips_are_named_images(client, table):
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    for tag in re.findall(r'<span class="pips"[^>]*>', html):
        assert 'role="img"' in tag and "aria-label=" in tag


@pytest.fixture
def engagement(db, app):
    from _web_helpers import start_form

    from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
    doc = build_engagement(start_form(), {side: len(rigs) for side, rigs in EXAMPLE_SQUADRONS.items()})
    return Table(app, service.create_game(db, doc["name"], "oilandiron", doc, seed=3).id)


def test_rigs_carry_the_facts_and_each_squadron_folds_to_one_line(client, engagement):
    html = client.get(f"/games/{engagement.id}").get_data(as_text=True)
    rigs = engagement.state["rigs"]
    tags = re.findall(r'<article class="ooi-card[^>]*data-unit="[^"]+"[^>]*>', html)
    assert len(tags) == len(rigs)
    first = attrs(tags[0])
    assert first["side"] in ("p1", "p2") and first["attention"] == "" and first["lost"] == ""
    assert len(re.findall(r'<details class="fold ooi-fold"', html)) == 2
    assert re.search(r"3 of 3 Rigs in play", text(client.get(f"/games/{engagement.id}")))
    for tag in re.findall(r'<span class="ooi-pips"[^>]*>', html):
        assert 'role="img"' in tag
    assert "Not yet activated" in html and "Pick units" not in html


def test_a_damaged_or_overheated_rig_needs_attention(client, engagement):
    rid = next(iter(engagement.state["rigs"]))
    r = client.post(f"/games/{engagement.id}/act/adjust_rig",
                    data={"version": str(engagement.version), "rig": rid, "field": "heat", "value": "9"}, headers=HTMX)
    assert r.status_code == 200, text(r)
    html = client.get(f"/games/{engagement.id}").get_data(as_text=True)
    tag = re.search(rf'<article class="ooi-card[^>]*id="rig-{rid}"[^>]*>', html).group(0)
    assert attrs(tag)["attention"] == "1"


def test_every_page_has_a_favicon_and_a_description(client, table):
    for url in ("/", f"/games/{table.id}", "/games/new", "/lists/"):
        html = client.get(url).get_data(as_text=True)
        assert re.search(r'<link rel="icon" href="/static/(v-[0-9a-f]+/)?favicon.svg"', html), url
        assert re.search(r'<meta name="description" content="[^"]{40,}">', html), url
    icon = client.get(re.search(r'<link rel="icon" href="([^"]+)"', html).group(1))
    assert icon.status_code == 200 and icon.get_data(as_text=True).startswith("<svg")


def test_names_are_found_without_their_accents():
    from referee.core.board import folded
    assert folded("11th Léger") == "11th leger" and folded("Général Gr") == "general gr"
