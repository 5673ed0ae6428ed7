"""The coach's speed (issue 24): ``/unseen`` with its outs, and the engine's part of a hint.

    python bench/unseen_bench.py [--processes 2] [--dealt 40] [--repeat 3] [--seed 24] [--sequential]

Targets: ``/unseen`` with its outs for a 14-tile rack and a 40-tile table in at most 1 s p95, every unseen kind
of tile solved, in parallel where the pool has processes; a hint at any level in at most 0.3 s p95 end to end
through the bot, of which the engine's part (the three levels from one solved answer, ``bot.coach.hints``) must
be milliseconds.

Positions: those of ``tests/data/positions`` with a rack of 12 to 16 tiles and a table of 30 to 50, and
``--dealt`` more dealt from a shuffled deck (a 14-tile rack, a table of random valid sets of 38 to 42 tiles,
jokers where the shuffle puts them). The player sees two other racks of 14 tiles (fewer when the deck runs
short); the rest is the pool.

``/unseen``: ``bot.coach.unseen.outs`` end to end (the rack as it is and every unseen kind solved, most tiles,
each solve time-limited), its batches run by a process pool of ``--processes`` (forkserver, each process
warmed as the bot warms its solver processes: the table forms worked out and one solve made), as the chat
would run it: one call per process. Each position ``--repeat`` times; the figures are over every run.
``--sequential`` also times the same in this process alone (``map``), to show what the pool saves.

Hints: ``bot.coach.hints.hints`` for each position's answer (most tiles, and the opening), the three levels
at once, warm; and ``bot.coach.simpler.simpler`` under each answer, for the record. Both in CPU time, which
a machine shared with other work does not stretch.

On a shared machine the wall time of ``/unseen`` waits for cores the other work holds; the script also prints
what the answer takes on cores of its own: the CPU time of the slower batch (each batch runs in a process of
its own) plus this process's (sending the batches and reading the answers).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.coach.hints import hints  # noqa: E402
from bot.coach.simpler import simpler  # noqa: E402
from bot.coach.unseen import Probe, Probed, Unseen, outs, probe, unseen_tiles  # noqa: E402
from solver import JOKER, STANDARD, Colour, Tile, TileSet, make_set, parse_tiles  # noqa: E402
from solver.kept import warm_forms  # noqa: E402
from solver.solve import solve  # noqa: E402

DEFAULT_POSITIONS = ROOT / "tests" / "data" / "positions" / "positions.json"
#: seconds, p95
UNSEEN_TARGET = 1.0
#: milliseconds, p95, for the engine's part of a hint (the whole answer through the bot may take 300)
HINT_TARGET = 10.0

Position = tuple[str, list[Tile], list[TileSet]]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, values: Sequence[float], unit: str, scale: float = 1.0) -> str:
    v = [x * scale for x in values]
    return (
        f"{name}: n={len(v)} median {statistics.median(v):.1f} {unit}, p90 {percentile(v, 0.9):.1f}, "
        f"p95 {percentile(v, 0.95):.1f}, max {max(v):.1f}"
    )


def from_file(path: Path) -> list[Position]:
    with path.open() as f:
        data: list[dict[str, Any]] = json.load(f)
    out = []
    for p in data:
        rack = parse_tiles(" ".join(p["rack"]), STANDARD)
        table = [make_set(parse_tiles(" ".join(s), STANDARD), STANDARD) for s in p["table"]]
        if 12 <= len(rack) <= 16 and 30 <= sum(len(s) for s in table) <= 50:
            out.append((p["id"], rack, table))
    return out


def dealt(seed: int) -> Position:
    """A shuffled deck: random valid sets laid until the table holds 38 to 42 tiles, then a 14-tile rack."""
    rng = random.Random(seed)
    while True:
        deck = [t for t in STANDARD.tiles() for _ in range(STANDARD.copies)] + [JOKER] * STANDARD.jokers
        rng.shuffle(deck)
        table: list[TileSet] = []
        size = 0
        for _ in range(400):
            if size >= 38:
                break
            if rng.random() < 0.5:
                colour = rng.choice(STANDARD.colour_order)
                length = rng.randint(3, 5)
                start = rng.randint(1, STANDARD.numbers - length + 1)
                want = [Tile(n, colour) for n in range(start, start + length)]
            else:
                number = rng.randint(1, STANDARD.numbers)
                colours: list[Colour] = rng.sample(list(STANDARD.colour_order), rng.randint(3, 4))
                want = [Tile(number, c) for c in colours]
            if JOKER in deck and rng.random() < 0.15:
                want[rng.randrange(len(want))] = JOKER
            if size + len(want) <= 42 and all(deck.count(t) >= want.count(t) for t in set(want)):
                for t in want:
                    deck.remove(t)
                table.append(make_set(want, STANDARD))
                size += len(want)
        if 38 <= size <= 42:
            return f"dealt-{seed}", deck[:14], table


def unseen_for(rack: list[Tile], table: list[TileSet]) -> Unseen:
    tiles = unseen_tiles(STANDARD, table, rack)
    others = min(28, tiles.total())
    order = sorted(tiles, key=STANDARD.tile_key)
    return Unseen(STANDARD, tuple((t, tiles[t]) for t in order), tiles.total() - others, others)


def timed(job: Probe) -> tuple[tuple[Probed, ...], float]:
    """A batch solved in a pool's process, and the CPU seconds it took there."""
    started = time.process_time()
    found = probe(job)
    return found, time.process_time() - started


