"""Variants: a head start per seat, and challenges settled by the table's vote

Revision ID: 0009
Revises: 0008

Games stored before this revision have no handicap (0 for every seat), every challenge
decided as before (no advice kept) and no votes: they open, score and export as before.
Their rules keep the old ``zero_floor`` key, which is still read (as ``"floor"``).
"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('handicap', sa.Integer(), nullable=False,
                                      server_default='0'))
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.add_column(sa.Column('advice_legal', sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column('advice_reason', sa.String(length=40), nullable=True))
    op.create_table(
        'vote',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('challenge_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('legal', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['challenge_id'], ['challenge.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('challenge_id', 'seat'),
    )
    with op.batch_alter_table('vote', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vote_challenge_id'), ['challenge_id'], unique=False)


def downgrade():
    with op.batch_alter_table('vote', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vote_challenge_id'))
    op.drop_table('vote')
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.drop_column('advice_reason')
        batch_op.drop_column('advice_legal')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('handicap')
