"""The write lock of each game (and campaign) in this server process: one write at a time to it,
and a refused write refused before the engine runs. (Not the game's turns, the sequence of play:
that is ``blackpowder/turns.py``. Here "a write's turn" means holding this lock.)

Two umpires tap at the same moment on one game. Without the lock, both resolve their action at
once (the dice, the engine, the new document), sharing the processor, and the second finds at its
write that the first has changed the game. With it, the second waits (asleep, not computing)
while the first resolves and commits, then reads the game as the first left it: it is refused at
once if the first touched what it reads (``concurrent.py``), and otherwise resolved on the newest
version. After waiting, :func:`version_now` reads the version the database holds now.

The lock is per game in one process. Across worker processes on PostgreSQL the database's own
row lock does the same (:func:`locked_version`, ``SELECT … FOR UPDATE``): a write waits for the
game's row while another process's write to it commits, then reads the version that write left,
so the overlap judgement (``concurrent.py``) is made on the same facts whatever the database and
however many workers (SQLite has one writer at a time of itself, and no ``FOR UPDATE``). The
safeguard stays the atomic UPDATE on the version the write was resolved on
(``write_path.commit_state``), which refuses a write overtaken any other way just the same.
"""
from __future__ import annotations

import threading

from sqlalchemy import bindparam, select
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from .errors import StaleVersion

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


# The one SELECT each kind of versioned row's version is read by, built once (a game, a campaign),
# plain and taking the row's lock.
_VERSIONS: dict[tuple[type, bool], object] = {}


def version_now(session: Session, row, lock: bool = False) -> int:
    """The row's version as the database holds it now (the row in hand may have been read before
    another write committed). When they differ, the row in hand is expired, so the next read of it
    is the fresh one. ``lock``: see :func:`locked_version`."""
    cls = type(row)
    statement = _VERSIONS.get((cls, lock))
    if statement is None:
        t = cls.__table__
        statement = select(t.c.version).where(t.c.id == bindparam("row_id"))
        _VERSIONS[(cls, lock)] = statement = statement.with_for_update() if lock else statement
    current = session.connection().execute(statement, {"row_id": row.id}).scalar_one()
    if current != row.version:
        session.expire(row)
    return current


def locked_version(session: Session, row) -> int:
    """:func:`version_now`, the row locked in the database until the write's transaction ends: a
    write in another worker process waits here for this one, as another thread waits for the row's
    ``turn_of``. PostgreSQL locks the row (``FOR UPDATE``); SQLite, which locks the whole file for
    a write, starts the write's transaction here (``BEGIN IMMEDIATE``) rather than at its UPDATE,
    so the version read is the one the write lands on. A write that cannot have the lock (another
    held it past the busy timeout, or a database's deadlock) is a stale view, never a crash."""
    try:
        conn = session.connection()
        if conn.dialect.name == "sqlite" and not conn.connection.dbapi_connection.in_transaction:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        return version_now(session, row, lock=True)
    except OperationalError as e:
        session.rollback()
        if "deadlock" not in str(e).lower() and "locked" not in str(e).lower():
            raise
        raise StaleVersion(session.get(type(row), row.id).version) from None
