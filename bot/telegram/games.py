"""Which game an update is about, and who is speaking: the bridge from Telegram ids to the game service.

A group's game is the group's running game. In a private chat it is the group
game the chat is linked to (through a deep link), else the chat's own game,
which is started on first use so a lone player can just send a rack.
"""

from __future__ import annotations

from telegram import Chat, Update, User

from bot.storage import GameError, GameService, GameState, PlayerState
from bot.storage.errors import GameAlreadyRunning, NoGame, NotAPlayer


def is_group(chat: Chat) -> bool:
    return chat.type in (Chat.GROUP, Chat.SUPERGROUP)


def name_of(user: User) -> str:
    return user.full_name or user.username or f"player {user.id}"


def speaker(update: Update) -> tuple[Chat, User]:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        raise GameError("I can only answer messages from a person in a chat")
    return chat, user


async def current_game(service: GameService, chat: Chat, user: User, *, create: bool = True) -> GameState:
    """The game this chat's messages apply to (see the module docstring)."""
    if is_group(chat):
        return await service.active_game(chat.id)
    try:
        return await service.game_for(chat.id, user.id, private=True)
    except NoGame:
        if not create:
            raise
    try:
        return await service.new_game(chat.id, user.id, join_as=name_of(user))
    except GameAlreadyRunning:  # another message of this user started it a moment ago
        return await service.game_for(chat.id, user.id, private=True)


def seat_of(state: GameState, user: User) -> PlayerState:
    p = state.player(user.id)
    if p is None or not p.active:
        raise NotAPlayer("you are not playing in this game; /join it first")
    return p


def in_group_game(state: GameState, chat: Chat) -> bool:
    """True when the game belongs to a group other than this chat (a private chat linked to it)."""
    return state.chat_id != chat.id
