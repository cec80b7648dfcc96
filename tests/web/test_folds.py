"""A brigade a tablet folded is sent without its unit cards (web/serving/folds.py): the board page leaves
them out for the brigades its cookie names, its folded line indexes its units for the search and
filters, the cards come by their own request when it is opened, and a poll from a page lacking
them leaves them out too while its folded line still goes. A tablet without the cookie (no
JavaScript) is sent every card."""
from __future__ import annotations

import json
import re
from html import unescape

from _web_helpers import HTMX
from test_live import swapped

from referee.web.serving.folds import cookie_name


def _page(client, game_id) -> int:
    """The board page drawn (and the version it shows)."""
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    return int(re.search(r'id="poll"[^>]*data-version="(\d+)"', html).group(1))


def _disorder(client, game_id, version, unit):
    return client.post(f"/games/{game_id}/act/adjust_unit", headers=HTMX,
                       data={"version": version, "unit": unit, "field": "disordered", "value": "yes"})


def _brigade_box(html: str, brigade: str) -> str:
    found = re.search(rf'<details class="brigade[^"]*" id="brigade-{re.escape(brigade)}".*?</details>', html, re.S)
    assert found, f"no brigade {brigade}"
    return found.group(0)


def test_a_folded_brigade_is_sent_without_its_cards_and_its_line_indexes_them(client, table):
    units = table.state["units"]
    unit = next(u for u, d in units.items() if d["side"] == "blue")
    brigade = units[unit]["brigade"]
    members = [u for u, d in units.items() if d["brigade"] == brigade]
    others = [u for u, d in units.items() if d["brigade"] != brigade]

    whole = client.get(f"/games/{table.id}").get_data(as_text=True)
    assert f'id="unit-{unit}"' in whole  # no cookie, no JavaScript: every card

    client.set_cookie(cookie_name(table.id), f"{brigade}.no-such-brigade.<b>")
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    box = _brigade_box(html, brigade)
    assert "data-unit=" not in box and 'id="unit-' not in box
    assert re.search(r"<details[^>]*>", box).group(0).find(" open") < 0  # drawn folded
    assert re.search(rf'<div class="cards" id="cards-{brigade}" data-cards data-later', box)
    index = json.loads(unescape(re.search(r'<summary[^>]*data-index="([^"]*)"', box).group(1)))
    assert [entry[0] for entry in index] == members
    assert all(f'id="unit-{u}"' in html for u in others)  # the other brigades as before
    assert len(html) < len(whole)


def test_opening_a_folded_brigade_fetches_its_cards_and_a_poll_leaves_them_out(client, table):
    units = table.state["units"]
    unit = next(u for u, d in units.items() if d["side"] == "blue")
    brigade = units[unit]["brigade"]
    seen = _page(client, table.id)
    assert _disorder(client, table.id, seen, unit).status_code == 200

    # The poll of a page lacking the brigade's cards: its folded line (1 disordered), not the card.
    lacking = {**HTMX, "X-Board-Lacking": brigade}
    r = client.get(f"/games/{table.id}/poll?v={seen}", headers=lacking)
    parts = swapped(r.get_data(as_text=True))
    assert f"unit-{unit}" not in parts
    assert parts[f"brigade-line-{brigade}"] == "true"
    line = re.search(rf'<summary[^>]*id="brigade-line-{brigade}".*?</summary>', r.get_data(as_text=True), re.S)
    assert "1 disordered" in line.group(0)
    # A page holding every card gets the card, as before.
    assert f"unit-{unit}" in swapped(client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).get_data(as_text=True))
    # Both versions drawn now, the answer is handed out before Flask (web/quick_poll.py): the same.
    again = swapped(client.get(f"/games/{table.id}/poll?v={seen}", headers=lacking).get_data(as_text=True))
    assert f"unit-{unit}" not in again and f"brigade-line-{brigade}" in again

    # Opened: the brigade's cards as the game stands, for its cards' container.
    r = client.get(f"/games/{table.id}/cards?b={brigade}", headers=HTMX)
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    assert body.startswith(f'<div id="cards-{brigade}" hx-swap-oob="innerHTML">')
    card = re.search(rf'<div class="unit" id="unit-{unit}"[^>]*>', body).group(0)
    assert 'data-attention="1"' in card
    assert "__version__" not in body and "csrf_token" not in body
    assert 'id="unit-' in body and body.count('id="cards-') == 1
    # A brigade the game does not have, or a name no brigade has: nothing, and no error.
    for junk in ("no-such-brigade", "<script>", ""):
        r = client.get(f"/games/{table.id}/cards", query_string={"b": junk}, headers=HTMX)
        assert r.status_code == 200 and r.get_data(as_text=True) == ""
    # Without htmx: the board page.
    assert client.get(f"/games/{table.id}/cards?b={brigade}").status_code == 302