@dataclass
class Pooled:
    """``map_with`` for ``outs``: the batches in the pool, one call each, their CPU seconds kept."""

    pool: ProcessPoolExecutor
    cpu: list[float] = field(default_factory=list)

    def __call__(self, fn: Callable[[Probe], tuple[Probed, ...]], jobs: Sequence[Probe]) -> list[tuple[Probed, ...]]:
        assert fn is probe
        done = list(self.pool.map(timed, jobs))
        self.cpu = [cpu for _, cpu in done]
        return [found for found, _ in done]


def worker_start() -> None:
    """As the bot's solver processes start: the table forms worked out, one solve made."""
    warm_forms(STANDARD)
    solve([Tile(n, Colour.RED) for n in (3, 4, 5)], [], STANDARD)


def warm_pool(pool: ProcessPoolExecutor, processes: int) -> None:
    for f in [pool.submit(worker_start) for _ in range(processes * 2)]:
        f.result()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", nargs="?", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--dealt", type=int, default=40, help="positions dealt from a shuffled deck")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--sequential", action="store_true", help="also time the outs in this process alone")
    args = parser.parse_args()

    positions = from_file(args.positions) + [dealt(args.seed * 1000 + k) for k in range(args.dealt)]
    print(
        f"{platform.python_version()} on {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
        f"{len(positions)} positions (racks {min(len(r) for _, r, _ in positions)}-"
        f"{max(len(r) for _, r, _ in positions)} tiles, tables "
        f"{min(sum(map(len, t)) for _, _, t in positions)}-{max(sum(map(len, t)) for _, _, t in positions)})"
    )
    worker_start()

    # the engine's part of a hint: the three levels from one solved answer
    hint_ms: list[float] = []
    simpler_ms: list[float] = []
    offered = 0
    for _, rack, table in positions:
        for meld in (False, True):
            answer = solve(rack, table, STANDARD, initial_meld=meld)
            hints(answer)
            started = time.process_time()
            hints(answer)
            hint_ms.append((time.process_time() - started) * 1000)
            started = time.process_time()
            offered += simpler(answer) is not None
            simpler_ms.append((time.process_time() - started) * 1000)
    print(line("hints, all three levels (CPU)", hint_ms, "ms"))
    print(line(f"a simpler play, offered under {offered} of {len(simpler_ms)} answers (CPU)", simpler_ms, "ms"))

    # /unseen with its outs, every unseen kind solved, in the pool
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(args.processes, mp_context=context) as pool:
        warm_pool(pool, args.processes)
        seconds: list[float] = []
        critical: list[float] = []
        kinds: list[int] = []
        unproven = 0
        pooled = Pooled(pool)
        for _, rack, table in positions:
            seen = unseen_for(rack, table)
            for _ in range(args.repeat):
                started, cpu = time.perf_counter(), time.process_time()
                found = outs(rack, table, STANDARD, seen, initial_meld=False, map_with=pooled, parts=args.processes)
                seconds.append(time.perf_counter() - started)
                # what the answer takes on cores of its own: the slower batch, and this process's share
                critical.append(max(pooled.cpu) + time.process_time() - cpu)
                kinds.append(len(seen.tiles))
                unproven += not found.proven
        print(
            line(f"/unseen with its outs, {args.processes} processes, wall", seconds, "s")
            + f" ({statistics.mean(kinds):.1f} unseen kinds a position, {unproven} answers not proven)"
        )
        print(
            line(
                "  the same, CPU of the slower batch and of this process (the wall on cores of its own)", critical, "s"
            )
        )
        met = percentile(seconds, 0.95) <= UNSEEN_TARGET
        met_alone = percentile(critical, 0.95) <= UNSEEN_TARGET
    if args.sequential:
        alone: list[float] = []
        for _, rack, table in positions:
            seen = unseen_for(rack, table)
            started = time.perf_counter()
            outs(rack, table, STANDARD, seen, initial_meld=False)
            alone.append(time.perf_counter() - started)
        print(line("/unseen with its outs, this process alone", alone, "s"))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    hint_met = percentile(hint_ms, 0.95) <= HINT_TARGET

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print(
        f"targets: /unseen p95 <= {UNSEEN_TARGET} s: {verdict(met)} (wall), {verdict(met_alone)} (on cores of its "
        f"own); hint engine p95 <= {HINT_TARGET} ms: {verdict(hint_met)}"
    )
    return 0 if met and hint_met else 1


if __name__ == "__main__":
    raise SystemExit(main())
