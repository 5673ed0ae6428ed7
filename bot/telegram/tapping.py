"""A tapped button's opening, the same for every button: its data parsed for the chat it was tapped in (a
button from an earlier question or game, or forged, is said to be stale), and for a button about a game, the
game loaded (``context.game``), running, with the tapper's seat at it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from telegram import CallbackQuery, Chat, Update, User

from bot.game import GameState, PlayerState
from bot.game.seats import ensure_running
from bot.telegram.chats import ChatKind, kind_of
from bot.telegram.context import BotContext
from bot.telegram.games import seat_of
from bot.telegram.words.texts import STALE_BUTTON
from solver.errors import RummikubError


class NamesGame(Protocol):
    """Button data that names its game."""

    @property
    def game_id(self) -> int: ...


P = TypeVar("P")
G = TypeVar("G", bound="int | NamesGame")


@dataclass(frozen=True, slots=True)
class Tap(Generic[P]):
    """A tapped button: its query (to answer), who tapped it where, and its data parsed."""

    query: CallbackQuery
    chat: Chat
    user: User
    data: P


@dataclass(frozen=True, slots=True)
class GameTap(Tap[G]):
    """A tapped button about a game: the game as it is now, and the tapper's seat at it."""

    state: GameState
    me: PlayerState


def tap(
    update: Update, context: BotContext, parse: Callable[[str, ChatKind], P | None], *, stale: str = STALE_BUTTON
) -> Tap[P]:
    """The button's data, parsed by ``parse`` for the kind of chat it was tapped in; data ``parse`` does not
    know is ``stale`` (said to the tapper)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    chat, user = context.where, context.who
    data = parse(query.data, kind_of(chat))
    if data is None:
        raise RummikubError(stale)
    return Tap(query, chat, user, data)


async def seated_at(
    context: BotContext, game_id: int, user: User, *, running: bool = True
) -> tuple[GameState, PlayerState]:
    """The game ``game_id`` (kept as ``context.game``), still running unless ``running`` is False, and the
    user's seat at it."""
    state = context.game = await context.service.game(game_id)
    if running:
        ensure_running(state)
    return state, seat_of(state, user)


async def game_tap(
    update: Update, context: BotContext, parse: Callable[[str, ChatKind], G | None], *, running: bool = True
) -> GameTap[G]:
    """``tap`` and ``seated_at`` for a button whose data names its game."""
    found = tap(update, context, parse)
    data = found.data
    state, me = await seated_at(context, data if isinstance(data, int) else data.game_id, found.user, running=running)
    return GameTap(found.query, found.chat, found.user, data, state, me)
