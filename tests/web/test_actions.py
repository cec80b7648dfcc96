"""Actions through the routes: one path for every change, refused writes change nothing."""
from __future__ import annotations

import json
import re

import pytest
from _web_helpers import HTMX, text

from referee import create_app


def post(client, table, action, data=None, version=None, headers=None):
    form = {"version": str(table.version if version is None else version), **(data or {})}
    return client.post(f"/games/{table.id}/act/{action}", data=form, headers=headers or {})


def test_an_order_through_the_route_changes_the_state_and_logs_it(client, table):
    before = table.version
    r = post(client, table, "order", {"units": "11th-leger", "order": "move"}, headers=HTMX)
    assert r.status_code == 200
    assert table.version == before + 1
    [entry] = table.log()
    assert entry.action == "order" and entry.facts["units"] == ["11th-leger"]
    assert table.state["turn_state"]["commanders_ordered"][0]["brigade"] == "blue-7th-division"
    body = text(r)
    assert "Move order to 11th Léger" in body
    html = r.get_data(as_text=True)
    # The result in the panel, alone: the board's poll is told to ask at once for the new version.
    assert html.startswith('<section id="panel"') and "hx-swap-oob" not in html
    assert "class=\"die" in html and "against 8" in html  # the staff rating the roll was tested against
    assert r.headers["HX-Push-Url"] == f"/games/{table.id}?entry=1"
    assert json.loads(r.headers["HX-Trigger"]) == {"board-changed": {"version": table.version, "own": True}}
    live = client.get(f"/games/{table.id}/poll?v={before}", headers=HTMX).get_data(as_text=True)
    assert 'id="log-entry-1"' in live and f'data-version="{table.version}"' in live


def test_without_javascript_a_write_redirects_to_the_game_with_the_result(client, table):
    r = post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "2"})
    assert r.status_code == 303
    assert r.headers["Location"].endswith(f"/games/{table.id}?entry=1")
    page = client.get(r.headers["Location"])
    assert "82nd Ligne: casualties 0 → 2" in text(page)
    assert table.unit("82nd-ligne")["casualties"] == 2


def test_a_short_form_keeps_the_defaults_it_does_not_draw(client, table):
    r = post(client, table, "next_phase", headers=HTMX)
    assert r.status_code == 200
    assert table.state["phase"] == "shooting"
    assert "French Shooting" in text(r)


def test_undo_and_redo(client, table):
    post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "2"})
    r = client.post(f"/games/{table.id}/undo", data={"version": table.version}, headers=HTMX)
    assert r.status_code == 200 and "Undone" in text(r)
    assert table.unit("82nd-ligne")["casualties"] == 0
    assert table.log()[0].undone
    assert "hx-swap-oob" not in r.get_data(as_text=True)
    # The board's poll, asked at once, shows the entry undone.
    live = client.get(f"/games/{table.id}/poll?v={table.version - 1}", headers=HTMX)
    assert 'class="entry undone"' in live.get_data(as_text=True)
    r = client.post(f"/games/{table.id}/redo", data={"version": table.version})
    assert r.status_code == 303
    assert table.unit("82nd-ligne")["casualties"] == 2
    assert not table.log()[0].undone


def test_undo_with_nothing_to_undo_says_so(client, table):
    r = client.post(f"/games/{table.id}/undo", data={"version": table.version}, headers=HTMX)
    assert r.status_code == 422
    assert "nothing to undo" in text(r)


def test_a_stale_version_is_refused_with_the_fresh_view_and_changes_nothing(client, table):
    seen = table.version
    post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "1"})
    state = table.state
    r = post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "3"},
             version=seen, headers=HTMX)
    assert r.status_code == 409
    assert "Another tablet changed 82nd Ligne first" in text(r)
    assert table.state == state and len(table.log()) == 1
    html = r.get_data(as_text=True)
    # The form comes back carrying the fresh version, and the board is refreshed: no tablet has
    # had the new version drawn yet, so the refusal names the event on which the board's poll
    # asks at once, rather than wait for the drawing, and the poll brings the change.
    assert f'name="version" value="{table.version}"' in html
    assert json.loads(r.headers["HX-Trigger"]) == {"board-changed": {"version": table.version}}
    assert 'hx-swap-oob="true"' not in html
    board = client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)
    assert "Umpire set 82nd Ligne: casualty markers → 1" in text(board)
    # Once a tablet has been sent the new version, a refusal carries the change itself.
    r = post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "3"},
             version=seen, headers=HTMX)
    assert r.status_code == 409 and "HX-Trigger" not in r.headers
    assert 'hx-swap-oob="true"' in r.get_data(as_text=True) and "Umpire set 82nd Ligne: casualty markers → 1" in text(r)
    assert table.state == state and len(table.log()) == 1


def test_a_stale_undo_is_refused(client, table):
    seen = table.version
    post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "1"})
    r = client.post(f"/games/{table.id}/undo", data={"version": seen})
    assert r.status_code == 409
    assert table.unit("82nd-ligne")["casualties"] == 1


