"""Saved army lists and squadrons, their never-changing versions, and the list versions each
game was started from.

Revision ID: 0002_saved_army_lists
Revises: 0001_games_and_log
Created: 2026-11-22
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0002_saved_army_lists'
down_revision: Union[str, None] = '0001_games_and_log'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all before migrations existed (stamped at the first revision)
    # may already hold these tables: they are complete, so they are left as they are.
    if "armylist" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table('armylist',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('owner', sa.String(), nullable=False),
    sa.Column('name', sa.String(), nullable=False),
    sa.Column('system', sa.String(), nullable=False),
    sa.Column('latest', sa.Integer(), nullable=False),
    sa.Column('share_code', sa.String(), nullable=True),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('armylist', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_armylist_owner'), ['owner'], unique=False)
        batch_op.create_index(batch_op.f('ix_armylist_share_code'), ['share_code'], unique=True)
        batch_op.create_index(batch_op.f('ix_armylist_system'), ['system'], unique=False)

    op.create_table('armylistversion',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('list_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(), nullable=False),
    sa.Column('content', sa.JSON(), nullable=False),
    sa.Column('problems', sa.Integer(), nullable=False),
    sa.Column('note', sa.String(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['list_id'], ['armylist.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('list_id', 'number')
    )
    with op.batch_alter_table('armylistversion', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_armylistversion_list_id'), ['list_id'], unique=False)

    op.create_table('gamelist',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('side', sa.String(), nullable=False),
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.ForeignKeyConstraint(['version_id'], ['armylistversion.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'side')
    )
    with op.batch_alter_table('gamelist', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_gamelist_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_gamelist_version_id'), ['version_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('gamelist', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_gamelist_version_id'))
        batch_op.drop_index(batch_op.f('ix_gamelist_game_id'))

    op.drop_table('gamelist')
    with op.batch_alter_table('armylistversion', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_armylistversion_list_id'))

    op.drop_table('armylistversion')
    with op.batch_alter_table('armylist', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_armylist_system'))
        batch_op.drop_index(batch_op.f('ix_armylist_share_code'))
        batch_op.drop_index(batch_op.f('ix_armylist_owner'))

    op.drop_table('armylist')
