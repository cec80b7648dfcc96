"""Schema migrations: the app calls :func:`upgrade` at start-up, so a database made by an older
Referee is brought up to date before the first request, and a new one is created from nothing.

After changing ``referee/table/models.py``, add a revision with ``make migration m="why"``
and check it: ``tests/test_migrations.py`` fails while the migrations and the models differ.
"""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.engine import Engine

HERE = Path(__file__).resolve().parent
# The first revision: what a database made before migrations existed (create_all) already has.
INITIAL_REVISION = "0001_games_and_log"


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
        with engine.begin() as conn:
            cfg = config()
            cfg.attributes["connection"] = conn
            tables = set(inspect(conn).get_table_names())
            if "game" in tables and "alembic_version" not in tables:
                command.stamp(cfg, INITIAL_REVISION)
            command.upgrade(cfg, revision)
    finally:
        if engine is not target:
            engine.dispose()


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
    from ..table.db import make_engine
    return make_engine(url)