@pytest.mark.parametrize("action, data, words", [
    ("shoot", {"shooter": "11th-leger", "target": "nobody"}, "no unit “nobody”"),
    ("adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "-2"}, "cannot be negative"),
    ("shoot", {"shooter": "11th-leger"}, "Target: nothing chosen yet"),
    ("order", {"order": "move"}, "Units to order (one, or a group of one brigade): nothing chosen yet"),
    ("order", {"units": "11th-leger", "distance_steps": "-3"}, "Full 12\" steps from the commander to the unit"),
])
def test_bad_input_is_422_with_the_message_and_changes_nothing(client, table, action, data, words):
    state, version = table.state, table.version
    r = post(client, table, action, data, headers=HTMX)
    assert r.status_code == 422
    assert words in text(r)
    assert table.state == state and table.version == version and table.log() == []
    # The form is drawn again with what was chosen.
    assert f'action="/games/{table.id}/act/{action}"' in r.get_data(as_text=True)


def test_bad_input_without_javascript_is_a_whole_page(client, table):
    r = post(client, table, "adjust_unit", {"unit": "82nd-ligne", "field": "casualties", "value": "-1"})
    assert r.status_code == 422
    assert r.get_data(as_text=True).lstrip().lower().startswith("<!doctype html>")


def test_a_post_without_a_version_is_refused(client, table):
    r = client.post(f"/games/{table.id}/act/next_phase", data={}, headers=HTMX)
    assert r.status_code == 422 and table.log() == []


def _typed_mode(client, table):
    r = post(client, table, "dice_mode", {"mode": "typed"}, headers=HTMX)
    assert r.status_code == 200 and table.state["dice_mode"] == "typed"


def test_typed_dice_are_asked_for_and_kept_until_the_action_resolves(client, table):
    _typed_mode(client, table)
    shot = {"shooter": "11th-leger", "target": "1-7th-musketeers", "range_band": "short"}
    r = post(client, table, "shoot", shot, headers=HTMX)
    assert r.status_code == 200
    assert "Roll 1 D6 — to hit" in text(r)
    assert 'name="more_dice"' in r.get_data(as_text=True)
    assert len(table.log()) == 1  # only the dice-mode change
    typed = ""
    for _ in range(6):
        html = r.get_data(as_text=True)
        if 'name="more_dice"' not in html:
            break
        typed = re.search(r'name="typed" value="([^"]*)"', html).group(1)
        count = int(re.search(r"Roll (\d+) D6", text(r)).group(1))
        r = post(client, table, "shoot", {**shot, "typed": typed, "more_dice": " ".join(["6"] * count)},
                 headers=HTMX)
    entry = table.log()[0]
    assert entry.action == "shoot" and entry.dice_source == "typed"
    assert entry.dice[0] == {"value": 6, "sides": 6, "purpose": "to hit"}
    assert table.unit("1-7th-musketeers")["disordered"] is True
    # The result marks each die read against a score: the 6 to hit is a success.
    assert re.search(r'<li class="die top won">\s*<span class="face" aria-label="6, success">6</span>'
                     r'<span class="purpose">to hit</span>', r.get_data(as_text=True))


def test_a_typed_die_out_of_range_is_refused(client, table):
    _typed_mode(client, table)
    r = post(client, table, "shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers", "more_dice": "7"},
             headers=HTMX)
    assert r.status_code == 422
    assert "D6 shows 1 to 6" in text(r)
    assert len(table.log()) == 1


def test_typed_text_that_is_not_dice_is_refused(client, table):
    _typed_mode(client, table)
    r = post(client, table, "shoot", {"shooter": "11th-leger", "target": "1-7th-musketeers", "more_dice": "six"},
             headers=HTMX)
    assert r.status_code == 422 and "not a die result" in text(r)


def test_the_poll_is_empty_until_the_game_changes(client, table):
    v = table.version
    r = client.get(f"/games/{table.id}/poll?v={v}", headers=HTMX)
    assert r.status_code == 204 and r.data == b""
    post(client, table, "next_phase")
    r = client.get(f"/games/{table.id}/poll?v={v}", headers=HTMX)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert f"poll?v={table.version}" in html
    assert 'id="units" class="units" hx-swap-oob="true"' in html
    assert 'id="panel"' not in html  # the open form on the other tablet is left alone


def test_a_setting_is_changed_from_the_settings_page(client, table):
    r = post(client, table, "change_setting", {"name": "horse_artillery_range", "value": "30",
                                              "next": f"/games/{table.id}/settings"})
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{table.id}/settings"
    assert table.state["settings"]["horse_artillery_range"] == 30
    r = post(client, table, "change_setting", {"name": "horse_artillery_range", "value": "many",
                                              "next": f"/games/{table.id}/settings"})
    assert r.status_code == 422 and "whole number" in text(r)


