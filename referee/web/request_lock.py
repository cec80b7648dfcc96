"""A request that may change a game holds the game's write lock (``table/write_lock.py``) from its
first step to its answer, not only while the service resolves and commits the change.

Two umpires tap at the same moment. With the turn held only around the write, the second tap
reads the game, checks its form and waits; when the first commits, it wakes to be refused (the
game read again, its form drawn on the fresh game) while the first is still drawing its result.
The two share the processor, so the tap that counts, the one that changed the game, waits for
the one that is refused. Holding the turn for the whole request, the second tap waits asleep
until the first has its answer, then reads the game once, already changed: the first is answered
in its own time, the second no later than before (the two taps' work is the same, one after the
other instead of interleaved).

Every POST to an address naming a game takes the lock: the writes, and the few posts that only
draw a form again (no-JavaScript odds and pick lists), which then wait a write's length at most.
"""
from __future__ import annotations

from flask import Flask, g, request

from ..table.models import Game
from ..table.write_lock import turn_of
from .db import asked_game_id


def _take_turn() -> None:
    if request.method != "POST":
        return
    game_id = asked_game_id()
    if game_id is not None:
        lock = turn_of(Game, game_id)
        lock.acquire()
        g.game_turn = lock


def _give_turn_back(_exc=None) -> None:
    lock = g.pop("game_turn", None)
    if lock is not None:
        lock.release()


def init_app(app: Flask) -> None:
    """After the checks that refuse a request outright (its size, its ids, its CSRF token), before
    any that read the game (who may act at its table)."""
    app.before_request(_take_turn)
    app.teardown_request(_give_turn_back)
