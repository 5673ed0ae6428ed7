"""The game's changes: a game started, ended or moved with its chat, seats taken, racks and tables set, plays,
draws and passes. Each asks the game core (``bot.game``) for the new state and runs as one change
(``bot.storage.transactions``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.game import ending, errors, plays, position, racks, seats, table, turns
from bot.game.codec import encode_rules, encode_tiles
from bot.game.state import (
    Changed,
    EventKind,
    GameState,
    Played,
)
from bot.game.trace import Trace
from bot.game.turns import Drawn
from bot.game.undoing import SEAT_WITH_GAME
from bot.storage.mapping import state_of
from bot.storage.models import Game
from bot.storage.reading import Reading
from bot.storage.transactions import RUNNING, Step
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Solution
from solver.text import N_
from solver.tiles import Tile


class GameChanges(Reading):
    """Every change to a game but undo (``bot.storage.undo``)."""

    async def new_game(
        self,
        chat_id: int,
        user_id: int,
        rules: Rules = STANDARD,
        *,
        join_as: str | None = None,
        seated: Sequence[tuple[int, str]] = (),
        replace: bool = False,
        title: str | None = None,
        answering: str | None = None,
    ) -> GameState:
        """Start a game in ``chat_id``; ``join_as`` seats the creator under that name, ``seated`` seats these
        players (id, name) in this order (a new game with the same players).

        A running game in the chat is an error, unless ``replace`` ends it first
        (in the same transaction, with its scores in its history).
        """
        async with self._locks.hold(("chat", chat_id)):
            running = await self.find_active_game(chat_id)
            if running is not None and not replace:
                raise errors.GameAlreadyRunning(N_("a game is already running in this chat; /end it first"))

            async def create(session: AsyncSession) -> GameState:
                if answering is not None:
                    await self._take_question(session, answering)
                now = self.clock()
                old = await self._running_row(session, chat_id, lock=True)
                if old is not None:
                    if not replace:
                        raise errors.GameAlreadyRunning(N_("a game is already running in this chat; /end it first"))
                    await self._apply(session, old, user_id, EventKind.GAME_ENDED, self._closing(user_id), now)
                    await session.flush()
                row = Game(
                    chat_id=chat_id,
                    status=RUNNING,
                    rules=encode_rules(rules),
                    table_sets=[],
                    turn_user_id=None,
                    invite=secrets.token_urlsafe(12),
                    version=1,
                    created_at=now,
                    updated_at=now,
                    ended_at=None,
                    title=title[:128] if title else None,
                    table_numbers=[],
                    adding=None,
                    passes=0,
                    finish=None,
                    winner_user_id=None,
                    players=[],
                )
                session.add(row)
                await session.flush()
                session.add(self._event(row.id, EventKind.GAME_STARTED, user_id, now, {"rules": rules.describe()}))
                if join_as is not None:
                    joining = self._joining(user_id, join_as, with_game=True)
                    await self._apply(session, row, user_id, EventKind.PLAYER_JOINED, joining, now)
                for uid, name in seated:
                    joining = self._joining(uid, name, with_game=True)
                    await self._apply(session, row, uid, EventKind.PLAYER_JOINED, joining, now)
                await session.flush()
                return state_of(row)

            try:
                return await self._transaction(create)
            except IntegrityError:
                raise errors.GameAlreadyRunning(N_("a game is already running in this chat; /end it first")) from None

    async def end_game(self, game_id: int, user_id: int, *, answering: str | None = None) -> GameState:
        """``/end``: a game still played stops, and waits for the tiles left on the racks (``declare``); a game
        waiting for them, or with one player, is closed and scored with what is known (``bot.game.ending``)."""

        def steps(state: GameState) -> list[tuple[EventKind, Step]]:
            if ending.stops(state):
                stopping: Step = lambda s: (ending.stop(s, user_id, self.clock()), {})  # noqa: E731
                return [(EventKind.GAME_STOPPED, stopping)]
            return [(EventKind.GAME_ENDED, self._closing(user_id))]

        _, after = await self._changes(game_id, user_id, steps, answering=answering)
        return after

    async def declare(
        self, game_id: int, user_id: int, tiles: Sequence[Tile], *, answering: str | None = None
    ) -> Changed:
        """The tiles left on the user's rack at the end of the game; the last rack told scores it."""
        trimmed: tuple[int, ...] = ()

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            nonlocal trimmed
            after, trimmed = ending.declare(state, user_id, tiles, self.clock())
            return after, {"tiles": len(tiles)}

        _, after = await self._change(game_id, user_id, EventKind.RACK_DECLARED, step, answering=answering)
        return Changed(after, trimmed)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> GameState | None:
        """Follow a chat that got a new id (a group that became a supergroup): its games move along.

        Returns the running game now in ``new_chat_id`` (None if there was
        none to move). Calling it again for the same move changes nothing.
        """
        first, second = sorted((old_chat_id, new_chat_id))
        async with self._locks.hold(("chat", first)), self._locks.hold(("chat", second)):

            async def move(session: AsyncSession) -> int | None:
                moving = await self._running_row(session, old_chat_id, lock=True)
                if moving is not None and await self._running_row(session, new_chat_id) is not None:
                    raise errors.GameAlreadyRunning(N_("chat {chat} already has a running game"), chat=new_chat_id)
                await session.execute(
                    update(Game)
                    .where(Game.chat_id == old_chat_id)
                    .values(chat_id=new_chat_id, version=Game.version + 1)
                    .execution_options(synchronize_session=False)
                )
                if moving is None:
                    return None
                detail = {"from": old_chat_id, "to": new_chat_id}
                session.add(self._event(moving.id, EventKind.CHAT_MOVED, None, self.clock(), detail))
                return moving.id

            moved = await self._transaction(move)
        return None if moved is None else await self.game(moved)

    async def join(self, game_id: int, user_id: int, name: str, *, for_good: bool = False) -> GameState:
        """Take the next seat (the seat order is the join order). ``for_good``: a seat /undo does not take
        back, like the one a game is started with (a private game's own player)."""
        joining = self._joining(user_id, name, with_game=for_good)
        _, after = await self._change(game_id, user_id, EventKind.PLAYER_JOINED, joining)
        return after

    async def set_rack(
        self, game_id: int, user_id: int, tiles: Sequence[Tile], *, answering: str | None = None
    ) -> Changed:
        """Replace the user's rack (``bot.game.racks.set_rack``). ``answering``: the question (``ask``) this
        change answers, taken in the same transaction."""
        racking, told = _racking(user_id, tiles)
        _, after = await self._change(game_id, user_id, EventKind.RACK_SET, racking, answering=answering)
        return Changed(after, told())

    async def draw(
        self,
        game_id: int,
        user_id: int,
        tiles: Sequence[Tile] = (),
        *,
        player: int | None = None,
        out_of_turn: bool = False,
        answering: str | None = None,
    ) -> Drawn:
        """A draw that ends ``player``'s turn (default: ``user_id``, who tells it), or the naming of tiles drawn
        in the group (``bot.game.turns``: which it is, the core says). ``answering``: as for ``set_rack``."""
        drawer = player if player is not None else user_id
        drawn: Drawn | None = None

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            nonlocal drawn
            drawn = turns.told_draw(state, drawer, tiles, out_of_turn=out_of_turn, teller=user_id)
            detail: dict[str, Any] = {"tiles": drawn.count or len(tiles), "player": drawer}
            if drawn.skipped:
                detail["skipped"] = list(drawn.skipped)
            return drawn.state, detail

        def steps(state: GameState) -> list[tuple[EventKind, Step]]:
            if turns.names_drawn(state, drawer, tiles) and drawer == user_id:
                return [(EventKind.TILES_NAMED, step)]
            return [(EventKind.TURN_PASSED if state.pool == 0 else EventKind.TILES_DRAWN, step)]

        _, after = await self._changes(game_id, user_id, steps, answering=answering)
        assert drawn is not None
        return replace(drawn, state=after)

    async def set_position(
        self, game_id: int, user_id: int, *, rack: Sequence[Tile] | None = None, table: Sequence[TileSet] | None = None
    ) -> Changed:
        """Replace the rack and/or the table in one transaction ("rack: …" and "table: …" in one message): each
        part is its own event (undo takes them back one at a time), in the order the game core gives."""
        told: list[Callable[[], tuple[int, ...]]] = []

        def steps(state: GameState) -> list[tuple[EventKind, Step]]:
            out: list[tuple[EventKind, Step]] = []
            for part in position.order(state, user_id, rack, table):
                if part is position.Part.TABLE:
                    assert table is not None
                    step, got = _tabling(user_id, table)
                    out.append((EventKind.TABLE_SET, step))
                else:
                    step, got = _racking(user_id, () if part is position.Part.EMPTY_RACK else rack or ())
                    out.append((EventKind.RACK_SET, step))
                told.append(got)
            return out

        _, after = await self._changes(game_id, user_id, steps)
        return Changed(after, tuple(sorted({uid for got in told for uid in got()})))

    async def set_table(
        self,
        game_id: int,
        user_id: int,
        sets: Sequence[TileSet],
        *,
        with_rack: bool = True,
        based_on: Sequence[TileSet] | None = None,
        answering: str | None = None,
    ) -> Changed:
        """Replace the whole table: not a play (no turn passes); a correction unless ``based_on``.

        ``with_rack`` False checks the table alone against the deck, not with the user's rack (a table
        everyone sees); ``based_on`` is the table the new one was made from: it must still be the table,
        and none of its tiles may go (see ``table.set_table``). ``answering``: as for ``set_rack``.
        """
        tabling, told = _tabling(user_id, sets, with_rack=with_rack, based_on=based_on)
        _, after = await self._change(game_id, user_id, EventKind.TABLE_SET, tabling, answering=answering)
        return Changed(after, told())

    async def record_play(
        self,
        game_id: int,
        user_id: int,
        table: Sequence[TileSet],
        *,
        player: int | None = None,
        trace: Trace | None = None,
        based_on: Sequence[TileSet] | None = None,
        out_of_turn: bool = False,
        opening_waived: bool = False,
        rack_after: Sequence[Tile] | None = None,
        answering: str | None = None,
    ) -> Played:
        """Record that ``player`` (default: ``user_id``, who records it) put tiles down, leaving ``table`` as
        the whole new table. The game core decides what it means (``bot.game.plays.play``): every old tile
        stays, a first play is an initial meld unless ``opening_waived``, and a play on someone else's turn
        needs ``out_of_turn``. ``trace``: where each tile came from, as the play was read. ``based_on``: the
        table ``table`` was worked out from, which must still be it. ``rack_after``: the recorder's own rack as
        they typed it with the play, set in the same change (``bot.game.position``).
        """
        return await self._play(
            game_id,
            user_id,
            player if player is not None else user_id,
            lambda state: tuple(table),
            trace=trace,
            based_on=based_on,
            out_of_turn=out_of_turn,
            opening_waived=opening_waived,
            rack_after=rack_after,
            answering=answering,
        )

    async def apply_suggestion(
        self,
        game_id: int,
        user_id: int,
        solution: Solution,
        *,
        out_of_turn: bool = False,
        answering: str | None = None,
    ) -> Played:
        """Make the solver's play ("I played this"): table and rack change together, and the
        initial meld counts as made. A suggestion for an older table or rack is refused."""
        played: Played | None = None

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            nonlocal played
            played = plays.apply_suggestion(state, user_id, solution, out_of_turn=out_of_turn, now=self.clock())
            return played.state, _play_detail(played)

        _, after = await self._change(game_id, user_id, EventKind.SUGGESTION_APPLIED, step, answering=answering)
        assert played is not None
        return replace(played, state=after)

    async def mark_melded(self, game_id: int, user_id: int) -> GameState:
        """Note that the user made their initial meld outside the bot."""

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            return plays.mark_melded(state, user_id), {}

        _, after = await self._change(game_id, user_id, EventKind.MELD_MARKED, step)
        return after

    async def pass_turn(
        self,
        game_id: int,
        user_id: int,
        *,
        player: int | None = None,
        out_of_turn: bool = False,
        answering: str | None = None,
    ) -> Drawn:
        """A turn without a play on an empty pool (``bot.game.turns.pass_turn``). ``answering``: as for
        ``set_rack``."""
        passer = player if player is not None else user_id
        drawn: Drawn | None = None

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            nonlocal drawn
            drawn = turns.pass_turn(state, passer, out_of_turn=out_of_turn, teller=user_id)
            return drawn.state, {"from": state.turn, "to": drawn.state.turn, "player": passer}

        _, after = await self._change(game_id, user_id, EventKind.TURN_PASSED, step, answering=answering)
        assert drawn is not None
        return replace(drawn, state=after)

    async def _play(
        self,
        game_id: int,
        user_id: int,
        player: int,
        table_of: Callable[[GameState], Sequence[TileSet]],
        *,
        trace: Trace | None,
        based_on: Sequence[TileSet] | None,
        out_of_turn: bool,
        opening_waived: bool,
        rack_after: Sequence[Tile] | None,
        answering: str | None,
    ) -> Played:
        played: Played | None = None

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            nonlocal played
            played = position.play_with_rack(
                state,
                user_id,
                player,
                table_of(state),
                trace=trace,
                based_on=based_on,
                out_of_turn=out_of_turn,
                opening_waived=opening_waived,
                rack_after=rack_after,
                now=self.clock(),
            )
            return played.state, _play_detail(played)

        _, after = await self._change(game_id, user_id, EventKind.PLAY_RECORDED, step, answering=answering)
        assert played is not None
        return replace(played, state=after)

    def _joining(self, user_id: int, name: str, *, with_game: bool = False) -> Step:
        """Taking a seat; ``with_game``: the seat its creator got with a new game (``SEAT_WITH_GAME``)."""

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            after = seats.join(state, user_id, name)
            player = after.player(user_id)
            assert player is not None
            detail: dict[str, Any] = {"name": player.name, "seat": player.seat}
            if with_game:
                detail[SEAT_WITH_GAME] = True
            return after, detail

        return step

    def _closing(self, user_id: int) -> Step:
        """The step that closes a game now, scored with what is known (``ending.close``)."""

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            after = ending.close(state, user_id, self.clock())
            return after, {"scores": [{"user_id": s.user_id, "score": s.score} for s in ending.scores(after)]}

        return step


