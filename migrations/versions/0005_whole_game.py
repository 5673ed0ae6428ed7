"""The whole game: rack counts and the pool, set numbers, a play in parts, the end and its scores.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 15:00:00

Racks stored before knew no count apart from their tiles: each rack's count starts as its stored tiles, and
each table's sets are numbered in the order they lie. The history's diffs say the same of the values they
hold (undo puts them back): a rack that changed changed its count alike, a table its numbers, and a player
seated or removed had a count of their rack and nothing to name, declare or score. The new columns keep their
server defaults (adding a column with one needs no copy of the table: on SQLite a copy of ``games`` drops and
remakes it, and its players go with it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
events = sa.table("events", sa.column("id", sa.Integer), sa.column("diff", sa.JSON))


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
    for event_id, diff in conn.execute(sa.select(events.c.id, events.c.diff)).all():
        counted = _counted(diff or {})
        if counted != diff:
            conn.execute(events.update().where(events.c.id == event_id).values(diff=counted))


def _counted(diff: dict[str, Any]) -> dict[str, Any]:
    """An event's diff stored before the counts, with the counts its values had: without them, an undo of a
    rack told, a draw or a play put the tiles back but not the count (a rack of 4 known tiles counted 3)."""
    out = dict(diff)
    game = dict(out.get("game", {}))
    if "table" in game and "numbers" not in game:
        game["numbers"] = [list(range(1, len(t or []) + 1)) for t in game["table"]]
        out["game"] = game
    players = {}
    for uid, changed in out.get("players", {}).items():
        changed = dict(changed)
        if "rack" in changed and "rack_size" not in changed:
            old, new = (len(r or []) for r in changed["rack"])
            if old != new:
                changed["rack_size"] = [old, new]
        players[uid] = changed
    if players:
        out["players"] = players
    for part in ("added", "removed"):
        if part in out:
            out[part] = {uid: {**_SEATED, "rack_size": len(p.get("rack") or []), **p} for uid, p in out[part].items()}
    return out


#: a player's values a seat had before the counts, beside its rack's count
_SEATED: dict[str, Any] = {"unnamed": 0, "declared": False, "score": None}


def downgrade() -> None:
    for name in ("score", "declared", "unnamed", "rack_size"):
        op.drop_column("players", name)
    for name in ("winner_user_id", "finish", "passes", "adding", "table_numbers"):
        op.drop_column("games", name)
