"""The game service: what the bot calls to keep each chat's game.

Domain values in (tiles, sets, a ``Solution``, plain Telegram ids), domain
values out (``GameState`` and friends); no Telegram and no rows cross this
line. Every change runs as one transaction that either records a new state
and its event or, raising a ``GameError``, changes nothing.

Concurrency: changes to one game queue on that game's asyncio lock (so this
process never races itself), then take the database's lock on the game row
(``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR UPDATE`` on PostgreSQL, so
other processes cannot race us either), and the row's version column turns any
update that slipped through anyway into a retry instead of a lost write.
Different games use different locks and rows and never wait for each other
beyond SQLite's single short write at a time.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.exc import StaleDataError

from bot.game import ending, errors, invariants, plays, position, racks, seats, table, turns
from bot.game import history as changes
from bot.game.codec import encode_rules, encode_tiles
from bot.game.state import (
    Changed,
    EventKind,
    EventRecord,
    GameState,
    GameStatus,
    Played,
    Undone,
)
from bot.game.trace import Trace
from bot.game.turns import Drawn
from bot.game.undoing import SEAT_WITH_GAME, UndoChoice, check_after_undo, check_may_undo, undo_choice
from bot.storage import inbox, queries
from bot.storage.database import Database, is_locked
from bot.storage.locks import KeyedLocks
from bot.storage.mapping import record_of, state_of, write
from bot.storage.models import AskedQuestion, Event, Game, GroupLanguage, Language, Tie, Tip, utcnow
from bot.storage.scores import Total, totals
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Solution
from solver.text import N_, Text, say
from solver.tiles import Tile

T = TypeVar("T")


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


@dataclass
class GameService:
    """Keeps games in the database; one instance per process, shared by all handlers."""

    db: Database
    clock: Callable[[], datetime] = utcnow
    retries: int = 5
    _locks: KeyedLocks = field(default_factory=KeyedLocks, init=False, repr=False)

    # --- reading ------------------------------------------------------------------------------

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

    async def game_by_invite(self, invite: str) -> GameState:
        """The running game a deep-link payload names."""
        found = await self._games(queries.BY_INVITE, invite=invite)
        if not found or not found[0].running:
            raise errors.InvalidInvite(N_("this link is for a game that is over or unknown; ask for a new one"))
        return found[0]

    async def _games(self, statement: Select[Any], **params: object) -> list[GameState]:
        return queries.states_of(await self.db.rows(statement, params))

    async def history(self, game_id: int, *, limit: int = 50) -> list[EventRecord]:
        """The game's latest events, oldest first (undone ones flagged)."""
        async with self.db.reads() as session, session.begin():
            await self._row(session, game_id)
            rows = (
                await session.scalars(
                    select(Event).where(Event.game_id == game_id).order_by(Event.id.desc()).limit(limit)
                )
            ).all()
            undone = await self._undone_ids(session, game_id)
            return [record_of(r, r.id in undone) for r in reversed(rows)]

    # --- games --------------------------------------------------------------------------------

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

    # --- players ------------------------------------------------------------------------------

    async def join(self, game_id: int, user_id: int, name: str, *, for_good: bool = False) -> GameState:
        """Take the next seat (the seat order is the join order). ``for_good``: a seat /undo does not take
        back, like the one a game is started with (a private game's own player)."""
        joining = self._joining(user_id, name, with_game=for_good)
        _, after = await self._change(game_id, user_id, EventKind.PLAYER_JOINED, joining)
        return after

    async def leave(self, game_id: int, user_id: int) -> GameState:
        """Leave the game: the rack goes back to the pool, the turn moves on if it was theirs."""

        def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
            return seats.leave(state, user_id), {}

        _, after = await self._change(game_id, user_id, EventKind.PLAYER_LEFT, step)
        return after

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

    # --- racks, table, turns ------------------------------------------------------------------

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

    async def add_sets(
        self,
        game_id: int,
        user_id: int,
        sets: Sequence[TileSet],
        *,
        player: int | None = None,
        out_of_turn: bool = False,
        opening_waived: bool = False,
    ) -> Played:
        """Record a play that only put new sets down (added to the table as it is now)."""
        return await self._play(
            game_id,
            user_id,
            player if player is not None else user_id,
            lambda state: (*state.table, *sets),
            trace=None,
            based_on=None,
            out_of_turn=out_of_turn,
            opening_waived=opening_waived,
            rack_after=None,
            answering=None,
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

    # --- questions asked with buttons ------------------------------------------------------------

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

    @staticmethod
    async def _take_question(session: AsyncSession, token: str) -> None:
        gone = await session.execute(delete(AskedQuestion).where(AskedQuestion.token == token))
        if getattr(gone, "rowcount", 0) != 1:
            raise errors.AlreadyAnswered(N_("this question was already answered"))

    # --- the machinery ------------------------------------------------------------------------

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

    async def _change(
        self, game_id: int, user_id: int, kind: EventKind, step: Step, *, answering: str | None = None
    ) -> tuple[GameState, GameState]:
        """Run ``step`` on the game under its lock, in one transaction; record the event."""
        return await self._changes(game_id, user_id, lambda state: [(kind, step)], answering=answering)

    async def _changes(
        self,
        game_id: int,
        user_id: int,
        steps: Callable[[GameState], list[tuple[EventKind, Step]]],
        *,
        answering: str | None = None,
    ) -> tuple[GameState, GameState]:
        """Run the steps ``steps`` picks for the game as it is now, in order, under its lock, in one
        transaction; each records its event. Returns the state before the first and after the last.
        ``answering``: the question (``ask``) this change answers; it goes in the same transaction, so a
        question is answered once, whichever process or tap comes first."""

        async def run(session: AsyncSession) -> tuple[GameState, GameState]:
            if answering is not None:
                await self._take_question(session, answering)
            row = await self._row(session, game_id, lock=True)
            before = after = state_of(row)
            now = self.clock()
            for kind, step in steps(before):
                _, after = await self._apply(session, row, user_id, kind, step, now)
            return before, after

        async with self._locks.hold(game_id):
            return await self._transaction(run)

    async def _apply(
        self, session: AsyncSession, row: Game, user_id: int | None, kind: EventKind, step: Step, now: datetime
    ) -> tuple[GameState, GameState]:
        before = state_of(row)
        after, detail = step(before)
        invariants.check(after)  # a change that would leave the record untrue is refused, never stored
        old, new = changes.snapshot(before), changes.snapshot(after)
        change = changes.diff(old, new)
        if not change:
            return before, before
        write(row, new, now)
        session.add(self._event(row.id, kind, user_id, now, detail, change))
        return before, state_of(row)  # flushed with the transaction's other steps, in one go

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

    @staticmethod
    def _event(
        game_id: int,
        kind: EventKind,
        user_id: int | None,
        now: datetime,
        detail: dict[str, Any],
        diff: changes.Diff | None = None,
        *,
        undoes: int | None = None,
    ) -> Event:
        return Event(
            game_id=game_id, kind=kind.value, user_id=user_id, at=now, detail=detail, diff=diff or {}, undoes_id=undoes
        )

    async def _transaction(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``work`` in a write transaction; start again if another writer got in first.

        A database still locked after the busy timeout is not retried here: the
        timeout already waited, and a chat should hear back rather than hang. The
        update being handled (``bot.storage.inbox``) is marked handled in the same
        transaction, so a crash can neither lose the change nor let it happen twice.
        """
        for attempt in range(self.retries):
            try:
                async with self.db.write_turn(), self.db.writes() as session, session.begin():
                    recorded = await inbox.mark(session, self.clock())
                    done = await work(session)
                if recorded is not None:  # committed: the update's later changes (if any) belong to it too
                    recorded.marked = True
                return done
            except StaleDataError:
                await asyncio.sleep(0.005 * 2**attempt)
            except OperationalError as why:
                if is_locked(why):
                    raise errors.Busy(N_("the game is busy; try again in a moment")) from why
                raise
        raise errors.Busy(N_("the game kept changing while we tried to change it; try again in a moment"))

    @staticmethod
    async def _row(session: AsyncSession, game_id: int, *, lock: bool = False) -> Game:
        if lock:
            await _lock(session, select(Game.id).where(Game.id == game_id))
        query = select(Game).where(Game.id == game_id).options(joinedload(Game.players))
        row = (await session.scalars(query)).unique().one_or_none()
        if row is None:
            raise errors.NoGame(N_("there is no game {game_id}"), game_id=game_id)
        return row

    @staticmethod
    async def _running_row(session: AsyncSession, chat_id: int, *, lock: bool = False) -> Game | None:
        running = [Game.chat_id == chat_id, Game.status == RUNNING]
        if lock:
            locked = await _lock(session, select(Game.id).where(*running))
            if locked is None:
                return None
            running = [Game.id == locked]
        query = select(Game).where(*running).options(joinedload(Game.players))
        return (await session.scalars(query)).unique().one_or_none()

    @staticmethod
    async def _invite_row(session: AsyncSession, invite: str) -> Game:
        query = select(Game).where(Game.invite == invite).options(joinedload(Game.players))
        row = (await session.scalars(query)).unique().one_or_none()
        if row is None or row.status != RUNNING:
            raise errors.InvalidInvite(N_("this link is for a game that is over or unknown; ask for a new one"))
        return row

    async def _history(self, session: AsyncSession, game_id: int) -> list[EventRecord]:
        """The game's whole history, oldest first, undone events flagged."""
        rows = (await session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id))).all()
        undone = await self._undone_ids(session, game_id)
        return [record_of(r, r.id in undone) for r in rows]

    @staticmethod
    async def _undone_ids(session: AsyncSession, game_id: int) -> set[int]:
        query = select(Event.undoes_id).where(Event.game_id == game_id, Event.undoes_id.is_not(None))
        return {i for i in (await session.scalars(query)).all() if i is not None}

    async def count_events(self, game_id: int) -> int:
        """How many events the game's history holds (undo entries included)."""
        async with self.db.reads() as session, session.begin():
            query = select(func.count()).select_from(Event).where(Event.game_id == game_id)
            return int((await session.scalar(query)) or 0)


async def _lock(session: AsyncSession, game_ids: Select[int]) -> int | None:
    """Take the database's lock on a game row (``game_ids`` selects at most one), before its rows are read.

    Its own statement, so the read after it starts after the lock is held: on PostgreSQL (READ COMMITTED) a
    statement that waited for the lock sees the game's row as the other writer committed it, but the rows it
    joins (the players) as they were when it began, and writing those back would undo the other's change.
    """
    return (await session.scalars(game_ids.with_for_update())).one_or_none()


def _play_detail(played: Played) -> dict[str, Any]:
    """What the history says of a play: the tiles put down, whose play it was, whose turns it passed over."""
    detail: dict[str, Any] = {"placed": encode_tiles(played.placed), "player": played.by}
    if played.skipped:
        detail["skipped"] = list(played.skipped)
    return detail


def _no_game() -> errors.NoGame:
    return errors.NoGame(N_("no game is running in this chat; /new starts one"))


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


def _overlaps(keys: Iterable[str], clash: Iterable[str]) -> bool:
    return any(k == c or k.startswith(c + ":") or c.startswith(k + ":") for k in keys for c in clash)
