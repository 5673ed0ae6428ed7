"""End to end, the bot as a running service: restarts, many chats at once, a slow solve, start-up, the spec."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from telegram.error import InvalidToken
from telegram.request import HTTPXRequest

import bot.telegram.runtime.solver_queue as solver_queue
import bot.telegram.runtime.work as work
from bot.run import NO_TOKEN, REFUSED_TOKEN, RedactSecret, configure_logging
from bot.telegram.app import build_application
from bot.telegram.runtime.link import Patient
from bot.telegram.runtime.pacing import SharedPace
from bot.telegram.runtime.uploads import whole_body
from bot.telegram.words import commands, texts
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Objective, Solution
from solver.solve import solve as real_solve
from solver.tiles import Tile
from tests.bot_support import ALICE, BOB, PNG, database, deps_of, rack_of, session, settings_for, tiles
from tests.fake_bot_api import TOKEN, FakeBotApi, Spec, User
from tests.files import POSITIONS, SPEC

ROOT = Path(__file__).resolve().parents[2]


def position_message(p: dict[str, Any]) -> str:
    return "rack: " + " ".join(p["rack"]) + "\ntable: " + " | ".join(" ".join(s) for s in p["table"])


async def test_a_restart_keeps_the_game_and_its_buttons(tmp_path: Path) -> None:
    url = await database(tmp_path)
    async with session(tmp_path, database_url=url, processes=1) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B J 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        suggestion = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
    async with session(tmp_path, database_url=url) as s:
        status = await s.ask(ALICE, "/status")
        assert "Your rack (6 tiles): 3R 4R 5R 7B 11K J" in status.text and "Initial meld made" in status.text
        # the photo sent before the restart still works: its fingerprint matches, the play is solved again
        s.fake.messages[(ALICE.id, suggestion.message_id)] = {
            "message_id": suggestion.message_id,
            "date": 0,
            "chat": {"id": ALICE.id, "type": "private", "first_name": "Alice"},
            "photo": [{"file_id": "f", "file_unique_id": "u", "width": 1, "height": 1}],
        }
        done = await s.tap(ALICE, suggestion, "I played this")
        assert done.text.startswith("Played 3R 4R 5R J | 7B.")
        assert rack_of(await s.player(ALICE.id, ALICE)) == ["11K"]


async def test_twenty_chats_at_once_are_all_answered_correctly(tmp_path: Path) -> None:
    positions = json.loads(POSITIONS.read_text())[:20]
    users = [User(5000 + i, f"Player{i}") for i in range(len(positions))]
    async with session(tmp_path, processes=2) as s:  # as in production: solver processes
        for user in users:
            await s.ask(user, "/meld")
        mark = s.fake.mark()
        for user, p in zip(users, positions, strict=True):
            s.fake.send(user, position_message(p))
        for user, p in zip(users, positions, strict=True):
            photo = await s.fake.reply(user.id, mark, ("sendPhoto", "sendMessage"), timeout=30)
            assert photo.method == "sendPhoto", photo.text
            assert photo.photo is not None and photo.photo.startswith(PNG)
            assert photo.text.startswith(f"Best play (most tiles): {p['best_tiles']} tile"), (p["id"], photo.text)
        for user, p in zip(users, positions, strict=True):
            await s.ask(user, "/rules")  # a chat's next message waits until its position is stored
            player = await s.player(user.id, user)
            assert sorted(rack_of(player)) == sorted(tiles(" ".join(p["rack"])))


async def test_a_dead_solver_process_is_replaced_and_the_answer_still_comes(tmp_path: Path) -> None:
    async with session(tmp_path, processes=1) as s:
        await s.ask(ALICE, "/rack 10R 11R 12R 13R")
        pool = deps_of(s.app).solver_pool
        assert pool is not None
        with pytest.raises(BrokenExecutor):
            await asyncio.wrap_future(pool.submit(os._exit, 1))  # the worker dies, the pool is broken
        photo = await s.ask(ALICE, "/solve")
        assert photo.method == "sendPhoto" and "4 tiles, 46 points" in photo.text
        assert deps_of(s.app).solver_pool is not pool


async def test_solver_processes_keep_start_up_out_of_the_collectors_walks_and_a_memory_cap(tmp_path: Path) -> None:
    # a full collection over a warmed-up process took 80-90 ms, in the middle of someone's answer
    async with session(tmp_path, processes=1, solver_memory_limit=1024) as s:
        frozen = await deps_of(s.app).solving(gc.get_freeze_count)
        assert frozen > 10_000  # the solver's and the pictures' start-up (about 130 000 objects)
        cap = await deps_of(s.app).solving(resource.getrlimit, resource.RLIMIT_AS)
        assert cap == (1024 * 1024 * 1024, 1024 * 1024 * 1024)
        photo = await s.ask(ALICE, "rack: 10R 11R 12R 13R")
        assert photo.method == "sendPhoto" and "4 tiles, 46 points" in photo.text


async def test_a_solve_that_runs_out_of_memory_is_answered_as_too_large(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def greedy_solve(*args: Any, **kw: Any) -> Solution:
        raise MemoryError  # as a solve over the solver process's cap does (tests/telegram/test_processes.py)

    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        monkeypatch.setattr(work, "solve", greedy_solve)
        answer = await s.ask(ALICE, "/solve")
        assert answer.text.startswith("That position is too large") and "2048 MiB" in answer.text
        monkeypatch.undo()
        assert "No opening worth 30" in (await s.ask(ALICE, "/solve")).text  # the next one is answered as usual


async def test_another_chats_help_is_answered_while_a_slow_solve_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()

    def slow_solve(rack: Sequence[Tile], table: Sequence[TileSet], rules: Rules, **kw: Any) -> Solution:
        """A solve that holds its worker thread until the test lets go (as a long SCIP search would)."""
        started.set()
        release.wait(30)
        return real_solve(rack, table, rules, **kw)

    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        monkeypatch.setattr(work, "solve", slow_solve)
        mark = s.fake.mark()
        s.fake.send(ALICE, "/solve")
        try:
            assert await asyncio.to_thread(started.wait, 10)
            helped = await s.ask(BOB, "/help")
            assert helped.text == texts.HELP
            status = await s.ask(BOB, "/status")
            assert status.method == "sendPhoto"
            assert not s.fake.sent(ALICE.id, mark, ("sendPhoto", "sendMessage"))  # Alice's solve is still running
            # long work shows "sending a photo" in Alice's chat meanwhile
            action = await s.fake.reply(ALICE.id, mark, ("sendChatAction",))
            assert action.params["action"] == "upload_photo"
        finally:
            release.set()
        answer = await s.fake.reply(ALICE.id, mark, ("sendPhoto", "sendMessage"))
        assert answer.text.startswith("Best opening") or "No opening" in answer.text


async def test_when_the_solvers_are_busy_a_small_position_is_answered_before_a_large_one_sent_earlier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()
    large, small = json.loads(POSITIONS.read_text())[0], "rack: 10R 11R 12R 13R"

    def held_solve(rack: Sequence[Tile], table: Sequence[TileSet], rules: Rules, **kw: Any) -> Solution:
        """The first solve holds the only worker until the test lets go; the others queue behind it."""
        if not started.is_set():
            started.set()
            release.wait(30)
        return real_solve(rack, table, rules, **kw)

    carol = User(5100, "Carol")
    async with session(tmp_path, workers=1) as s:  # one worker thread: one answer at a time
        for user in (BOB, carol):
            await s.ask(user, "/meld")
        monkeypatch.setattr(work, "solve", held_solve)
        # a tile weighs a lot here, so a slow machine's gap between the two messages cannot decide the order
        monkeypatch.setattr(solver_queue, "MS_PER_TILE", 10.0)
        mark = s.fake.mark()
        s.fake.send(ALICE, "rack: 3R 4R 5R")
        try:
            assert await asyncio.to_thread(started.wait, 10)
            s.fake.send(BOB, position_message(large))  # a moment apart, as in a burst
            s.fake.send(carol, small)
            await s.fake.wait_for(lambda: deps_of(s.app).solver_queue.waiting == 2 or None, what="both solves queued")
        finally:
            release.set()
        wanted = ("sendPhoto", "sendMessage")
        alice, bob, carol_s = [await s.fake.reply(u.id, mark, wanted, timeout=30) for u in (ALICE, BOB, carol)]
        assert "No opening" in alice.text
        assert bob.text.startswith(f"Best play (most tiles): {large['best_tiles']} tiles")
        assert "4 tiles, 46 points" in carol_s.text
        # Carol's 4 tiles went in before Bob's large position. (Alice's answer is sent once her solve is done,
        # while Carol's is solved: which of the two goes out first is not decided by the bot.)
        assert carol_s.at < bob.at


async def test_a_chats_messages_are_handled_in_order(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        mark = s.fake.mark()
        s.fake.send(ALICE, "/rack 10R 11R 12R 13R")
        s.fake.send(ALICE, "/solve")
        s.fake.send(ALICE, "/rack 1K")
        got = await s.fake.replies(ALICE.id, mark, 3)
        assert "Your rack (4 tiles)" in got[0].text
        assert got[1].method == "sendPhoto" and "4 tiles, 46 points" in got[1].text
        assert "Your rack (1 tile): 1K" in got[2].text


async def test_commands_are_registered_for_private_chats_and_groups(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        registered = [c for c in s.fake.calls if c.method == "setMyCommands"]
        scopes = {c.params["scope"]["type"]: [x["command"] for x in c.params["commands"]] for c in registered}
        assert scopes == {
            "all_private_chats": [name for name, _ in commands.PRIVATE],
            "all_group_chats": [name for name, _ in commands.GROUP],
        }
        for name in sorted({n for n, _ in commands.PRIVATE}):
            answer = await s.ask(ALICE, f"/{name}")
            assert "I don't know" not in answer.text, name


async def test_the_bot_uses_flood_limits_and_whole_uploads_by_default(tmp_path: Path) -> None:
    fake = FakeBotApi()
    application = build_application(settings_for(fake, await database(tmp_path)), warm_up=False)
    try:
        patient = application.bot.rate_limiter
        assert isinstance(patient, Patient) and patient.link is deps_of(application).telegram  # through outages
        limiter = patient.inner
        assert isinstance(limiter, SharedPace) and limiter.db is not None and limiter.limits.group is not None
        request = application.bot.request
        assert isinstance(request, HTTPXRequest) and request._client.event_hooks["request"] == [whole_body]
    finally:
        await application.bot_data["rummikub"].close()


async def test_no_token_and_no_rack_reach_the_logs_even_at_debug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = logging.getLogger()
    level = root.level
    redact = configure_logging("DEBUG", TOKEN)
    try:
        caplog.handler.setLevel(logging.DEBUG)  # the loggers stay as configured: libraries INFO, ours DEBUG
        async with session(tmp_path) as s:
            await s.ask(ALICE, "/rack 3R 4R 5R 9O 11K")
            await s.ask(ALICE, "/solve")
        # the bot's own records (the fake Telegram's access log is not the bot's)
        ours = [r for r in caplog.records if not r.name.startswith("tornado")]
        assert any(r.name.startswith("bot") and r.levelno == logging.DEBUG for r in ours)
        leaks = [(r.name, r.getMessage()[:100]) for r in ours if TOKEN in r.getMessage() or "9O" in r.getMessage()]
        assert not leaks
    finally:
        for handler in root.handlers:
            handler.removeFilter(redact)
        root.setLevel(level)
        for name in ("bot", "httpx", "httpcore"):
            logging.getLogger(name).setLevel(logging.NOTSET)


def test_without_a_token_the_bot_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'never.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == NO_TOKEN
    assert not (tmp_path / "never.sqlite3").exists()


def test_the_token_is_redacted_from_logged_tracebacks() -> None:
    """PTB's refused-token exception says the token, and it is logged with its traceback."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecret(TOKEN))
    after = logging.StreamHandler(stream)  # a later handler of the same record, without a filter of its own
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    logger.addHandler(after)
    logger.propagate = False
    try:
        try:
            try:
                raise InvalidToken("Unauthorized")
            except InvalidToken as refused:
                raise InvalidToken(f"The token `{TOKEN}` was rejected by the server.") from refused
        except InvalidToken:
            logger.exception("Invalid token. Aborting retry loop.")
    finally:
        logger.removeHandler(handler)
        logger.removeHandler(after)
    written = stream.getvalue()
    assert written.count("Traceback (most recent call last)") == 4  # both handlers, both exceptions
    assert written.count("The token `<secret>` was rejected") == 2
    assert TOKEN not in written


