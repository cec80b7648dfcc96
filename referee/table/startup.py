"""Start-up work that one server at a time does: bringing the schema up to date and seeding the
demo battle. Several servers started together on one database (the several-worker set-up, or a
restart of all of them at once) otherwise each create Alembic's table, and one of them fails, or
each find no game yet and each seed the demo.

``exclusive(engine)`` holds a lock for the length of that work, and every other server's start-up
waits for it:

- PostgreSQL: a session advisory lock (``pg_advisory_lock``) on a connection of its own, let go
  when the work is done (or when that connection closes, if the process dies holding it);
- an SQLite file: an exclusive lock (``flock``) on a file beside it, ``<database>.startup``, let
  go likewise by the system if the process dies;
- an in-memory SQLite database lives in one engine of one process and needs none; another kind
  of database gets none (a single server is safe there).
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

try:
    import fcntl
except ImportError:  # not a POSIX system: several SQLite servers on one file are not supported there
    fcntl = None

# The advisory lock's key: any number, the same for every Referee server (b"referee\0" as a number).
LOCK_KEY = int.from_bytes(b"referee\0", "big") >> 1


@contextmanager
def exclusive(engine: Engine):
    """While inside, no other Referee server on this database is inside too."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK_KEY})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
                conn.commit()
        return
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or path.startswith("file:") or fcntl is None:
        yield
        return
    with open(Path(path).with_name(Path(path).name + ".startup"), "a+b") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
