"""A log entry keeps the one-time token of the tap that made it (a tap sent again after its
answer was lost is answered with its first result, never rolled again), and the version and the
token of the undo or redo that last took it back or put it back (what changed since a tablet's
screen; an Undo tapped twice takes back one entry).

Revision ID: 0010_write_tokens
Revises: 0009_sign_ins
Created: 2026-11-27
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0010_write_tokens'
down_revision: Union[str, None] = '0009_sign_ins'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

INDEX = "ix_logentry_game_token"


def upgrade() -> None:
    # A database made by create_all from the current models already has them.
    inspector = sa.inspect(op.get_bind())
    columns = {c["name"] for c in inspector.get_columns("logentry")}
    with op.batch_alter_table("logentry") as batch:
        if "token" not in columns:
            batch.add_column(sa.Column("token", sa.String(), nullable=True))
        if "stepped" not in columns:
            batch.add_column(sa.Column("stepped", sa.Integer(), nullable=False, server_default="0"))
        if "step_token" not in columns:
            batch.add_column(sa.Column("step_token", sa.String(), nullable=True))
    if INDEX not in {ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes("logentry")}:
        op.create_index(INDEX, "logentry", ["game_id", "token"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="logentry")
    with op.batch_alter_table("logentry") as batch:
        batch.drop_column("step_token")
        batch.drop_column("stepped")
        batch.drop_column("token")
