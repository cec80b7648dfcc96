"""An index on a game's log by undone and discarded: "can this be redone?" and a new action's
"end the chance to redo" read the few undone entries, not every entry of a long log.

Revision ID: 0008_log_redo_index
Revises: 0007_pending_rolls
Created: 2026-11-24
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0008_log_redo_index'
down_revision: Union[str, None] = '0007_pending_rolls'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

NAME = "ix_logentry_game_undone"


def upgrade() -> None:
    # A database made by create_all from the current models already has it.
    if NAME in {ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes("logentry")}:
        return
    op.create_index(NAME, "logentry", ["game_id", "undone", "discarded"])


def downgrade() -> None:
    op.drop_index(NAME, table_name="logentry")
