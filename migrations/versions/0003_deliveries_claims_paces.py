"""Delivered updates kept until handled (``deliveries``), which process handles a chat (``claims``), and the
bot's shared flood limits (``paces``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 23:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deliveries",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(length=8), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_deliveries")),
    )
    waiting = sa.text("handled_at IS NULL")
    op.create_index(
        "ix_deliveries_waiting",
        "deliveries",
        ["chat_id", "update_id"],
        unique=False,
        sqlite_where=waiting,
        postgresql_where=waiting,
    )
    op.create_index("ix_deliveries_chat_id_update_id", "deliveries", ["chat_id", "update_id"], unique=False)
    op.create_index("ix_deliveries_received_at", "deliveries", ["received_at"], unique=False)
    op.create_table(
        "claims",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("owner", sa.String(length=40), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_claims")),
    )
    op.create_table(
        "paces",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("due", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_paces")),
    )


def downgrade() -> None:
    op.drop_table("paces")
    op.drop_table("claims")
    op.drop_index("ix_deliveries_waiting", table_name="deliveries")
    op.drop_index("ix_deliveries_received_at", table_name="deliveries")
    op.drop_index("ix_deliveries_chat_id_update_id", table_name="deliveries")
    op.drop_table("deliveries")
