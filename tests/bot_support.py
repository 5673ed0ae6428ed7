"""The end-to-end harness: the fake Bot API on loopback, the real application polling it through the settings.

``running_bot`` starts exactly what ``python -m bot`` starts (the same
builder, handlers, rate limiter class, database migrations), only inside the
test's event loop instead of ``run_polling``, and stops it cleanly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.game import PlayerState
from bot.settings import Settings
from bot.storage import GameService
from bot.telegram.app import ALLOWED_UPDATES, BotApplication, build_application
from bot.telegram.runtime.deps import KEY, Deps
from bot.telegram.runtime.pacing import NONE, SharedPace
from bot.telegram.runtime.serving import Webhook, serving
from solver import STANDARD, parse_tiles
from tests.fake_bot_api import Call, Chat, FakeBotApi, User, private
from tests.storage_support import melded as melded_in
from tests.storage_support import migrated

ROOT = Path(__file__).resolve().parents[1]
ALICE = User(101, "Alice", "alice")
BOB = User(202, "Bob", "bob")
CAROL = User(303, "Carol")
PNG = b"\x89PNG\r\n\x1a\n"


def settings_for(fake: FakeBotApi, database_url: str, **extra: Any) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token=SecretStr(fake.token),
        telegram_base_url=fake.base_url,
        database_url=database_url,
        **extra,
    )


@asynccontextmanager
async def fake_api() -> AsyncIterator[FakeBotApi]:
    fake = FakeBotApi()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@asynccontextmanager
async def running_bot(
    fake: FakeBotApi,
    database_url: str,
    *,
    workers: int | None = None,
    processes: int = 0,
    webhook: Webhook | None = None,
    **extra: Any,
) -> AsyncIterator[BotApplication]:
    """The bot application, initialised (getMe, command menus, warm-up) and polling the fake, as
    ``python -m bot`` runs it (``bot.telegram.runtime.serving``).

    ``processes`` defaults to none (threads only) to keep each test's start-up short, and so a test can
    patch the solver; the tests that need production's solver processes ask for them.
    """
    # Flood limits off against the fake (a group may get 20 messages a minute from Telegram, not from a test),
    # but through the same limiter class the bot runs with.
    limiter = SharedPace(NONE)
    application = build_application(
        settings_for(fake, database_url, **extra), rate_limiter=limiter, workers=workers, processes=processes
    )
    async with serving(application, ALLOWED_UPDATES, webhook=webhook):
        if webhook is not None:  # Telegram posts to it from now on
            fake.hooks.append((webhook.url, webhook.secret))
        yield application


async def database(folder: Path) -> str:
    return await migrated(folder)


@dataclass
class Session:
    """A running bot and its fake Telegram, with the conversation helpers the tests use."""

    fake: FakeBotApi
    app: BotApplication
    database_url: str

    @property
    def service(self) -> GameService:
        return deps_of(self.app).service

    async def ask(
        self,
        user: User,
        text: str,
        chat: Chat | None = None,
        methods: tuple[str, ...] = ("sendMessage", "sendPhoto"),
    ) -> Call:
        """``user`` sends ``text``; the bot's first answer of one of ``methods`` in that chat."""
        chat = chat or private(user)
        mark = self.fake.mark()
        self.fake.send(user, text, chat)
        return await self.fake.reply(chat.id, mark, methods)

    async def tap(self, user: User, call: Call, button: str, chat_id: int | None = None) -> Call:
        """``user`` taps ``button`` on ``call``'s message; the next message the bot sends to ``chat_id``."""
        mark = self.fake.mark()
        self.fake.tap(user, call, button)
        return await self.fake.reply(chat_id if chat_id is not None else user.id, mark)

    async def player(self, chat_id: int, user: User) -> PlayerState:
        state = await self.service.game_for(chat_id, user.id, private=chat_id == user.id)
        p = state.player(user.id)
        assert p is not None
        return p


def deps_of(app: BotApplication) -> Deps:
    found = app.bot_data[KEY]
    assert isinstance(found, Deps)
    return found


@asynccontextmanager
async def session(folder: Path, *, database_url: str | None = None, **extra: Any) -> AsyncIterator[Session]:
    """A fresh migrated database (or ``database_url``), the fake, the bot; at the end, no spec violations."""
    url = database_url or await database(folder)
    async with fake_api() as fake:
        async with running_bot(fake, url, **extra) as app:
            yield Session(fake, app, url)
        assert not fake.violations, fake.violations


def tiles(text: str) -> list[str]:
    return [str(t) for t in parse_tiles(text, STANDARD)]


def rack_of(player: PlayerState) -> list[str]:
    return [str(t) for t in player.rack]


async def tie_private_chat(s: Session, created: Call, user: User, rack: str, *, meld: bool = False) -> None:
    """The player taps My rack on the group's /new message (the deep link), then sets a rack in private and,
    with ``meld``, is past the opening (set up with ``melded``: in a group's game only a play makes it)."""
    mark = s.fake.mark()
    s.fake.follow(user, created, "My rack")
    await s.fake.reply(user.id, mark)
    await s.ask(user, f"/rack {rack}")
    if meld:
        assert created.chat_id is not None
        await melded(s, created.chat_id, user)


def bot_process(fake: FakeBotApi, database_url: str, log: Path, **env: str) -> subprocess.Popen[bytes]:
    """The real ``python -m bot`` in a process of its own, polling ``fake`` (its output appended to ``log``).
    ``env``: more settings (``CLAIM_SECONDS="1"``)."""
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "INFO",
        **env,
    }
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "bot"], cwd=log.parent, env=environment, stdout=out, stderr=out)


async def melded(s: Session, chat_id: int, *users: User) -> None:
    """Set-up only: these players of the chat's running game have made their initial meld (see
    ``storage_support.melded``)."""
    state = await s.service.active_game(chat_id)
    await melded_in(s.service, state.id, *(u.id for u in users))
