"""Questions asked with buttons: kept under a token the buttons carry until one answers them, once.

A change that answers a question takes it in its own transaction (``ChangeRunner._take_question``), so a
question is answered once, whichever process or tap comes first."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.game import errors
from bot.game.state import (
    GameState,
    GameStatus,
)
from bot.storage.models import AskedQuestion
from bot.storage.transactions import ChangeRunner
from solver.text import N_


@dataclass(frozen=True, slots=True)
class Question:
    """A question the bot asked with buttons: whose, about which game, and what its answers need."""

    token: str
    game_id: int
    user_id: int
    kind: str
    payload: dict[str, Any]


Step = Callable[[GameState], tuple[GameState, dict[str, Any]]]
RUNNING = GameStatus.RUNNING.value


class Questions(ChangeRunner):
    """The questions waiting for their answers."""

    async def ask(self, game_id: int, user_id: int, kind: str, payload: dict[str, Any]) -> str:
        """Keep a question about the game (its buttons carry the token this returns) until it is answered."""
        token = secrets.token_urlsafe(9)

        async def keep(session: AsyncSession) -> str:
            now = self.clock()
            session.add(
                AskedQuestion(token=token, game_id=game_id, user_id=user_id, kind=kind, payload=payload, created_at=now)
            )
            return token

        return await self._transaction(keep)

    async def remember(self, token: str, game_id: int, user_id: int, kind: str, payload: dict[str, Any]) -> None:
        """Keep ``payload`` under a token of the caller's making, replacing what it held (a shown suggestion)."""

        async def keep(session: AsyncSession) -> None:
            await session.execute(delete(AskedQuestion).where(AskedQuestion.token == token))
            now = self.clock()
            session.add(
                AskedQuestion(token=token, game_id=game_id, user_id=user_id, kind=kind, payload=payload, created_at=now)
            )

        await self._transaction(keep)

    async def question(self, token: str) -> Question:
        """A question still waiting for its answer (``AlreadyAnswered`` if it is gone)."""
        async with self.db.reads() as session, session.begin():
            row = await session.get(AskedQuestion, token)
            if row is None:
                raise errors.AlreadyAnswered(N_("this question was already answered (or is from an earlier game)"))
            return Question(row.token, row.game_id, row.user_id, row.kind, dict(row.payload))

    async def amend_question(self, token: str, payload: dict[str, Any]) -> None:
        """Replace a waiting question's payload (a tile keyboard's tiles so far); ``AlreadyAnswered`` if it is
        gone, so a tap after Done never brings the question back."""

        async def amend(session: AsyncSession) -> None:
            asked = update(AskedQuestion).where(AskedQuestion.token == token)
            done = await session.execute(asked.values(payload=payload))
            if getattr(done, "rowcount", 0) != 1:
                raise errors.AlreadyAnswered(N_("this question was already answered"))

        await self._transaction(amend)

    async def drop_question(self, token: str) -> None:
        """Answer a question with no change (Cancel): it is gone for every button."""
        await self._transaction(lambda session: self._take_question(session, token))
