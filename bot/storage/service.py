"""The game service: what the bot calls to keep each chat's game.

Domain values in (tiles, sets, a ``Solution``, plain Telegram ids), domain
values out (``GameState`` and friends); no Telegram and no rows cross this
line. Every change runs as one transaction that either records a new state
and its event or, raising a ``GameError``, changes nothing
(``bot.storage.transactions``, which also says how changes never race).

``GameService`` is the one entry point; its parts live beside it by what they
hold: ``reading`` (the games as they are), ``game_changes`` (starting, seating,
racks, tables, plays, draws, the end), ``undo``, ``ties`` (a private chat bound
to a game), ``questions`` (asked with buttons) and ``talk`` (languages, tips).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.game_changes import GameChanges
from bot.storage.questions import Question, Questions
from bot.storage.talk import Talk
from bot.storage.ties import Ties
from bot.storage.undo import Undo

__all__ = ["GameService", "Question"]


@dataclass
class GameService(GameChanges, Undo, Ties, Questions, Talk):
    """Keeps games in the database; one instance per process, shared by all handlers."""
