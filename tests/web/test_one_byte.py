"""A board's parts are written at one byte per character: a character beyond Latin-1 (a dash in a
scenario's notes, a curly apostrophe typed into a unit's name) goes out as a character reference,
which a browser shows as the same character."""
from __future__ import annotations

import html

from _web_helpers import HTMX, Table
from hypothesis import given
from hypothesis import strategies as st

from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.web.serving.live import drawings, one_byte


def test_only_characters_beyond_latin1_become_references():
    assert one_byte("Ligny – Saint-Amand ⚔") == "Ligny &#8211; Saint-Amand &#9876;"
    assert one_byte("Légère, Württemberg") == "Légère, Württemberg"
    plain = "<p>ASCII</p>"
    assert one_byte(plain) is plain


@given(st.text())
def test_a_browser_reads_the_same_text_and_it_fits_one_byte_a_character(text):
    out = one_byte(text)
    assert html.unescape(out) == html.unescape(text)
    assert all(ord(ch) < 256 for ch in out)


def test_a_waterloo_board_is_drawn_at_one_byte_a_character(app, client, db):
    doc = new_battle_from_scenario("waterloo")
    uid = next(iter(doc["units"]))
    doc["units"][uid]["name"] = "Picton’s Highlanders"
    game = service.create_game(db, "Waterloo", "blackpowder", doc, seed=3)
    table = Table(app, game.id)
    seen = table.version
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Picton&#8217;s Highlanders" in page and "&#8211;" in page  # the notes' dashes
    assert client.post(f"/games/{game.id}/act/adjust_unit", headers=HTMX, data={
        "version": seen, "unit": uid, "field": "casualties", "value": "1"}).status_code == 200
    assert client.get(f"/games/{game.id}/poll?v={seen}", headers=HTMX).status_code == 200
    with app.app_context():
        drawn = drawings().get(game.id, table.version)
    assert drawn is not None and "Picton&#8217;s Highlanders" in drawn.units
    assert max(drawn.units) <= "\xff"
