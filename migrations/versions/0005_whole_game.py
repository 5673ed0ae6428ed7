"""The whole game: rack counts and the pool, set numbers, a play in parts, the end and its scores.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 15:00:00

Racks stored before knew no count apart from their tiles: each rack's count starts as its stored tiles, and
each table's sets are numbered in the order they lie. The new columns keep their server defaults (adding a
column with one needs no copy of the table: on SQLite a copy of ``games`` drops and remakes it, and its players
go with it).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

games = sa.table("games", sa.column("id", sa.Integer), sa.column("table_sets", sa.JSON),
                 sa.column("table_numbers", sa.JSON))  # fmt: skip
players = sa.table("players", sa.column("id", sa.Integer), sa.column("rack", sa.JSON),
                   sa.column("rack_size", sa.Integer))  # fmt: skip


def upgrade() -> None:
    # plain ADD COLUMN (no batch copy): copying ``games`` on SQLite would cascade-delete its players
    op.add_column("games", sa.Column("table_numbers", sa.JSON(), nullable=False, server_default=sa.text("'[]'")))
    op.add_column("games", sa.Column("adding", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("passes", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("games", sa.Column("finish", sa.String(length=8), nullable=True))
    op.add_column("games", sa.Column("winner_user_id", sa.BigInteger(), nullable=True))
    op.add_column("players", sa.Column("rack_size", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("players", sa.Column("unnamed", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("players", sa.Column("declared", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("players", sa.Column("score", sa.Integer(), nullable=True))
    conn = op.get_bind()
    for game_id, sets in conn.execute(sa.select(games.c.id, games.c.table_sets)).all():
        numbers = list(range(1, len(sets or []) + 1))
        conn.execute(games.update().where(games.c.id == game_id).values(table_numbers=numbers))
    for player_id, rack in conn.execute(sa.select(players.c.id, players.c.rack)).all():
        conn.execute(players.update().where(players.c.id == player_id).values(rack_size=len(rack or [])))


def downgrade() -> None:
    for name in ("score", "declared", "unnamed", "rack_size"):
        op.drop_column("players", name)
    for name in ("winner_user_id", "finish", "passes", "adding", "table_numbers"):
        op.drop_column("games", name)
