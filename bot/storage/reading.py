"""Reading games: by id, a chat's running or newest game, the game a message applies to, a chat's totals."""

from __future__ import annotations

from bot.game import errors
from bot.game.state import (
    GameState,
)
from bot.storage import queries
from bot.storage.scores import Total, totals
from bot.storage.transactions import ChangeRunner
from solver.text import N_


class Reading(ChangeRunner):
    """The games as they are (one SQL statement each, ``bot.storage.queries``)."""

    async def game(self, game_id: int) -> GameState:
        """A game by id, running or ended."""
        found = await self._games(queries.BY_ID, game_id=game_id)
        if not found:
            raise errors.NoGame(N_("there is no game {game_id}"), game_id=game_id)
        return found[0]

    async def find_active_game(self, chat_id: int) -> GameState | None:
        found = await self._games(queries.RUNNING_IN, chat_id=chat_id)
        return found[0] if found else None

    async def active_game(self, chat_id: int) -> GameState:
        """The chat's running game, or ``NoGame``."""
        state = await self.find_active_game(chat_id)
        if state is None:
            raise _no_game()
        return state

    async def newest_game(self, chat_id: int) -> GameState:
        """The chat's newest game, running or ended (an /end may still be undone)."""
        found = await self._games(queries.NEWEST_IN, chat_id=chat_id)
        if not found:
            raise _no_game()
        return found[0]

    async def chat_totals(self, chat_id: int) -> list[Total]:
        """The chat's running totals: each player's scores summed over its scored games (``storage.scores``)."""
        return await totals(self.db, chat_id)

    async def game_for(self, chat_id: int, user_id: int, *, private: bool) -> GameState:
        """The game a message applies to: in a private chat tied to a group game that the
        user still plays in, that game; otherwise the chat's own running game."""
        if private:  # one statement: every message reads this
            found = await self._games(queries.RUNNING_IN_OR_TIED, chat_id=chat_id, user_id=user_id)
        else:
            found = await self._games(queries.RUNNING_IN, chat_id=chat_id)
        own = next((s for s in found if s.chat_id == chat_id and s.running), None)
        for state in found:
            player = state.player(user_id)
            if state is not own and state.running and player is not None and player.active:
                return state
        if own is None:
            raise _no_game()
        return own


def _no_game() -> errors.NoGame:
    return errors.NoGame(N_("no game is running in this chat; /new starts one"))
