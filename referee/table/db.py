"""The database engine: SQLite under the instance folder by default, any SQLAlchemy URL by
``DATABASE_URL``. SQLite runs in WAL mode with a busy timeout so two tablets writing at once
wait for each other instead of failing.

In WAL mode a write appends its pages to the log, and every so often the log is folded back
into the database file (a checkpoint: a few megabytes copied, then a flush to disk). SQLite does
that inside whichever write crosses the threshold, so one tablet's tap in twenty waits for it.
The server (``web/serving/serve.py``) folds the log in a thread of its own instead (``Checkpointer``),
every ``CHECKPOINT_EVERY`` seconds; a write then folds it itself only past ``FAR_BEHIND`` pages,
which a working checkpointer never lets the log reach."""
from __future__ import annotations

import sqlite3
import threading

import orjson
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine

from . import campaigns, handover, lists, models, records, state_column, tap_answers  # noqa: F401  (register the tables: games, saved lists, campaigns, game records, pending rolls, taps kept)

# SQLite's own threshold (pages in the log) for a write to fold the log itself, and the one used
# while a checkpointer folds it: only a stalled checkpointer lets the log grow that far.
AUTO_CHECKPOINT = 1000
FAR_BEHIND = 20_000
CHECKPOINT_EVERY = 2.0  # seconds


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        # JSON columns (a log entry's dice, result and changes) written by orjson, as the state is.
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15},
                               json_serializer=state_column.encode, json_deserializer=orjson.loads)
        # The pages after which a write folds the log itself (raised by ``Checkpointer.start_for``).
        engine.referee_checkpoint_pages = AUTO_CHECKPOINT

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=15000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA wal_autocheckpoint={int(engine.referee_checkpoint_pages)}")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Checkpointer(threading.Thread):
    """Folds an SQLite file's write-ahead log into the database every ``every`` seconds, on a
    connection of its own, so no tablet's write waits for it (SQLite lets go of Python's lock
    while it copies and flushes). A passive checkpoint: it never waits for, or blocks, a reader
    or a writer; what it cannot fold yet it folds next time."""

    def __init__(self, path: str, every: float = CHECKPOINT_EVERY) -> None:
        super().__init__(name="referee-checkpointer", daemon=True)
        self.path, self.every = path, every
        self.stopped = threading.Event()

    @classmethod
    def start_for(cls, engine: Engine, every: float = CHECKPOINT_EVERY) -> "Checkpointer | None":
        """Start folding ``engine``'s log apart (None: not an SQLite file, nothing to fold). The
        engine's connections, made again, leave the log to it."""
        path = engine.url.database
        if engine.dialect.name != "sqlite" or not path or path == ":memory:":
            return None
        engine.referee_checkpoint_pages = FAR_BEHIND
        engine.dispose()  # connections already made keep SQLite's threshold: make them again
        found = cls(path, every)
        found.start()
        return found

    def fold(self, conn: sqlite3.Connection) -> tuple[int, int, int]:
        """One passive checkpoint: (busy, pages in the log, pages folded), as SQLite reports it."""
        return tuple(conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())

    def run(self) -> None:
        conn = sqlite3.connect(self.path, timeout=15, check_same_thread=False)
        try:
            while not self.stopped.wait(self.every):
                try:
                    self.fold(conn)
                except sqlite3.Error:
                    pass  # the file busy or briefly unreadable: the next round folds what this one could not
        finally:
            conn.close()

    def stop(self) -> None:
        self.stopped.set()
        self.join(5)


def create_tables(engine: Engine) -> None:
    SQLModel.metadata.create_all(engine)


def session(engine: Engine) -> Session:
    return Session(engine, expire_on_commit=False)
