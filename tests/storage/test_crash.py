"""A writer killed with SIGKILL mid-write leaves a sound database holding exactly what it committed.

The writer plays one set per transaction from Alice's rack (the table, her rack
and the history change together) and reports "begin i" before and "done i"
after each commit, flushed, through a pipe. Whatever the moment of the kill,
the database must pass ``PRAGMA integrity_check`` and hold a prefix of the
plays: every play reported done, and at most the one that had begun.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.game import GameState
from bot.storage import GameService, open_database
from solver import STANDARD, TileSet
from tests.storage_support import ALICE, GROUP, add_sets, count_events, migrated

ROOT = Path(__file__).resolve().parents[2]
RULES = STANDARD.replace(copies=4, initial_meld=0)  # every small run is a play, opening or not
DELAYS = (0.0, 0.002, 0.004, 0.001)  # seconds from a write's start to the kill, one round each

WRITER = """
import asyncio, sys
from bot.storage import GameService, open_database
from tests.storage_support import add_sets
from tests.storage.test_crash import ALICE, SETS

async def main(url: str, game_id: int) -> None:
    db = open_database(url)
    service = GameService(db)
    start = len((await service.game(game_id)).table)
    for i in range(start, len(SETS)):
        print("begin", i, flush=True)
        await add_sets(service, game_id, ALICE, [SETS[i]], player=ALICE)
        print("done", i, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""

SETS = [TileSet.run(c, start, length=3) for _copy in range(4) for c in RULES.colour_order for start in (1, 4, 7, 10)]
ALL_TILES = [t for s in SETS for t in s.tiles]


async def start_game(url: str) -> GameState:
    db = open_database(url)
    try:
        service = GameService(db)
        game = await service.new_game(GROUP, ALICE, RULES, join_as="Alice")
        return (await service.set_rack(game.id, ALICE, ALL_TILES)).state
    finally:
        await db.dispose()


async def read_state(url: str, game_id: int) -> tuple[GameState, int]:
    db = open_database(url)
    try:
        service = GameService(db)
        return await service.game(game_id), await count_events(service, game_id)
    finally:
        await db.dispose()


def run_and_kill(script: Path, url: str, game_id: int, after: int, delay: float) -> tuple[list[int], list[int]]:
    """Start the writer and SIGKILL it ``delay`` seconds after it reports beginning its ``after``-th
    write (inside that write's transaction, most of the time); return what it began and finished."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, str(script), url, str(game_id)], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    assert proc.stdout is not None
    lines: list[str] = []
    begun = 0
    while begun < after:
        line = proc.stdout.readline()
        assert line, "the writer stopped before it could be killed"
        lines.append(line)
        begun += line.startswith("begin")
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    lines.extend(proc.stdout.read().splitlines())
    assert proc.wait(timeout=10) == -signal.SIGKILL
    began = [int(x.split()[1]) for x in lines if x.startswith("begin")]
    finished = [int(x.split()[1]) for x in lines if x.startswith("done")]
    return began, finished


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_writer_leaves_exactly_its_commits(tmp_path: Path) -> None:
    url = asyncio.run(migrated(tmp_path))
    game = asyncio.run(start_game(url))
    _, events_at_start = asyncio.run(read_state(url, game.id))
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    file = tmp_path / "games.sqlite3"
    committed: list[int] = []
    for round_ in range(len(DELAYS)):
        begun, finished = run_and_kill(script, url, game.id, after=5 + 4 * round_, delay=DELAYS[round_])
        committed.extend(finished)

        assert Path(f"{file}-wal").exists()  # killed with committed pages still in the WAL
        with sqlite3.connect(file) as check:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert check.execute("PRAGMA foreign_key_check").fetchall() == []

        state, events = asyncio.run(read_state(url, game.id))
        on_table = len(state.table)
        # every reported commit is there; beyond them, at most the one write that had begun
        assert on_table in (len(committed), len(committed) + 1)
        assert on_table == len(committed) or begun[-1] == on_table - 1
        committed = list(range(on_table))
        played = SETS[:on_table]
        assert [str(s) for s in state.table] == [str(s) for s in played]
        alice = state.player(ALICE)
        assert alice is not None
        assert Counter(alice.rack) == Counter(ALL_TILES) - Counter(t for s in played for t in s.tiles)
        assert alice.tiles_played == 3 * on_table
        # the count, the pool and the set numbers were written in the same commits as the rack and the table
        assert alice.rack_size == len(alice.rack) and state.pool == game.pool
        assert state.numbers == tuple(range(1, on_table + 1))
        assert events == events_at_start + on_table
        assert state.version == game.version + on_table

    # and the database carries on as usual
    async def one_more() -> GameState:
        db = open_database(url)
        try:
            return (await add_sets(GameService(db), game.id, ALICE, [SETS[len(committed)]], player=ALICE)).state
        finally:
            await db.dispose()

    assert len(asyncio.run(one_more()).table) == len(committed) + 1
