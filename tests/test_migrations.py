"""The migrations build exactly the tables the models describe, so a database made by
``referee.migrations.upgrade`` is the one the table service expects."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel, select

from referee import migrations
from referee.table.db import make_engine, session  # importing it registers every table
from referee.table.models import Game, Seat


def _columns(engine) -> dict[str, set[str]]:
    insp = inspect(engine)
    return {t: {c["name"] for c in insp.get_columns(t)} for t in insp.get_table_names() if t != "alembic_version"}


def test_upgrading_an_empty_database_gives_the_models_tables_and_columns(tmp_path):
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    migrations.upgrade(url)
    engine = create_engine(url)
    expected = {name: {c.name for c in table.columns} for name, table in SQLModel.metadata.tables.items()}
    assert _columns(engine) == expected


def test_the_migrated_schema_has_nothing_left_for_autogenerate_to_add(tmp_path):
    url = f"sqlite:///{tmp_path / 'compare.db'}"
    migrations.upgrade(url)
    engine = create_engine(url)
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(ctx, SQLModel.metadata) == []


def test_upgrading_twice_changes_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    migrations.upgrade(url)
    migrations.upgrade(url)
    assert set(_columns(create_engine(url))) == set(SQLModel.metadata.tables)


def test_a_database_made_before_migrations_keeps_its_games(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    SQLModel.metadata.create_all(engine)
    with session(engine) as s:
        s.add(Game(name="Ligny", system="blackpowder", state={"turn": 3}))
        s.commit()
    migrations.upgrade(engine)
    with session(engine) as s:
        games = s.exec(select(Game)).all()
    assert [(g.name, g.state) for g in games] == [("Ligny", {"turn": 3})]
    assert "alembic_version" in inspect(engine).get_table_names()


def test_upgrade_works_on_the_apps_own_in_memory_engine():
    from sqlalchemy.pool import StaticPool
    from sqlmodel import create_engine as sm_create_engine

    engine = sm_create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    migrations.upgrade(engine)
    assert set(_columns(engine)) == set(SQLModel.metadata.tables)


def test_downgrade_to_base_removes_the_tables(tmp_path):
    url = f"sqlite:///{tmp_path / 'down.db'}"
    migrations.upgrade(url)
    migrations.downgrade(url)
    assert _columns(create_engine(url)) == {}


def test_the_command_line_sees_every_table_so_a_new_migration_starts_clean(tmp_path):
    # A fresh interpreter: only what env.py imports registers tables, as with `make migration`.
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    migrations.upgrade(url)
    out = subprocess.run([sys.executable, "-m", "alembic", "check"], cwd=Path(__file__).resolve().parent.parent,
                         env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_revision_name_fits_the_column_that_holds_it(tmp_path):
    """PostgreSQL holds Alembic's column to its length, which SQLite does not: a revision named
    longer than the column stopped a new PostgreSQL database at its third revision."""
    from alembic.script import ScriptDirectory

    names = [r.revision for r in ScriptDirectory.from_config(migrations.config()).walk_revisions()]
    assert names and max(map(len, names)) <= migrations.VERSION_LENGTH
    assert max(map(len, names)) > 32  # the case this guards: a name longer than Alembic's own column
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    migrations.upgrade(url)
    column = next(c for c in inspect(create_engine(url)).get_columns("alembic_version") if c["name"] == "version_num")
    assert column["type"].length == migrations.VERSION_LENGTH


def test_alembics_own_narrow_column_is_widened_where_the_database_holds_lengths(tmp_path):
    """A PostgreSQL database whose Alembic table was made by Alembic (32 characters) is widened
    before a longer name is written, and then brought up to date. Runs on PostgreSQL only
    (``REFEREE_TEST_POSTGRES``): SQLite holds no column to its length."""
    import pytest
    from _databases import new_database
    from sqlalchemy import text

    if not os.environ.get("REFEREE_TEST_POSTGRES"):
        pytest.skip("needs REFEREE_TEST_POSTGRES: SQLite holds no column to its length")
    url, drop = new_database(tmp_path)
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
                              "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"))
        migrations.upgrade(url)
        column = next(c for c in inspect(engine).get_columns("alembic_version") if c["name"] == "version_num")
        assert column["type"].length == migrations.VERSION_LENGTH
        assert set(_columns(engine)) == set(SQLModel.metadata.tables)
    finally:
        engine.dispose()
        drop()


def test_a_deleted_games_number_is_never_given_again_after_the_upgrade(tmp_path):
    """A database from before revision 0012 gives the newest game's number to the next game once
    the newest is deleted; upgraded, its games and the rows that point at them are kept, and a
    later game gets a number never used before."""
    url = f"sqlite:///{tmp_path / 'numbers.db'}"
    migrations.upgrade(url, "0011_tap_answers")
    engine = make_engine(url)
    with session(engine) as s:
        s.add_all([Game(name="Ligny", system="blackpowder", state={"turn": 3}),
                   Game(name="Wavre", system="blackpowder", state={"turn": 1})])
        s.commit()
        s.add(Seat(game_id=1, role="umpire", tablet="tablet-a"))
        s.commit()
    migrations.upgrade(engine)
    with session(engine) as s:
        assert [(g.id, g.name, g.state) for g in s.exec(select(Game))] == [(1, "Ligny", {"turn": 3}),
                                                                          (2, "Wavre", {"turn": 1})]
        assert [(t.game_id, t.tablet) for t in s.exec(select(Seat))] == [(1, "tablet-a")]
        s.delete(s.get(Game, 2))
        s.commit()
        later = Game(name="Waterloo", system="blackpowder", state={})
        s.add(later)
        s.commit()
        assert later.id == 3
        # The foreign-key checks are back on: a seat at a game that does not exist is refused.
        s.add(Seat(game_id=99, role="umpire", tablet="tablet-b"))
        with pytest.raises(IntegrityError):
            s.commit()
    assert "ix_game_system" in {i["name"] for i in inspect(engine).get_indexes("game")}
