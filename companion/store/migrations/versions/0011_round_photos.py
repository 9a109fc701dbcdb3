"""Photos of the hands, kept with their rounds in a game that keeps them

Revision ID: 0011
Revises: 0010

Games stored before this revision keep no photos (``keep_photos`` false) and have none.
"""
from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('keep_photos', sa.Boolean(), nullable=False,
                                      server_default='0'))
    op.create_table(
        'round_photo',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('jpeg', sa.LargeBinary(), nullable=False),
        sa.Column('size', sa.Integer(), nullable=False),
        sa.Column('taken_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'round_number', 'seat'),
    )
    with op.batch_alter_table('round_photo', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_photo_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('round_photo', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_photo_game_id'))
    op.drop_table('round_photo')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('keep_photos')
