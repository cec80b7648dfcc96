"""The whole log a page at a time (fifty entries, newest first, with links to older and newer
ones), and a past entry read by its number alone."""
from __future__ import annotations

import re

from _web_helpers import text

from referee.table import service


def _seqs(response) -> list[int]:
    return [int(n) for n in re.findall(r'<h2><span class="seq">(\d+)</span>', response.get_data(as_text=True))]


def _link(response, rel: str) -> str | None:
    m = re.search(rf'<a class="btn" href="([^"]+)" rel="{rel}">', response.get_data(as_text=True))
    return m.group(1).replace("&amp;", "&") if m else None


def _play(db, game_id: int, count: int) -> None:
    game = service.get_game(db, game_id)
    unit = next(iter(game.state["units"]))
    # Casualties 1, 2, 1, 2...: each a change (the same value twice is refused).
    for n in range(count):
        game = service.perform(db, game_id, game.version, "adjust_unit",
                               {"unit": unit, "field": "casualties", "value": str(n % 2 + 1)}).game


def test_the_log_is_read_fifty_entries_at_a_time(client, db, game_id):
    _play(db, game_id, 120)
    first = client.get(f"/games/{game_id}/log")
    assert _seqs(first) == list(range(120, 70, -1))
    assert _link(first, "prev") is None
    assert "Entries 120 to 71 of 120" in text(first)
    second = client.get(_link(first, "next"))
    assert _seqs(second) == list(range(70, 20, -1))
    third = client.get(_link(second, "next"))
    assert _seqs(third) == list(range(20, 0, -1))
    assert _link(third, "next") is None
    assert _seqs(client.get(_link(third, "prev"))) == list(range(70, 20, -1))
    assert _seqs(client.get(_link(second, "prev"))) == list(range(120, 70, -1))


def test_a_short_log_is_one_page_without_links(client, db, game_id):
    _play(db, game_id, 3)
    r = client.get(f"/games/{game_id}/log")
    assert _seqs(r) == [3, 2, 1]
    assert _link(r, "next") is None and _link(r, "prev") is None


def test_a_page_asked_for_with_a_number_out_of_range_shows_the_nearest(client, db, game_id):
    _play(db, game_id, 60)
    for asked in ("abc", "0", "-4", "99999"):
        assert _seqs(client.get(f"/games/{game_id}/log?before={asked}"))[:2] == [60, 59], asked
    assert _seqs(client.get(f"/games/{game_id}/log?before=1")) == []


def test_a_past_entry_is_shown_by_its_number(client, db, game_id):
    _play(db, game_id, 30)
    r = client.get(f"/games/{game_id}/log/3")
    assert r.status_code == 200
    panel = re.search(r'<section id="panel".*?</section>', r.get_data(as_text=True), re.S).group(0)
    assert "Casualty markers" in panel or "casualties" in panel.lower()
    assert client.get(f"/games/{game_id}/log/31").status_code == 404
    page = client.get(f"/games/{game_id}?entry=3").get_data(as_text=True)
    assert re.search(r'<section id="panel" class="panel panel-result"', page)
