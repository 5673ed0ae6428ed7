"""Work without bounds is refused up front in the chat, with the limit named, and other chats are not held up."""

from __future__ import annotations

import time
from pathlib import Path

from solver import Rules, Tile, TileSet, make_set
from solver.bounds import MAX_FORMS
from tests.bot_support import ALICE, BOB, session

BIG = Rules(numbers=99, copies=9, jokers=9, smallest_set=13)


def long_runs(count: int, length: int = 25) -> list[TileSet]:
    colours = BIG.colour_order
    return [
        make_set([Tile(n, colours[i % 4]) for n in range(1 + 3 * i % 70, 1 + 3 * i % 70 + length)], BIG)
        for i in range(count)
    ]


async def test_a_table_too_big_to_answer_is_refused_at_once_naming_the_limit(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await s.ask(ALICE, "/new numbers=99 copies=9 jokers=9 smallest=13")
        assert "99" in created.text
        # a table built up over a long game (a message holds at most 1,500 characters, a table no limit)
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        await s.service.set_table(state.id, ALICE.id, long_runs(36), with_rack=False)
        await s.ask(ALICE, "/meld")
        started = time.monotonic()
        refused = await s.ask(ALICE, "rack: 5R 6R", methods=("sendMessage", "sendPhoto"))
        assert time.monotonic() - started < 10
        assert f"{MAX_FORMS:,}" in refused.text, refused.text
        assert (await s.ask(BOB, "/help")).text  # the bot goes on answering others
