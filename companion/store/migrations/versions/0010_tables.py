"""Tables of people who play together: their members, and the games started from them

Revision ID: 0010
Revises: 0009

Games stored before this revision belong to no table (started on their own) and are
not archived: they list, open, score and export as before.
"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'groups',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('edit_token_hash', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('alternate_bonus', sa.Boolean(), nullable=False, server_default='0'),
        sa.Column('archived', sa.Boolean(), nullable=False, server_default='0'),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_table(
        'member',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('group_id', sa.String(length=32), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_member_group_id'), ['group_id'], unique=False)
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('archived', sa.Boolean(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('rematch_id', sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f('ix_game_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key('fk_game_group_id_groups', 'groups', ['group_id'], ['id'],
                                    ondelete='SET NULL')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('member_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_player_member_id'), ['member_id'], unique=False)
        batch_op.create_foreign_key('fk_player_member_id_member', 'member', ['member_id'],
                                    ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_constraint('fk_player_member_id_member', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_player_member_id'))
        batch_op.drop_column('member_id')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint('fk_game_group_id_groups', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_group_id'))
        batch_op.drop_column('rematch_id')
        batch_op.drop_column('archived')
        batch_op.drop_column('group_id')
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_member_group_id'))
    op.drop_table('member')
    op.drop_table('groups')
