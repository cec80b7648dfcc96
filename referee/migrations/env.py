"""Alembic's entry point. The app hands it an open connection (``referee.migrations.upgrade``);
the command line hands it a URL (``DATABASE_URL`` first, else ``alembic.ini``)."""
from __future__ import annotations

import os

from alembic import context
from sqlalchemy import engine_from_config, pool
from sqlmodel import SQLModel

# db imports every module that defines tables, so autogenerate sees them all.
from referee.table import db  # noqa: F401

config = context.config
target_metadata = SQLModel.metadata


def _configure(connection) -> None:
    # SQLite cannot ALTER most things in place: batch mode copies the table instead.
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)


def run_offline() -> None:
    url = os.environ.get("DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    section = config.get_section(config.config_ini_section, {})
    if os.environ.get("DATABASE_URL"):
        section["sqlalchemy.url"] = os.environ["DATABASE_URL"]
    engine = engine_from_config(section, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with engine.connect() as conn:
        _configure(conn)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
