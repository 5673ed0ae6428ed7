"""Ties: a private chat bound to a game (a group's, or the user's own), so a player's private messages apply to
it; made by a deep link or a button, followed to the group's next game, undone."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload

from bot.game import errors, seats
from bot.game.state import (
    GameState,
)
from bot.storage import queries
from bot.storage.mapping import state_of
from bot.storage.models import Game, Tie
from bot.storage.transactions import RUNNING, ChangeRunner
from solver.text import N_


class Ties(ChangeRunner):
    """Each user's private chat's tie to a game."""

    async def tie_by_invite(self, user_id: int, invite: str) -> GameState:
        """Tie the user's private chat to the group game of a deep link (they must play in it)."""

        async def tie(session: AsyncSession) -> GameState:
            row = await self._invite_row(session, invite)
            return await self._tie(session, user_id, row)

        async with self._locks.hold(("user", user_id)):
            return await self._transaction(tie)

    async def tie(self, user_id: int, game_id: int) -> GameState:
        """Tie the user's private chat to a running game they sit at (a group's, or their own private one)."""

        async def tie(session: AsyncSession) -> GameState:
            row = await self._row(session, game_id)
            seats.ensure_running(state_of(row))
            return await self._tie(session, user_id, row)

        async with self._locks.hold(("user", user_id)):
            return await self._transaction(tie)

    async def _tie(self, session: AsyncSession, user_id: int, row: Game) -> GameState:
        """Tie (or tie anew) the user's private chat to the game of ``row``, where they must play."""
        state = state_of(row)
        player = state.player(user_id)
        if player is None or not player.active:
            raise errors.NotAPlayer(N_("you are not playing in that game; /join it in its group first"))
        tie = await session.get(Tie, user_id)
        if tie is None:
            session.add(Tie(user_id=user_id, game_id=row.id, tied_at=self.clock()))
        else:
            tie.game_id, tie.tied_at = row.id, self.clock()
        return state

    async def tied_game(self, user_id: int) -> GameState | None:
        """The game the user's private chat is tied to (running or not), or None."""
        found = await self._games(queries.TIED_TO, user_id=user_id)
        return found[0] if found else None

    async def seated_games(self, user_id: int) -> list[GameState]:
        """The running games the user sits at (groups' and their own), oldest first."""
        return await self._games(queries.SEATED, user_id=user_id)

    async def follow_to(self, user_id: int, state: GameState) -> bool:
        """Tie the user's private chat to ``state`` when it was tied to an ended game of the same chat (the
        group's next game, which the user just joined); True if it was. Other ties are left alone."""

        async def move(session: AsyncSession) -> bool:
            tie = await session.get(Tie, user_id)
            if tie is None or tie.game_id == state.id:
                return False
            old = await session.get(Game, tie.game_id)
            if old is None or old.chat_id != state.chat_id or old.status == RUNNING:
                return False
            tie.game_id, tie.tied_at = state.id, self.clock()
            return True

        async with self._locks.hold(("user", user_id)):
            return await self._transaction(move)

    async def untie(self, user_id: int) -> bool:
        """Back to the private chat's own game; False if there was no tie."""

        async def untie(session: AsyncSession) -> bool:
            tie = await session.get(Tie, user_id)
            if tie is None:
                return False
            await session.delete(tie)
            return True

        async with self._locks.hold(("user", user_id)):
            return await self._transaction(untie)

    @staticmethod
    async def _invite_row(session: AsyncSession, invite: str) -> Game:
        query = select(Game).where(Game.invite == invite).options(joinedload(Game.players))
        row = (await session.scalars(query)).unique().one_or_none()
        if row is None or row.status != RUNNING:
            raise errors.InvalidInvite(N_("this link is for a game that is over or unknown; ask for a new one"))
        return row
