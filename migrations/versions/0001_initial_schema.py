"""Initial schema: games, players, their append-only history, private-chat links.

Written out in full (no imports from the models) so this revision keeps
meaning what it meant when the models move on.

Revision ID: 0001
Revises:
Create Date: 2026-11-22 12:12:18
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RUNNING_ONLY = sa.text("status = 'running'")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("table_sets", sa.JSON(), nullable=False),
        sa.Column("turn_user_id", sa.BigInteger(), nullable=True),
        sa.Column("invite", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('running', 'ended')", name=op.f("ck_games_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("invite", name=op.f("uq_games_invite")),
    )
    op.create_index("ix_games_chat_id", "games", ["chat_id"])
    op.create_index(
        "uq_games_running_chat",
        "games",
        ["chat_id"],
        unique=True,
        sqlite_where=RUNNING_ONLY,
        postgresql_where=RUNNING_ONLY,
    )

    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rack", sa.JSON(), nullable=False),
        sa.Column("melded", sa.Boolean(), nullable=False),
        sa.Column("tiles_played", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_players_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("game_id", "user_id", name="uq_players_game_user"),
    )

    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("diff", sa.JSON(), nullable=False),
        sa.Column("undoes_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_events_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["undoes_id"], ["events.id"], name=op.f("fk_events_undoes_id_events"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    op.create_index("ix_events_game_id_id", "events", ["game_id", "id"])
    op.create_index("ix_events_undoes_id", "events", ["undoes_id"])

    op.create_table(
        "links",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_links_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_links")),
    )
    op.create_index("ix_links_game_id", "links", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_links_game_id", table_name="links")
    op.drop_table("links")
    op.drop_index("ix_events_undoes_id", table_name="events")
    op.drop_index("ix_events_game_id_id", table_name="events")
    op.drop_table("events")
    op.drop_table("players")
    op.drop_index("uq_games_running_chat", table_name="games")
    op.drop_index("ix_games_chat_id", table_name="games")
    op.drop_table("games")
