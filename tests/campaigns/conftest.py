"""A database of its own for each campaign test, and a session on the test's app's (``app``: tests/conftest.py)."""
from __future__ import annotations

import pytest

from referee import migrations
from referee.table.db import make_engine
from referee.table.db import session as db_session


@pytest.fixture
def engine(database_url):
    eng = make_engine(database_url)
    migrations.upgrade(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def db(engine):
    with db_session(engine) as s:
        yield s


@pytest.fixture
def app_db(app):
    with db_session(app.extensions["referee.engine"]) as s:
        yield s
