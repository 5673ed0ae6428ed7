"""End to end, over-long messages: refused when they are for the bot, left alone when they are a group's chatter."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.parsing import MAX_TEXT
from bot.telegram.sending import CUT, MOST_PARTS, parts, shortened, size
from bot.telegram.words import texts
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
        assert helped.text == texts.HELP_GROUP
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


#: 99 numbers x 4 colours x 3 copies: every tile of the rules ``numbers=99 copies=3`` on one rack.
HUGE_RULES = "numbers=99 copies=3"
HUGE_RACK = " ".join(f"1-99{c}" for c in "RBKO" for _ in range(3))


async def test_a_reply_longer_than_telegram_allows_is_split_and_a_caption_shortened(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, f"/new {HUGE_RULES}")
        mark = s.fake.mark()
        s.fake.send(ALICE, f"/rack {HUGE_RACK}")
        first, second = await s.fake.replies(ALICE.id, mark, 2, timeout=30)
        assert first.text.startswith("Your rack (1188 tiles): 1R 1R 1R 2R")
        assert len(first.text) <= 4096 and len(second.text) <= 4096
        assert second.text.endswith("/solve for your best play.")
        said = (first.text + " " + second.text).split()
        assert said.count("99O") == 3 and said.count("1R") == 3  # every tile is there, none cut in half
        status = await s.ask(ALICE, "/status")
        assert status.method == "sendPhoto" and len(status.text) <= 1024
    # (the session checks that every request the bot made was within the spec's lengths)


def test_long_text_is_split_at_line_breaks_then_between_words_and_never_over_the_limit() -> None:
    lines = [f"Line {i}: " + "word " * 30 for i in range(60)]
    text = "\n".join(lines)
    got = parts(text, limit=1000)
    assert len(got) == MOST_PARTS and all(size(p) <= 1000 for p in got)
    assert got[0].split("\n")[-1] == lines[len(got[0].split("\n")) - 1].rstrip()  # whole lines
    assert got[-1].endswith(CUT)  # more than three messages' worth: the last is shortened
    words = "tile " * 500
    assert [len(p.split()) for p in parts(words, limit=1000)] == [200, 200, 100]
    assert parts("short") == ["short"]


def test_lengths_are_counted_as_telegram_counts_them() -> None:
    jokers = "\N{PLAYING CARD BLACK JOKER}" * 700  # two UTF-16 units each
    got = parts(jokers, limit=1000)
    assert [size(p) for p in got] == [1000, 400] and "".join(got) == jokers
    cut = shortened("x" * 2000, CAPTION_LIMIT)
    assert size(cut) == CAPTION_LIMIT and cut.endswith(CUT)
    assert shortened("fits", CAPTION_LIMIT) == "fits"
