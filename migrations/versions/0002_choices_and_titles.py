"""Questions asked with buttons (``choices``) and the group's name on its games (``games.title``).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 21:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("title", sa.String(length=128), nullable=True))
    op.create_table(
        "choices",
        sa.Column("token", sa.String(length=24), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_choices_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_choices")),
    )
    op.create_index("ix_choices_game_id", "choices", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_choices_game_id", table_name="choices")
    op.drop_table("choices")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("title")
