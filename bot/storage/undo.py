"""Undo in storage: the change to take back (``bot.game.undoing`` chooses and checks), its reversal checked
against the later changes and recorded as an event of its own."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.game import errors, invariants, seats
from bot.game import history as changes
from bot.game.state import (
    EventKind,
    EventRecord,
    GameState,
    GameStatus,
    Undone,
)
from bot.game.undoing import UndoChoice, check_after_undo, check_may_undo, undo_choice
from bot.storage.mapping import record_of, state_of, write
from bot.storage.models import Event
from bot.storage.transactions import ChangeRunner
from solver.text import N_, Text, say


class Undo(ChangeRunner):
    """``/undo`` and what it may take back."""

    async def undo_choice(self, game_id: int, user_id: int) -> UndoChoice:
        """What ``/undo`` by this user may take back (``bot.game.undoing``): their own last change, and a
        later public change of someone else's that needs a confirmation."""
        async with self.db.reads() as session, session.begin():
            return undo_choice(await self._history(session, game_id), user_id)

    async def undo(
        self,
        game_id: int,
        user_id: int,
        *,
        event_id: int | None = None,
        confirmed: bool = False,
        answering: str | None = None,
    ) -> Undone:
        """Take back the user's own last change, or the change ``event_id`` (someone else's: ``confirmed``).

        Refused if a later change touched the same things (undo that first).
        Undoing the end of a game opens it again.
        """

        async def run(session: AsyncSession) -> Undone:
            if answering is not None:
                await self._take_question(session, answering)
            return await self._undo(session, game_id, user_id, event_id, confirmed)

        async with self._locks.hold(game_id):
            return await self._transaction(run)

    async def _undo(
        self, session: AsyncSession, game_id: int, user_id: int, event_id: int | None, confirmed: bool
    ) -> Undone:
        row = await self._row(session, game_id, lock=True)
        state = state_of(row)
        history = await self._history(session, game_id)
        if event_id is None:
            record = undo_choice(history, user_id).mine
            if record is None:
                raise errors.NothingToUndo(N_("there is no change of yours to undo"))
        else:
            record = next((e for e in history if e.id == event_id), None)
            if record is None:
                raise errors.NothingToUndo(N_("that change is not in this game"))
            check_may_undo(record, user_id, confirmed=confirmed)
        target = await session.get_one(Event, record.id)
        kind = EventKind(target.kind)
        back = changes.reverse(target.diff)
        reopens = back.get("game", {}).get("status", [None, None])[1] == GameStatus.RUNNING.value
        if not state.running and not reopens:
            raise errors.GameOver(N_("this game has ended; /new starts another"))
        if reopens:
            other = await self._running_row(session, row.chat_id)
            if other is not None:
                raise errors.GameAlreadyRunning(N_("another game is running in this chat now; the old one stays ended"))
        current = changes.snapshot(state)
        clash = changes.conflicts(current, back)
        if clash:
            raise errors.UndoConflict(await self._clash_message(session, state, target, clash))
        after = changes.restore(state, changes.apply(current, back))
        after, _trimmed = check_after_undo(after, back)
        after = seats.turn_to_a_seat(after, state)
        invariants.check(after)
        back = changes.diff(current, changes.snapshot(after))
        now = self.clock()
        write(row, changes.snapshot(after), now)
        detail = {"kind": kind.value, "by": target.user_id}
        session.add(self._event(game_id, EventKind.UNDONE, user_id, now, detail, back, undoes=target.id))
        await session.flush()
        return Undone(record_of(target, undone=True), state_of(row))

    async def _clash_message(self, session: AsyncSession, state: GameState, target: Event, clash: set[str]) -> Text:
        """Why ``target`` cannot be undone: the later change that touched the same things, if one did. A whole
        sentence for each case (a player's change or the game's), so a translation may order it as it needs."""
        later = (
            await session.scalars(
                select(Event).where(Event.game_id == state.id, Event.id > target.id).order_by(Event.id)
            )
        ).all()
        undone = await self._undone_ids(session, state.id)
        change = EventKind(target.kind).text
        owner = self._player_name(state, target.user_id)
        for e in later:
            if e.id in undone or e.kind == EventKind.UNDONE.value:
                continue
            if _overlaps(changes.touched(e.diff), clash):
                other, by = EventKind(e.kind).text, self._player_name(state, e.user_id)
                if owner is not None and by is not None:
                    return say(
                        "cannot undo {name}'s {change}: {other_name}'s {other} changed the same things after it; "
                        "undo that first",
                        name=owner, change=change, other_name=by, other=other,
                    )  # fmt: skip
                if owner is not None:
                    return say(
                        "cannot undo {name}'s {change}: the {other} changed the same things after it; undo that first",
                        name=owner, change=change, other=other,
                    )  # fmt: skip
                if by is not None:
                    return say(
                        "cannot undo the {change}: {other_name}'s {other} changed the same things after it; "
                        "undo that first",
                        change=change, other_name=by, other=other,
                    )  # fmt: skip
                return say(
                    "cannot undo the {change}: the {other} changed the same things after it; undo that first",
                    change=change, other=other,
                )  # fmt: skip
        if owner is not None:
            return say(
                "cannot undo {name}'s {change}: the game has changed since in the same places",
                name=owner,
                change=change,
            )
        return say("cannot undo the {change}: the game has changed since in the same places", change=change)

    @staticmethod
    def _player_name(state: GameState, user_id: int | None) -> str | None:
        p = state.player(user_id) if user_id is not None else None
        return p.name if p else None

    async def _history(self, session: AsyncSession, game_id: int) -> list[EventRecord]:
        """The game's whole history, oldest first, undone events flagged."""
        rows = (await session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id))).all()
        undone = await self._undone_ids(session, game_id)
        return [record_of(r, r.id in undone) for r in rows]


def _overlaps(keys: Iterable[str], clash: Iterable[str]) -> bool:
    return any(k == c or k.startswith(c + ":") or c.startswith(k + ":") for k in keys for c in clash)
