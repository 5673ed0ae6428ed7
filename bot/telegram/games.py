"""Which game an update is about, and who is speaking: the bridge from Telegram ids to the game service.

A group's game is the group's running game. In a private chat it is the game
the chat is tied to (a group's, through a deep link or /games, or the chat's
own), while it runs and the player sits at it; untied, the one group game the
player sits at; else the chat's own game, started on first use so a lone
player can just send a rack. A tie to a group's game that ended is said once.
"""

from __future__ import annotations

from telegram import Chat, User

from bot.game import GameState, PlayerState
from bot.game.errors import AlreadyJoined, GameAlreadyRunning, NoGame, NotAPlayer
from bot.storage import GameService
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.words.language import _
from solver.text import N_


def name_of(user: User) -> str:
    return user.full_name or user.username or f"player {user.id}"


async def current_game(context: BotContext, chat: Chat, user: User, *, create: bool = True) -> GameState:
    """The game this chat's messages apply to (see the module docstring); kept as ``context.game``."""
    service = context.service
    if is_group(chat):
        state = await service.active_game(chat.id)
    else:
        state = await _private_game(context, chat, user, create=create)
    context.game = state
    return state


async def _private_game(context: BotContext, chat: Chat, user: User, *, create: bool) -> GameState:
    """The game a private chat's messages go to: the game it is tied to while it runs and the player sits at
    it; untied, the one group game the player sits at; else the chat's own game."""
    service = context.service
    tied = await service.tied_game(user.id)
    if tied is not None:
        me = tied.player(user.id)
        if tied.running and me is not None and me.active:
            return await _seated(service, tied, chat, user)
        await service.untie(user.id)
        if tied.chat_id != chat.id:  # the group's game ended (or they left it): said once, then back home
            await context.bot.send_message(
                chat.id,
                _(
                    "The game in {group} is over for you, so this chat is back to your own game. "
                    "/games lists the games you play."
                ).format(group=tied.title or _("your group")),
            )
    else:
        groups = [g for g in await service.seated_games(user.id) if g.chat_id != chat.id]
        if len(groups) == 1:  # a rack sent before tapping My rack still goes to the one table they sit at
            return await service.tie(user.id, groups[0].id)
    try:
        state = await service.game_for(chat.id, user.id, private=True)
    except NoGame:
        if not create:
            raise
    else:
        return await _seated(service, state, chat, user)
    try:
        return await service.new_game(chat.id, user.id, join_as=name_of(user))
    except GameAlreadyRunning:  # another message of this user started it a moment ago
        return await service.game_for(chat.id, user.id, private=True)


async def _seated(service: GameService, state: GameState, chat: Chat, user: User) -> GameState:
    """A private chat's own game always has its player seated.

    Games started before undo kept the creator's seat could lose it to /undo, and a private chat has no
    /join: such a player is seated again (with an empty rack) instead of being locked out.
    """
    if state.chat_id != chat.id or not state.running:
        return state
    me = state.player(user.id)
    if me is not None and me.active:
        return state
    try:
        return await service.join(state.id, user.id, name_of(user), for_good=True)
    except AlreadyJoined:  # seated a moment ago by another message of this user
        return await service.game(state.id)


def seat_of(state: GameState, user: User) -> PlayerState:
    p = state.player(user.id)
    if p is None or not p.active:
        raise NotAPlayer(N_("you are not playing in this game; /join it first"))
    return p


def in_group_game(state: GameState, chat: Chat) -> bool:
    """True when the game belongs to a group other than this chat (a private chat tied to it)."""
    return state.chat_id != chat.id