def _play_detail(played: Played) -> dict[str, Any]:
    """What the history says of a play: the tiles put down, whose play it was, whose turns it passed over."""
    detail: dict[str, Any] = {"placed": encode_tiles(played.placed), "player": played.by}
    if played.skipped:
        detail["skipped"] = list(played.skipped)
    return detail


def _racking(user_id: int, tiles: Sequence[Tile]) -> tuple[Step, Callable[[], tuple[int, ...]]]:
    """The step that replaces a rack, and what tells the players whose older racks gave tiles up to it."""
    trimmed: tuple[int, ...] = ()

    def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
        nonlocal trimmed
        after, trimmed = racks.set_rack(state, user_id, tiles)
        return after, {"tiles": len(tiles)}

    return step, lambda: trimmed


def _tabling(
    user_id: int, sets: Sequence[TileSet], *, with_rack: bool = True, based_on: Sequence[TileSet] | None = None
) -> tuple[Step, Callable[[], tuple[int, ...]]]:
    """The step that replaces the table (see ``table.set_table``), and the players whose racks gave tiles up."""
    trimmed: tuple[int, ...] = ()

    def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
        nonlocal trimmed
        after, trimmed = table.set_table(state, user_id, sets, with_rack=with_rack, based_on=based_on)
        return after, {"table": [str(s) for s in after.table]}

    return step, lambda: trimmed
