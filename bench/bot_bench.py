"""How many answers a second the bot sustains: large positions from many chats, with p99 under one second.

    python bench/bot_bench.py [--processes 1] [--seconds 20] [--chats 100]
    python bench/bot_bench.py --url http://127.0.0.1:8001/hook --url http://127.0.0.1:8002/hook --fake-port 8081

The bot runs as in production, ``python -m bot`` in its own process (migrations at start-up, AIORateLimiter with
Telegram's limits, solver processes), against the loopback fake Bot API of the tests, which runs here, checks
every request against the spec and timestamps each reply. With one process it polls; with ``--processes N``
(more than one) the script starts N processes in webhook mode on one database (``--database``, default a SQLite
file; give a PostgreSQL URL for several) and posts each update to the next of them, as a load balancer would.
With ``--url`` it starts nothing and posts to processes already running, whose ``TELEGRAM_BASE_URL`` points at
``http://127.0.0.1:<--fake-port>/bot`` and whose ``WEBHOOK_SECRET`` is this script's ``--secret``.

``--chats`` private chats (each has made its initial meld) send the largest benchmark positions ("rack: …" and
"table: …" in one message: store both, solve, plan the moves, draw, send the photo), arriving at random (a
Poisson stream) at a set rate, each to a chat not already waiting for an answer when there is one. A rate is
held for ``--seconds``; it is sustained when every answer came, right (the best tile count, or "No play"), and
the 99th percentile of the times from sending an update to its reply is under one second. The rate grows by
half until it is not sustained, then the way to the edge is halved (``--refine`` times); each step starts once
the bot's processes are idle again. The capacity is the highest
rate sustained; the CPU per answer is the bot's processes' (with their solver processes') CPU time over a step
divided by its answers. The fake Bot API and the users run in this script's process, on the same cores.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.storage.migrate import upgrade_database  # noqa: E402
from tests.fake_bot_api import Call, FakeBotApi, User, private  # noqa: E402

#: the benchmark positions, kept in the repo (tests/data/positions/README.md says where they come from)
DEFAULT_POSITIONS = ROOT / "tests" / "data" / "positions" / "positions.json"
P99_TARGET_MS = 1000.0
#: The benchmark positions with at least this many tiles (table and rack) are the load: the 20 largest, 80-106 tiles.
LARGE = 80
#: Seconds a step's last answers may take after its arrivals stop before they count as lost.
DRAIN = 60.0
#: Seconds of quiet between steps, so a step does not meet the last one's queue.
PAUSE = 3.0
#: A step starts once the bot's processes use less than this share of a core (or after ``DRAIN`` seconds): after
#: a rate it could not keep up with, the bot still has work of its own left for a while.
QUIET = 0.05
#: Each rate tried is this many times the last, until one is not sustained.
GROWTH = 1.5
ANSWERS = ("sendPhoto", "sendMessage")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def position_text(p: dict[str, Any]) -> str:
    return "rack: " + " ".join(p["rack"]) + "\ntable: " + " | ".join(" ".join(s) for s in p["table"])


def is_right(p: dict[str, Any], reply: Call) -> bool:
    if p["best_tiles"] == 0:
        return reply.method == "sendMessage" and reply.text.startswith("No play")
    return reply.method == "sendPhoto" and f": {p['best_tiles']} tile" in reply.text.split("\n")[0]


class Fake(FakeBotApi):
    """The tests' fake Bot API, handing each answer straight to the user waiting in its chat.

    (The tests' ``reply`` scans every call after a mark; with hundreds of users waiting that scan would be the
    bottleneck.) Answers in one chat come in the order its messages were sent, so the oldest waiting user of the
    chat takes each one; a user who gave up still takes its answer, so the later ones stay matched.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self.waiting: dict[int, deque[asyncio.Future[Call]]] = {}

    def expect(self, chat_id: int) -> asyncio.Future[Call]:
        answer: asyncio.Future[Call] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(chat_id, deque()).append(answer)
        return answer

    def record(self, call: Call) -> None:
        self.calls.append(call)
        if call.method in ANSWERS and call.chat_id is not None:
            queue = self.waiting.get(call.chat_id)
            if queue:
                answer = queue.popleft()
                if not answer.done():
                    answer.set_result(call)
        if len(self.calls) > 10_000:  # a long run's calls are not needed, only the latest for the tests' helpers
            del self.calls[:5_000]
        self._notify()

    def webhook_update(self, user: User, text: str) -> dict[str, Any]:
        """The update Telegram would post for ``text`` (checked against the spec, remembered like an offered one)."""
        update = {"update_id": next(self._update_ids), "message": self.user_message(user, private(user), text=text)}
        problems = self.spec.check_value(update, "Update", "Update")
        if problems:
            raise AssertionError(f"an update that breaks the spec: {problems}")
        self.remember_user_message(update)
        return update


