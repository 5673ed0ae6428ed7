"""A throwaway PostgreSQL server for the tests that need one: from a temp folder, on loopback, as a non-root
user (PostgreSQL refuses root), killed at the end.

Without PostgreSQL's binaries the tests are skipped, except where ``REQUIRE_POSTGRES`` is set (CI installs
PostgreSQL and sets it): there a missing server fails them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

BIN = Path(os.environ.get("PG_BIN", "/usr/local/bin"))


def _unavailable(why: str) -> NoReturn:
    if os.environ.get("REQUIRE_POSTGRES"):
        pytest.fail(f"REQUIRE_POSTGRES is set, but {why}")
    pytest.skip(why)


def _as_postgres() -> list[str] | None:
    """How to run the server's commands: directly, or through runuser when we are root."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        return None
    return [runuser, "-u", "postgres", "--"] if runuser else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    """A throwaway server that a test may stop and start again (PostgreSQL restarting under the bot)."""

    url: str
    ctl: list[str]
    options: str
    log: Path

    def stop(self) -> None:
        """Shut down as a restart does (``-m fast``: sessions are ended, the data kept)."""
        subprocess.run([*self.ctl, "-m", "fast", "-w", "stop"], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        subprocess.run(
            [*self.ctl, "-o", self.options, "-l", str(self.log), "-w", "start"],
            check=True,
            capture_output=True,
            timeout=60,
        )


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A new PostgreSQL server for the block; its URL (asyncpg)."""
    with postgres_server() as server:
        yield server.url


@contextlib.contextmanager
def postgres_server() -> Iterator[Server]:
    """A new PostgreSQL server for the block, which the block may stop and start."""
    prefix = _as_postgres()
    if not (BIN / "initdb").exists() or not (BIN / "pg_ctl").exists() or prefix is None:
        _unavailable("PostgreSQL binaries (or a non-root user to run them) not available")
    folder = Path(tempfile.mkdtemp(prefix="rummikub-pg-"))
    os.chmod(folder, 0o777)
    data, port = folder / "data", _free_port()
    ctl = [*prefix, str(BIN / "pg_ctl"), "-D", str(data)]
    server = Server(
        f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres",
        ctl,
        f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off",
        folder / "log",
    )
    try:
        subprocess.run(
            [*prefix, str(BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        server.start()
    except (subprocess.SubprocessError, OSError) as why:
        shutil.rmtree(folder, ignore_errors=True)
        _unavailable(f"could not start a throwaway PostgreSQL: {why}")
    try:
        yield server
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
