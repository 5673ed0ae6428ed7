"""Many games between two policies on mirrored deals, and the table that sums them up.

Each deal is played once per seat with the tested policy in that seat and the baseline in the others (two
players: each deal twice, the seats swapped). The tested policy's win rate comes with its 95% Wilson
interval, beside its fair share (one game in N); the mean score per game is by the box (the scores of a game
add up to nothing, so a policy as good as the others scores 0 on average). Deals are played in worker
processes, each deal whole in one of them; a deal's seed depends only on the run's seed and its number, so
the same command deals the same games however many processes play them.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from bot.game.state import Finish
from bot.selfplay.deal import deal, deal_seed, lineups
from bot.selfplay.game import play_game
from bot.selfplay.policies import policy
from solver.rules import STANDARD, Rules
from solver.solve import DEFAULT_TIME_LIMIT

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``wins`` of ``n``)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the table counts it: the policy names by seat, the winner's seat, the scores by seat,
    how it ended, the turns, and per seat the decisions (a play on offer) and holds."""

    deal: int
    lineup: tuple[str, ...]
    winner: int
    scores: tuple[int, ...]
    finish: Finish
    turns: int
    decisions: tuple[int, ...]
    holds: tuple[int, ...]
    seconds: float
    cpu: float
    solve_s: float


@dataclass(frozen=True, slots=True)
class Job:
    number: int
    seed: int
    players: int
    baseline: str
    tested: str
    rules: Rules
    time_limit: float


def play_deal(job: Job) -> list[Game]:
    """Every seating of one deal (a worker's task)."""
    dealt = deal(job.rules, job.players, deal_seed(job.seed, job.number))
    games = []
    for names in lineups(job.players, job.baseline, job.tested):
        began, cpu = time.perf_counter(), time.process_time()
        out = play_game(job.rules, dealt, [policy(n) for n in names], time_limit=job.time_limit)
        games.append(
            Game(job.number, names, out.winner, out.scores, out.finish, out.turns, out.decisions, out.holds,
                 time.perf_counter() - began, time.process_time() - cpu, out.solve_s)
        )  # fmt: skip
    return games


@dataclass
class Side:
    """One policy's share of the games: seat-games played, won, score summed, decisions and holds."""

    name: str
    seats: int = 0
    wins: int = 0
    score: int = 0
    decisions: int = 0
    holds: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.seats)

    @property
    def mean_score(self) -> float:
        return self.score / self.seats if self.seats else 0.0

    @property
    def hold_rate(self) -> float:
        return self.holds / self.decisions if self.decisions else 0.0


@dataclass
class Summary:
    """The measurement so far: the games, and each policy's side of them."""

    players: int
    baseline: str
    tested: str
    seed: int
    games: list[Game] = field(default_factory=list)
    seconds: float = 0.0
    processes: int = 1

    def side(self, name: str) -> Side:
        s = Side(name)
        for g in self.games:
            for seat, who in enumerate(g.lineup):
                if who != name:
                    continue
                s.seats += 1
                s.wins += g.winner == seat
                s.score += g.scores[seat]
                s.decisions += g.decisions[seat]
                s.holds += g.holds[seat]
        return s

    @property
    def tested_side(self) -> Side:
        return self.side(self.tested)

    @property
    def fair(self) -> float:
        """A policy's share of wins if it were no better than the others."""
        return 1 / self.players

    @property
    def ships(self) -> bool:
        """The tested policy wins more than its share, beyond doubt (the interval above the fair share)."""
        return self.tested_side.interval[0] > self.fair

    @property
    def blocked(self) -> int:
        return sum(g.finish is Finish.BLOCKED for g in self.games)

    def pairs(self) -> tuple[int, int, int]:
        """Deals whose every seating the tested policy won, some of them, none."""
        by_deal: dict[int, list[bool]] = {}
        for g in self.games:
            by_deal.setdefault(g.deal, []).append(g.lineup[g.winner] == self.tested)
        won = [sum(w) for w in by_deal.values()]
        return (sum(w == self.players for w in won), sum(0 < w < self.players for w in won), won.count(0))

    def games_per_minute(self, cpu: bool = False) -> float:
        """Games a minute on one core: the games' own time summed (each game is played in one process), by the
        clock on the wall or (``cpu``) the process's CPU time (what a loaded machine does not stretch)."""
        busy = sum(g.cpu if cpu else g.seconds for g in self.games)
        return 60 * len(self.games) / busy if busy else 0.0


def measure(
    players: int,
    games: int,
    seed: int,
    baseline: str = "greedy",
    tested: str = "holdback",
    *,
    processes: int = 1,
    rules: Rules = STANDARD,
    time_limit: float = DEFAULT_TIME_LIMIT,
    progress: Callable[[Summary], None] | None = None,
) -> Summary:
    """Play ``games`` games (rounded up to whole deals: a deal is ``players`` games) and sum them up."""
    policy(baseline), policy(tested)  # an unknown name fails here, not in a worker
    deals = max(1, math.ceil(games / players))
    jobs = [Job(n, seed, players, baseline, tested, rules, time_limit) for n in range(deals)]
    summary = Summary(players, baseline, tested, seed, processes=processes)
    began = time.perf_counter()
    for done in _run(jobs, processes):
        summary.games.extend(done)
        summary.seconds = time.perf_counter() - began
        if progress is not None:
            progress(summary)
    summary.games.sort(key=lambda g: (g.deal, g.lineup.index(tested) if tested in g.lineup else 0))
    return summary


def _run(jobs: Sequence[Job], processes: int) -> Iterator[list[Game]]:
    if processes <= 1:
        yield from map(play_deal, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        yield from pool.imap_unordered(play_deal, jobs)


def table(summary: Summary) -> str:
    """The measurement as a Markdown table (the tested policy's row first) and a line of figures."""
    lines = [
        f"{summary.players} players, {len(summary.games)} games "
        f"({len(summary.games) // summary.players} deals, each played with the seats rotated), seed {summary.seed}",
        "",
        "| policy | seat-games | wins | win rate | 95% interval | fair share | mean score per game | held on |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in (summary.tested, summary.baseline):
        s = summary.side(name)
        low, high = s.interval
        lines.append(
            f"| {name} | {s.seats} | {s.wins} | {s.win_rate:.1%} | {low:.1%}-{high:.1%} | {summary.fair:.1%} "
            f"| {s.mean_score:+.1f} | {s.hold_rate:.1%} of {s.decisions} decisions |"
        )
    every, some, none = summary.pairs()
    turns = sum(g.turns for g in summary.games) / max(1, len(summary.games))
    lines += [
        "",
        f"deals won in every seating {every}, in some {some}, in none {none}; blocked games {summary.blocked}; "
        f"{turns:.1f} turns a game",
        f"{summary.games_per_minute():.1f} games a minute on one core by the clock "
        f"({summary.games_per_minute(cpu=True):.1f} by CPU time); {summary.seconds:.0f} s in all "
        f"on {summary.processes} process{'es' if summary.processes != 1 else ''}",
        f"{summary.tested} {'ships' if summary.ships else 'does not ship'}: "
        f"its 95% interval is {'above' if summary.ships else 'not above'} the fair share",
    ]
    return "\n".join(lines)
