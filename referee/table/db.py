"""The database engine: SQLite under the instance folder by default, any SQLAlchemy URL by
``DATABASE_URL``. SQLite runs in WAL mode with a busy timeout so two tablets writing at once
wait for each other instead of failing."""
from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine

from . import campaigns, handover, lists, models, records  # noqa: F401  (register the tables: games, saved lists, campaigns, game records, pending rolls)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=15000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def create_tables(engine: Engine) -> None:
    SQLModel.metadata.create_all(engine)


def session(engine: Engine) -> Session:
    return Session(engine, expire_on_commit=False)
