"""Advice said once a game, not at every turn: how to tell the tile drawn, that /solve finds the best play.

A family playing a whole game reads the same line at every turn otherwise ("Draw a tile: /draw 7B" twenty-five
times in one game); once is enough to learn it. What was said is kept in the database (``GameService.first_time``),
so every bot process knows.
"""

from __future__ import annotations

from bot.game import GameState
from bot.telegram.context import BotContext

#: "Draw a tile: /draw 7B (your turn ends)."
DRAW = "draw"
#: "/solve for your best play."
SOLVE = "solve"


async def once(context: BotContext, state: GameState, user_id: int, tip: str) -> bool:
    """Whether to say ``tip`` to this player now: the first time in this game (it is noted as said)."""
    return await context.service.first_time(state.id, user_id, tip)
