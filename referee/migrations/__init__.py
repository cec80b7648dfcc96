"""Schema migrations: the app calls :func:`upgrade` at start-up, so a database made by an older
Referee is brought up to date before the first request, and a new one is created from nothing.

After changing ``referee/table/models.py``, add a revision with ``make migration m="why"``
and check it: ``tests/test_migrations.py`` fails while the migrations and the models differ.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, inspect
from sqlalchemy.engine import Connection, Engine

from ..table.db import make_engine

HERE = Path(__file__).resolve().parent
# The first revision: what a database made before migrations existed (create_all) already has.
INITIAL_REVISION = "0001_games_and_log"
# Alembic keeps the database's revision in a column of 32 characters of its own making; the
# revisions here are named for what they do, and some names are longer (``_room_for_names``).
VERSION_TABLE = "alembic_version"
VERSION_LENGTH = 64


def config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    return cfg


def upgrade(target: str | Engine, revision: str = "head") -> None:
    """Bring the database at ``target`` (a SQLAlchemy URL or an engine) up to ``revision``.

    Pass the app's own engine when it has one: an in-memory SQLite database exists only inside
    that engine. A database whose tables were made by ``create_all`` before migrations existed
    is recorded as being at the first revision rather than created again.
    """
    engine = target if isinstance(target, Engine) else _engine_for(target)
    try:
        with engine.connect() as conn, _foreign_keys_held(conn), conn.begin():
            cfg = config()
            cfg.attributes["connection"] = conn
            tables = set(inspect(conn).get_table_names())
            _room_for_names(conn, VERSION_TABLE in tables)
            if "game" in tables and VERSION_TABLE not in tables:
                command.stamp(cfg, INITIAL_REVISION)
            command.upgrade(cfg, revision)
            _foreign_keys_hold(conn)
    finally:
        if engine is not target:
            engine.dispose()


@contextmanager
def _foreign_keys_held(conn: Connection):
    """SQLite's foreign-key checks off while the migrations run on this connection: a migration
    that copies a table (SQLite's way of changing one) drops the old table under the rows that
    point at it, and with the checks on that drop fails (or deletes them). The pragma is taken only
    outside a transaction, so it is set before the migrations' transaction and put back after it.
    ``_foreign_keys_hold`` checks, before that transaction commits, that every row still points at
    a row that exists."""
    if conn.dialect.name != "sqlite":
        yield
        return
    was_on = conn.exec_driver_sql("PRAGMA foreign_keys").scalar()
    conn.commit()
    conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
    conn.commit()
    try:
        yield
    finally:
        if was_on:
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            conn.commit()


def _foreign_keys_hold(conn: Connection) -> None:
    if conn.dialect.name != "sqlite":
        return
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"a migration left rows pointing at rows that do not exist: {broken[:5]}")


def _room_for_names(conn: Connection, exists: bool) -> None:
    """Alembic's table made (or, on a database that checks lengths, widened) with room for every
    revision's name (``VERSION_LENGTH``) before Alembic writes one in it: Alembic makes it with 32
    characters, which SQLite does not hold it to and PostgreSQL does (a longer name there stopped
    a new database at its third revision). Alembic uses the table as it finds it."""
    if not exists:
        Table(VERSION_TABLE, MetaData(), Column("version_num", String(VERSION_LENGTH), nullable=False),
              PrimaryKeyConstraint("version_num", name="alembic_version_pkc")).create(conn)
        return
    column = next(c for c in inspect(conn).get_columns(VERSION_TABLE) if c["name"] == "version_num")
    if conn.dialect.name != "sqlite" and (getattr(column["type"], "length", None) or 0) < VERSION_LENGTH:
        # SQLite would have to copy the table to change it, and never enforced the length anyway.
        Operations(MigrationContext.configure(conn)).alter_column(
            VERSION_TABLE, "version_num", type_=String(VERSION_LENGTH), existing_nullable=False)


def downgrade(target: str | Engine, revision: str = "base") -> None:
    engine = target if isinstance(target, Engine) else _engine_for(target)
    try:
        with engine.begin() as conn:
            cfg = config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, revision)
    finally:
        if engine is not target:
            engine.dispose()


def _engine_for(url: str) -> Engine:
    return make_engine(url)
