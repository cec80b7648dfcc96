"""Two tablets tapping at once on the same game: exactly one write lands, the other is told the
game moved on, and the log and state agree. Real threads on a real SQLite file in WAL mode."""
from __future__ import annotations

import threading

import pytest

from referee.data.scenarios import new_battle_from_scenario
from referee.table import game_log, service
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
        entries = game_log.log(s, gid)
        assert game.version == version + 1
        assert len(entries) == 1
        assert game.state["units"][unit]["casualties"] == entries[0].changes[0]["after"]


def test_the_second_of_two_writes_waits_its_turn_and_is_refused_before_it_resolves(engine, monkeypatch):
    """While one tablet's write is being resolved, a second write to the same game from the same
    version waits (``turns.py``), then is refused as stale without its action being resolved: its
    dice are never rolled for a write that cannot land. The first write is not held up by it."""
    import dataclasses

    with session(engine) as s:
        game = service.create_game(s, "Two tablets", "blackpowder", new_battle_from_scenario("demo"))
        gid, version, unit = game.id, game.version, _first_unit(game.state)

    resolving, let_go = threading.Event(), threading.Event()
    resolved: list[str] = []
    real_parse = service.parse_facts

    def parse_facts(system, action, raw):
        spec, facts = real_parse(system, action, raw)

        def resolve(state, facts, dice):
            resolved.append(threading.current_thread().name)
            resolving.set()
            assert let_go.wait(10), "the test never let the first write go"
            return spec.resolve(state, facts, dice)
        return dataclasses.replace(spec, resolve=resolve), facts

    monkeypatch.setattr(service, "parse_facts", parse_facts)
    outcomes: dict[str, str] = {}

    def tap(casualties: int):
        with session(engine) as s:
            try:
                service.perform(s, gid, version, "adjust_unit",
                                {"unit": unit, "field": "casualties", "value": str(casualties)})
                outcomes[threading.current_thread().name] = "done"
            except service.StaleVersion as e:
                outcomes[threading.current_thread().name] = f"stale, now {e.current}"

    first = threading.Thread(target=tap, args=(1,), name="first")
    first.start()
    assert resolving.wait(10)
    second = threading.Thread(target=tap, args=(2,), name="second")
    second.start()
    second.join(0.3)
    assert second.is_alive(), "the second write went ahead while the first was being resolved"
    let_go.set()
    first.join(10)
    second.join(10)

    assert outcomes == {"first": "done", "second": f"stale, now {version + 1}"}
    assert resolved == ["first"]
    with session(engine) as s:
        assert service.get_game(s, gid).state["units"][unit]["casualties"] == 1
        assert len(game_log.log(s, gid)) == 1


def test_a_write_refused_in_its_turn_leaves_the_fresh_game_in_hand(engine):
    """The game read before another tablet's write committed is stale in the session; refused in
    its turn, the write leaves the session reading the fresh game (what the refusal draws)."""
    with session(engine) as s:
        game = service.create_game(s, "Two tablets", "blackpowder", new_battle_from_scenario("demo"))
        gid, version, unit = game.id, game.version, _first_unit(game.state)
    with session(engine) as mine:
        held = service.get_game(mine, gid)
        assert held.version == version
        with session(engine) as other:
            service.perform(other, gid, version, "adjust_unit", {"unit": unit, "field": "casualties", "value": "2"})
        with pytest.raises(service.StaleVersion) as refused:
            service.perform(mine, gid, version, "adjust_unit", {"unit": unit, "field": "casualties", "value": "1"})
        assert refused.value.current == version + 1
        fresh = service.get_game(mine, gid)
        assert fresh.version == version + 1
        assert fresh.state["units"][unit]["casualties"] == 2