# --- the bot's processes ----------------------------------------------------------------------------------------


def cpu_seconds(roots: list[int]) -> float:
    """CPU time (user + system) of these processes and all their descendants (fork server, solver processes),
    with that of descendants that have ended (a solver process renewed after its tasks): their parent's
    ``cutime``/``cstime`` once it has reaped them."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = (int(fields[1]), sum(int(v) for v in fields[11:15]) / tick)
    family, todo = set(roots), list(roots)
    while todo:
        parent = todo.pop()
        for pid, (ppid, _) in stats.items():
            if ppid == parent and pid not in family:
                family.add(pid)
                todo.append(pid)
    return sum(stats[pid][1] for pid in family if pid in stats)


def machine_ticks() -> list[int]:
    """The machine's CPU time so far by kind (``/proc/stat``: user, nice, system, idle, iowait, irq, softirq, steal)."""
    try:
        return [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return []


def busy_seconds(before: list[int], after: list[int]) -> float:
    """CPU seconds the whole machine spent on anything but idling between two ``machine_ticks``."""
    if len(before) < 8 or len(after) < 8:
        return float("nan")
    spent = [a - b for a, b in zip(after, before, strict=True)]
    return (sum(spent) - spent[3] - spent[4]) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Fleet:
    """The bot's processes: started here (``processes``) or already running (``urls`` only)."""

    database: str
    folder: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    secret: str = ""

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def start(self, fake: FakeBotApi, count: int, webhook: bool) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_BASE_URL": fake.base_url,
            "DATABASE_URL": self.database,
            "SOLVER_TIME_LIMIT": "10",
            "LOG_LEVEL": "WARNING",
        }
        for _ in range(count):
            if webhook:
                port = free_port()
                url = f"http://127.0.0.1:{port}/hook"
                env |= {
                    "WEBHOOK_URL": url,
                    "WEBHOOK_LISTEN": "127.0.0.1",
                    "WEBHOOK_PORT": str(port),
                    "WEBHOOK_SECRET": self.secret,
                }
                self.urls.append(url)
            self.processes.append(subprocess.Popen([sys.executable, "-m", "bot"], cwd=self.folder, env=env))

    async def listening(self, timeout: float = 60.0) -> None:
        """Wait until every webhook accepts connections (PTB opens it after the start-up requests)."""
        deadline = time.monotonic() + timeout
        for url in self.urls:
            port = int(url.split(":")[2].split("/")[0])
            while True:
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", port)
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    await asyncio.sleep(0.2)
                    continue
                writer.close()
                break

    async def stop(self) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGINT)
        for process in self.processes:
            try:
                await asyncio.to_thread(process.wait, 30)
            except subprocess.TimeoutExpired:
                process.kill()


# --- the load ---------------------------------------------------------------------------------------------------


