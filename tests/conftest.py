"""Settings every test shares. Kept small: each test folder has its own fixtures."""
from __future__ import annotations

import os

import pytest
from _apps import make_app
from _databases import new_database
from hypothesis import HealthCheck, settings

# A shared 2-core CI machine is slow and uneven: time limits per example would fail at random.
# In CI the examples are derandomized, so a failure there shows up again on the next run.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Every kept state document is checked against its text when it is reused: code that changes a
# game's state in place, breaking copy-on-write, fails the test that does it (table/state_column.py).
os.environ["REFEREE_CHECK_STATE"] = "1"


@pytest.fixture
def database_url(tmp_path):
    """A fresh, empty database for one test (see :func:`new_database`)."""
    url, drop = new_database(tmp_path)
    try:
        yield url
    finally:
        drop()


@pytest.fixture
def app(database_url):
    """An app of its own for one test (``_apps.make_app``); a folder needing another defines its own."""
    return make_app(database_url)


@pytest.fixture
def client(app):
    return app.test_client()
