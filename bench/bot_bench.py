"""How fast the bot answers: from an update being offered to getUpdates until the reply arrives.

    python bench/bot_bench.py [--chats 20] [--rounds 5] [--think 1.0] [--probe 0.25] [--positions FILE]

The bot runs as it does in production, ``python -m bot`` in its own process
(polling, migrations at start-up, AIORateLimiter with Telegram's limits), with
``TELEGRAM_BASE_URL`` pointing at the loopback fake Bot API of the tests,
which runs here and timestamps each update it offers and each reply.

``--chats`` private chats (each has made its initial meld) send positions
from ``positions.json``, the largest first, a different one each round ("rack: …" and "table: …" lines:
store both, solve, plan the moves, draw, send the photo). Two loads:

* burst: in each round every chat sends its position at the same instant
  (rounds a second apart, so each burst finds the bot quiet);
* steady: every chat sends its next position ``--think`` seconds (on average)
  after its previous answer arrived, like people at tables.

A reply counts as right when it is a photo whose caption has the position's
best tile count (or, for the positions without a play, the "No play"
message). Meanwhile another chat asks /help every ``--probe`` seconds (after
its previous answer): its latency shows whether solving ever blocks the event
loop. Each /help is an update and a reply like any other, so a fast probe is
load of its own (at 0.05 s it adds about 15 updates a second to a burst).

Targets: median at most 150 ms, p99 at most 400 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.storage.migrate import upgrade_database  # noqa: E402
from tests.fake_bot_api import FakeBotApi, User  # noqa: E402

DEFAULT_POSITIONS = ROOT.parent / "shared" / "bench" / "positions.json"
TARGETS = {"median": 150.0, "p99": 400.0}
#: Seconds between two bursts: the bot stores each position after answering it, and a burst that
#: arrived while the previous one was still being stored would measure both.
BURST_PAUSE = 1.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def figures(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "median": statistics.median(values),
        "p90": percentile(values, 0.90),
        "p99": percentile(values, 0.99),
        "max": max(values),
    }


def position_text(p: dict[str, Any]) -> str:
    return "rack: " + " ".join(p["rack"]) + "\ntable: " + " | ".join(" ".join(s) for s in p["table"])


def largest(positions: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The positions with the most tiles (table plus rack)."""
    return sorted(positions, key=lambda p: -(sum(len(s) for s in p["table"]) + len(p["rack"])))[:count]


@dataclass
class Run:
    times: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


async def latency(fake: FakeBotApi, user: User, text: str, methods: tuple[str, ...], timeout: float = 120) -> Any:
    """Offer the message; milliseconds from the offer to the reply's arrival, and the reply."""
    mark = fake.mark()
    update_id = fake.send(user, text)
    reply = await fake.reply(user.id, mark, methods, timeout)
    return (reply.at - fake.offered_at[update_id]) * 1000, reply


async def solve_once(fake: FakeBotApi, user: User, p: dict[str, Any], run: Run) -> None:
    ms, reply = await latency(fake, user, position_text(p), ("sendPhoto", "sendMessage"))
    run.times.append(ms)
    if p["best_tiles"] == 0:
        right = reply.method == "sendMessage" and reply.text.startswith("No play")
    else:
        right = reply.method == "sendPhoto" and f": {p['best_tiles']} tile" in reply.text.split("\n")[0]
    if not right:
        run.wrong.append(f"{p['id']}: {reply.text[:80]}")


def cpu_seconds(root: int) -> tuple[float, float]:
    """CPU time (user + system) of a process, and of all its descendants (the fork server, the solver processes)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    family, todo = {root}, [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, _) in stats.items():
            if ppid == parent and pid not in family:
                family.add(pid)
                todo.append(pid)
    own = stats[root][1] if root in stats else 0.0
    return own, sum(stats[pid][1] for pid in family - {root} if pid in stats)


def machine_ticks() -> list[int]:
    """The machine's CPU time so far by kind (``/proc/stat``: user, nice, system, idle, iowait, irq, softirq, steal)."""
    try:
        return [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return []


def stolen_share(before: list[int], after: list[int]) -> float | None:
    """How much of the time the hypervisor gave the cores to someone else (steal), as a share of all of it."""
    if len(before) < 8 or len(after) < 8:
        return None
    spent = [a - b for a, b in zip(after, before, strict=True)]
    return spent[7] / sum(spent) if sum(spent) else None


def start_bot(fake: FakeBotApi, folder: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}",
        "SOLVER_TIME_LIMIT": "10",
        "LOG_LEVEL": "WARNING",
    }
    profile = ["-m", "cProfile", "-o", os.environ["BOT_PROFILE"]] if os.environ.get("BOT_PROFILE") else []
    return subprocess.Popen([sys.executable, *profile, "-m", "bot"], cwd=folder, env=env)


