"""Pending rolls: dice one side must type before another side's action lands.

Revision ID: 0007_pending_rolls
Revises: 0006_game_records
Created: 2026-11-24
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0007_pending_rolls'
down_revision: Union[str, None] = '0006_game_records'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all before migrations existed may already hold the table.
    if "pendingroll" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table('pendingroll',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(), nullable=False),
    sa.Column('facts', sa.JSON(), nullable=False),
    sa.Column('typed', sa.JSON(), nullable=False),
    sa.Column('actor', sa.String(), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('sides', sa.Integer(), nullable=False),
    sa.Column('purpose', sa.String(), nullable=False),
    sa.Column('side', sa.String(), nullable=False),
    sa.Column('created', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )


def downgrade() -> None:
    op.drop_table('pendingroll')
