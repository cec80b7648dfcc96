"""Game records: whether a finished game is archived, and whether it was imported for review.

Revision ID: 0006_game_records
Revises: 0005_accounts
Created: 2026-11-24
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0006_game_records'
down_revision: Union[str, None] = '0005_accounts'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all before migrations existed may already hold the table.
    if "gamerecord" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table('gamerecord',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('archived', sa.Boolean(), nullable=False),
    sa.Column('imported', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )


def downgrade() -> None:
    op.drop_table('gamerecord')
