"""Accounts for a club server, lists owned by an account, the seats at each game's table with
their join codes, who acted in each log entry, and share codes long enough not to be guessed.

Every list keeps its owner's name; each distinct name becomes an account with no password yet
(on a club server the first account gives it one), and the list is attached to it. Share codes
of the old 8-character kind are replaced by 16-character ones (about 79 bits).

Revision ID: 0005_accounts
Revises: 0004_campaigns
Created: 2026-11-24
"""
import secrets
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0005_accounts'
down_revision: Union[str, None] = '0004_campaigns'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# A copy of the share-code alphabet as it was at this revision (no 0/O, 1/I/L), so running this
# migration later gives codes of the same kind whatever the app's code says then.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 16


def _tables() -> set[str]:
    return set(sa.inspect(op.get_bind()).get_table_names())


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    # A database made by create_all before migrations existed may hold these already (complete).
    tables = _tables()
    if "account" not in tables:
        op.create_table('account',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(), nullable=False),
        sa.Column('password_hash', sa.String(), nullable=True),
        sa.Column('is_admin', sa.Boolean(), nullable=False),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('account', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_account_name'), ['name'], unique=True)
    if "serversetting" not in tables:
        op.create_table('serversetting',
        sa.Column('key', sa.String(), nullable=False),
        sa.Column('value', sa.String(), nullable=False),
        sa.PrimaryKeyConstraint('key')
        )
    if "joincode" not in tables:
        op.create_table('joincode',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(), nullable=False),
        sa.Column('code', sa.String(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'role')
        )
        with op.batch_alter_table('joincode', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_joincode_code'), ['code'], unique=True)
            batch_op.create_index(batch_op.f('ix_joincode_game_id'), ['game_id'], unique=False)
    if "seat" not in tables:
        op.create_table('seat',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(), nullable=False),
        sa.Column('tablet', sa.String(), nullable=False),
        sa.Column('account_id', sa.Integer(), nullable=True),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['account_id'], ['account.id'], ),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'tablet')
        )
        with op.batch_alter_table('seat', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_seat_account_id'), ['account_id'], unique=False)
            batch_op.create_index(batch_op.f('ix_seat_game_id'), ['game_id'], unique=False)
            batch_op.create_index(batch_op.f('ix_seat_tablet'), ['tablet'], unique=False)

    # Columns are added in place: SQLite could otherwise only rebuild the tables, and the list
    # versions and the log point at them.
    if "account_id" not in _columns("armylist"):
        op.add_column('armylist', sa.Column('account_id', sa.Integer(), nullable=True))
        op.add_column('armylist', sa.Column('public', sa.Boolean(), nullable=False, server_default=sa.false()))
        op.create_index(op.f('ix_armylist_account_id'), 'armylist', ['account_id'], unique=False)
    if "actor" not in _columns("logentry"):
        op.add_column('logentry', sa.Column('actor', sa.String(), nullable=False, server_default=""))

    _lists_to_accounts()
    _longer_share_codes()


def _lists_to_accounts() -> None:
    """Each owner name becomes an account (no password yet) and its lists are attached to it."""
    conn = op.get_bind()
    account = sa.table('account', sa.column('id', sa.Integer), sa.column('name', sa.String),
                       sa.column('password_hash', sa.String), sa.column('is_admin', sa.Boolean),
                       sa.column('created', sa.DateTime(timezone=True)))
    armylist = sa.table('armylist', sa.column('id', sa.Integer), sa.column('owner', sa.String),
                        sa.column('account_id', sa.Integer))
    names = conn.execute(sa.select(armylist.c.owner).where(armylist.c.account_id.is_(None))
                         .distinct()).scalars().all()
    known = dict(conn.execute(sa.select(account.c.name, account.c.id)).all())
    for name in names:
        if name not in known:
            conn.execute(account.insert().values(name=name, password_hash=None, is_admin=False,
                                                 created=sa.func.now()))
            known[name] = conn.execute(sa.select(account.c.id).where(account.c.name == name)).scalar_one()
        conn.execute(armylist.update().where(armylist.c.owner == name, armylist.c.account_id.is_(None))
                     .values(account_id=known[name]))


def _longer_share_codes() -> None:
    conn = op.get_bind()
    armylist = sa.table('armylist', sa.column('id', sa.Integer), sa.column('share_code', sa.String))
    taken = set(conn.execute(sa.select(armylist.c.share_code).where(armylist.c.share_code.is_not(None)))
                .scalars().all())
    rows = conn.execute(sa.select(armylist.c.id, armylist.c.share_code)
                        .where(armylist.c.share_code.is_not(None))).all()
    for list_id, code in rows:
        if len(code) >= LENGTH:
            continue
        new = code
        while new in taken:
            new = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        taken.add(new)
        conn.execute(armylist.update().where(armylist.c.id == list_id).values(share_code=new))


def _drop_columns(table: str, *columns: str) -> None:
    for column in columns:
        if op.get_bind().dialect.name == "sqlite":  # in place (SQLite 3.35 and newer), no rebuild
            op.execute(f'ALTER TABLE {table} DROP COLUMN "{column}"')
        else:
            op.drop_column(table, column)


def downgrade() -> None:
    # The lists keep their owner names; accounts, seats and join codes go. Share codes stay long.
    _drop_columns('logentry', 'actor')
    op.drop_index(op.f('ix_armylist_account_id'), table_name='armylist')
    _drop_columns('armylist', 'public', 'account_id')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_tablet'))
        batch_op.drop_index(batch_op.f('ix_seat_game_id'))
        batch_op.drop_index(batch_op.f('ix_seat_account_id'))
    op.drop_table('seat')
    with op.batch_alter_table('joincode', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_joincode_game_id'))
        batch_op.drop_index(batch_op.f('ix_joincode_code'))
    op.drop_table('joincode')
    op.drop_table('serversetting')
    with op.batch_alter_table('account', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_name'))
    op.drop_table('account')
