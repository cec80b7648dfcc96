"""A database made by each earlier release upgrades at start with nothing lost (issue 46, 7).

For every schema in the Alembic chain but the newest, a database is built at that schema by the
migrations themselves and filled with rows of that schema's own shape (its own tables and
columns, read from the database, not today's models): the rows a table of today holds, cut to the
columns that table had then, and a plain value for a column it had then and has no longer. Then
the app starts on it (which upgrades it), and every row is checked column by column, the games
list and the board open, and the game's last log entry is undone."""
from __future__ import annotations

from datetime import datetime

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import JSON, Boolean, DateTime, Integer, MetaData, create_engine, select
from sqlmodel import SQLModel

from referee import migrations
from referee.data import new_battle_from_scenario
from referee.lists import example_lists
from referee.table import accounts, roles, service
from referee.table import lists as saved
from referee.table.db import make_engine
from referee.table.db import session as db_session
from tests._apps import make_app

CHAIN = [r.revision for r in reversed(list(ScriptDirectory.from_config(migrations.config()).walk_revisions()))]


def _today(folder) -> dict[str, list[dict]]:
    """The rows of a table of today, by table: a battle with a log entry, its seats and codes, an
    account, a saved list and a game started from lists."""
    engine = make_engine(f"sqlite:///{folder / 'today.sqlite'}")
    SQLModel.metadata.create_all(engine)
    with db_session(engine) as s:
        accounts.register(s, "Ann", "correct horse battery", admin=True)
        game = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo"), seed=7)
        service.perform(s, game.id, 1, "adjust_unit", {"unit": "11th-leger", "field": "casualties", "value": "2"})
        roles.join_codes(s, game)
        roles.take_seat(s, service.get_game(s, game.id), roles.UMPIRE, "tablet-one", None)
        examples = example_lists()
        ridge = saved.create_list(s, "Ann", examples["example-british-ridge"]).armylist
        corps = saved.create_list(s, "Ann", examples["example-french-corps"]).armylist
        saved.start_game(s, "Ridge", ridge.id, corps.id, owner="Ann")
    found = {}
    with engine.connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            found[table.name] = [dict(r._mapping) for r in conn.execute(select(table))]
    engine.dispose()
    return found


def _plain(column, n: int):
    """A value for a column a table had then and has no longer."""
    kind = column.type
    if isinstance(kind, Boolean):
        return False
    if isinstance(kind, Integer):
        return n
    if isinstance(kind, DateTime):
        return datetime(2026, 1, 1)
    if isinstance(kind, JSON):
        return {}
    return f"then-{column.name}-{n}"


def _fill(url: str, today: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Rows of the schema the database at ``url`` has, written into it: what was written, by table."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    written = {}
    with engine.begin() as conn:
        for table in meta.sorted_tables:
            if table.name == "alembic_version":
                continue
            rows = []
            for n, row in enumerate(today.get(table.name, []), start=1):
                rows.append({c.name: row[c.name] if c.name in row else _plain(c, n) for c in table.columns})
            if rows:
                conn.execute(table.insert(), rows)
            written[table.name] = rows
    engine.dispose()
    return written


def _same(value):
    """A time as SQLite gives it back: without its zone (the values are UTC throughout)."""
    return value.replace(tzinfo=None) if isinstance(value, datetime) else value


@pytest.fixture(scope="module")
def today(tmp_path_factory):
    return _today(tmp_path_factory.mktemp("today"))


@pytest.mark.parametrize("revision", CHAIN[:-1])
def test_a_database_of_each_earlier_schema_upgrades_with_nothing_lost(revision, today, database_url):
    url = database_url  # SQLite, or PostgreSQL under make test-postgres
    migrations.upgrade(url, revision)
    written = _fill(url, today)
    assert written["game"] and written["logentry"], "the oldest schema has games and their log"

    app = make_app(url, MODE="laptop")  # starting the app upgrades the database
    engine = app.extensions["referee.engine"]
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        for name, rows in written.items():
            assert name in meta.tables, f"the table {name} is gone"
            table = meta.tables[name]
            now = {r.id: dict(r._mapping) for r in conn.execute(select(table))}
            assert len(now) == len(rows), f"{name}: {len(rows)} rows before, {len(now)} after"
            for row in rows:
                for column, value in row.items():
                    if column not in table.columns:
                        continue
                    assert _same(now[row["id"]][column]) == _same(value), f"{name} {row['id']}.{column} changed"

    client = app.test_client()
    assert client.get("/").status_code == 200
    assert client.get("/games/1").status_code == 200
    with db_session(engine) as s:
        game = service.get_game(s, 1)
        assert game.state["units"]["11th-leger"]["casualties"] == 2
    r = client.post("/games/1/undo", data={"version": game.version})
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    with db_session(engine) as s:
        assert service.get_game(s, 1).state["units"]["11th-leger"]["casualties"] == 0
