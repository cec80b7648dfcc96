"""Fresh databases for tests: SQLite files by default, PostgreSQL ones on request."""
from __future__ import annotations

import os
import uuid
from typing import Callable


def new_database(folder) -> tuple[str, Callable[[], None]]:
    """A fresh, empty database and how to throw it away: a SQLite file in ``folder`` by default,
    or, when REFEREE_TEST_POSTGRES names a PostgreSQL server
    (e.g. postgresql+psycopg://postgres@127.0.0.1:5433), a database of its own on that server.
    CI has no PostgreSQL, so it runs the SQLite side; the README says how to run the PostgreSQL one."""
    server = os.environ.get("REFEREE_TEST_POSTGRES")
    if not server:
        return f"sqlite:///{folder / 'referee.sqlite'}", lambda: None
    from sqlalchemy import create_engine, text

    name = f"referee_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{server.rstrip('/')}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    return f"{server.rstrip('/')}/{name}", drop