async def test_a_token_telegram_refuses_ends_in_one_line_and_exit_2_without_the_token(tmp_path: Path) -> None:
    """A revoked or mistyped token: Telegram answers 401 to everything; the token is printed nowhere."""
    refused = "654321:REVOKED-token-nobody-may-see"
    fake = FakeBotApi()  # it knows another token: every request is answered 401 Unauthorized
    await fake.start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        TELEGRAM_BOT_TOKEN=refused,
        TELEGRAM_BASE_URL=fake.base_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}",
        LOG_LEVEL="DEBUG",  # everything PTB logs, its request URLs too
    )
    try:
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        await fake.stop()
    assert fake.violations and set(fake.violations) == {"getMe: wrong token"}  # it did ask, and was refused
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == REFUSED_TOKEN
    assert refused not in done.stdout + done.stderr
    assert refused.split(":")[1] not in done.stdout + done.stderr


async def test_python_m_bot_migrates_polls_answers_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    """The real entry point in its own process: empty database upgraded at start, a solve answered, SIGINT."""
    database_file = tmp_path / "data" / "games.sqlite3"
    fake = FakeBotApi()
    await fake.start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        TELEGRAM_BOT_TOKEN=fake.token,
        TELEGRAM_BASE_URL=fake.base_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{database_file}",
        LOG_LEVEL="INFO",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        await fake.wait_for(
            lambda: True if sum(c.method == "setMyCommands" for c in fake.calls) == 2 else None, 60, "start-up"
        )
        assert database_file.exists()
        mark = fake.mark()
        fake.send(ALICE, "rack: 10R 11R 12R 13R\ntable: 1B 2B 3B")
        photo = await fake.reply(ALICE.id, mark, ("sendPhoto", "sendMessage"), timeout=30)
        assert photo.method == "sendPhoto" and photo.text.startswith("Best opening (most tiles): 4 tiles")
    finally:
        await fake.end_polls()
        process.send_signal(signal.SIGINT)
        try:
            output, _ = await asyncio.to_thread(process.communicate, timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        await fake.stop()
    log = output.decode(errors="replace")
    assert process.returncode == 0, log
    assert "Traceback" not in log, log
    assert TOKEN not in log
    assert not fake.violations, fake.violations


async def test_the_fake_refuses_requests_that_break_the_spec() -> None:
    fake = FakeBotApi()
    await fake.start()
    try:
        async with httpx.AsyncClient(base_url=f"{fake.base_url}{TOKEN}/") as client:
            good = await client.post("sendMessage", data={"chat_id": "5", "text": "hi"})
            assert good.status_code == 200 and good.json()["ok"] is True
            longest = await client.post("sendMessage", data={"chat_id": "5", "text": "x" * 4096})
            assert longest.status_code == 200
            for method, data in [
                ("sendMessage", {"chat_id": "5", "text": "x" * 4097}),  # Telegram: "message is too long"
                ("sendMessage", {"chat_id": "5", "text": "\N{PLAYING CARD BLACK JOKER}" * 2049}),  # 4098 in UTF-16
                ("sendMessage", {"chat_id": "5", "text": ""}),  # "message text is empty"
                ("sendPhoto", {"chat_id": "5", "photo": "f", "caption": "x" * 1025}),
                ("answerCallbackQuery", {"callback_query_id": "1", "text": "x" * 201}),
                (
                    "sendMessage",
                    {
                        "chat_id": "5",
                        "text": "hi",
                        "reply_markup": json.dumps(
                            {"inline_keyboard": [[{"text": "b", "callback_data": "é" * 33}]]}  # 66 bytes, at most 64
                        ),
                    },
                ),
            ]:
                refused = await client.post(method, data=data)
                assert refused.status_code == 400 and refused.json()["ok"] is False, (method, str(data)[:60])
            assert sum("too long" in v or "too short" in v for v in fake.violations) == 5, fake.violations
            assert "InlineKeyboardMarkup" in fake.violations[-1]  # the button's data is too long inside it
            for method, data in [
                ("sendMessage", {"chat_id": "5"}),  # text is required
                ("sendMessage", {"chat_id": "5", "text": "hi", "colour": "red"}),  # unknown field
                ("sendMessage", {"chat_id": "5", "text": "hi", "reply_markup": '{"inline_keyboard": [[{"x": 1}]]}'}),
                ("sendPhoto", {"chat_id": "5", "photo": "x", "has_spoiler": "maybe"}),  # not a Boolean
                ("sendFlowers", {"chat_id": "5"}),
            ]:
                bad = await client.post(method, data=data)
                assert bad.status_code == 400, (method, data)
        assert len(fake.violations) >= 5
        assert any("missing required field text" in v for v in fake.violations)
        assert any("unknown field colour" in v for v in fake.violations)
        assert any("unknown method sendFlowers" in v for v in fake.violations)
    finally:
        await fake.stop()


def test_the_fake_reads_the_spec_kept_in_the_repo_with_its_licence() -> None:
    """A clone tests itself: the spec is in ``tests/data``, one copy only, under MIT with the LICENSE beside it."""
    assert SPEC.is_relative_to(ROOT / "tests" / "data")
    assert Spec().version == "Bot API 10.1"
    copies = [p for p in ROOT.rglob("bot-api-*.json") if not p.relative_to(ROOT).parts[0].startswith(".")]
    assert copies == [SPEC], "one copy of the spec, the one the fake reads"
    licence = (SPEC.parent / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "Paul Larsen" in licence


def test_objective_codes_round_trip() -> None:
    from bot.telegram.words.replies import objective_code, objective_of

    for objective in Objective:
        assert objective_of(objective_code(objective)) is objective


def test_env_example_lists_every_setting() -> None:
    from bot.settings import Settings

    written = {
        line.lstrip("# ").split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if "=" in line and line.lstrip("# ")[:1].isupper()
    }
    assert {name.upper() for name in Settings.model_fields} <= written
    assert (ROOT / "Procfile").read_text() == "web: WEBHOOK_PORT=$PORT python -m bot\nworker: python -m bot\n"
