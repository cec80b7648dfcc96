"""A deleted game's number is never given to a later game (SQLite's AUTOINCREMENT).

Without it SQLite gives a new row the largest number in use plus one, so deleting the newest game
freed its number for the next: a tablet's link, a joined seat's page, or another server process's
drawings of the deleted game would then have stood for the new one. PostgreSQL's sequence never
gives a number twice, so it is left as it is.

Revision ID: 0012_game_numbers_never_reused
Revises: 0011_tap_answers
Created: 2026-11-28
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0012_game_numbers_never_reused'
down_revision: Union[str, None] = '0011_tap_answers'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    made = bind.execute(sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'game'")).scalar()
    if made is None or "AUTOINCREMENT" in made.upper():
        return  # made by create_all from the current models, which ask for it
    # The table is copied whole (SQLite cannot add AUTOINCREMENT in place); the rows keep their
    # numbers and the sequence starts after the largest. The rows that point at a game are left
    # alone: ``referee.migrations.upgrade`` holds SQLite's foreign-key checks off while it copies.
    with op.batch_alter_table("game", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
        pass


def downgrade() -> None:
    pass  # a number never given twice harms nothing
