"""A request that may change a game holds the game's write lock for its whole length (web/request_lock.py):
while another request has it, a tap to the same game reads nothing, and it goes on once the turn
is given back; every answer gives the turn back, a refusal's too."""
from __future__ import annotations

import threading

import pytest
from _web_helpers import HTMX
from sqlalchemy import event

from referee.table.models import Game
from referee.table.write_lock import turn_of

ADJUST = {"unit": "82nd-ligne", "field": "casualties", "value": "1"}


def _post(app, game_id: int, version: int, data: dict, answers: list) -> None:
    r = app.test_client().post(f"/games/{game_id}/act/adjust_unit",
                               data={"version": str(version), **data}, headers=HTMX)
    answers.append(r.status_code)


class Statements:
    """The SQL each thread runs on the app's engine."""

    def __init__(self, app) -> None:
        self.engine = app.extensions["referee.engine"]
        self.by_thread: dict[int, list[str]] = {}

    def __enter__(self):
        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(self.engine, "before_cursor_execute", self._seen)

    def _seen(self, conn, cursor, statement, *args) -> None:
        self.by_thread.setdefault(threading.get_ident(), []).append(statement)


def _taking_the_turn_elsewhere(game_id: int):
    """Holds the game's turn in a thread of its own (an RLock: the test's own thread may not)."""
    held, release, done = threading.Event(), threading.Event(), threading.Event()

    def hold():
        with turn_of(Game, game_id):
            held.set()
            release.wait(10)
        done.set()

    threading.Thread(target=hold, daemon=True).start()
    assert held.wait(5)
    return release, done


def test_a_write_waits_for_the_turn_before_it_reads_the_game(app, table):
    version = table.version
    release, done = _taking_the_turn_elsewhere(table.id)
    answers: list[int] = []
    with Statements(app) as sql:
        tap = threading.Thread(target=_post, args=(app, table.id, version, ADJUST, answers))
        tap.start()
        tap.join(0.5)
        # Another request has the game's turn: the tap has not read the game, nor anything else.
        assert tap.is_alive() and answers == []
        assert sql.by_thread.get(tap.ident, []) == []
        release.set()
        assert done.wait(5)
        tap.join(10)
    assert answers == [200]
    assert table.version == version + 1 and table.unit("82nd-ligne")["casualties"] == 1


def test_the_tap_that_waited_is_refused_on_the_game_it_reads_once(app, table):
    """The write that had the turn changed the game; the one that waited reads the changed game
    when its turn comes and is refused as stale, reading the game's row once, not again."""
    version = table.version
    release, done = _taking_the_turn_elsewhere(table.id)
    answers: list[int] = []
    with Statements(app) as sql:
        tap = threading.Thread(target=_post, args=(app, table.id, version, {**ADJUST, "value": "3"}, answers))
        tap.start()
        tap.join(0.3)
        first: list[int] = []
        threading.Timer(0.3, release.set).start()
        _post(app, table.id, version, ADJUST, first)  # the test's thread waits for the turn too
        tap.join(10)
    assert first == [200] or answers == [200]
    assert sorted(first + answers) == [200, 409]
    assert table.version == version + 1 and len(table.log()) == 1
    refused = tap.ident if answers == [409] else threading.get_ident()
    reads = [s for s in sql.by_thread[refused] if s.lstrip().upper().startswith("SELECT") and "game.state" in s]
    assert len(reads) == 1, reads


@pytest.mark.parametrize("data, status", [(ADJUST, 200), ({**ADJUST, "value": "-2"}, 422), ({}, 422)])
def test_every_answer_gives_the_turn_back(app, table, data, status):
    answers: list[int] = []
    _post(app, table.id, table.version, data, answers)
    assert answers == [status]
    free: list[bool] = []

    def try_it():
        lock = turn_of(Game, table.id)
        free.append(lock.acquire(blocking=False))
        if free[-1]:
            lock.release()

    other = threading.Thread(target=try_it)
    other.start()
    other.join(5)
    assert free == [True]


def test_reading_a_game_does_not_wait_for_its_turn(app, client, table):
    release, done = _taking_the_turn_elsewhere(table.id)
    try:
        assert client.get(f"/games/{table.id}/act/adjust_unit", headers=HTMX).status_code == 200
        assert client.get(f"/games/{table.id}").status_code == 200
    finally:
        release.set()
        assert done.wait(5)
