"""An index on game.updated_at: each server process asks twice a second which games
changed since it last looked (companion/versions.py)

Revision ID: 0006
Revises: 0005
"""
from alembic import op


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_updated_at'), ['updated_at'], unique=False)


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_updated_at'))
