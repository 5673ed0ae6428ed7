"""Issue 18, part 4, end to end through the fake Bot API: the bot speaks the family's language.

A user is answered in their Telegram app's language, or the one they chose with /language (kept in the
database); a group in the language it chose; command menus are registered in every language; Hebrew reads
right to left; the picture's words are translated too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.telegram.errors import short
from bot.telegram.runtime.work import answer_for
from bot.telegram.words import texts
from bot.telegram.words.language import LANGUAGES, RLM, _, directed, speaking
from bot.telegram.words.picture import wording_in
from solver.errors import RummikubError
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD
from solver.solve import solve
from tests.bot_support import ALICE, BOB, session
from tests.fake_bot_api import Chat, User

GROUP = Chat(-4242, "group", "Familie")
HEBREW = re.compile("[\u0590-\u05ff]")


def in_language(code: str, message: str, **values: object) -> str:
    """``message`` as the bot sends it to a reader of ``code`` (right-to-left lines marked so)."""
    with speaking(code):
        return directed(_(message).format(**values))


def label_in(code: str, message: str) -> str:
    """A button's label for a reader of ``code``."""
    with speaking(code):
        return _(message)


@pytest.mark.parametrize("code", list(LANGUAGES))
async def test_start_and_help_in_the_language_of_the_users_app(tmp_path: Path, code: str) -> None:
    user = User(500, "Dana", language_code=f"{code}-XX" if code != "he" else "he")
    async with session(tmp_path) as s:
        start = await s.ask(user, "/start")
        helped = await s.ask(user, "/help")
    example = {"rack": texts.EXAMPLE_RACK, "table": texts.EXAMPLE_TABLE}
    assert start.text == in_language(code, texts.START, **example)
    assert helped.text == in_language(code, texts.HELP)
    assert start.buttons[0]["text"] == label_in(code, "▶️ Try the example")
    if code != "en":
        assert start.text != texts.START.format(**example) and helped.text != texts.HELP
        assert "3R 4R 5R J" in helped.text and "/solve" in helped.text  # commands and tiles are never translated


async def test_a_language_the_bot_does_not_speak_gets_english(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        helped = await s.ask(User(501, "Joao", language_code="pt-br"), "/help")
    assert helped.text == texts.HELP


async def test_hebrew_replies_read_right_to_left(tmp_path: Path) -> None:
    user = User(502, "Noa", language_code="he")
    async with session(tmp_path) as s:
        answer = await s.ask(user, "/rack 3R 4R 5R 11K")
    lines = [line for line in answer.text.split("\n") if line]
    assert all(line.startswith(RLM) for line in lines), answer.text
    assert HEBREW.search(answer.text) and "3R 4R 5R 11K" in answer.text


async def test_language_is_chosen_with_a_tap_kept_and_used_from_then_on(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        asked = await s.ask(ALICE, "/language")
        assert [b["text"] for b in asked.buttons] == list(LANGUAGES.values())
        mark = s.fake.mark()
        chosen = await s.tap(ALICE, asked, "Deutsch")
        assert chosen.text == in_language("de", "From now on I speak {language}.", language="Deutsch")
        assert await s.service.language_of(ALICE.id) == "de"
        # the menu of this chat follows the choice, whatever the app's language
        menus = [c for c in s.fake.calls[mark:] if c.method == "setMyCommands"]
        assert menus and menus[-1].params["scope"] == {"type": "chat", "chat_id": ALICE.id}
        described = {c["command"]: c["description"] for c in menus[-1].params["commands"]}
        assert described["solve"] == in_language("de", "the best play now, as a picture")
        # everything after it is German: a reply, and the engine's refusal of a mistyped tile
        helped = await s.ask(ALICE, "/help")
        assert helped.text == in_language("de", texts.HELP)
        refused = await s.ask(ALICE, "/rack 3R 14R")
        with pytest.raises(RummikubError) as why:
            parse_tiles("3R 14R", STANDARD)
        with speaking("de"):
            assert refused.text == short(why.value)
        assert refused.text != short(why.value) and "14R" in refused.text
        # typed by name, in any language's word for it
        french = await s.ask(ALICE, "/language français")
        assert french.text == in_language("fr", "From now on I speak {language}.", language="Français")
        nothing = await s.ask(ALICE, "/language klingon")
        assert "klingon" in nothing.text and "Deutsch" in nothing.text
        assert await s.service.language_of(ALICE.id) == "fr"


async def test_a_group_speaks_its_own_language_to_everyone_in_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/language ru", GROUP)
        helped = await s.ask(BOB, "/help", GROUP)  # Bob's app is English
        assert helped.text == in_language("ru", texts.HELP_GROUP)
        created = await s.ask(BOB, "/new", GROUP)
        assert created.buttons[0]["text"] == label_in("ru", "🙋 Join")
        private = await s.ask(BOB, "/help")  # in private Bob still reads his own language
        assert private.text == texts.HELP


async def test_command_menus_are_registered_in_every_language(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        menus = [c for c in s.fake.calls if c.method == "setMyCommands"]
    registered = {(c.params.get("language_code"), c.params["scope"]["type"]): c for c in menus}
    for code in LANGUAGES:
        key = None if code == "en" else code
        for scope in ("all_private_chats", "all_group_chats"):
            assert (key, scope) in registered, (code, scope)
        described = {c["command"]: c["description"] for c in registered[(key, "all_private_chats")].params["commands"]}
        assert described["language"] == label_in(code, "the language I speak")


async def test_the_picture_is_drawn_in_the_readers_language(tmp_path: Path) -> None:
    """The German picture: its legend and captions in German (the same picture the renderer draws with the
    German words, not the English one)."""
    user = User(503, "Lena", language_code="de")
    rack, table = "10R 11R 12R 7B J 11K", "6R 7R 8R | 7K 7O 7R"
    async with session(tmp_path) as s:
        answer = await s.ask(user, f"rack: {rack}\ntable: {table}")
    assert answer.photo is not None, answer
    solution = solve(parse_tiles(rack, STANDARD), parse_table(table, STANDARD), STANDARD, initial_meld=True)
    german, english = answer_for(solution, wording=wording_in("de")), answer_for(solution)
    assert answer.photo == german.picture and german.picture != english.picture
    assert wording_in("de").from_rack != "from your rack"
    with speaking("de"):
        assert _("Best opening (most tiles)") in answer.text