def test_next_only_sends_the_tablet_to_this_site(client, table):
    r = post(client, table, "next_phase", {"next": "//evil.example/x"})
    assert r.status_code == 303 and r.headers["Location"].startswith(f"/games/{table.id}")


def test_a_battle_from_a_scenario(client):
    r = client.post("/games/new", data={"scenario": "ligny-saint-amand"})
    assert r.status_code == 303
    assert "Saint-Amand" in text(client.get(r.headers["Location"]))
    assert client.post("/games/new", data={"scenario": "atlantis"}).status_code == 422


def test_a_battle_from_two_forces_typed_in(client):
    form = {"name": "Evening fight", "blue-name": "French", "blue-nation": "french",
            "blue-b0-name": "1st Brigade", "blue-b0-commander": "Bourgeois", "blue-b0-rating": "8",
            "blue-b0-u0-profile": "french-line-infantry", "blue-b0-u0-name": "{n}/54th Ligne", "blue-b0-u0-count": "2",
            "red-name": "Prussians", "red-nation": "prussian",
            "red-b0-name": "Jagow", "red-b0-commander": "Jagow", "red-b0-rating": "7",
            "red-b0-u0-profile": "prussian-landwehr", "red-b0-u0-name": "Kurmark Landwehr", "red-b0-u0-count": "1"}
    from referee.data.blackpowder import load_unit_profiles
    if "prussian-landwehr" not in load_unit_profiles():
        form["red-b0-u0-profile"] = next(p for p in load_unit_profiles() if p.startswith("prussian"))
    r = client.post("/games/new/forces", data=form)
    assert r.status_code == 303, text(r)
    body = text(client.get(r.headers["Location"]))
    assert "1/54th Ligne" in body and "2/54th Ligne" in body and "Bourgeois" in body


def test_forces_typed_in_quickly_name_units_and_commanders_for_themselves(client):
    # No unit names, no commanders: the profile names the units, the brigade its commander.
    form = {"name": "Quick fight", "blue-name": "French", "blue-b0-name": "1st Brigade",
            "blue-b0-u0-profile": "french-line-infantry", "blue-b0-u0-count": "2",
            "red-name": "Others", "red-b0-name": "Jagow", "red-b0-u0-profile": "french-line-infantry"}
    r = client.post("/games/new/forces", data=form)
    assert r.status_code == 303, text(r)
    body = text(client.get(r.headers["Location"]))
    assert "French Line Infantry 1" in body and "French Line Infantry 2" in body
    assert "french-line-infantry" not in body and "1st Brigade's commander" in body


def test_forces_with_an_unknown_profile_are_refused_with_a_message(client):
    form = {"name": "x", "blue-name": "A", "blue-b0-name": "B", "blue-b0-commander": "C",
            "blue-b0-u0-profile": "martians", "blue-b0-u0-name": "M",
            "red-name": "R", "red-b0-name": "B2", "red-b0-commander": "D",
            "red-b0-u0-profile": "french-line-infantry", "red-b0-u0-name": "N"}
    r = client.post("/games/new/forces", data=form)
    assert r.status_code == 422 and "martians" in text(r)


def test_the_forces_form_grows_a_brigade_without_javascript(client):
    r = client.post("/games/new/forces", data={"blue-n": "2", "grow": "blue"})
    assert r.status_code == 200
    assert 'name="blue-b2-name"' in r.get_data(as_text=True)


def test_csrf_is_enforced_when_enabled(tmp_path):
    app = create_app({"SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'csrf.sqlite'}"})
    client = app.test_client()
    page = client.get("/games/1")
    assert page.status_code == 200
    r = client.post("/games/1/act/next_phase", data={"version": "1"})
    assert r.status_code == 400 and "Reload the page" in text(r)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    r = client.post("/games/1/act/next_phase", data={"version": "1", "csrf_token": token})
    assert r.status_code == 303
    # htmx sends the token in a header taken from <body hx-headers>.
    header = re.search(r'"X-CSRFToken": "([^"]+)"', page.get_data(as_text=True)).group(1)
    r = client.post("/games/1/act/next_phase", data={"version": "2"}, headers={"X-CSRFToken": header, **HTMX})
    assert r.status_code == 200
    assert app.config["WTF_CSRF_TIME_LIMIT"] >= 12 * 3600


def test_a_setting_of_a_few_words_is_offered_as_buttons_and_nothing_else_is_taken(client, table):
    html = client.get(f"/games/{table.id}/settings").get_data(as_text=True)
    assert 'name="value" value="unit"' in html and 'name="value" value="hand_to_hand"' in html
    r = post(client, table, "change_setting", {"name": "building_bonus_by", "value": "castle"}, headers=HTMX)
    assert r.status_code == 422 and "building, unit" in text(r)
    post(client, table, "change_setting", {"name": "building_bonus_by", "value": "unit"})
    assert table.state["settings"]["building_bonus_by"] == "unit"
