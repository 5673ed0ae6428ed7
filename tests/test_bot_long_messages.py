"""End to end, over-long messages: refused when they are for the bot, left alone when they are a group's chatter."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.parsing import MAX_TEXT
from tests.bot_support import ALICE, BOB, session
from tests.fake_bot_api import BOT_USERNAME, Chat

FAMILY = Chat(-1001234567, "supergroup", "Family")
RECIPE = (
    "Grandma's apple pie, as promised!\n"
    "Crust: 300 g flour, 200 g cold butter, 1 egg, a pinch of salt, 2 tablespoons of cold water.\n"
    "Rub the butter into the flour, add the egg and the water, and rest the dough for an hour.\n"
    "Filling: 1 kg apples, 100 g sugar, cinnamon, the juice of half a lemon, a handful of raisins.\n"
    "Peel and slice the apples, mix in everything else and leave it for 20 minutes.\n"
) * 4
TILES = " ".join(f"{n}R" for n in range(1, 14))  # one run of 13, written out over and over below


def long_table() -> str:
    """Table sets, well over the limit, as someone pasting a whole game would send them."""
    sets = " | ".join([TILES] * (MAX_TEXT // len(TILES) + 2))
    assert len(sets) > MAX_TEXT
    return sets


async def test_long_chatter_in_a_group_gets_no_answer(tmp_path: Path) -> None:
    assert len(RECIPE) > MAX_TEXT
    async with session(tmp_path) as s:
        mark = s.fake.mark()
        s.fake.send(ALICE, RECIPE, FAMILY)
        s.fake.send(BOB, "/weather@other_bot " + "Berlin " * 250, FAMILY)
        s.fake.send(BOB, "/weather " + "Berlin " * 250, FAMILY)  # not one of ours: another bot's
        helped = await s.ask(ALICE, "/help", FAMILY)  # the chat's messages are handled in order: a barrier
        assert "3-6R" in helped.text
        assert [c.text[:40] for c in s.fake.sent(FAMILY.id, mark)] == [helped.text[:40]]


async def test_long_messages_for_the_bot_in_a_group_are_refused(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        for text in (
            "/table " + long_table(),
            f"/table@{BOT_USERNAME.upper()} " + long_table(),
            "table: " + long_table(),
            f"@{BOT_USERNAME} table: " + long_table(),
            "Our game tonight:\nrack: 1B 2B\ntable: " + long_table(),
        ):
            refused = await s.ask(ALICE, text, FAMILY)
            assert refused.text.startswith("That message is too long"), (text[:40], refused.text)
            assert str(MAX_TEXT) in refused.text


async def test_every_long_message_in_private_is_refused(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        for text in (RECIPE, "/weather@other_bot " + "Berlin " * 250):
            refused = await s.ask(ALICE, text)
            assert refused.text.startswith("That message is too long"), (text[:40], refused.text)
