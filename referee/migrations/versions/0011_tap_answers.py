"""A tap on a list or a campaign keeps its one-time token and where its answer led: the same tap
sent again (its answer lost, or tapped twice) is answered with that, and changes nothing.

Revision ID: 0011_tap_answers
Revises: 0010_write_tokens
Created: 2026-11-27
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0011_tap_answers'
down_revision: Union[str, None] = '0010_write_tokens'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all from the current models already has it.
    if "tapanswer" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "tapanswer",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token", sa.String(), nullable=False),
        sa.Column("place", sa.String(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("location", sa.String(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_tapanswer_token", "tapanswer", ["token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tapanswer_token", table_name="tapanswer")
    op.drop_table("tapanswer")
