"""Issue 18, end to end through the fake Bot API: what new users typed is read, every message and tap is
answered, an edited message is read again, and the tile keyboard stores what it shows, once."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from telegram import Update

from bot.telegram.runtime.intake import delivered
from bot.telegram.words import keyboard, texts
from solver.rules import STANDARD
from tests.bot_support import ALICE, BOB, Session, rack_of, session, tiles
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.fake_bot_api import BOT_ID, BOT_USERNAME, Call, Chat, User, private
from tests.storage_support import count_events

Json = dict[str, Any]


async def test_one_line_rack_and_table_as_typed_on_a_phone_is_solved(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        answer = await s.ask(ALICE, "rack: 3R 4R 5R 9B table: 6R 7R 8R")
        assert "is no tile" not in answer.text and "start each line" not in answer.text, answer.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R 9B")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert [str(x) for x in state.table] == ["6R 7R 8R"]


async def test_every_spelling_new_users_tried_sets_the_rack_or_the_table(tmp_path: Path) -> None:
    racks = {
        "/rack 3R-5R": "3R 4R 5R",
        "/rack 3r-5r": "3R 4R 5R",
        "/rack 3R4R5R": "3R 4R 5R",
        "/rack (3R 4R 5R)": "3R 4R 5R",
        "/rack 3R 4R 5R.": "3R 4R 5R",
        "/rack \U0001f7e53 \U0001f7e64 \u2b1b5 \U0001f7e76 \U0001f7e87": "3R 4B 5K 6O 7O",
        "/rack 3 rot 4 rood 5 rojo": "3R 4R 5R",
        "/rack red 3 3 red": "3R 3R",
        "hand: 1B 2B": "1B 2B",
        "my rack: 2K 3K": "2K 3K",
        "My Rack: 9O board: 6R 7R 8R": "9O",
    }
    async with session(tmp_path) as s:
        for typed, expected in racks.items():
            answer = await s.ask(ALICE, typed)
            assert "is no tile" not in answer.text and "character" not in answer.text, (typed, answer.text)
            assert rack_of(await s.player(ALICE.id, ALICE)) == tiles(expected), typed
        tables = {
            "/table 3R 4R 5R / 7B 7K 7O": ["3R 4R 5R", "7B 7K 7O"],
            "/table (1K 2K 3K) (9B 9K 9O).": ["1K 2K 3K", "9B 9K 9O"],
            "table: none": [],
            "board: 10R-12R": ["10R 11R 12R"],
        }
        for typed, sets in tables.items():
            answer = await s.ask(ALICE, typed)
            assert "is no tile" not in answer.text, (typed, answer.text)
            state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
            assert [str(x) for x in state.table] == sets, typed
        # what is truly wrong is still refused, with where and why, and nothing changes
        before = rack_of(await s.player(ALICE.id, ALICE))
        wrong = [("/rack 3R-5B", "one colour"), ("/rack 3R 14R", "from 1 to 13"), ("/rack 3 purple", "colour")]
        for typed, why in wrong:
            refused = await s.ask(ALICE, typed)
            assert why in refused.text, (typed, refused.text)
        assert rack_of(await s.player(ALICE.id, ALICE)) == before


def _message(s: Session, user: User, text: str, chat: Chat | None = None) -> Json:
    """Send ``text`` as ``user`` and return the message as Telegram holds it (to edit it later)."""
    message = s.fake.user_message(user, chat or private(user), text=text)
    s.fake.offer({"message": message})
    return message


async def _edit(s: Session, message: Json, text: str, methods: tuple[str, ...] = ("sendMessage", "sendPhoto")) -> Call:
    """The user edits ``message`` to ``text``; the bot's answer in that chat."""
    edited = {k: v for k, v in message.items() if k != "entities"}
    edited["text"], edited["edit_date"] = text, int(time.time())
    if text.startswith("/"):
        length = len(text.split()[0].encode("utf-16-le")) // 2
        edited["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
    mark = s.fake.mark()
    s.fake.offer({"edited_message": edited})
    return await s.fake.reply(int(message["chat"]["id"]), mark, methods)


async def test_an_edited_message_is_read_again_and_the_answer_says_so(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        mark = s.fake.mark()
        sent = _message(s, ALICE, "/rack 3R 4R 5R 9B")
        await s.fake.reply(ALICE.id, mark)
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R 9B")
        fixed = await _edit(s, sent, "/rack 3R 4R 5R 9K")
        assert fixed.text.startswith(texts.EDITED) and "9K" in fixed.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R 9K")

        mark = s.fake.mark()
        lines = _message(s, ALICE, "rack: 1B 2B 3B\ntable: 6R 7R 8R")
        await s.fake.reply(ALICE.id, mark, ("sendPhoto", "sendMessage"))
        again = await _edit(s, lines, "rack: 1B 2B 3B 4B\ntable: 6R 7R 8R")
        assert again.text.startswith(texts.EDITED)
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("1B 2B 3B 4B")

        # a draw is not drawn twice; a mistake in the edit changes nothing and is answered as an edit
        mark = s.fake.mark()
        drew = _message(s, ALICE, "/draw 7O")
        await s.fake.reply(ALICE.id, mark)
        rack = rack_of(await s.player(ALICE.id, ALICE))
        answer = await _edit(s, drew, "/draw 8O")
        assert answer.text.startswith(texts.EDITED) and "/draw is not drawn again" in answer.text
        shown = await _edit(s, drew, "/rules")  # a question that changes nothing is answered again
        assert shown.text.startswith(texts.EDITED + "Standard rules: ")
        played = await _edit(s, drew, "/pass")
        assert played.text == texts.EDITED + texts.EDIT_NOT_RERUN.format(command="/pass")
        wrong = await _edit(s, sent, "/rack 3R 14R")
        assert wrong.text.startswith(texts.EDITED) and "from 1 to 13" in wrong.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == rack


async def test_stickers_and_voice_notes_in_private_get_a_hint(tmp_path: Path) -> None:
    sticker = {"file_id": "s1", "file_unique_id": "us1", "type": "regular", "width": 512, "height": 512,
               "is_animated": False, "is_video": False}  # fmt: skip
    voice = {"file_id": "v1", "file_unique_id": "uv1", "duration": 2}
    async with session(tmp_path) as s:
        for content in ({"sticker": sticker}, {"voice": voice}):
            mark = s.fake.mark()
            s.fake.offer({"message": s.fake.user_message(ALICE, private(ALICE), **content)})
            hint = await s.fake.reply(ALICE.id, mark)
            assert hint.text == texts.NOT_TEXT


_BOT = {"id": BOT_ID, "is_bot": True, "first_name": "Rummi", "username": BOT_USERNAME}


def _bot_added(chat: Chat, by: User, old: str = "left", new: str = "member") -> Json:
    bot = _BOT
    return {
        "my_chat_member": {
            "chat": chat.to_json(),
            "from": by.to_json(),
            "date": int(time.time()),
            "old_chat_member": {"user": bot, "status": old},
            "new_chat_member": {"user": bot, "status": new, **(_ADMIN if new == "administrator" else {})},
        }
    }


_ADMIN = {
    name: False
    for name in [
        "can_be_edited",
        "is_anonymous",
        "can_manage_chat",
        "can_delete_messages",
        "can_manage_video_chats",
        "can_restrict_members",
        "can_promote_members",
        "can_change_info",
        "can_invite_users",
        "can_post_stories",
        "can_edit_stories",
        "can_delete_stories",
    ]
}


async def test_added_to_a_group_the_bot_greets_with_a_new_game_button(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        mark = s.fake.mark()
        s.fake.offer(_bot_added(GROUP, ALICE))
        # Telegram also posts "Alice added Rummi" as a message: it brings no second greeting
        s.fake.offer({"message": s.fake.user_message(ALICE, GROUP, new_chat_members=[_BOT])})
        s.fake.send(ALICE, "/help", GROUP)
        greeting, helped = await s.fake.replies(GROUP.id, mark, 2)
        assert greeting.text == texts.GREET_GROUP
        assert helped.text == texts.HELP_GROUP
        started = await s.tap(ALICE, greeting, "New game", GROUP.id)
        assert started.text.startswith("New game") and started.button("Join")
        state = await s.service.active_game(GROUP.id)
        assert [p.name for p in state.active_players] == ["Alice"]
        # a second tap (or Bob's) starts nothing more: the group already has its game
        mark = s.fake.mark()
        s.fake.tap(BOB, greeting, "New game")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params["text"] == texts.GAME_ALREADY and alert.params.get("show_alert") is True
        assert (await s.service.active_game(GROUP.id)).id == state.id
        # made an admin later: no second greeting (the next message the group gets is the answer to /rules)
        mark = s.fake.mark()
        s.fake.offer(_bot_added(GROUP, ALICE, old="member", new="administrator"))
        s.fake.send(ALICE, "/rules", GROUP)
        after = await s.fake.reply(GROUP.id, mark)
        assert after.text.startswith("Standard rules: ")


def test_the_new_update_kinds_are_kept_under_their_chat_and_sender() -> None:
    added = Update.de_json({"update_id": 1, **_bot_added(GROUP, BOB)}, None)
    assert added is not None
    kept = delivered(added)
    assert (kept.chat_id, kept.user_id) == (GROUP.id, BOB.id)
    message = {"message_id": 5, "date": 1, "edit_date": 2, "chat": private(ALICE).to_json(ALICE),
               "from": ALICE.to_json(), "text": "/rack 3R"}  # fmt: skip
    edit = Update.de_json({"update_id": 2, "edited_message": message}, None)
    assert edit is not None
    kept = delivered(edit)
    assert (kept.chat_id, kept.user_id) == (ALICE.id, ALICE.id)


async def _key(s: Session, board: Call, label: str) -> Call:
    """Alice taps ``label`` on the keyboard; the message as the bot edited it."""
    mark = s.fake.mark()
    s.fake.tap(ALICE, board, label)
    await s.fake.call("answerCallbackQuery", mark)
    return await s.fake.call("editMessageText", mark)


async def test_the_tile_keyboard_sets_a_rack_by_taps_and_done_stores_once(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1K")
        shown = await s.ask(ALICE, "/rack")  # the rack, and a button to change it
        board = await s.tap(ALICE, shown, "✏️ Change")
        assert board.text.startswith("Your rack (1 tile): 1K") and keyboard.NOTHING_YET in board.text
        assert len(board.buttons) == 13 * 4 + 3 <= 100
        assert all(len(b["callback_data"].encode()) <= 64 for b in board.buttons)
        for label in ("\U0001f5343", "\U0001f5344", "\U0001f5345", "\U0001f0cf", "\U0001f7e013"):
            shown = await _key(s, board, label)
        assert shown.params["text"].endswith("New rack (5): 3R 4R 5R 13O J")
        shown = await _key(s, board, keyboard.DELETE)
        assert shown.params["text"].endswith("New rack (4): 3R 4R 5R J")
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("1K")  # nothing stored before Done
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        events = await count_events(s.service, state.id)
        done = await _key(s, board, "Done")
        assert done.params["text"].startswith("Your rack (4 tiles): 3R 4R 5R J")
        assert "reply_markup" not in done.params or not done.params["reply_markup"]
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R J")
        assert await count_events(s.service, state.id) == events + 1
        # the keyboard as it was before Done: its Done and its keys are answered, and change nothing
        for label in ("Done", "\U0001f5343"):
            mark = s.fake.mark()
            s.fake.tap(ALICE, board, label)
            alert = await s.fake.call("answerCallbackQuery", mark)
            assert alert.params.get("show_alert") is True and "already used" in alert.params["text"]
        assert await count_events(s.service, state.id) == events + 1


async def test_the_tile_keyboard_draws_and_refuses_a_third_copy(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 7B")
        board = await s.ask(ALICE, "/draw")
        assert board.text.startswith(keyboard.text(keyboard.DRAW, [], STANDARD).splitlines()[0])
        await _key(s, board, "\U0001f5357")
        mark = s.fake.mark()
        s.fake.tap(ALICE, board, "\U0001f5357")  # a third 7B: the deck has two
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert "only 2 of 7B" in alert.params["text"]
        empty = await s.ask(BOB, "/draw")
        mark = s.fake.mark()
        s.fake.tap(BOB, empty, "Done")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params["text"] == keyboard.EMPTY_DONE[keyboard.DRAW]
        # someone else's keyboard is answered and changes nothing
        mark = s.fake.mark()
        s.fake.tap(BOB, board, "Done")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params["text"] == keyboard.NOT_YOURS and alert.params.get("show_alert") is True
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("7B")
        # Done draws as /draw 7B would: the answer says the tile and the rack; the keyboard keeps the tiles, no keys
        mark = s.fake.mark()
        s.fake.tap(ALICE, board, "Done")
        drew = await s.fake.reply(ALICE.id, mark, ("sendMessage",))
        assert drew.text.startswith("You drew 7B.\nYour rack (2 tiles): 7B 7B")
        closed = await s.fake.call("editMessageText", mark)
        assert closed.text.endswith("Drawn (1): 7B") and not closed.buttons
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("7B 7B")


async def test_in_a_group_an_edit_is_read_only_when_it_is_for_the_bot_and_a_rack_stays_private(
    tmp_path: Path,
) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        chat = _message(s, ALICE, "see you at dinner", GROUP)
        rack = _message(s, ALICE, "hello", GROUP)
        mark = s.fake.mark()
        s.fake.offer({"edited_message": {**chat, "text": "see you at lunch", "edit_date": int(time.time())}})
        s.fake.offer({"edited_message": {**rack, "text": "rack: 3R 4R 5R", "edit_date": int(time.time())}})
        (button,) = await s.fake.replies(GROUP.id, mark, 1)
        assert texts.PRIVATE_ONLY in button.text and button.button("My rack")
        assert "3R" not in button.text
        assert rack_of(await s.player(GROUP.id, ALICE)) == []
        assert [c.params["message_id"] for c in s.fake.sent(GROUP.id, mark, ("deleteMessage",))] == [rack["message_id"]]
