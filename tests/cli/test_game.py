"""`python -m bot game CHAT_ID`: an operator reads a chat's game that the real bot built, straight from the database."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from tests.bot_support import ALICE, BOB, CAROL, Session, melded, session, tie_private_chat
from tests.fake_bot_api import Chat
from tests.storage_support import count_events

GROUP = Chat(-100111, "group", "Family")
ROOT = Path(__file__).resolve().parents[2]


async def group_game(s: Session) -> None:
    """Alice has a private game of her own; then in the group she starts a game, Bob joins by tapping Join,
    the table is set, both tie their private chats and set racks there (Alice has made her opening before),
    Alice draws a tile in the group (not yet named) and Bob plays in the group."""
    await s.ask(ALICE, "/rack 1K 2K")  # her private chat's own game
    created = await s.ask(ALICE, "/new", GROUP)
    joined = await s.tap(BOB, created, "Join", GROUP.id)
    assert "Bob joined" in joined.text
    await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R", GROUP)
    await tie_private_chat(s, created, ALICE, "3R 4R 5R 11K J")
    await melded(s, GROUP.id, ALICE)  # set-up: no event (a group's opening is a play)
    await tie_private_chat(s, created, BOB, "10B 11B 12B 9K")
    drew = await s.ask(ALICE, "/draw", GROUP)
    assert drew.text.startswith("Alice drew a tile. Bob to play.")
    played = await s.ask(BOB, "/play 10B 11B 12B", GROUP)
    assert played.text.startswith("Bob put down 10B 11B 12B")


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``python -m bot`` in this process (main, as ``__main__`` does); its status, stdout and stderr."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def test_the_group_game_as_json_and_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async with session(tmp_path) as s:
        await group_game(s)
        game = await s.service.active_game(GROUP.id)
        changes = await count_events(s.service, game.id)
        # started, Alice seated, Bob joined, the table, two racks, Alice's draw, Bob's play
        assert changes == 8
        url = s.database_url
        # the command runs its own event loop, as from the terminal: in a thread beside the bot's
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--json", "--url", url)
        assert (code, err) == (0, "")
        shown: dict[str, Any] = json.loads(out)
        assert shown == {
            "chat_id": GROUP.id,
            "status": "open",
            "rules": {
                "numbers": 13,
                "colours": 4,
                "copies": 2,
                "jokers": 2,
                "smallest_set": 3,
                "initial_meld": 30,
                "joker_value": 30,
                "deal": 14,
            },
            "table": ["6R 7R 8R", "7R 7K 7O", "10B 11B 12B"],
            "set_numbers": [1, 2, 3],
            "turn": ALICE.id,
            "pool": 106 - 9 - 6 - 1,  # the deck less the table and both racks' counts
            "adding": BOB.id,  # Bob may still add to his play until Alice acts
            "passes": 0,
            "finish": None,
            "winner": None,
            "players": [
                {
                    "user_id": ALICE.id,
                    "name": "Alice",
                    "rack": ["3R", "4R", "5R", "11K", "J"],
                    "rack_size": 6,  # and the tile she drew, not yet named
                    "unnamed": 1,
                    "melded": True,
                    "declared": False,
                    "score": None,
                },
                {
                    "user_id": BOB.id,
                    "name": "Bob",
                    "rack": ["9K"],
                    "rack_size": 1,
                    "unnamed": 0,
                    "melded": True,
                    "declared": False,
                    "score": None,
                },
            ],
            "totals": [],
            "changes": changes,
        }
        assert "tied_to" not in shown  # a group is tied to nothing

        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--url", url)
        assert (code, err) == (0, "")
        assert out.splitlines() == [
            f"Game {game.id} in chat {GROUP.id}: open, {changes} changes",
            "Rules: numbers=1-13 colours=RBKO copies=2 jokers=2 smallest_set=3 meld=30 joker_value=30 deal=14",
            "Table: 1: 6R 7R 8R | 2: 7R 7K 7O | 3: 10B 11B 12B",
            "Pool: 90 tiles",
            "Players:",
            f"  1. Alice ({ALICE.id}): 6 tiles, melded: 3R 4R 5R 11K J and 1 unknown  <- to play",
            f"  2. Bob ({BOB.id}): 1 tile, melded: 9K",
        ]

        # Alice's private chat: its own game is shown, and the group it is tied to
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(ALICE.id), "--json", "--url", url)
        assert (code, err) == (0, "")
        private = json.loads(out)
        assert private["chat_id"] == ALICE.id and private["tied_to"] == GROUP.id
        assert [p["rack"] for p in private["players"]] == [["1K", "2K"]]
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(ALICE.id), "--url", url)
        assert out.splitlines()[-1] == f"Tied to: chat {GROUP.id}"

        # Bob's private chat is tied to the group but has no game of its own
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(BOB.id), "--url", url)
        assert (code, out) == (1, "") and err == f"python -m bot game: chat {BOB.id} has no game\n"

        # the end: stopped, the game is still open and waits for the racks
        await s.tap(ALICE, await s.ask(ALICE, "/end", GROUP), "Stop the game", GROUP.id)
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--json", "--url", url)
        stopped = json.loads(out)
        assert (stopped["status"], stopped["finish"], stopped["turn"], stopped["adding"]) == (
            "open",
            "stopped",
            None,
            None,
        )
        assert stopped["changes"] == changes + 1
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--url", url)
        assert "Pool: 90 tiles; stopped, racks told for the score" in out.splitlines()
        # each rack told: the last one scores the game, which is still the chat's current game once ended
        await s.ask(ALICE, "/left 3R 4R 5R 11K J 7B", GROUP)
        await s.ask(BOB, "/left 9K", GROUP)
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--json", "--url", url)
        ended = json.loads(out)
        assert (ended["status"], ended["finish"], ended["winner"]) == ("ended", "stopped", BOB.id)
        assert ended["changes"] == changes + 3
        assert [(p["name"], p["declared"], p["score"], p["unnamed"]) for p in ended["players"]] == [
            ("Alice", True, -60, 0),
            ("Bob", True, 60, 0),
        ]
        bob_total = {"user_id": BOB.id, "name": "Bob", "points": 60, "games": 1, "won": 1}
        alice_total = {"user_id": ALICE.id, "name": "Alice", "points": -60, "games": 1, "won": 0}
        assert ended["totals"] == [bob_total, alice_total]
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--url", url)
        lines = out.splitlines()
        assert f"  1. Alice ({ALICE.id}): 6 tiles, melded, scored -60: 3R 4R 5R 7B 11K J" in lines
        assert lines[-1] == "Totals: Bob +60 (1 won), Alice -60 (0 won)"
        # a new game takes over from the ended one; the chat's totals stay
        await s.ask(CAROL, "/new", GROUP)
        code, out, err = await asyncio.to_thread(cli, capsys, "game", str(GROUP.id), "--json", "--url", url)
        newer = json.loads(out)
        assert newer["status"] == "open" and newer["table"] == [] and [p["name"] for p in newer["players"]] == ["Carol"]
        assert newer["pool"] == 106 - 14 and newer["set_numbers"] == [] and newer["finish"] is None
        assert newer["totals"] == [bob_total, alice_total]


async def test_a_real_process_reads_database_url_from_the_environment(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await group_game(s)
        url = s.database_url
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "game", str(GROUP.id), "--json"],
        cwd=tmp_path,  # no .env here: the setting comes from the environment
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["chat_id"] == GROUP.id and shown["turn"] == ALICE.id
    assert [p["rack_size"] for p in shown["players"]] == [6, 1] and shown["pool"] == 90
    assert [p["unnamed"] for p in shown["players"]] == [1, 0] and shown["set_numbers"] == [1, 2, 3]

    missing = subprocess.run(
        [sys.executable, "-m", "bot", "game", "-999"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr == "python -m bot game: chat -999 has no game\n"  # one clear line, no traceback


def test_errors_are_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nowhere = f"sqlite+aiosqlite:///{tmp_path / 'none' / 'games.sqlite3'}"
    code, out, err = cli(capsys, "game", "-5", "--url", nowhere)
    assert code == 1 and out == "" and err.startswith("python -m bot game: no database at ")
    assert not (tmp_path / "none").exists()  # reading never creates a database

    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    code, out, err = cli(capsys, "game", "-5", "--url", f"sqlite+aiosqlite:///{empty}")
    assert code == 1 and "cannot read the database" in err and "Traceback" not in err

    with pytest.raises(SystemExit) as bad:
        main(["game", "the-family"])
    assert bad.value.code == 2
    assert "invalid int value: 'the-family'" in capsys.readouterr().err
