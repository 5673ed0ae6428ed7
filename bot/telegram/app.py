"""The application: PTB's ``Application`` with our handlers, flood limits, start-up and shut-down.

Updates of different chats are handled concurrently, those of one chat in
order (``PerChatOrder``): a slow solve in one chat must never hold up another
chat's answer; the solver and the renderer run in a worker pool. The game
service serialises changes to one game itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from telegram import Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.settings import Settings
from bot.storage import GameService, open_database
from bot.telegram import callbacks
from bot.telegram.context import BotContext
from bot.telegram.errors import on_error
from bot.telegram.handlers import lobby, messages, questions, racks, solving, table
from bot.telegram.handlers.migration import chat_migrated
from bot.telegram.runtime.deps import KEY, Deps
from bot.telegram.runtime.ordering import PerChatOrder
from bot.telegram.runtime.processes import solver_processes
from bot.telegram.runtime.turns import Turns
from bot.telegram.runtime.uploads import telegram_bot
from bot.telegram.runtime.work import warm
from bot.telegram.words import commands

log = logging.getLogger(__name__)

BotApplication = Application[Any, Any, Any, Any, Any, Any]
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]
CONCURRENT_UPDATES = 256


def default_workers() -> int:
    """Threads for the lighter CPU work (reading a table, pictures of a table, /fit)."""
    return max(2, (os.cpu_count() or 1) + 1)


def default_processes() -> int:
    """Solver processes: one per core (BENCHMARKS.md, Bot: processes against threads)."""
    return max(1, os.cpu_count() or 1)


def build_application(
    settings: Settings,
    *,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    workers: int | None = None,
    processes: int | None = None,
    warm_up: bool = True,
) -> BotApplication:
    """The bot, ready for ``run_polling``/``run_webhook`` or a test's ``start``.

    ``rate_limiter`` defaults to PTB's ``AIORateLimiter`` with Telegram's
    flood limits; ``processes`` (default one per core; 0 for none) solve in
    worker processes, ``workers`` threads do the rest. The database must
    already be at the latest migration.
    """
    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder()
        .bot(telegram_bot(settings, rate_limiter if rate_limiter is not None else AIORateLimiter(max_retries=3)))
        .context_types(ContextTypes(context=BotContext))
        .concurrent_updates(PerChatOrder(CONCURRENT_UPDATES))
        .post_init(_started if warm_up else _registered)
        .post_shutdown(_stopped)
    )
    application: BotApplication = builder.build()
    db = open_database(settings.database_url)
    count = default_processes() if processes is None else processes
    threads = workers or default_workers()
    application.bot_data[KEY] = Deps(
        settings=settings,
        db=db,
        service=GameService(db),
        pool=ThreadPoolExecutor(max_workers=threads, thread_name_prefix="solver"),
        solver_pool=solver_processes(count, settings.solver_memory_limit) if count else None,
        new_solver_pool=(lambda: solver_processes(count, settings.solver_memory_limit)) if count else None,
        solver_count=count,
        turns=Turns(slots=count + 1 if count else threads),
    )
    add_handlers(application)
    return application


def add_handlers(application: BotApplication) -> None:
    only_messages = filters.UpdateType.MESSAGE
    command_handlers = {
        "start": lobby.start,
        "help": lobby.help_command,
        "new": lobby.new,
        "join": lobby.join,
        "rules": lobby.rules_command,
        "end": lobby.end,
        "games": lobby.games,
        "rack": racks.rack,
        "draw": racks.draw,
        "table": table.table,
        "play": table.play,
        "undo": table.undo,
        "status": table.status,
        "meld": table.meld,
        "pass": table.pass_turn,
        "fit": table.fit_tile,
        "solve": solving.solve_command,
    }
    assert sorted(command_handlers) == commands.ALL, "every command in the menus has a handler"
    for name, handler in command_handlers.items():
        application.add_handler(CommandHandler(name, handler, filters=only_messages))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_migrated))
    application.add_handler(CallbackQueryHandler(solving.played_this, pattern=callbacks.PLAYED_PATTERN))
    application.add_handler(CallbackQueryHandler(solving.other_objective, pattern=callbacks.OTHER_PATTERN))
    application.add_handler(CallbackQueryHandler(solving.example, pattern=callbacks.EXAMPLE_PATTERN))
    application.add_handler(CallbackQueryHandler(questions.answered, pattern=callbacks.ANSWER_PATTERN))
    application.add_handler(CallbackQueryHandler(lobby.switch_game, pattern=callbacks.SWITCH_PATTERN))
    application.add_handler(CallbackQueryHandler(lobby.join_button, pattern=callbacks.JOIN_PATTERN))
    application.add_handler(CallbackQueryHandler(messages.tile_kind, pattern=callbacks.TILE_KIND_PATTERN))
    application.add_handler(CallbackQueryHandler(questions.stale))  # any other button: an answer, not a spinner
    application.add_handler(MessageHandler(only_messages & filters.COMMAND, messages.unknown_command))
    application.add_handler(MessageHandler(only_messages & filters.TEXT & ~filters.COMMAND, messages.plain_text))
    application.add_error_handler(on_error)


async def _registered(application: BotApplication) -> None:
    await commands.register(application)


async def _started(application: BotApplication) -> None:
    """Register the command menus and pay the first solve's and picture's cost before the first update."""
    await commands.register(application)
    deps: Deps = application.bot_data[KEY]
    await deps.off_loop(warm, table_forms=deps.solver_pool is None)  # with solver processes, they solve
    # start every solver process now (each warms itself up), not on the first users' solves
    await asyncio.gather(*(deps.solving(time.sleep, 0.05) for _ in range(deps.solver_count)))


async def _stopped(application: BotApplication) -> None:
    deps = application.bot_data.get(KEY)
    if isinstance(deps, Deps):
        await deps.close()
