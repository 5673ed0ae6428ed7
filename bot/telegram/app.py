"""The application: PTB's ``Application`` with our handlers, flood limits, start-up and shut-down.

PTB's own updater is not used: updates come in through ``runtime.intake`` /
``runtime.webhook``, are stored, and ``runtime.dispatch`` hands them to
``process_update``, each chat's in order, different chats at once (a slow
solve in one chat never holds up another). The solver and the renderer run in
a worker pool; the game service serialises changes to one game itself.
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
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.settings import Settings
from bot.storage import GameService, open_database
from bot.telegram import callbacks
from bot.telegram.context import BotContext
from bot.telegram.didyoumean import MEANT, meant_answered
from bot.telegram.drawing import DRAW, draw_answered
from bot.telegram.errors import on_error
from bot.telegram.handlers import (
    arrivals,
    edits,
    grading,
    hints,
    keyboard,
    language,
    lobby,
    messages,
    photos,
    questions,
    racks,
    scoring,
    shortcuts,
    simpler,
    solving,
    table,
    turns,
    unseen,
)
from bot.telegram.handlers.migration import chat_migrated
from bot.telegram.plays import PLAY, play_answered
from bot.telegram.runtime.deps import KEY, Deps
from bot.telegram.runtime.link import Link, Patient
from bot.telegram.runtime.pacing import SharedPace
from bot.telegram.runtime.processes import solver_processes
from bot.telegram.runtime.solver_queue import SolverQueue
from bot.telegram.runtime.uploads import telegram_bot
from bot.telegram.runtime.work import warm
from bot.telegram.what_tiles import PHOTO
from bot.telegram.words import commands
from bot.telegram.words.language import load_all

log = logging.getLogger(__name__)

BotApplication = Application[Any, Any, Any, Any, Any, Any]
#: Messages and their edits (an edit is read again), button taps, and the bot's own membership (a greeting
#: when it is added to a group)
ALLOWED_UPDATES = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]


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

    ``rate_limiter`` defaults to ``SharedPace``, Telegram's flood limits
    kept in the database for all processes; every request goes through it
    inside ``Patient``, which carries it through Telegram's outages.
    ``processes`` (default one per core; 0 for none) solve in
    worker processes, ``workers`` threads do the rest. The database must
    already be at the latest migration.
    """
    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    db = open_database(settings.database_url)
    limiter = rate_limiter if rate_limiter is not None else SharedPace()
    if isinstance(limiter, SharedPace) and limiter.db is None:
        limiter.db = db  # one budget for every process of the bot, kept in its database
    link = Link()
    patient = Patient(limiter, link, settings.answer_retry_seconds)
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder()
        .bot(telegram_bot(settings, patient))
        .context_types(ContextTypes(context=BotContext))
        .updater(None)  # updates come through runtime.intake / runtime.webhook, stored first
        .post_init(_started if warm_up else _registered)
        .post_shutdown(_stopped)
    )
    application: BotApplication = builder.build()
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
        solver_queue=SolverQueue(slots=count + 1 if count else threads),
        telegram=link,
    )
    load_all()  # a build without its compiled catalogues fails here, at start-up
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
        "draw": turns.draw,
        "table": table.table,
        "play": table.play,
        "undo": table.undo,
        "status": table.status,
        "meld": table.meld,
        "pass": turns.pass_turn,
        "left": scoring.left,
        "scores": scoring.scores_command,
        "fit": table.fit_tile,
        "solve": solving.solve_command,
        "language": language.language,
        "hint": hints.hint_command,
        "unseen": unseen.unseen_command,
        "review": grading.review_command,
    }
    assert sorted(command_handlers) == commands.ALL, "every command in the menus has a handler"
    application.add_handler(TypeHandler(Update, language.speak_their_language), group=-1)
    for name, handler in command_handlers.items():
        application.add_handler(CommandHandler(name, handler, filters=only_messages))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_migrated))
    application.add_handler(CallbackQueryHandler(solving.played_this, pattern=callbacks.PLAYED_PATTERN))
    application.add_handler(CallbackQueryHandler(solving.other_objective, pattern=callbacks.OTHER_PATTERN))
    application.add_handler(CallbackQueryHandler(solving.melded_instead, pattern=callbacks.MELDED_PATTERN))
    application.add_handler(CallbackQueryHandler(solving.example, pattern=callbacks.EXAMPLE_PATTERN))
    answered = questions.answered_by(
        {
            PLAY: play_answered,
            table.UNDO: table.undo_answered,
            lobby.END: lobby.end_answered,
            lobby.NEW: lobby.new_answered,
            solving.SUGGESTION: solving.suggestion_answered,
            PHOTO: photos.photo_answered,
            DRAW: draw_answered,
            MEANT: meant_answered,
        }
    )
    application.add_handler(CallbackQueryHandler(answered, pattern=callbacks.ANSWER_PATTERN))
    application.add_handler(CallbackQueryHandler(lobby.switch_game, pattern=callbacks.SWITCH_PATTERN))
    application.add_handler(CallbackQueryHandler(lobby.join_button, pattern=callbacks.JOIN_PATTERN))
    application.add_handler(CallbackQueryHandler(keyboard.tapped, pattern=callbacks.KEY_PATTERN))
    application.add_handler(CallbackQueryHandler(arrivals.new_game_button, pattern=callbacks.NEW_GAME_PATTERN))
    application.add_handler(CallbackQueryHandler(language.language_button, pattern=callbacks.LANGUAGE_PATTERN))
    application.add_handler(CallbackQueryHandler(turns.drew_button, pattern=callbacks.DREW_PATTERN))
    application.add_handler(CallbackQueryHandler(scoring.game_button, pattern=callbacks.GAME_BUTTON_PATTERN))
    application.add_handler(CallbackQueryHandler(shortcuts.tapped, pattern=callbacks.GO_PATTERN))
    application.add_handler(CallbackQueryHandler(hints.hint_button, pattern=callbacks.HINT_PATTERN))
    application.add_handler(CallbackQueryHandler(unseen.unseen_button, pattern=callbacks.UNSEEN_PATTERN))
    application.add_handler(CallbackQueryHandler(grading.how_did_i_do, pattern=callbacks.HOW_PATTERN))
    application.add_handler(CallbackQueryHandler(grading.review_button, pattern=callbacks.REVIEW_PATTERN))
    application.add_handler(CallbackQueryHandler(simpler.simpler_button, pattern=callbacks.SIMPLER_PATTERN))
    application.add_handler(CallbackQueryHandler(questions.stale))  # any other button: an answer, not a spinner
    application.add_handler(MessageHandler(only_messages & filters.COMMAND, messages.unknown_command))
    application.add_handler(MessageHandler(only_messages & filters.TEXT & ~filters.COMMAND, messages.plain_text))
    application.add_handler(MessageHandler(only_messages & (filters.PHOTO | filters.Document.ALL), photos.photo))
    # anything else sent in private (a sticker, a voice note, a video): a hint, never silence
    application.add_handler(MessageHandler(only_messages & filters.ChatType.PRIVATE, messages.not_text))
    read_again = {name: command_handlers[name] for name in edits.READ_AGAIN}
    edited = edits.edited_by(read_again, messages.plain_text)
    application.add_handler(MessageHandler(filters.UpdateType.EDITED_MESSAGE, edited))
    application.add_handler(ChatMemberHandler(arrivals.arrived, ChatMemberHandler.MY_CHAT_MEMBER))
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
