"""The language each chat chose with /language (``languages``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 02:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "languages",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_languages")),
    )


def downgrade() -> None:
    op.drop_table("languages")