async def bench(chats: int, rounds: int, think: float, probe: float, positions: list[dict[str, Any]]) -> dict[str, Any]:
    fake = FakeBotApi()
    await fake.start()
    folder = Path(tempfile.mkdtemp(prefix="bot-bench-"))
    await upgrade_database(f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}")
    process = start_bot(fake, folder)
    try:
        await fake.wait_for(
            lambda: True if sum(c.method == "setMyCommands" for c in fake.calls) == 2 else None, 120, "start-up"
        )
        users = [User(7000 + i, f"Bench{i}") for i in range(chats)]
        for user in users:
            await latency(fake, user, "/meld", ("sendMessage",))
        watcher, help_times, stop = User(6999, "Watcher"), [], asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                ms, _ = await latency(fake, watcher, "/help", ("sendMessage",))
                help_times.append(ms)
                await asyncio.sleep(probe)

        watching = asyncio.create_task(watch())
        cpu_before, harness_before, ticks_before = cpu_seconds(process.pid), time.process_time(), machine_ticks()
        burst = Run()
        for r in range(rounds):
            chosen = [positions[(i + r * chats) % len(positions)] for i in range(chats)]
            await asyncio.gather(*(solve_once(fake, u, p, burst) for u, p in zip(users, chosen, strict=True)))
            await asyncio.sleep(BURST_PAUSE)  # each burst meets a quiet bot, not the last one's stores
        steady = Run()
        rng = random.Random(1)

        async def player(i: int, user: User) -> None:
            for r in range(rounds):
                await asyncio.sleep(rng.uniform(0, 2 * think))
                await solve_once(fake, user, positions[(i + r * chats) % len(positions)], steady)

        if think > 0:
            await asyncio.gather(*(player(i, u) for i, u in enumerate(users)))
        stop.set()
        await watching
        (own_after, others_after), harness = cpu_seconds(process.pid), time.process_time() - harness_before
        own, others = own_after - cpu_before[0], others_after - cpu_before[1]
        stolen = stolen_share(ticks_before, machine_ticks())
        answers = max(1, len(burst.times) + len(steady.times) + len(help_times))
        if fake.violations:
            raise AssertionError(f"requests off the spec: {fake.violations[:5]}")
        return {
            "burst": figures(burst.times),
            "steady": figures(steady.times),
            "help": figures(help_times),
            "count": len(burst.times) + len(steady.times),
            "cpu_ms": {
                "bot": 1000 * own / answers,
                "solver processes": 1000 * others / answers,
                "this benchmark": 1000 * harness / answers,
            },
            "wrong": burst.wrong + steady.wrong,
            "stolen": stolen,
        }
    finally:
        await fake.end_polls()
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.to_thread(process.wait, 30)
        except subprocess.TimeoutExpired:
            process.kill()
        await fake.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chats", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between a reply and the next (0: none)")
    parser.add_argument("--probe", type=float, default=0.25, help="seconds between the watching chat's /help")
    parser.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS)
    args = parser.parse_args()
    everything = json.loads(args.positions.read_text())
    positions = largest(everything, len(everything))  # largest first; a chat's position changes every round
    started = time.perf_counter()
    result = asyncio.run(bench(args.chats, args.rounds, args.think, args.probe, positions))
    machine = platform.processor() or platform.machine()
    stolen = "unknown" if result["stolen"] is None else f"{100 * result['stolen']:.1f} %"
    print(
        f"machine: {os.cpu_count()} cores, {machine}, Python {platform.python_version()}, load {os.getloadavg()}, "
        f"time stolen by the hypervisor while measuring: {stolen}"
    )
    took = time.perf_counter() - started
    print(f"{result['count']} answers to {args.chats} chats x {args.rounds} rounds in {took:.0f} s")
    cpu = result["cpu_ms"]
    print(
        f"CPU per answer (/help included): {cpu['bot'] + cpu['solver processes']:.1f} ms in the bot's processes "
        f"(its own {cpu['bot']:.1f} ms, solver processes {cpu['solver processes']:.1f} ms); "
        f"{cpu['this benchmark']:.1f} ms in this benchmark's process (fake Bot API, users)"
    )
    for name in ("burst", "steady", "help"):
        if result[name]:
            print(f"{name:>7}: " + ", ".join(f"{k} {v:.0f} ms" for k, v in result[name].items()))
    if result["wrong"]:
        print("wrong answers:", *result["wrong"], sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
