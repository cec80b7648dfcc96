"""Settings every test shares. Kept small: each test folder has its own fixtures."""
from __future__ import annotations

import os
import uuid

import pytest
from hypothesis import HealthCheck, settings

# A shared 2-core CI machine is slow and uneven: time limits per example would fail at random.
# In CI the examples are derandomized, so a failure there shows up again on the next run.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def database_url(tmp_path):
    """A fresh, empty database for one test: a SQLite file by default, or, when
    REFEREE_TEST_POSTGRES names a PostgreSQL server (e.g. postgresql+psycopg://postgres@127.0.0.1:5433),
    a database of its own on that server, dropped afterwards. CI has no PostgreSQL, so it runs the
    SQLite side; the README says how to run the same tests on PostgreSQL."""
    server = os.environ.get("REFEREE_TEST_POSTGRES")
    if not server:
        yield f"sqlite:///{tmp_path / 'referee.sqlite'}"
        return
    from sqlalchemy import create_engine, text

    name = f"referee_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{server.rstrip('/')}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{server.rstrip('/')}/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
