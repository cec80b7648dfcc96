"""The log entry an action hands back (written by one INSERT, not through the ORM's unit of work)
is the row as the table holds it, on SQLite and on PostgreSQL alike."""
from __future__ import annotations

import pytest
from sqlmodel import select

from referee.data.scenarios import new_battle_from_scenario
from referee.table import game_log, service
from referee.table.db import create_tables, make_engine, session
from referee.table.models import LogEntry

COLUMNS = ("id", "game_id", "seq", "action", "label", "facts", "dice", "dice_source", "result", "changes",
           "undone", "discarded", "version_after", "actor", "created")


@pytest.fixture()
def engine(database_url):
    eng = make_engine(database_url)
    create_tables(eng)
    return eng


def test_the_entry_handed_back_is_the_row_written(engine):
    with session(engine) as s:
        game = service.create_game(s, "Entry", "blackpowder", new_battle_from_scenario("demo"))
        unit = next(iter(game.state["units"]))
        first = service.perform(s, game.id, game.version, "adjust_unit",
                                {"unit": unit, "field": "casualties", "value": "1"}).entry
        second = service.perform(s, game.id, game.version, "adjust_unit",
                                 {"unit": unit, "field": "casualties", "value": "2"}).entry
        gid = game.id
    with session(engine) as s:
        rows = s.exec(select(LogEntry).where(LogEntry.game_id == gid).order_by(LogEntry.seq)).all()
        assert [r.id for r in rows] == [first.id, second.id] and first.id is not None
        for handed, row in zip((first, second), rows):
            for name in COLUMNS:
                if name == "created":
                    assert abs((getattr(handed, name) - getattr(row, name).replace(
                        tzinfo=getattr(handed, name).tzinfo)).total_seconds()) < 1
                else:
                    assert getattr(handed, name) == getattr(row, name), name
    assert (first.seq, second.seq) == (1, 2) and second.version_after == 3


def test_undo_and_redo_find_the_entry(engine):
    with session(engine) as s:
        game = service.create_game(s, "Entry", "blackpowder", new_battle_from_scenario("demo"))
        unit = next(iter(game.state["units"]))
        service.perform(s, game.id, game.version, "adjust_unit", {"unit": unit, "field": "casualties", "value": "1"})
        undone = service.undo(s, game.id, game.version)
        assert undone.seq == 1 and undone.undone
        assert game.state["units"][unit]["casualties"] == 0


def test_the_log_pane_reads_each_line_with_its_summary(engine):
    with session(engine) as s:
        game = service.create_game(s, "Lines", "blackpowder", new_battle_from_scenario("demo"))
        unit = next(iter(game.state["units"]))
        done = [service.perform(s, game.id, game.version, "adjust_unit",
                                {"unit": unit, "field": "casualties", "value": str(n)}).entry for n in (1, 2, 3)]
        service.undo(s, game.id, game.version)
        lines = game_log.log_lines(s, game.id, 2)
    assert [line.seq for line in lines] == [3, 2]
    assert [line.summary for line in lines] == [done[2].result["summary"], done[1].result["summary"]]
    assert lines[0].summary and (lines[0].undone, lines[1].undone) == (True, False)
    assert {line.label for line in lines} == {done[0].label}
