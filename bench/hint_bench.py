"""The coach's answers end to end through the bot (issue 24): a hint at any level, and ``/unseen`` with its outs.

    python bench/hint_bench.py [--positions 12] [--repeat 2] [--processes 2] [--seed 24] [--unseen 6]

Targets: a hint at any level answered in at most 0.3 s p95; ``/unseen`` with its outs for a 14-tile rack and a
40-tile table in at most 1 s p95.

The bot is built as ``python -m bot`` builds it (``bot.telegram.app.build_application``: the handlers, the
solver processes, a SQLite file migrated to the latest schema) and runs in this process against the loopback
fake Bot API of the tests (``tests/fake_bot_api.py``), which also runs here, on the same cores. Each position
is a private chat past its opening: its rack and table are sent (not timed), then ``/hint`` (level 1: the solve
and the hint), the More button twice (levels 2 and 3: read off the kept answer) and Show the play (level 4:
the picture and the moves); each timed from the update to the bot's reply. ``--unseen`` positions are then
asked ``/unseen`` (the picture and every unseen kind of tile solved, in batches over the solver processes).
Positions: 14-tile racks and tables of 38 to 42 tiles dealt from a shuffled deck (``bench/unseen_bench.py``'s
``dealt``), each in a private game of one player (every unseen tile is in the pool: the outs are solved for every
unseen kind of tile all the same).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.unseen_bench import dealt  # noqa: E402
from bot.game.codec import encode_table  # noqa: E402
from tests.bot_support import database, fake_api, running_bot  # noqa: E402
from tests.fake_bot_api import Call, FakeBotApi, User, private  # noqa: E402

HINT_TARGET_MS = 300.0
UNSEEN_TARGET_MS = 1000.0


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def line(name: str, values: Sequence[float], target: float) -> str:
    ms = [v * 1000 for v in values]
    p95 = percentile(ms, 0.95)
    return (
        f"{name:<22} n={len(ms):>3}  median {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  "
        f"max {max(ms):7.1f} ms  target {target:.0f} ms: {'met' if p95 <= target else 'NOT met'}"
    )


async def ask(fake: FakeBotApi, user: User, text: str, methods: tuple[str, ...] = ("sendMessage", "sendPhoto")) -> Call:
    chat = private(user)
    mark = fake.mark()
    fake.send(user, text, chat)
    return await fake.reply(chat.id, mark, methods, timeout=60)


async def tap(fake: FakeBotApi, user: User, call: Call, button: str) -> tuple[Call, float]:
    mark = fake.mark()
    start = time.perf_counter()
    fake.tap(user, call, button)
    reply = await fake.reply(user.id, mark, timeout=60)
    return reply, time.perf_counter() - start


async def set_up(fake: FakeBotApi, app: object, user: User, seed: int) -> None:
    """A private game past the opening, with a dealt position."""
    from bot.telegram.runtime.deps import KEY, Deps
    from tests.storage_support import melded

    _name, rack, table = dealt(seed)
    await ask(fake, user, "/rack " + " ".join(str(t) for t in rack))
    await ask(fake, user, "/table " + " | ".join(" ".join(str(t) for t in s.tiles) for s in table))
    deps = app.bot_data[KEY]  # type: ignore[attr-defined]
    assert isinstance(deps, Deps)
    state = await deps.service.game_for(user.id, user.id, private=True)
    assert len(encode_table(state.table)) == len(table)
    await melded(deps.service, state.id, user.id)


async def run(args: argparse.Namespace) -> int:
    levels: dict[int, list[float]] = {1: [], 2: [], 3: [], 4: []}
    unseen: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        url = await database(Path(folder))
        async with fake_api() as fake, running_bot(fake, url, processes=args.processes) as app:
            for k in range(args.positions):
                user = User(10_000 + k, f"Player {k}")
                await set_up(fake, app, user, args.seed + k)
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    one = await ask(fake, user, "/hint")
                    levels[1].append(time.perf_counter() - start)
                    if "More" not in str(one.params.get("reply_markup")):
                        continue  # no play: level 1 is the whole hint
                    two, t = await tap(fake, user, one, "More")
                    levels[2].append(t)
                    three, t = await tap(fake, user, two, "More")
                    levels[3].append(t)
                    _four, t = await tap(fake, user, three, "Show the play")
                    levels[4].append(t)
            for k in range(args.unseen):
                user = User(20_000 + k, f"Player {k}")
                await set_up(fake, app, user, args.seed + 1000 + k)
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    answer = await ask(fake, user, "/unseen", ("sendPhoto",))
                    unseen.append(time.perf_counter() - start)
                    assert answer.photo is not None
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"bot with {args.processes} solver processes; {args.positions} positions x {args.repeat} hint sequences")
    everything = [v for values in levels.values() for v in values]
    for level, values in levels.items():
        if values:
            print(line(f"hint level {level}", values, HINT_TARGET_MS))
    print(line("hint, any level", everything, HINT_TARGET_MS))
    if unseen:
        print(line("/unseen with outs", unseen, UNSEEN_TARGET_MS))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--unseen", type=int, default=6, help="positions asked /unseen")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
