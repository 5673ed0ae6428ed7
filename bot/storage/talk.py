"""What the chat speaks and has said: each chat's chosen language, the first language heard in a group that chose
none, and the tips already said to a player."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import GroupLanguage, Language, Tip
from bot.storage.transactions import ChangeRunner


class Talk(ChangeRunner):
    """Each chat's language and the tips said once."""

    async def languages(self, *chat_ids: int) -> dict[int, str]:
        """The languages these chats chose with /language (chats that chose none are left out)."""
        query = select(Language.chat_id, Language.code).where(Language.chat_id.in_(chat_ids))
        return {row.chat_id: row.code for row in await self.db.small_rows(query)}

    async def language_of(self, chat_id: int) -> str | None:
        """The language the chat chose with /language, if it did."""
        return (await self.languages(chat_id)).get(chat_id)

    async def choose_language(self, chat_id: int, code: str) -> None:
        """Keep ``code`` as the chat's language (a private chat's is its user's, in groups too)."""
        dialect = sqlite if self.db.is_sqlite else postgresql
        statement = dialect.insert(Language).values(chat_id=chat_id, code=code)
        statement = statement.on_conflict_do_update(index_elements=[Language.chat_id], set_={"code": code})

        async def choose(session: AsyncSession) -> None:
            await session.execute(statement)

        await self._transaction(choose)

    async def group_language(self, chat_id: int, heard: str | None) -> tuple[str | None, bool]:
        """The language a group that chose none is spoken to: the first heard there (``heard``: the speaker's
        now, None when this update says nothing of it), and whether to ask the group to choose now: once, when
        the language heard differs from the first."""
        dialect = sqlite if self.db.is_sqlite else postgresql

        async def hear(session: AsyncSession) -> tuple[str | None, bool]:
            if heard is not None:
                first = dialect.insert(GroupLanguage).values(chat_id=chat_id, first=heard, asked=False)
                await session.execute(first.on_conflict_do_nothing(index_elements=[GroupLanguage.chat_id]))
            row = await session.get(GroupLanguage, chat_id)
            if row is None:
                return None, False
            if heard is None or heard == row.first or row.asked:
                return row.first, False
            asked = update(GroupLanguage).where(GroupLanguage.chat_id == chat_id, GroupLanguage.asked.is_(False))
            done = await session.execute(asked.values(asked=True))
            return row.first, getattr(done, "rowcount", 0) == 1  # one process asks

        return await self._transaction(hear)

    async def first_time(self, game_id: int, user_id: int, tip: str) -> bool:
        """Whether ``tip`` is said to this player for the first time in this game (it is noted as said)."""
        dialect = sqlite if self.db.is_sqlite else postgresql
        statement = dialect.insert(Tip).values(game_id=game_id, user_id=user_id, tip=tip).on_conflict_do_nothing()

        async def note(session: AsyncSession) -> bool:
            done = await session.execute(statement)
            return getattr(done, "rowcount", 0) == 1

        return await self._transaction(note)
