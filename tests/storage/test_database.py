"""The engine set-up and the JSON codec: SQLite pragmas, write locking, canonical notation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.exc import OperationalError

from bot.game.codec import decode_rules, decode_table, decode_tiles, encode_rules, encode_table, encode_tiles
from bot.storage.database import open_database, sqlite_file
from bot.storage.migrate import one_at_a_time
from solver import JOKER, STANDARD, Colour, TileSet
from tests import storage_support as support


async def test_sqlite_connections_get_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    db = open_database(support.sqlite_url(tmp_path), busy_timeout_ms=1234)
    try:
        async with db.reads() as session:
            pragma = {
                name: (await session.execute(text(f"PRAGMA {name}"))).scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
            }
    finally:
        await db.dispose()
    assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 1234, "synchronous": 1}


async def test_the_sqlite_file_folder_is_made(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "er"
    db = open_database(support.sqlite_url(folder))
    try:
        async with db.writes() as session, session.begin():
            await session.execute(text("CREATE TABLE t (x INTEGER)"))
    finally:
        await db.dispose()
    assert (folder / "games.sqlite3").exists()


async def test_writes_take_the_lock_before_reading(tmp_path: Path) -> None:
    """A second writer waits at BEGIN IMMEDIATE (and fails after the busy timeout), readers do not."""
    url = support.sqlite_url(tmp_path)
    first, second = open_database(url), open_database(url, busy_timeout_ms=100)
    try:
        async with first.writes() as s, s.begin():
            await s.execute(text("CREATE TABLE t (x INTEGER)"))
        async with first.writes() as holder, holder.begin():
            await holder.execute(text("INSERT INTO t VALUES (1)"))
            async with second.reads() as reader, reader.begin():
                assert (await reader.execute(text("SELECT count(*) FROM t"))).scalar() == 0
            with pytest.raises(OperationalError, match="locked"):
                async with second.writes() as other, other.begin():
                    await other.execute(text("SELECT 1"))
        async with second.writes() as other, other.begin():
            await other.execute(text("INSERT INTO t VALUES (2)"))
        async with second.reads() as reader:
            assert (await reader.execute(text("SELECT count(*) FROM t"))).scalar() == 2
    finally:
        await asyncio.gather(first.dispose(), second.dispose())


def test_tiles_round_trip_in_canonical_notation() -> None:
    rack = support.tiles("3R 13K J 1O 7B")
    assert encode_tiles(rack) == ["3R", "13K", "J", "1O", "7B"]
    assert decode_tiles(encode_tiles(rack)) == tuple(rack)


def test_a_joker_keeps_its_place_in_a_stored_run() -> None:
    table = [TileSet.run(Colour.RED, 3, jokers_at=[0], length=4), TileSet.run(Colour.BLUE, 5, jokers_at=[3], length=4)]
    codes = encode_table(table)
    assert codes == [["J", "4R", "5R", "6R"], ["5B", "6B", "7B", "J"]]
    back = decode_table(codes, STANDARD)
    assert back == tuple(table)
    assert back[0].stands_for[0].number == 3


def test_a_group_round_trips() -> None:
    group = TileSet.group(7, [Colour.RED, Colour.BLACK], [Colour.BLUE])
    assert decode_table(encode_table([group]), STANDARD)[0].tiles == group.tiles
    assert JOKER in group.tiles


def test_rules_round_trip() -> None:
    rules = STANDARD.replace(numbers=10, colours=3, jokers=1, initial_meld=25)
    assert encode_rules(rules) == {
        "numbers": 10,
        "colours": 3,
        "copies": 2,
        "jokers": 1,
        "smallest_set": 3,
        "initial_meld": 25,
        "joker_value": 30,
        "deal": 14,
    }
    assert decode_rules(encode_rules(rules)) == rules
    # rules stored before the deal was a rule read back with the boxed game's
    stored = {k: v for k, v in encode_rules(rules).items() if k != "deal"}
    assert decode_rules(stored) == rules


def test_only_a_sqlite_url_names_a_file() -> None:
    """PostgreSQL's URL names a database, not a file: no lock file is made for its migrations in the folder the
    bot starts in (it takes an advisory lock instead)."""
    assert sqlite_file(make_url("sqlite+aiosqlite:///data/x.sqlite3")) == Path("data/x.sqlite3")
    assert sqlite_file(make_url("postgresql+asyncpg://u:p@localhost/postgres")) is None
    assert sqlite_file(make_url("sqlite+aiosqlite:///:memory:")) is None


def test_migrating_postgres_leaves_no_lock_file_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with one_at_a_time("postgresql+asyncpg://u:p@localhost/postgres"):
        pass
    assert list(tmp_path.iterdir()) == []
