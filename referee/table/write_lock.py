"""The write lock of each game (and campaign) in this server process: one write at a time to it,
and a refused write refused before the engine runs. (Not the game's turns, the sequence of play:
that is ``blackpowder/turns.py``. Here "a write's turn" means holding this lock.)

Two umpires tap at the same moment on one game. Without the lock, both resolve their action at
once (the dice, the engine, the new document), sharing the processor, and the second finds at its
write that the first has changed the game. With it, the second waits (asleep, not computing)
while the first resolves and commits, then reads the game as the first left it: it is refused at
once if the first touched what it reads (``concurrent.py``), and otherwise resolved on the newest
version. After waiting, :func:`version_now` reads the version the database holds now.

The lock is per game in one process; it is an economy, not the safeguard. The safeguard
stays the atomic UPDATE on the version the write was resolved on (``write_path.commit_state``),
which refuses a write overtaken in another worker process just the same.
"""
from __future__ import annotations

import threading

from sqlalchemy import bindparam, select
from sqlmodel import Session

# Games share these locks by their id: two games on one lock only take turns with each other, which
# costs a write a short wait at most. Reentrant: a write that continues another (a roll handed
# over) takes its game's turn again.
STRIPES = 64
_LOCKS = tuple(threading.RLock() for _ in range(STRIPES))


def turn_of(row_cls: type, row_id: int) -> threading.RLock:
    """The row's write lock (a game's, a campaign's): whoever holds it has the row's turn to be
    written. ``with turn_of(Game, game_id):`` no other thread of this process writes the row within
    it (``web/request_lock.py`` holds it for a whole request)."""
    return _LOCKS[hash((row_cls.__name__, row_id)) % STRIPES]


# The one SELECT each kind of versioned row's version is read by, built once (a game, a campaign).
_VERSIONS: dict[type, object] = {}


def version_now(session: Session, row) -> int:
    """The row's version as the database holds it now (the row in hand may have been read before
    another write committed). When they differ, the row in hand is expired, so the next read of it
    is the fresh one."""
    cls = type(row)
    statement = _VERSIONS.get(cls)
    if statement is None:
        t = cls.__table__
        statement = _VERSIONS[cls] = select(t.c.version).where(t.c.id == bindparam("row_id"))
    current = session.connection().execute(statement, {"row_id": row.id}).scalar_one()
    if current != row.version:
        session.expire(row)
    return current
