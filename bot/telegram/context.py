"""The context every handler gets (PTB's ``ContextTypes``): the bot's dependencies, and the game the update
is about, so handlers do not repeat the same opening lines and replies can name the game's group."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application, CallbackContext, ExtBot

from bot.game import GameState
from bot.storage import GameService
from bot.telegram.runtime.deps import KEY, Deps


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """``deps`` and ``service`` for every handler; ``game`` once ``games.current_game`` has found it;
    ``edited`` when the message being answered is an edit."""

    def __init__(
        self, application: Application[Any, Any, Any, Any, Any, Any], chat_id: int | None = None,
        user_id: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(application, chat_id, user_id)
        self.game: GameState | None = None
        #: the update is an edited message, read again: replies say so
        self.edited = False

    @property
    def deps(self) -> Deps:
        found: Any = self.application.bot_data.get(KEY)
        if not isinstance(found, Deps):
            raise RuntimeError("the application was not built by bot.telegram.build_application")
        return found

    @property
    def service(self) -> GameService:
        return self.deps.service