@dataclass
class Step:
    rate: float
    seconds: float
    times: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    lost: int = 0
    cpu: float = float("nan")  # the bot's processes, seconds
    busy: float = float("nan")  # the whole machine, seconds
    harness: float = 0.0  # this script's process, seconds

    @property
    def answers(self) -> int:
        return len(self.times)

    @property
    def p99(self) -> float:
        return percentile(self.times, 0.99)

    @property
    def sustained(self) -> bool:
        return self.answers > 0 and not self.lost and not self.wrong and self.p99 < P99_TARGET_MS

    def line(self) -> str:
        cpu = 1000 * self.cpu / max(1, self.answers)
        machine = 1000 * (self.busy - self.harness) / max(1, self.answers)
        return (
            f"{self.rate:6.1f}/s offered: {self.answers:5d} answers ({self.answers / self.seconds:5.1f}/s), "
            f"median {statistics.median(self.times) if self.times else float('nan'):6.0f} ms, "
            f"p99 {self.p99:6.0f} ms, max {max(self.times, default=float('nan')):6.0f} ms; "
            f"CPU per answer {cpu:5.1f} ms in the bot (machine {machine:5.1f} ms without this script's "
            f"{1000 * self.harness / max(1, self.answers):4.1f} ms); "
            f"{'sustained' if self.sustained else 'NOT sustained'}"
            + (f", {self.lost} lost" if self.lost else "")
            + (f", {len(self.wrong)} wrong" if self.wrong else "")
        )


class Load:
    """Users in ``chats`` private chats sending positions; updates offered for polling or posted to webhooks."""

    def __init__(self, fake: Fake, fleet: Fleet, chats: int, positions: list[dict[str, Any]]) -> None:
        self.fake, self.fleet, self.positions = fake, fleet, positions
        self.users = [User(7000 + i, f"Bench{i}") for i in range(chats)]
        self.busy: set[int] = set()
        self.next_user = itertools.cycle(range(chats))
        self.next_url = itertools.cycle(fleet.urls) if fleet.urls else None
        self.client = httpx.AsyncClient(timeout=DRAIN)

    async def send(self, user: User, text: str) -> tuple[float, Call]:
        """Milliseconds from sending ``text`` until the reply came, and the reply."""
        answer = self.fake.expect(user.id)
        started = time.perf_counter()
        if self.next_url is None:
            self.fake.send(user, text)
        else:
            update = self.fake.webhook_update(user, text)
            headers = {"X-Telegram-Bot-Api-Secret-Token": self.fleet.secret}
            posted = await self.client.post(next(self.next_url), json=update, headers=headers)
            if posted.status_code != 200:
                raise AssertionError(f"the webhook answered {posted.status_code}")
        reply = await asyncio.wait_for(answer, DRAIN)
        return (reply.at - started) * 1000, reply

    async def one(self, user: User, p: dict[str, Any], step: Step) -> None:
        self.busy.add(user.id)
        try:
            ms, reply = await self.send(user, position_text(p))
        except (TimeoutError, AssertionError, httpx.HTTPError):
            step.lost += 1
            return
        finally:
            self.busy.discard(user.id)
        step.times.append(ms)
        if not is_right(p, reply):
            step.wrong.append(f"{p['id']}: {reply.text[:80]}")

    def idle_user(self) -> User:
        """The next chat not waiting for an answer (or simply the next, when every chat is waiting)."""
        for _ in range(len(self.users)):
            user = self.users[next(self.next_user)]
            if user.id not in self.busy:
                return user
        return self.users[next(self.next_user)]

    async def step(self, rate: float, seconds: float, seed: int) -> Step:
        step, rng, tasks = Step(rate, seconds), random.Random(seed), []
        loop = asyncio.get_running_loop()
        cpu, ticks, harness = cpu_seconds(self.fleet.pids), machine_ticks(), time.process_time()
        start = due = loop.time()
        while True:
            due += rng.expovariate(rate)
            if due - start > seconds:
                break
            await asyncio.sleep(max(0.0, due - loop.time()))
            p = self.positions[rng.randrange(len(self.positions))]
            tasks.append(asyncio.create_task(self.one(self.idle_user(), p, step)))
        await asyncio.gather(*tasks)
        step.cpu = cpu_seconds(self.fleet.pids) - cpu if self.fleet.pids else float("nan")
        step.busy, step.harness = busy_seconds(ticks, machine_ticks()), time.process_time() - harness
        return step


async def quiet(fleet: Fleet) -> None:
    """Wait until the bot's processes are idle (when they are known: the ones started here)."""
    await asyncio.sleep(PAUSE)
    if not fleet.pids:
        return
    deadline = time.monotonic() + DRAIN
    before = cpu_seconds(fleet.pids)
    while time.monotonic() < deadline:
        await asyncio.sleep(1.0)
        now = cpu_seconds(fleet.pids)
        if now - before < QUIET:
            return
        before = now


