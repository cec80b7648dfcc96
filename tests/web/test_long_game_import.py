"""Every export imports back (issue 46, 5): a Waterloo game whose export is over the 2 MB any
other form may send, played by the Foe for both sides with seeded dice, exported and imported
through the routes, comes back whole; a file too large even for an import is refused with a
sentence that names it and its size, and nothing is imported."""
from __future__ import annotations

import io
import json

from sqlmodel import func, select

from referee.blackpowder.foe import foe_step
from referee.core.dice import SeededDice
from referee.core.foe import CANT_TELL, Question
from referee.data import new_battle_from_scenario
from referee.table import service
from referee.table.db import session as db_session
from referee.table.models import Game, LogEntry
from referee.web.serving import security


def _answer(q: Question, n: int) -> str:
    values = [v for v, _ in q.options if v != CANT_TELL]
    return values[n % 5] if q.kind == "band" else values[n % len(values)]


def _played_waterloo(s, past: int) -> tuple[int, int]:
    """Waterloo with the Foe deciding for each side in its turn, until the game's file is over
    ``past`` bytes: (game id, entries)."""
    doc = new_battle_from_scenario("waterloo")
    game = service.create_game(s, "Waterloo", "blackpowder", doc, seed=11)
    service.perform(s, game.id, 1, "foe_settings", {"side": doc["active_side"]})
    entries = asked = 1
    size = 0
    while size <= past:
        game = service.get_game(s, game.id)
        answers: dict[str, str] = {}
        while isinstance(found := foe_step(game.state, answers), Question):
            answers[found.key] = _answer(found, asked)
            asked += 1
        if found is None:  # the Foe's side is done: it plays the other side's turn next
            service.perform(s, game.id, game.version, "foe_settings", {"side": game.state["active_side"]})
        else:
            service.perform(s, game.id, game.version, "foe_decide", {"answers": answers},
                            dice=SeededDice(f"day:{entries}"))
        entries += 1
        if entries % 10 == 0:
            size = sum(len(json.dumps(e.model_dump(mode="json"), default=str))
                       for e in s.exec(select(LogEntry).where(LogEntry.game_id == game.id)))
    return game.id, entries


def test_a_game_whose_export_is_over_2_mb_imports_back_whole(app, client):
    with db_session(app.extensions["referee.engine"]) as s:
        game_id, entries = _played_waterloo(s, security.MAX_BODY)
    exported = client.get(f"/games/{game_id}/export").get_data()
    assert len(exported) > security.MAX_BODY
    r = client.post("/games/import", data={"file": (io.BytesIO(exported), "waterloo.json"), "token": "waterlooBack1"},
                    content_type="multipart/form-data")
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    with db_session(app.extensions["referee.engine"]) as s:
        new_id = s.exec(select(func.max(Game.id))).one()
        assert new_id != game_id
        original, copy = service.get_game(s, game_id), service.get_game(s, new_id)
        assert copy.state == original.state and copy.version == original.version

        def log(gid):
            return [(e.seq, e.action, e.facts, e.dice, e.changes, e.result) for e in
                    s.exec(select(LogEntry).where(LogEntry.game_id == gid).order_by(LogEntry.seq))]
        assert log(new_id) == log(game_id) and len(log(new_id)) == entries
    assert client.get(f"/games/{new_id}/report").status_code == 200


def test_a_file_too_large_even_to_import_is_named_with_its_size(app, client):
    with db_session(app.extensions["referee.engine"]) as s:
        games = s.exec(select(func.count()).select_from(Game)).one()
    huge = b" " * (security.MAX_IMPORT + 1024)
    r = client.post("/games/import", data={"file": (io.BytesIO(huge), "huge.json")}, content_type="multipart/form-data")
    assert r.status_code == 413
    said = r.get_data(as_text=True)
    assert "game file is too large to import (64.0 MB)" in said and "up to 64.0 MB" in said
    with db_session(app.extensions["referee.engine"]) as s:
        assert s.exec(select(func.count()).select_from(Game)).one() == games
    r = client.post("/lists/import", data={"text": "x" * (security.MAX_BODY + 10)})
    assert r.status_code == 413 and "(2.0 MB)" in r.get_data(as_text=True)
    assert "army list file may be up to 2.0 MB" in r.get_data(as_text=True)
