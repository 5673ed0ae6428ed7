"""The referee (``tests.referee``): whole games of simulated families through the real ``python -m bot``, the
game read back after every message and equal to the truth, every game ending in the box's scores.

CI plays a few games. ``REFEREE_GAMES=N`` plays N more games of 2 to 4 players (the players from each seed,
or ``REFEREE_PLAYERS``), seeds from ``REFEREE_SEED`` on (default 1), ``REFEREE_AT_ONCE`` families at a time
(default 2); ``REFEREE_KEEP_GOING=1`` plays on past a game that fails and reports every failure at the end.
Each failure names its seed and how to replay it; ``REFEREE_TRANSCRIPT=/tmp/t`` keeps every message of
each family in ``/tmp/t-SEED.txt``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.referee import Stats, arena, families

#: (seed, players, games in a row at the same table), the three families playing at once: four players play
#: two games ("New game, same players" between them, the totals adding up), two players one, three players one
#: stopped with /end. Seeds picked for short games that still do most of what a family does: every kind of
#: play, draw and naming, questions, undos (of a play, a draw, going out, the score), a wrong correction put
#: right, double taps, a mistyped play, stale buttons (some 500 messages, 40 s here on a loaded 2-core machine).
CI_GAMES = [(2, 4, 2), (5, 2, 1), (8, 3, 1)]


async def test_whole_games_through_the_bot_end_in_the_box_scores(tmp_path: Path) -> None:
    stats = Stats()
    started = time.monotonic()
    async with arena(tmp_path) as place:
        await families(place, CI_GAMES, stats, at_once=3)
    print(f"\n{stats.summary()}\n{time.monotonic() - started:.0f} s")
    assert len(stats.games) == sum(count for _seed, _players, count in CI_GAMES)
    assert all(g.scores and sum(g.scores.values()) >= 0 for g in stats.games)


def games_for(seed: int) -> int:
    """How many games in a row a family plays at its table: one family in five two."""
    return 2 if seed % 5 == 0 else 1


def _env(name: str, default: str) -> str:
    return os.environ.get(name, "") or default


@pytest.mark.skipif(not os.environ.get("REFEREE_GAMES"), reason="REFEREE_GAMES=N plays N whole games")
async def test_many_games(tmp_path: Path) -> None:
    count = int(_env("REFEREE_GAMES", "0"))
    first = int(_env("REFEREE_SEED", "1"))
    players = os.environ.get("REFEREE_PLAYERS")
    games = [(seed, int(players) if players else 2 + seed % 3, games_for(seed)) for seed in range(first, first + count)]
    stats = Stats()
    started = time.monotonic()
    async with arena(tmp_path) as place:
        failures = await families(
            place,
            games,
            stats,
            at_once=int(_env("REFEREE_AT_ONCE", "2")),
            keep_going=_env("REFEREE_KEEP_GOING", "0") != "0",
        )
    print(f"\n{stats.summary()}\n{len(stats.games)} games in {time.monotonic() - started:.0f} s")
    for example in stats.examples:
        print("  not read as played:", example)
    assert not failures, f"{len(failures)} of {count} families failed:\n\n" + "\n\n".join(failures)
