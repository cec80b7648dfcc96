"""The list of games reads only what it shows (name, game, turn or round, ended), picked out of
each document by the database: no game's state document is decoded to draw it."""
from __future__ import annotations

from _web_helpers import text
from test_oilandiron_routes import start_form

from referee.data.scenarios import new_battle_from_scenario
from referee.data.starts import EXAMPLE_SQUADRONS, build_engagement
from referee.table import service, state_column


def test_the_games_page_shows_each_game_without_decoding_a_state_document(client, db, monkeypatch):
    battle = new_battle_from_scenario("demo")
    service.create_game(db, "Quatre Bras at dusk", "blackpowder", {**battle, "turn": 4})
    service.create_game(db, "Over and done", "blackpowder", {**battle, "ended": True})
    doc = build_engagement(start_form(), {s: len(r) for s, r in EXAMPLE_SQUADRONS.items()})
    service.create_game(db, "Iron at noon", "oilandiron", {**doc, "round": 2})
    decoded: list[int] = []
    real = state_column.decode
    monkeypatch.setattr(state_column, "decode", lambda raw: decoded.append(len(raw)) or real(raw))
    page = text(client.get("/"))
    assert decoded == []
    in_progress = page[page.index("Games in progress"):page.index("Finished games")]
    finished = page[page.index("Finished games"):]
    assert "Quatre Bras at dusk" in in_progress and "turn 4" in in_progress
    assert "Iron at noon" in in_progress and "Of Oil and Iron · round 2" in in_progress
    assert "Over and done" in finished and "Over and done" not in in_progress
    # The counter counts: opening one game decodes its document.
    client.get("/games/1")
    assert decoded
