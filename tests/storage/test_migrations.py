"""Migrations: empty to head and back down, the schema they make is the models' schema, and every
way of running them (code, `python -m bot db`, `alembic` from the project root) finds the same place."""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from bot import cli_db
from bot.storage import GameService, open_database, upgrade_database
from bot.storage.migrate import current, downgrade, upgrade
from bot.storage.models import Base
from tests.storage_support import ALICE, GROUP, sqlite_url

ROOT = Path(__file__).resolve().parents[2]
TABLES = {
    "games",
    "players",
    "events",
    "links",
    "choices",
    "deliveries",
    "claims",
    "paces",
    "languages",
    "tips",
    "group_languages",
}
HEAD = "0006"


def tables(file: Path) -> set[str]:
    with sqlite3.connect(file) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows} - {"alembic_version"}


def schema_drift(file: Path) -> list[Any]:
    """What autogenerate would still add or change to reach the models (nothing, if they agree)."""
    engine = create_engine(f"sqlite:///{file}")
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata))
    finally:
        engine.dispose()


def test_empty_to_head_and_back_down(tmp_path: Path) -> None:
    url, file = sqlite_url(tmp_path), tmp_path / "games.sqlite3"
    assert current(url) == ""
    upgrade(url)
    assert tables(file) == TABLES
    assert current(url) == f"{HEAD} (head)"
    assert schema_drift(file) == []
    downgrade(url)
    assert tables(file) == set()
    assert current(url) == ""
    upgrade(url)  # and up again from base
    assert tables(file) == TABLES


def test_upgrading_twice_changes_nothing(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    upgrade(url)
    upgrade(url)
    assert current(url) == f"{HEAD} (head)"


async def test_the_bot_upgrades_at_start_up_from_its_event_loop(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    await upgrade_database(url)
    db = open_database(url)
    try:
        game = await GameService(db).new_game(GROUP, ALICE, join_as="Alice")
    finally:
        await db.dispose()
    assert game.players[0].name == "Alice"


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    cli_db.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


def test_python_m_bot_db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, file = sqlite_url(tmp_path), tmp_path / "games.sqlite3"
    assert cli("db", "current", "--url", url) == 0
    assert "empty database" in capsys.readouterr().out
    assert cli("db", "upgrade", "--url", url) == 0
    assert tables(file) == TABLES
    assert capsys.readouterr().out == f"{HEAD} (head)\n"
    assert cli("db", "current", "--url", url) == 0
    assert f"{HEAD} (head)" in capsys.readouterr().out
    assert cli("db", "downgrade", "--url", url) == 0  # one step back: the fifth revision's tables
    assert tables(file) == TABLES - {"tips", "group_languages"}
    assert "0005" in capsys.readouterr().out
    assert cli("db", "downgrade", "--url", url) == 0  # and the fourth revision's columns
    assert "rack_size" not in columns(file, "players")
    assert "0004" in capsys.readouterr().out


def columns(file: Path, table: str) -> set[str]:
    with sqlite3.connect(file) as db:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def test_the_whole_game_migration_counts_the_racks_and_numbers_the_sets(tmp_path: Path) -> None:
    """Games stored before the rack counts (0005): each rack counts its stored tiles, each table is numbered in
    the order it lies, and the running games' partial unique index survives."""
    url, file = sqlite_url(tmp_path), tmp_path / "games.sqlite3"
    upgrade(url, "0004")
    with sqlite3.connect(file) as db:
        db.execute(
            "INSERT INTO games (id, chat_id, status, rules, table_sets, turn_user_id, invite, version, created_at,"
            ' updated_at, title) VALUES (1, -5, \'running\', \'{}\', \'[["1R", "2R", "3R"], ["7B", "7K",'
            " \"7O\"]]', 101, 'inv', 1, '2026-01-01', '2026-01-01', 'Family')"
        )
        db.execute(
            "INSERT INTO players (game_id, user_id, name, seat, rack, melded, tiles_played, active, joined_at)"
            " VALUES (1, 101, 'Alice', 0, '[\"5B\", \"6B\", \"J\"]', 1, 3, 1, '2026-01-01')"
        )
    upgrade(url)
    with sqlite3.connect(file) as db:
        assert db.execute("SELECT table_numbers, passes, finish FROM games").fetchone() == ("[1, 2]", 0, None)
        assert db.execute("SELECT rack_size, unnamed, declared, score FROM players").fetchone() == (3, 0, 0, None)
        indexes = {row[1] for row in db.execute("PRAGMA index_list(games)")}
    assert "uq_games_running_chat" in indexes
    assert schema_drift(file) == []


def test_alembic_from_the_project_root_reads_the_url_from_the_settings(tmp_path: Path) -> None:
    file = tmp_path / "from-settings.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{file}"}
    alembic = Path(sys.executable).with_name("alembic")
    done = subprocess.run(
        [str(alembic), "upgrade", "head"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert tables(file) == TABLES
