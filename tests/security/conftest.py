"""Apps for the security tests: one trusted laptop table, or a club server with accounts, each
with its own database holding a battle, an engagement and saved lists (one used by a game)."""
from __future__ import annotations

import pytest
from _security_helpers import make_app, seed


@pytest.fixture
def laptop_app(database_url):
    app = make_app(database_url, MODE="laptop")
    seed(app)
    return app


@pytest.fixture
def club_app(database_url):
    app = make_app(database_url, MODE="club")
    seed(app)
    return app
