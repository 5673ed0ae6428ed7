"""Talk like a person: the advice said once a game (``tips``), and the language a group is spoken to before
it chose one (``group_languages``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tips",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("tip", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_tips_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", "tip", name=op.f("pk_tips")),
    )
    op.create_table(
        "group_languages",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("first", sa.String(length=8), nullable=False),
        sa.Column("asked", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_group_languages")),
    )


def downgrade() -> None:
    op.drop_table("group_languages")
    op.drop_table("tips")
