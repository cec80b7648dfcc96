"""A page's own form sent by the tablet's htmx (hx-boost; web/serving/page_forms.py): its refusal,
drawn again holding the work, is answered 200 with its true status in ``X-Refused`` (no red line
in the console), at the page's own address; done, the answer says where to go (``HX-Redirect``) and
the tablet loads that page, the address following. Sent by a browser without JavaScript, the same
form still gets its true status and its redirect. A boosted step in a part of a page (an Of Oil and
Iron campaign's) is answered as before."""
from __future__ import annotations

import re
from pathlib import Path

from _web_helpers import text
from test_refusals_keep_typed import fields

PAGE_FORM = {"HX-Request": "true", "HX-Boosted": "true", "X-Refusal-Shown": "1"}
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

ARMY = {"name": "Ridge", "nation": "british", "general.name": "Wellington", "general.staff_rating": "9",
        "brigades.0.name": "Picton", "brigades.0.commander.name": "Picton",
        "notes": "Picton wears a top hat"}


def _save(client, headers, **more):
    return client.post("/lists/new/blackpowder", data={**ARMY, "op": "save", **more}, headers=headers)


def test_a_refused_save_is_the_builder_again_without_an_error_status(client):
    answer = _save(client, PAGE_FORM)  # no name chosen yet: "Choose your name first"
    assert answer.status_code == 200 and answer.headers["X-Refused"] == "422"
    assert answer.headers["HX-Push-Url"] == "false"  # the address stays the builder's page
    assert "Choose your name first" in text(answer)
    drawn = fields(answer).values
    assert drawn["name"] == ["Ridge"] and drawn["notes"] == ["Picton wears a top hat"]
    assert "<html" in answer.get_data(as_text=True)  # the whole page, its body put in place


def test_a_save_done_leads_the_tablet_to_the_list(client):
    answer = _save(client, PAGE_FORM, _owner="Arthur")
    assert answer.status_code == 204 and "Location" not in answer.headers
    assert re.fullmatch(r"/lists/\d+", answer.headers["HX-Redirect"])
    assert "Ridge" in text(client.get(answer.headers["HX-Redirect"]))


def test_without_javascript_the_form_gets_its_status_and_redirect(client):
    refused = _save(client, {})
    assert refused.status_code == 422 and "X-Refused" not in refused.headers
    assert "HX-Push-Url" not in refused.headers
    done = _save(client, {}, _owner="Arthur")
    assert done.status_code == 303 and "HX-Redirect" not in done.headers


def test_a_game_setting_refused_is_the_settings_page_not_the_board(client, game_id, table):
    page = client.get(f"/games/{game_id}/settings").get_data(as_text=True)
    number = next(m.group(1) for m in re.finditer(r'name="name" value="([^"]+)">(.*?)</form>', page, re.S)
                  if 'type="number"' in m.group(2))
    answer = client.post(f"/games/{game_id}/act/change_setting", headers=PAGE_FORM,
                         data={"version": str(table.version), "name": number, "value": "-7"})
    assert answer.status_code == 200 and answer.headers["X-Refused"] == "422"
    assert "<html" in answer.get_data(as_text=True) and "-7" in fields(answer).values["value"]


def test_a_game_setting_done_leads_the_tablet_on(client, game_id, table):
    answer = client.post(f"/games/{game_id}/act/change_setting", headers=PAGE_FORM,
                         data={"version": str(table.version), "name": "horse_artillery_range", "value": "30"})
    assert answer.status_code == 204 and answer.headers["HX-Redirect"].startswith(f"/games/{game_id}")


def test_a_boosted_step_in_a_part_of_a_page_is_not_a_page_form(client):
    made = client.post("/campaigns/new", data={"kind": "hundred_days", "name": "HD", "french": "Marie",
                                               "coalition": "Tom", "recovery": "half"})
    url = made.headers["Location"]
    # Stale: answered with the campaign's page, the whole of it, as a part's boosted form is.
    answer = client.post(url + "/undo", data={"version": "0"},
                         headers={**PAGE_FORM, "HX-Target": "campaign-live"})
    assert "HX-Push-Url" not in answer.headers


# Every form a tablet posts is sent through htmx, so that its refusal is no red console line: on
# the form itself (hx-boost, or hx-post for the board's), or in a boosted part of its page (an Of Oil
# and Iron campaign's steps), a template included there only.
BOOSTED_PART = re.compile(r'<(section|div)\b[^>]*hx-boost="true"[^>]*>')


def _in_boosted_part(source: str, at: int) -> bool:
    opened = [m for m in BOOSTED_PART.finditer(source, 0, at)]
    return bool(opened) and f"</{opened[-1].group(1)}>" not in source[opened[-1].end():at]


def _sent_by_htmx(template: Path, at: int) -> bool:
    source = template.read_text()
    if _in_boosted_part(source, at):
        return True
    name = template.relative_to(TEMPLATES).as_posix()
    includes = [(t, m.start()) for t in TEMPLATES.rglob("*.html")
                for m in re.finditer(r'{%\s*include\s+"' + re.escape(name) + '"', t.read_text())]
    return bool(includes) and all(_sent_by_htmx(t, where) for t, where in includes)


def _posted_forms():
    for template in sorted(TEMPLATES.rglob("*.html")):
        for m in re.finditer(r"<form\b[^>]*>", template.read_text()):
            if 'method="post"' in m.group(0):
                yield template, m


def test_every_posted_form_is_sent_through_htmx():
    plain = [f"{t.relative_to(TEMPLATES)}: {m.group(0)[:90]}" for t, m in _posted_forms()
             if not re.search(r'hx-boost="true"|hx-post=', m.group(0)) and not _sent_by_htmx(t, m.start())]
    assert not plain, "\n".join(plain)
    assert sum(1 for _ in _posted_forms()) >= 50  # the scan reads the templates' forms


def test_a_form_outside_a_boosted_part_is_found_plain(tmp_path):
    source = '<section hx-boost="true"><form method="post"></form></section><form method="post"></form>'
    inside, outside = [m.start() for m in re.finditer("<form", source)]
    assert _in_boosted_part(source, inside) and not _in_boosted_part(source, outside)


def test_the_builders_check_as_typed_from_the_box_round_their_fields(client):
    page = client.get("/lists/new/oilandiron").get_data(as_text=True)
    form = re.search(r'<form id="builder"[^>]*>', page).group(0)
    assert 'hx-boost="true"' in form and "hx-post" not in form
    assert re.search(r'<div class="builder-fields" hx-post="/lists/check/oilandiron"', page)