async def capacity(args: argparse.Namespace, positions: list[dict[str, Any]]) -> list[Step]:
    fake = Fake(port=args.fake_port)
    await fake.start()
    folder = Path(tempfile.mkdtemp(prefix="bot-bench-"))
    database = args.database or f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}"
    fleet = Fleet(database, folder, urls=list(args.url), secret=args.secret)
    steps: list[Step] = []
    try:
        if not args.url:
            await upgrade_database(database)
            fleet.start(fake, args.processes, webhook=args.processes > 1)
            await fake.wait_for(
                lambda: True if sum(c.method == "setMyCommands" for c in fake.calls) >= 2 * args.processes else None,
                180,
                "start-up",
            )
            await fleet.listening()
        load = Load(fake, fleet, args.chats, positions)
        await asyncio.gather(*(load.send(u, "/meld") for u in load.users))
        rate, good, bad = args.start, None, None
        while bad is None:
            await quiet(fleet)
            steps.append(await load.step(rate, args.seconds, len(steps)))
            print(steps[-1].line(), flush=True)
            good, bad = (steps[-1], None) if steps[-1].sustained else (good, steps[-1])
            rate = round(rate * GROWTH, 1)
        for _ in range(args.refine):
            low = good.rate if good is not None else 0.0
            if bad.rate - low < 1:
                break
            await quiet(fleet)
            steps.append(await load.step(round((low + bad.rate) / 2, 1), args.seconds, len(steps)))
            print(steps[-1].line(), flush=True)
            good, bad = (steps[-1], bad) if steps[-1].sustained else (good, steps[-1])
        await load.client.aclose()
        if fake.violations:
            raise AssertionError(f"requests off the spec: {fake.violations[:5]}")
        return steps
    finally:
        await fake.end_polls()
        await fleet.stop()
        await fake.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=1, help="bot processes to start (more than 1: webhooks)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each rate is held")
    parser.add_argument("--chats", type=int, default=100)
    parser.add_argument("--start", type=float, default=4.0, help="the first rate tried, answers a second")
    parser.add_argument("--refine", type=int, default=2, help="steps halving the way between sustained and not")
    parser.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--database", help="the database of the processes started here (default: a SQLite file)")
    parser.add_argument("--url", action="append", default=[], help="a running process's webhook (repeatable)")
    parser.add_argument("--fake-port", type=int, default=0, help="the fake Bot API's port (0: any free one)")
    parser.add_argument("--secret", default=secrets.token_urlsafe(16), help="the webhooks' secret token")
    args = parser.parse_args()
    if args.url and not args.fake_port:
        parser.error("--url needs --fake-port: the running processes must know where the fake Bot API listens")
    everything = json.loads(args.positions.read_text())
    positions = [p for p in everything if sum(len(s) for s in p["table"]) + len(p["rack"]) >= LARGE]
    load_before = os.getloadavg()
    steps = asyncio.run(capacity(args, positions))
    machine = platform.processor() or platform.machine()
    print(
        f"machine: {os.cpu_count()} cores, {machine}, Python {platform.python_version()}; "
        f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
        f"after {' '.join(f'{v:.2f}' for v in os.getloadavg())}"
    )
    where = f"{len(args.url)} running processes" if args.url else f"{args.processes} bot process(es)"
    best = max((s for s in steps if s.sustained), key=lambda s: s.rate, default=None)
    if best is None:
        print(f"{where}: no rate tried was sustained (p99 under {P99_TARGET_MS:.0f} ms, every answer right)")
        return 1
    print(
        f"capacity, {where}, {len(positions)} positions of {LARGE}+ tiles, {args.chats} chats: "
        f"{best.answers / best.seconds:.1f} answers a second sustained (offered {best.rate}/s), "
        f"p99 {best.p99:.0f} ms; CPU per answer {1000 * best.cpu / best.answers:.1f} ms in the bot's processes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
