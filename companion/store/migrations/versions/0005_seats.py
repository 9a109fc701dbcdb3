"""Seats: a player's phone holds their seat (a hashed secret); each hand has its own version

Revision ID: 0005
Revises: 0004

Games stored before this revision have every seat unclaimed, and each entered hand
starts at version 1: they open, score and export as before.
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat_token_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('claimed_at', sa.DateTime(), nullable=True))
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False,
                                      server_default='1'))


def downgrade():
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_column('version')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('claimed_at')
        batch_op.drop_column('seat_token_hash')
