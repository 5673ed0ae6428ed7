"""Outages in small: the backoff, one warning per outage and one line at its end, what counts as the database
being away, and the requests to Telegram tried again (or not) through an outage."""

from __future__ import annotations

import asyncio
import errno
import itertools
import logging
import socket
from typing import Any

import pytest
from sqlalchemy.exc import DBAPIError, OperationalError
from telegram.error import BadRequest, InvalidToken, NetworkError, TimedOut
from telegram.ext import BaseRateLimiter

from bot.storage.database import is_unreachable
from bot.storage.outages import Outage, backoff, duration
from bot.telegram.runtime.link import AnswerDropped, Link, Patient, reach


def test_the_backoff_doubles_up_to_its_cap_with_jitter() -> None:
    nominal = [1, 2, 4, 8, 15, 15, 15]
    low = list(itertools.islice(backoff(15.0, rng=lambda: 0.0), 7))
    high = list(itertools.islice(backoff(15.0, rng=lambda: 1.0), 7))
    assert low == [n / 2 for n in nominal] and high == nominal
    drawn = list(itertools.islice(backoff(15.0), 200))
    assert all(0.5 <= d <= 15 for d in drawn) and len(set(drawn)) > 100  # jittered: no two waiters in step


def test_durations_read_as_a_person_would_say_them() -> None:
    assert [duration(s) for s in (0.4, 42, 185, 7260)] == ["0.4 s", "42 s", "3 min 5 s", "2 h 1 min"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.storage.outages"]


async def test_an_outage_is_said_once_when_it_starts_and_once_when_nothing_waits_any_more(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    outage = Outage("Thing", "work waits", "things late", clock=clock)
    outage.answered()  # all well: nothing said
    for _ in range(5):
        outage.failed(ConnectionRefusedError(111, "Connection refused"))
    assert outage.down and outage_lines(caplog) == [
        "Thing does not answer (ConnectionRefusedError: [Errno 111] Connection refused); work waits"
    ]
    with outage.holding(), outage.holding(), outage.holding(counted=False):
        clock.now += 95
        outage.answered()  # something went through, but three requests still wait: not over
        assert outage.down and len(outage_lines(caplog)) == 1
    outage.dropped += 1
    outage.answered()
    assert not outage.down
    assert outage_lines(caplog)[1:] == ["Thing answers again after 1 min 35 s; things late: 2; dropped: 1"]
    outage.answered()
    assert len(outage_lines(caplog)) == 2


async def test_a_pause_ends_early_when_another_request_goes_through() -> None:
    outage = Outage("Thing", "work waits")
    assert await outage.pause(0.01) is False
    waiting = asyncio.create_task(outage.pause(30))
    await asyncio.sleep(0)
    outage.answered()
    assert await asyncio.wait_for(waiting, 1) is True


def test_what_counts_as_the_database_being_away() -> None:
    lost = DBAPIError("SELECT 1", None, Exception("connection was closed in the middle of operation"))
    lost.connection_invalidated = True
    refused = ConnectionRefusedError(111, "Connect call failed")
    assert is_unreachable(refused) and is_unreachable(lost) and is_unreachable(socket.gaierror(-2, "unknown"))
    assert is_unreachable(OSError(errno.EHOSTUNREACH, "No route to host"))
    assert is_unreachable(OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 5432, 0, 0), ..."))
    wrapped = OperationalError("SELECT 1", None, Exception("x"))
    wrapped.__cause__ = refused
    assert is_unreachable(wrapped)

    class CannotConnectNowError(Exception):  # asyncpg's, by name and module
        __module__ = "asyncpg.exceptions"

    assert is_unreachable(CannotConnectNowError("the database system is starting up"))
    # a statement refused, a bug, a timeout of the handler's own: not an outage
    assert not is_unreachable(OperationalError("SELECT x", None, Exception("no such column: x")))
    assert not is_unreachable(FileNotFoundError("font.ttf")) and not is_unreachable(TimeoutError())
    try:
        try:
            raise refused
        except ConnectionRefusedError:
            raise ValueError("raised while handling it") from None
    except ValueError as later:
        assert not is_unreachable(later)


class Scripted(BaseRateLimiter[Any]):
    """The flood limits' place in the chain: answers from a script (an exception is raised)."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.calls = 0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(self, callback: Any, args: Any, kwargs: Any, endpoint: str, data: Any, rla: Any) -> Any:
        self.calls += 1
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


async def never_called() -> bool:
    raise AssertionError("the script answers in its place")


async def request(patient: Patient, endpoint: str = "sendMessage") -> Any:
    return await patient.process_request(never_called, (), {}, endpoint, {"chat_id": 5}, None)


def patient(*answers: Any, seconds: float = 600.0, reached: bool = True, clock: Clock | None = None) -> Patient:
    link = Link(clock=clock)
    link.reached = reached
    return Patient(Scripted(*answers), link, seconds)


async def test_an_answer_is_tried_again_through_an_outage_and_the_outage_closes_with_it(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr("bot.telegram.runtime.link.backoff", lambda: itertools.repeat(0.01))
    p = patient(NetworkError("Bad Gateway"), TimedOut(), NetworkError("Bad Gateway"), {"message_id": 1})
    assert await request(p) == {"message_id": 1}
    assert isinstance(p.inner, Scripted) and p.inner.calls == 4
    assert [line.split(" (")[0].split(" after")[0] for line in outage_lines(caplog)] == [
        "Telegram does not answer",
        "Telegram answers again",  # the answer that went through closed it
    ]
    assert outage_lines(caplog)[1].endswith("; sends tried again: 1") and not p.link.down


async def test_what_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.telegram.runtime.link.backoff", lambda: itertools.repeat(0.01))
    with pytest.raises(BadRequest):  # Telegram's final word
        await request(patient(BadRequest("Message is too long")))
    refused = patient(InvalidToken("Unauthorized"))
    with pytest.raises(InvalidToken):
        await request(refused)
    assert refused.link.refused.is_set()
    with pytest.raises(NetworkError):  # before start-up reached Telegram, ``reach`` does the trying again
        await request(patient(NetworkError("Bad Gateway"), reached=False))
    action = patient(NetworkError("Bad Gateway"), True)
    assert await request(action, "sendChatAction") is True  # shown late it would be wrong: not sent at all
    assert isinstance(action.inner, Scripted) and action.inner.calls == 1
    # a tap's answer that outlived the tap while Telegram was away: nothing left to answer
    assert await request(patient(TimedOut(), BadRequest("query is too old"), True), "answerCallbackQuery") is True


async def test_an_answer_older_than_the_bound_is_dropped_with_one_line(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()

    def pauses() -> Any:
        while True:
            clock.now += 100
            yield 0.0

    monkeypatch.setattr("bot.telegram.runtime.link.backoff", pauses)
    p = patient(*[NetworkError("Bad Gateway")] * 20, seconds=250, clock=clock)
    with pytest.raises(AnswerDropped):
        await request(p)
    assert isinstance(p.inner, Scripted) and p.inner.calls == 4  # at 0, 100, 200, 300 s: past 250, dropped
    dropped = [r.getMessage() for r in caplog.records if r.name == "bot.telegram.runtime.link"]
    assert dropped == ["dropped sendMessage to chat 5: Telegram has not taken it for 5 min 0 s (ANSWER_RETRY_SECONDS)"]
    assert p.link.dropped == 1
    # the bot's own set-up is never dropped
    setup = patient(*[NetworkError("Bad Gateway")] * 5, True, seconds=250, clock=clock)
    assert await request(setup, "setMyCommands") is True


async def test_start_up_says_each_failed_attempt_and_stops_at_once_on_a_refused_token(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr("bot.telegram.runtime.link.backoff", lambda most: iter([0.01, 0.02, 0.04]))
    failures: list[BaseException] = [NetworkError("httpx.ConnectError: [Errno -2] Name or service not known")] * 2
    link = Link()

    async def initialize() -> None:
        if failures:
            raise failures.pop()

    await reach(initialize, link)
    assert link.reached
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.telegram.runtime.link"]
    assert lines == [
        "could not reach Telegram (NetworkError: httpx.ConnectError: [Errno -2] Name or service not known); "
        f"attempt {n}, trying again in {pause} s"
        for n, pause in ((1, "0.0"), (2, "0.0"))
    ]

    async def refused() -> None:
        raise InvalidToken("Unauthorized")

    with pytest.raises(InvalidToken):
        await reach(refused, Link())
