"""round.challenges_made: challenge numbers are never reused after a withdrawal

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.add_column(sa.Column('challenges_made', sa.Integer(), nullable=False,
                                      server_default='0'))
    # Rounds stored before this revision: count the challenges they hold.
    op.execute(
        "UPDATE round SET challenges_made = "
        "(SELECT COALESCE(MAX(number), 0) FROM challenge WHERE challenge.round_id = round.id)"
    )


def downgrade():
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.drop_column('challenges_made')
