"""Sign-ins: each signed-in session of an account is a row its cookies name by a random token,
so signing out ends it on the server (a copied session or remember-me cookie opens nothing).

Revision ID: 0009_sign_ins
Revises: 0008_log_redo_index
Created: 2026-11-27
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0009_sign_ins'
down_revision: Union[str, None] = '0008_log_redo_index'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A database made by create_all from the current models already has it.
    if "signin" in set(sa.inspect(op.get_bind()).get_table_names()):
        return
    op.create_table('signin',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('signin', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signin_account_id'), ['account_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_signin_token'), ['token'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('signin', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signin_token'))
        batch_op.drop_index(batch_op.f('ix_signin_account_id'))
    op.drop_table('signin')
