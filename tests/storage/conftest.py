"""What the storage tests share: a service on a fresh, migrated SQLite file (``test_postgres.py`` has its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import GameService
from tests.storage_support import service_at


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with service_at(tmp_path) as s:
        yield s
