"""The demo battle in the test's app (``app`` and ``client``: tests/conftest.py), and helpers to read it back."""
from __future__ import annotations

import pytest
from _web_helpers import Table

from referee.data.scenarios import new_battle_from_scenario
from referee.table import service
from referee.table.db import session as db_session


@pytest.fixture
def db(app):
    with db_session(app.extensions["referee.engine"]) as s:
        yield s


@pytest.fixture
def game_id(db) -> int:
    return service.create_game(db, "Demo", "blackpowder", new_battle_from_scenario("demo"), seed=7).id


@pytest.fixture
def table(app, game_id) -> Table:
    return Table(app, game_id)

