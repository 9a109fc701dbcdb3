"""challenge.reason_code: rulings keep a reason code, never an English sentence

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

# The sentences stored before this revision, and the code each one meant.
CODES = {
    'in dictionary': 'in_dictionary',
    'house word': 'house_word',
    'not in dictionary': 'not_in_dictionary',
    'proper noun': 'proper_noun',
    'abbreviation': 'abbreviation',
    'contraction': 'contraction',
    'prefix or suffix': 'affix',
    'too short': 'too_short',
    'not letters': 'not_letters',
    'banned house word': 'banned_house_word',
    'the table ruled it legal': 'table_legal',
    'the table ruled it not legal': 'table_illegal',
}
SENTENCES = {code: sentence for sentence, code in CODES.items()}

challenge = sa.table(
    'challenge',
    sa.column('id', sa.Integer),
    sa.column('legal', sa.Boolean),
    sa.column('decided_by', sa.String),
    sa.column('reason', sa.String),
    sa.column('reason_code', sa.String),
)


def upgrade():
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason_code', sa.String(length=40), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(challenge.c.id, challenge.c.legal, challenge.c.decided_by, challenge.c.reason)
    ).all()
    for row in rows:
        code = CODES.get((row.reason or '').strip().lower())
        if code is None:  # a sentence no version wrote: keep what the ruling said
            if row.decided_by == 'table':
                code = 'table_legal' if row.legal else 'table_illegal'
            else:
                code = 'in_dictionary' if row.legal else 'not_in_dictionary'
        conn.execute(
            challenge.update().where(challenge.c.id == row.id).values(reason_code=code)
        )
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.alter_column('reason_code', existing_type=sa.String(length=40), nullable=False)
        batch_op.drop_column('reason')


def downgrade():
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason', sa.String(length=80), nullable=True))
    conn = op.get_bind()
    for row in conn.execute(sa.select(challenge.c.id, challenge.c.reason_code)).all():
        conn.execute(
            challenge.update()
            .where(challenge.c.id == row.id)
            .values(reason=SENTENCES.get(row.reason_code, row.reason_code))
        )
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.alter_column('reason', existing_type=sa.String(length=80), nullable=False)
        batch_op.drop_column('reason_code')
