"""A tap that took a seat keeps the tablet token it handed over: the same tap sent again by the
same tablet (its answer, and the cookie that answer set, lost on the way) is handed the token
again, so it holds the seat it took instead of finding itself with none.

Revision ID: 0013_seat_hand_overs
Revises: 0012_game_numbers_never_reused
Created: 2026-12-07
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0013_seat_hand_overs'
down_revision: Union[str, None] = '0012_game_numbers_never_reused'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all from the current models already has them.
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tapanswer")}
    with op.batch_alter_table("tapanswer") as batch:
        if "handed_from" not in have:
            batch.add_column(sa.Column("handed_from", sa.String(), nullable=False, server_default=""))
        if "handed_to" not in have:
            batch.add_column(sa.Column("handed_to", sa.String(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("tapanswer") as batch:
        batch.drop_column("handed_to")
        batch.drop_column("handed_from")
