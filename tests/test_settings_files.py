"""Where the bot fetches photos from: Telegram's file address, or one that follows TELEGRAM_BASE_URL."""

from __future__ import annotations

import pytest

from bot.settings import Settings


@pytest.mark.parametrize(
    ("base", "files", "expected"),
    [
        (None, None, None),  # Telegram's own (PTB's default)
        ("http://127.0.0.1:8081/bot", None, "http://127.0.0.1:8081/file/bot"),
        ("http://127.0.0.1:8081/bot/", None, "http://127.0.0.1:8081/file/bot"),
        ("http://proxy.example/telegram", None, None),  # no /bot to follow: PTB's default
        ("http://127.0.0.1:8081/bot", "http://files.example/f/bot", "http://files.example/f/bot"),
    ],
)
def test_the_file_address_follows_the_base_url_unless_set(
    base: str | None, files: str | None, expected: str | None
) -> None:
    settings = Settings(_env_file=None, telegram_base_url=base, telegram_base_file_url=files)  # type: ignore[call-arg]
    assert settings.file_url == expected
