"""The health check: one line and status 0 when the database answers (with when an update was last handled
and how many wait), one line and status 1 when it does not; never a database made where there was none."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage import open_database
from bot.storage.database import make_engine
from bot.storage.health import Checkup, check
from bot.storage.inbox import Delivered, Inbox
from tests.storage_support import migrated

ROOT = Path(__file__).resolve().parents[2]


def health(*args: str, url: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_", "DATABASE_"))}
    env["PYTHONPATH"] = str(ROOT)
    if url is not None:
        env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "bot", "health", *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


async def test_the_health_command_says_when_the_last_update_was_handled_and_what_waits(tmp_path: Path) -> None:
    url = await migrated(tmp_path)
    quiet = health(url=url)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (
        0,
        "healthy: the database answers; no update handled in the last day; 0 waiting\n",
        "",
    )
    db = open_database(url)
    try:
        inbox = Inbox(db)
        await inbox.keep([Delivered(n, 5, 5, {"update_id": n}) for n in (1, 2, 3)])
        first = await inbox.take(5)
        assert first is not None
        await inbox.done(first.update_id, "done", 5, more=False)
    finally:
        await db.dispose()
    busy = health(url=url)
    assert busy.returncode == 0 and busy.stdout.count("\n") == 1 and not busy.stderr, busy
    assert busy.stdout.startswith(f"healthy: the database answers; last update handled {datetime.now(UTC):%Y-%m-%d}")
    assert " s ago); 2 waiting, the oldest for " in busy.stdout


def test_no_database_is_unhealthy_and_none_is_made(tmp_path: Path) -> None:
    missing = tmp_path / "data" / "nothing.sqlite3"
    done = health(url=f"sqlite+aiosqlite:///{missing}")
    assert (done.returncode, done.stdout, done.stderr) == (1, f"unhealthy: no database at {missing}\n", "")
    assert not missing.parent.exists()
    away = health("--url", "postgresql+asyncpg://bot:s3cret-pw@127.0.0.1:1/bot", "--timeout", "3")
    assert away.returncode == 1 and not away.stderr
    assert away.stdout.startswith("unhealthy: the database does not answer (ConnectionRefusedError") and (
        "s3cret-pw" not in away.stdout
    )
    nonsense = health(url="not a url")
    assert (nonsense.returncode, nonsense.stdout) == (1, "unhealthy: DATABASE_URL is not a database URL\n")


async def test_a_running_bot_looks_its_health_up_at_most_once_a_second() -> None:
    engine = make_engine("postgresql+asyncpg://bot@127.0.0.1:1/bot")  # nothing listens there
    now = [100.0]
    try:
        checkup = Checkup(engine, clock=lambda: now[0])
        first = await checkup()
        assert not first.ok and first.line.startswith("unhealthy: the database does not answer (")
        now[0] += 0.5
        assert await checkup() is first
        now[0] += 1.0
        again = await checkup()
        assert again is not first and again == first  # looked up afresh
    finally:
        await engine.dispose()


async def test_the_line_tells_how_long_ago_in_utc(tmp_path: Path) -> None:
    url = await migrated(tmp_path)
    db = open_database(url)
    try:
        inbox = Inbox(db)
        await inbox.keep([Delivered(7, 5, 5, {"update_id": 7})])
        taken = await inbox.take(5)
        assert taken is not None
        await inbox.done(7, "done", 5, more=False)
        later = datetime.now(UTC) + timedelta(minutes=3)
        found = await check(db.engine, now=later)
    finally:
        await db.dispose()
    assert found.ok and " UTC (3 min " in found.line and found.line.endswith("; 0 waiting")
