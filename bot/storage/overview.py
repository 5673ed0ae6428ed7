"""An operator's reads of a chat's game (``python -m bot game``): the game, its number of changes, a tie.

Read-only and apart from ``GameService``: the service is what the bot changes games through, and an
operator looking at a game from the terminal must never take its locks or write.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select

from bot.game.state import GameState
from bot.storage import queries
from bot.storage.database import Database
from bot.storage.models import Event, Game, Tie
from bot.storage.scores import Total, totals


@dataclass(frozen=True, slots=True)
class Overview:
    """A chat's latest game, how many events its history holds, (for a private chat) the group chat whose
    game the user's private chat is tied to, and the chat's running totals."""

    state: GameState
    changes: int
    tied_to: int | None
    #: the chat's scored games summed per player
    totals: list[Total] = field(default_factory=list)


async def latest_game(db: Database, chat_id: int) -> GameState | None:
    """The chat's latest game: its running one, else its newest ended one, else None (the game a chat's messages
    apply to is ``bot.telegram.games.current_game``: a private chat's may be a group's)."""
    for statement in (queries.RUNNING_IN, queries.NEWEST_IN):
        found = queries.states_of(await db.rows(statement, {"chat_id": chat_id}))
        if found:
            return found[0]
    return None


async def count_changes(db: Database, game_id: int) -> int:
    """Events in the game's history, undo entries included (what ``GameService.count_events`` counts)."""
    query = select(func.count()).select_from(Event).where(Event.game_id == game_id)
    rows = await db.rows(query)
    return int(rows[0][0]) if rows else 0


async def tied_to(db: Database, user_id: int) -> int | None:
    """The chat id of the game the user's private chat is tied to (``links``), running or not; None if none."""
    query = select(Game.chat_id).join(Tie, Tie.game_id == Game.id).where(Tie.user_id == user_id)
    rows = await db.rows(query)
    return int(rows[0][0]) if rows else None


async def overview(db: Database, chat_id: int) -> Overview | None:
    """Everything ``python -m bot game`` shows about a chat; None when the chat never had a game.

    A private chat's id is its user's id (Telegram's convention), so positive chat ids are looked up in
    ``links``; groups (negative ids) are never tied to anything.
    """
    state = await latest_game(db, chat_id)
    if state is None:
        return None
    tie = await tied_to(db, chat_id) if chat_id > 0 else None
    return Overview(state, await count_changes(db, state.id), tie, await totals(db, state.chat_id))
