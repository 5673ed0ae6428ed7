"""The game core: the rules of play, and the only place that decides what a change to a game means.

Seats and turns, racks, the table, plays and the initial meld, the history of
changes and undo, the end and its scores (``ending``), what the bot knows of each
rack (``knowledge``), set numbers (``numbering``) and the invariants every change
keeps (``invariants``): each request is a pure function from
the game before it to the game after it (or a ``GameError``, which changes
nothing). It knows nothing of Telegram or SQL: storage loads and saves a
``GameState``, the chat translates messages into these requests.
"""

from bot.game.errors import GameError
from bot.game.state import (
    EventKind,
    EventRecord,
    Finish,
    GameState,
    GameStatus,
    Played,
    PlayerScore,
    PlayerState,
    Undone,
)

__all__ = [
    "EventKind",
    "EventRecord",
    "Finish",
    "GameError",
    "GameState",
    "GameStatus",
    "Played",
    "PlayerScore",
    "PlayerState",
    "Undone",
]
