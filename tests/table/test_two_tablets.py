"""Two tablets tapping at once on the same game: exactly one write lands, the other is told the
game moved on, and the log and state agree. Real threads on a real SQLite file in WAL mode."""
from __future__ import annotations

import threading

import pytest

from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.table.db import create_tables, make_engine, session


@pytest.fixture()
def engine(database_url):
    eng = make_engine(database_url)
    create_tables(eng)
    return eng


def _first_unit(state: dict) -> str:
    return next(iter(state["units"]))


@pytest.mark.parametrize("round_", range(5))
def test_only_one_of_two_simultaneous_writes_lands(engine, round_):
    with session(engine) as s:
        game = service.create_game(s, "Two tablets", "blackpowder", new_battle_from_scenario("demo"))
        gid, version, unit = game.id, game.version, _first_unit(game.state)

    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tap(casualties: int):
        with session(engine) as s:
            barrier.wait()
            try:
                service.perform(s, gid, version, "adjust_unit",
                                {"unit": unit, "field": "casualties", "value": str(casualties)})
                outcomes.append("done")
            except service.StaleVersion:
                outcomes.append("stale")

    threads = [threading.Thread(target=tap, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    assert sorted(outcomes) == ["done", "stale"]
    with session(engine) as s:
        game = service.get_game(s, gid)
        entries = service.log(s, gid)
        assert game.version == version + 1
        assert len(entries) == 1
        assert game.state["units"][unit]["casualties"] == entries[0].changes[0]["after"]
