"""The /rules pages through Flask's test client: indexes, every entry, search, ask, the dialog
fragments, the sheets; and the links from a game's result, log, unit card and settings page."""
from __future__ import annotations

import re

import pytest

from referee.core.dice import ScriptedDice
from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.table.db import session as db_session

DIALOG = {"HX-Request": "true", "HX-Target": "rule-dialog-body"}


def html(r) -> str:
    return r.get_data(as_text=True)


def test_the_index_lists_both_games_by_section(client, ref):
    page = html(client.get("/rules"))
    for book in ref.books.values():
        assert book.title in page
        for s in book.sections:
            assert s.title.replace("'", "&#39;") in page
    assert "Heat Threshold table" in page and "Morale saves" in page


def test_a_game_index_has_its_sections_and_a_sheet(client):
    r = client.get("/rules/oilandiron")
    assert r.status_code == 200
    assert "Catastrophic damage" in html(r) and "/rules/oilandiron/sheet" in html(r)
    assert "Break tests" not in html(r)


@pytest.mark.parametrize("game", ["blackpowder", "oilandiron"])
def test_every_entry_renders_as_a_page_and_in_the_dialog(client, ref, game):
    for e in ref.books[game].entries.values():
        page = client.get(f"/rules/{game}/{e.id}")
        assert page.status_code == 200, e.id
        assert f'data-entry="{game}/{e.id}"' in html(page)
        assert "<html" in html(page)
        part = client.get(f"/rules/{game}/{e.id}", headers=DIALOG)
        assert part.status_code == 200 and "<html" not in html(part)
        assert f'data-entry="{game}/{e.id}"' in html(part)


def test_an_entry_shows_its_table_reading_and_setting(client):
    page = html(client.get("/rules/blackpowder/closing-fire"))
    # The setting by its heading on the settings page, never its key.
    assert "How Referee reads it" in page and "“Retiring chargers fail”" in page
    assert "retiring_chargers_fail" not in page.split("<main", 1)[-1].replace('"retiring_chargers_fail"', "")
    heat = html(client.get("/rules/oilandiron/heat-threshold"))
    assert "Fuel Line Rupture" in heat and "<table" in heat


def test_search_page_highlights_and_links_into_the_dialog(client):
    page = html(client.get("/rules/search?q=closing+fire&game=blackpowder"))
    assert "<mark>" in page and "/rules/blackpowder/closing-fire" in page
    part = html(client.get("/rules/search?q=closing+fire", headers=DIALOG))
    assert 'hx-target="#rule-dialog-body"' in part and "/rules/blackpowder/closing-fire" in part


def test_ask_page_answers_with_highlighted_lines(client):
    page = html(client.get("/rules/ask?q=what+happens+when+my+engine+is+destroyed%3F"))
    assert "Engine lost" in page and "<mark>" in page


@pytest.mark.parametrize("url", ["/rules/search?q=", "/rules/ask", "/rules/search?q=%22%2A%28",
                                 "/rules/search?q=" + "x" * 3000, "/rules/ask?q=NEAR(&game=nope"])
def test_odd_queries_get_a_page(client, url):
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("url", ["/rules/chess", "/rules/blackpowder/no-such-rule", "/rules/chess/sheet"])
def test_unknown_pages_are_404(client, url):
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("game, tables", [("blackpowder", ["Blunder", "Break test", "Special rules"]),
                                          ("oilandiron", ["Heat Threshold roll", "Hit location", "Perks"])])
def test_the_quick_reference_sheet_renders(client, game, tables):
    r = client.get(f"/rules/{game}/sheet")
    assert r.status_code == 200
    page = html(r)
    assert page.count('class="sheet-panel"') >= 10
    for t in tables:
        assert f"<h2>{t}" in page


@pytest.fixture
def battle(app):
    with db_session(app.extensions["referee.engine"]) as s:
        game = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo"), seed=7)
        return game.id


def test_a_results_modifiers_link_to_their_entries(app, client, battle):
    with db_session(app.extensions["referee.engine"]) as s:
        game = service.get_game(s, battle)
        service.perform(s, battle, game.version, "next_phase", {})
        game = service.get_game(s, battle)
        shot = {"shooter": "11th-leger", "target": "1-7th-musketeers", "range_band": "short"}
        service.perform(s, battle, game.version, "shoot", shot, dice=ScriptedDice([6, 6, 6, 1, 1, 1] * 4))
    page = html(client.get(f"/games/{battle}"))
    # The board's log line opens to the shot's dice and modifiers (fetched as it opens).
    assert f'hx-get="/games/{battle}/log/2/detail"' in page
    detail = html(client.get(f"/games/{battle}/log/2/detail", headers={"HX-Request": "true"}))
    link = re.search(r'<a class="rule-link" href="(/rules/blackpowder/[a-z-]+)"[^>]*>Close range or closing fire</a>',
                     detail)
    assert link, "the close-range modifier is not linked"
    assert link.group(1) == "/rules/blackpowder/closing-fire"
    assert 'hx-target="#rule-dialog-body"' in detail and 'id="rule-dialog"' in page
    assert client.get(link.group(1), headers=DIALOG).status_code == 200


def test_a_unit_cards_special_rules_link_to_their_entries(client, battle):
    page = html(client.get(f"/games/{battle}/units/11th-leger"))
    assert "/rules/blackpowder/" in page


def test_every_setting_on_the_settings_page_links_to_its_entry(client, battle, ref):
    page = html(client.get(f"/games/{battle}/settings"))
    rows = re.findall(r'<li class="setting" id="setting-([a-z_]+)">(.*?)</li>', page, re.S)
    assert len(rows) >= 10
    for name, body in rows:
        assert "setting-link" in body, name


def test_the_games_page_leads_to_the_rules(client):
    assert re.search(r'href="/rules/?"', html(client.get("/")))


def test_the_ask_page_keeps_the_question_in_the_ask_box(client):
    page = html(client.get("/rules/ask?q=how+does+ramming+work"))
    assert re.search(r'id="rule-ask" name="q" value="how does ramming work"', page)
    assert re.search(r'id="rule-q" name="q" value=""', page)
