"""Campaigns: the campaign with its state document, its players, their rosters and every roster
version, the campaign log, and the games each campaign started.

Revision ID: 0004_campaigns
Revises: 0003_engagement_rules_in_document
Created: 2026-11-24
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0004_campaigns'
down_revision: Union[str, None] = '0003_engagement_rules_in_document'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all before migrations existed (stamped at the first revision)
    # may already hold these tables: they are complete, so they are left as they are.
    if "campaign" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table('campaign',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(), nullable=False),
    sa.Column('kind', sa.String(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('owner', sa.String(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_kind'), ['kind'], unique=False)

    op.create_table('campaignplayer',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(), nullable=False),
    sa.Column('name', sa.String(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('campaign_id', 'key')
    )
    with op.batch_alter_table('campaignplayer', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaignplayer_campaign_id'), ['campaign_id'], unique=False)

    op.create_table('roster',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(), nullable=False),
    sa.Column('name', sa.String(), nullable=False),
    sa.Column('latest', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('campaign_id', 'key')
    )
    with op.batch_alter_table('roster', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_roster_campaign_id'), ['campaign_id'], unique=False)

    op.create_table('rosterversion',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('roster_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('content', sa.JSON(), nullable=False),
    sa.Column('note', sa.String(), nullable=False),
    sa.Column('log_seq', sa.Integer(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['roster_id'], ['roster.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('roster_id', 'number')
    )
    with op.batch_alter_table('rosterversion', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rosterversion_roster_id'), ['roster_id'], unique=False)

    op.create_table('campaignlogentry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(), nullable=False),
    sa.Column('label', sa.String(), nullable=False),
    sa.Column('who', sa.String(), nullable=False),
    sa.Column('override', sa.Boolean(), nullable=False),
    sa.Column('facts', sa.JSON(), nullable=False),
    sa.Column('dice', sa.JSON(), nullable=False),
    sa.Column('dice_source', sa.String(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('changes', sa.JSON(), nullable=False),
    sa.Column('undone', sa.Boolean(), nullable=False),
    sa.Column('discarded', sa.Boolean(), nullable=False),
    sa.Column('version_after', sa.Integer(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('campaign_id', 'seq')
    )
    with op.batch_alter_table('campaignlogentry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaignlogentry_campaign_id'), ['campaign_id'], unique=False)

    op.create_table('campaigngame',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('step', sa.String(), nullable=False),
    sa.Column('roster_versions', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], ),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )
    with op.batch_alter_table('campaigngame', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaigngame_campaign_id'), ['campaign_id'], unique=False)


def downgrade() -> None:
    for table, indexes in (('campaigngame', ['ix_campaigngame_campaign_id']),
                           ('campaignlogentry', ['ix_campaignlogentry_campaign_id']),
                           ('rosterversion', ['ix_rosterversion_roster_id']),
                           ('roster', ['ix_roster_campaign_id']),
                           ('campaignplayer', ['ix_campaignplayer_campaign_id']),
                           ('campaign', ['ix_campaign_kind'])):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for ix in indexes:
                batch_op.drop_index(batch_op.f(ix))
        op.drop_table(table)
