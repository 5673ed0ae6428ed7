"""Issue 26 end to end through the fake Bot API: the bot talks like a person. A mistake is named in plain
words with a button for the nearest right reading; each language's own colour letters and labels are read;
questions typed in words are answered; /help fits a phone's screen; advice is said once a game; "you" in
one's own chat; the best play as soon as a keyboard's Done or a photo's confirmation completes the position;
a group whose members write in different languages is asked once which to speak."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.telegram.parsing import LABEL_WORDS
from bot.telegram.words import photos as photo_words
from bot.telegram.words import texts
from bot.telegram.words.language import LANGUAGES, RLM, _, speaking, spoken
from solver import STANDARD
from solver.notation import NotationError, parse_table
from tests.bot_support import ALICE, BOB, CAROL, rack_of, session, tiles
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.e2e.test_photos import TABLE_PHOTO, reading_of, send_photo
from tests.fake_bot_api import BOT_USERNAME, User

ANNA = User(611, "Anna", language_code="en")
GRETA = User(612, "Greta", language_code="de")
NOA = User(613, "Noa", language_code="he")
IVAN = User(614, "Ivan", language_code="ru")
OFFSET = re.compile(r"character \d|Zeichen \d|תו \d")


def said(code: str, message: str) -> str:
    with speaking(code):
        return _(message)


def plain(text: str) -> str:
    return text.replace(RLM, "")


@pytest.mark.parametrize(
    ("user", "typed", "meant"),
    [(ANNA, "rakc", "rack"), (GRETA, "Bänkhcen", "bänkchen"), (NOA, "ממעד", "מעמד")],
)
async def test_a_misspelt_label_is_named_and_a_tap_on_the_reading_sets_the_rack(
    tmp_path: Path, user: User, typed: str, meant: str
) -> None:
    async with session(tmp_path) as s:
        answer = await s.ask(user, f"{typed}: 3R 4R 5R 7K 8K 9K 11O")
        assert typed in answer.text and f"{meant}:" in answer.text and "`" not in answer.text
        assert not OFFSET.search(answer.text)
        reading = f"{meant}: 3R 4R 5R 7K 8K 9K 11O"
        assert [b["text"] for b in answer.buttons] == [reading, said(user.language_code or "en", "Cancel")]
        assert rack_of(await s.player(user.id, user)) == []  # nothing stored before the tap
        done = await s.tap(user, answer, reading)
        assert rack_of(await s.player(user.id, user)) == tiles("3R 4R 5R 7K 8K 9K 11O")
        assert done.text  # answered as the rack line would be


async def test_german_and_hebrew_colour_letters_and_every_languages_labels(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(GRETA, "Bänkchen: 1S 2S 3S 5G 6G 7G")  # schwarz = K, gelb = O
        assert rack_of(await s.player(GRETA.id, GRETA)) == tiles("1K 2K 3K 5O 6O 7O")
        await s.ask(NOA, "מעמד: 3א 4א 5א 9ש 9צ")  # אדום = R, שחור = K, צהוב = O
        assert rack_of(await s.player(NOA.id, NOA)) == tiles("3R 4R 5R 9K 9O")
        english = await s.ask(ANNA, "rack: 1S 2S 3S")  # an English reader's S is no colour
        assert "1S" in english.text and rack_of(await s.player(ANNA.id, ANNA)) == []
        for code, (rack_word, table_word) in LABEL_WORDS.items():
            user = User(700 + len(code) + ord(code[0]), f"U{code}", language_code=code)
            await s.ask(user, f"{rack_word.capitalize()}: 3R 4R 5R 13B\n{table_word}: 7K 8K 9K")
            me = await s.player(user.id, user)
            assert rack_of(me) == tiles("3R 4R 5R 13B"), code
            state = await s.service.game_for(user.id, user.id, private=True)
            assert [str(t) for group in state.table for t in group.tiles] == tiles("7K 8K 9K"), code


@pytest.mark.parametrize("user", [ANNA, GRETA, NOA])
async def test_an_error_names_the_piece_without_offsets(tmp_path: Path, user: User) -> None:
    async with session(tmp_path) as s:
        answer = await s.ask(user, "/table 1O 2O 4O | 7K 8K 9K")
    assert "1O 2O 4O" in answer.text and not OFFSET.search(answer.text) and "`" not in answer.text
    with pytest.raises(NotationError) as raised:
        parse_table("1O 2O 4O | 7K 8K 9K", STANDARD)
    with speaking(user.language_code or "en"):
        assert plain(answer.text) == spoken(raised.value)
    if user is not ANNA:
        assert answer.text != str(raised.value)  # in the reader's language, not English


@pytest.mark.parametrize(
    ("user", "question"),
    [(ANNA, "what should I play?"), (GRETA, "was soll ich legen?"), (IVAN, "и что теперь?"), (NOA, "מה לשחק?")],
)
async def test_what_should_i_play_answers_with_the_best_play(tmp_path: Path, user: User, question: str) -> None:
    async with session(tmp_path) as s:
        await s.ask(user, "/rack 3R 4R 5R 10K 11K 12K 1O")
        answer = await s.ask(user, question)
    assert answer.method == "sendPhoto"
    assert "3R 4R 5R" in answer.text and "10K 11K 12K" in answer.text


async def test_help_asked_in_words_and_unknown_text_get_next_steps(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        helped = await s.ask(GRETA, "Hilfe")
        assert helped.text == said("de", texts.HELP)
        assert len(helped.buttons) >= 4
        lost = await s.ask(ANNA, "the cat sat on the mat")
        assert [b["text"] for b in lost.buttons] == ["⌨️ Tap my rack", "❓ Help"]
        await s.ask(ANNA, "/rack 3R 4R 5R")
        lost = await s.ask(ANNA, "the cat sat on the mat")
        assert [b["text"] for b in lost.buttons] == ["💡 Best play", "📋 Table and rack"]
        best = await s.tap(ANNA, lost, "💡 Best play")
        assert "3R 4R 5R" in best.text


async def test_whose_turn_and_the_pool_asked_in_a_group_by_naming_the_bot(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        chatter = s.fake.mark()
        s.fake.send(ALICE, "whose turn is it?", GROUP)  # not for the bot: chatter at the table
        turn = await s.ask(BOB, f"@{BOT_USERNAME} whose turn is it?", GROUP)
        assert s.fake.sent(GROUP.id, chatter) == [turn]
        state = await s.service.active_game(GROUP.id)
        assert state.turn_player is not None and state.turn_player.name in turn.text
        pool = await s.ask(ALICE, f"@{BOT_USERNAME} how many tiles are left?", GROUP)
        assert f"{state.pool} tiles" in pool.text


async def test_help_fits_a_screen_and_its_topics_are_buttons(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        for user in (ANNA, GRETA, NOA):
            helped = await s.ask(user, "/help")
            assert len(helped.text.split("\n")) <= 12
            assert len(helped.buttons) >= 5
            topic = await s.tap(user, helped, helped.buttons[0]["text"])
            assert "3R" in topic.text  # how to write tiles, in the reader's language
        german = await s.tap(GRETA, await s.ask(GRETA, "/help"), said("de", "✍️ Writing tiles"))
        assert "S" in german.text and "G" in german.text  # her own letters are said
        grouped = await s.ask(ALICE, "/help", GROUP)
        assert len(grouped.text.split("\n")) <= 12


@pytest.mark.parametrize("user", [ANNA, GRETA, NOA])
async def test_rack_alone_shows_the_rack_with_a_change_button(tmp_path: Path, user: User) -> None:
    code = user.language_code or "en"
    async with session(tmp_path) as s:
        empty = await s.ask(user, "/rack")
        assert len(empty.buttons) > 50  # nothing to show: the keyboard
        await s.ask(user, "/rack 3R 4R 5R")
        shown = await s.ask(user, "/rack")
        assert "3R 4R 5R" in shown.text
        change = said(code, "✏️ Change")
        assert [b["text"] for b in shown.buttons] == [change]
        board = await s.tap(user, shown, change)
        assert len(board.buttons) > 50


@pytest.mark.parametrize("user", [ANNA, GRETA, NOA])
async def test_the_draw_advice_is_said_once_a_game(tmp_path: Path, user: User) -> None:
    async with session(tmp_path) as s:
        await s.ask(user, "/rack 1R 5B 9K 13O")
        first = await s.ask(user, "/solve")
        assert "/draw" in first.text
        again = await s.ask(user, "/solve")
        assert "/draw" not in again.text and said(user.language_code or "en", "Draw a tile.") in again.text


@pytest.mark.parametrize("user", [ANNA, GRETA, NOA])
async def test_in_ones_own_chat_the_bot_says_you(tmp_path: Path, user: User) -> None:
    async with session(tmp_path) as s:
        await s.ask(user, "/rack 3R 4R 5R 10K 11K 12K 1O")
        played = await s.ask(user, "/play 3R 4R 5R | 10K 11K 12K")
    with speaking(user.language_code or "en"):
        you = _("You put down {tiles} ({figures}).").split("{tiles}")[0]
    assert you in plain(played.text) and user.first_name not in played.text


async def test_the_keyboards_done_answers_with_the_best_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ANNA, "/rack 1K")
        shown = await s.ask(ANNA, "/rack")
        board = await s.tap(ANNA, shown, "✏️ Change")
        for label in ("\U0001f53410", "\U0001f53411", "\U0001f53412", "\U0001f0cf"):
            mark = s.fake.mark()
            s.fake.tap(ANNA, board, label)
            await s.fake.call("editMessageText", mark)
        mark = s.fake.mark()
        s.fake.tap(ANNA, board, "Done")
        answer = await s.fake.reply(ANNA.id, mark, ("sendPhoto",))
    assert "10R 11R 12R J" in answer.text


async def test_a_photos_confirmation_answers_with_the_best_play(tmp_path: Path) -> None:
    table = reading_of(TABLE_PHOTO)
    async with session(tmp_path) as s:
        await s.ask(ANNA, "/rack 1R 2R 3R 13K 13B 13O J")
        answer = await send_photo(s, ANNA, TABLE_PHOTO)
        best = await s.tap(ANNA, answer, photo_words.TABLE)
        state = await s.service.game_for(ANNA.id, ANNA.id, private=True)
        assert sum(len(x) for x in state.table) == len(table.tiles)
        assert best.method in ("sendPhoto", "sendMessage") and "Table set" not in best.text
        assert "13" in best.text or "draw" in best.text.lower()


async def test_a_group_whose_members_write_in_two_languages_is_asked_once(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        first = await s.ask(GRETA, "/help", GROUP)
        assert first.text == said("de", texts.HELP_GROUP)  # German, the first language heard
        mark = s.fake.mark()
        s.fake.send(NOA, "/help", GROUP)
        asked = await s.fake.wait_for(
            lambda: next((c for c in s.fake.sent(GROUP.id, mark) if len(c.buttons) == len(LANGUAGES)), None)
        )
        assert "Deutsch" in asked.text and "עברית" in asked.text
        await s.fake.replies(GROUP.id, mark, 2)  # the question, and the help Noa asked for
        later = s.fake.mark()
        await s.ask(CAROL, "/help", GROUP)
        s.fake.send(NOA, "/help", GROUP)
        await s.fake.replies(GROUP.id, later, 2)
        assert not [c for c in s.fake.sent(GROUP.id, later) if len(c.buttons) == len(LANGUAGES)]  # once
        chosen = await s.tap(NOA, asked, "עברית", GROUP.id)
        assert "עברית" in chosen.text
        hebrew = await s.ask(GRETA, "/help", GROUP)
        assert re.search("[\u0590-\u05ff]", hebrew.text)
