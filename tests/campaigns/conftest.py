"""A database (and an app) of its own for each campaign test."""
from __future__ import annotations

import pytest

from referee import create_app, migrations
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
def app(database_url):
    return create_app({"TESTING": True, "SECRET_KEY": "tests", "DATABASE_URL": database_url,
                       "WTF_CSRF_ENABLED": False, "SEED_DEMO": False})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def app_db(app):
    with db_session(app.extensions["referee.engine"]) as s:
        yield s
