"""solitaire games

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('solitaire',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('edit_token_hash', sa.String(length=64), nullable=False),
    sa.Column('face_up', sa.JSON(), nullable=False),
    sa.Column('practice_seed', sa.Integer(), nullable=True),
    sa.Column('steps', sa.JSON(), nullable=False),
    sa.Column('min_word', sa.String(length=10), nullable=False),
    sa.Column('lexicon', sa.String(length=40), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )


def downgrade():
    op.drop_table('solitaire')
