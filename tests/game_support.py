"""Games built in memory for the game core's tests: seats, racks (known tiles and counts), a table."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.game import GameState, GameStatus, PlayerState
from solver import STANDARD, Rules
from tests.storage_support import table, tiles

ALICE, BOB, CAROL = 1, 2, 3
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def game(
    *,
    table_text: str = "",
    melded: bool = True,
    racks: dict[int, str] | None = None,
    sizes: dict[int, int] | None = None,
    players: tuple[int, ...] = (ALICE, BOB, CAROL),
    chat_id: int = -5,
    rules: Rules = STANDARD,
) -> GameState:
    """A running game, Alice to play. ``racks``: the tiles the bot knows on each rack; ``sizes``: each rack's
    count at the table (by default as many as it knows; 14 for a rack not given)."""
    racks, sizes = racks or {}, sizes or {}
    seated = tuple(
        PlayerState(
            uid, NAMES[uid], seat, tuple(tiles(racks.get(uid, ""))), melded, 0, True,
            rack_size=sizes.get(uid, len(tiles(racks[uid])) if uid in racks else rules.deal),
        )
        for seat, uid in enumerate(players)
    )  # fmt: skip
    return GameState(
        id=1, chat_id=chat_id, status=GameStatus.RUNNING, rules=rules,
        table=tuple(table(table_text)) if table_text else (), players=seated, turn=players[0], invite="x",
        version=1, created_at=datetime.now(UTC), ended_at=None,
    )  # fmt: skip


def rack(state: GameState, uid: int) -> list[str]:
    p = state.player(uid)
    assert p is not None
    return [str(t) for t in p.rack]
