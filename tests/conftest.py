"""Settings every test shares. Kept small: each test folder has its own fixtures."""
from __future__ import annotations

import os

import pytest
from _databases import new_database
from hypothesis import HealthCheck, settings

# A shared 2-core CI machine is slow and uneven: time limits per example would fail at random.
# In CI the examples are derandomized, so a failure there shows up again on the next run.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def database_url(tmp_path):
    """A fresh, empty database for one test (see :func:`new_database`)."""
    url, drop = new_database(tmp_path)
    try:
        yield url
    finally:
        drop()
