"""The context every handler gets (PTB's ``ContextTypes``): the bot's dependencies, and the game the update
is about, so handlers do not repeat the same opening lines and replies can name the game's group."""

from __future__ import annotations

from typing import Any

from telegram import Chat, Update, User
from telegram.ext import Application, CallbackContext, ExtBot

from bot.game import GameState
from bot.game.errors import GameError
from bot.storage import GameService
from bot.telegram.runtime.deps import KEY, Deps
from solver.text import N_


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """``deps`` and ``service`` for every handler; who wrote (``who``) and where (``where``), read from the
    update once, at the door (``from_update``); ``game`` once ``games.current_game`` has found it; ``edited``
    when the message being answered is an edit."""

    def __init__(
        self, application: Application[Any, Any, Any, Any, Any, Any], chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(application, chat_id, user_id)
        self.game: GameState | None = None
        #: the update is an edited message, read again: replies say so
        self.edited = False
        self._chat: Chat | None = None
        self._user: User | None = None

    @classmethod
    def from_update(cls, update: object, application: Application[Any, Any, Any, Any, Any, Any]) -> BotContext:
        """The door: PTB builds one context per update here; the chat and the person it comes from are read
        off the update once (``where``, ``who``) and handed on with the context."""
        context = super().from_update(update, application)
        assert isinstance(context, BotContext)
        if isinstance(update, Update):
            context._chat, context._user = update.effective_chat, update.effective_user
        return context

    @property
    def where(self) -> Chat:
        """The chat the update comes from."""
        if self._chat is None or self._user is None:
            raise GameError(N_("I can only answer messages from a person in a chat"))
        return self._chat

    @property
    def who(self) -> User:
        """The person the update comes from (a message's sender, a button's tapper)."""
        if self._chat is None or self._user is None:
            raise GameError(N_("I can only answer messages from a person in a chat"))
        return self._user

    @property
    def deps(self) -> Deps:
        found: Any = self.application.bot_data.get(KEY)
        if not isinstance(found, Deps):
            raise RuntimeError("the application was not built by bot.telegram.build_application")
        return found

    @property
    def service(self) -> GameService:
        return self.deps.service
