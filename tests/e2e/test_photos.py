"""End to end, photos of tiles: a real held-out photo in, the tiles and buttons out, stored only on a tap.

The photos are two of the held-out real photos (``tests.vision.test_photos.HELD_OUT``), kept in
``tests/data/photos``. What the bot must say is what the shipped reader reads from the same bytes, so these
tests check the chat, not the reader's accuracy (``tests/vision/test_photos.py`` floors that).
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from bot.game.errors import NoGame
from bot.telegram.words import photos as words
from solver import STANDARD
from solver.notation import format_table, format_tiles, parse_tiles
from tests.bot_support import ALICE, BOB, CAROL, Session, rack_of, session, tie_private_chat
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.e2e.test_shared_table import melded_pair
from tests.fake_bot_api import Call, Chat, User, private
from tests.files import PHOTOS
from tests.storage_support import count_events
from tests.vision.test_photos import HELD_OUT
from vision import PhotoReading, read_photo

IMAGES = PHOTOS / "images"
TABLE_PHOTO = IMAGES / "rummy-14_jpeg.rf.cc87802cd19904d7e0b81192ef85f69c.jpg"  # five sets on wood, 640x480
RACK_PHOTO = IMAGES / "rummy4-89_jpeg.rf.72ff6773825f81da08ca23d3d5455f42.jpg"  # loose tiles, 640x480


def test_the_photos_are_held_out_from_training() -> None:
    for path in (TABLE_PHOTO, RACK_PHOTO):
        assert path.name.split("_jpeg")[0] in HELD_OUT


@cache
def reading_of(path: Path) -> PhotoReading:
    return read_photo(path.read_bytes())


def sizes_of(path: Path) -> list[tuple[int, int, bytes]]:
    """The sizes Telegram would offer: two smaller copies, then the photo itself."""
    data = path.read_bytes()
    image = Image.open(io.BytesIO(data))
    out = []
    for width in (160, 320):
        small = image.resize((width, width * image.height // image.width))
        buffer = io.BytesIO()
        small.save(buffer, "JPEG")
        out.append((small.width, small.height, buffer.getvalue()))
    return [*out, (image.width, image.height, data)]


def picture(size: tuple[int, int], form: str = "JPEG", mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, "grey" if mode == "RGB" else 0).save(buffer, form)
    return buffer.getvalue()


async def send_photo(
    s: Session, user: User, path: Path, chat: Chat | None = None, *, caption: str | None = None
) -> Call:
    chat = chat or private(user)
    mark = s.fake.mark()
    s.fake.send_photo(user, sizes_of(path), chat, caption=caption)
    return await s.fake.reply(chat.id, mark)


async def alert_after(s: Session, mark: int) -> Call:
    """The first answer to a tap after ``mark`` that says something (a tap's plain answer says nothing)."""
    return await s.fake.wait_for(
        lambda: next(
            (c for c in s.fake.calls[mark:] if c.method == "answerCallbackQuery" and c.params.get("text")), None
        )
    )


async def events(s: Session, user: User) -> int:
    state = await s.service.game_for(user.id, user.id, private=True)
    return await count_events(s.service, state.id)


async def test_a_rack_photo_is_answered_with_its_tiles_and_buttons_and_stores_nothing(tmp_path: Path) -> None:
    reading = reading_of(RACK_PHOTO)
    assert reading.kind == "rack" and len(reading.tiles) >= 10
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1B 2B")
        before = await events(s, ALICE)
        mark = s.fake.mark()
        sizes = sizes_of(RACK_PHOTO)
        update = s.fake.send_photo(ALICE, sizes)
        answer = await s.fake.reply(ALICE.id, mark)

        took = answer.at - s.fake.offered_at[update]
        assert took < 2.0  # the first photo: the reader starts too
        assert answer.params["parse_mode"] == "HTML"
        written = format_tiles(reading.tiles, STANDARD)
        assert answer.text.startswith(f"I read {len(reading.tiles)} tiles: <code>{written}</code>")
        doubts = sorted(reading.uncertain, key=STANDARD.tile_key)
        if doubts:  # tiles read with low confidence are named (the words: tests/telegram/test_photo_words.py)
            assert f"Not sure of {', '.join(str(t) for t in doubts)}: check" in answer.text
        else:
            assert "Not sure" not in answer.text
        for label in (words.RACK, words.TABLE, words.DRAWN, "Cancel"):
            assert answer.button(label)["callback_data"].startswith("q:")
        assert answer.params["reply_parameters"]["message_id"]  # it quotes the photo
        # the largest size was fetched (none reaches 1280 px), and only that one
        assert s.fake.fetched == [f"file{len(s.fake.files)}"]
        # nothing is stored before a tap
        assert await events(s, ALICE) == before
        assert rack_of(await s.player(ALICE.id, ALICE)) == ["1B", "2B"]


async def test_that_is_my_rack_stores_the_rack_once(tmp_path: Path) -> None:
    reading = reading_of(RACK_PHOTO)
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1B 2B")
        answer = await send_photo(s, ALICE, RACK_PHOTO)
        before = await events(s, ALICE)

        done = await s.tap(ALICE, answer, words.RACK)
        assert done.text.startswith(f"Your rack ({len(reading.tiles)} tiles): {format_tiles(reading.tiles, STANDARD)}")
        assert rack_of(await s.player(ALICE.id, ALICE)) == [
            str(t) for t in sorted(reading.tiles, key=STANDARD.tile_key)
        ]
        assert await events(s, ALICE) == before + 1
        await s.fake.call("editMessageReplyMarkup", 0)  # its buttons go, once the tap's answers are out

        # a second tap (the buttons were still showing somewhere) stores nothing
        for label in (words.RACK, words.DRAWN):
            mark = s.fake.mark()
            s.fake.tap(ALICE, answer, label)
            alert = await alert_after(s, mark)
            assert "already answered" in alert.params["text"]
        assert await events(s, ALICE) == before + 1


async def test_two_taps_at_once_store_once(tmp_path: Path) -> None:
    reading = reading_of(RACK_PHOTO)
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1B 2B")
        answer = await send_photo(s, ALICE, RACK_PHOTO)
        before = await events(s, ALICE)
        mark = s.fake.mark()
        s.fake.tap(ALICE, answer, words.DRAWN)
        s.fake.tap(ALICE, answer, words.DRAWN)
        await s.fake.wait_for(
            lambda: True if len([c for c in s.fake.calls[mark:] if c.method == "answerCallbackQuery"]) == 2 else None
        )
        assert await events(s, ALICE) == before + 1
        assert len(rack_of(await s.player(ALICE.id, ALICE))) == 2 + len(reading.tiles)


async def test_tiles_i_drew_go_onto_the_rack(tmp_path: Path) -> None:
    reading = reading_of(RACK_PHOTO)
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1R 2R")
        answer = await send_photo(s, ALICE, RACK_PHOTO)
        done = await s.tap(ALICE, answer, words.DRAWN)  # as /draw with the tiles would: "You drew …"
        assert done.text.startswith(f"You drew {format_tiles(reading.tiles, STANDARD)}.\nYour rack (")
        expected = sorted([*reading.tiles, *parse_tiles("1R 2R", STANDARD)], key=STANDARD.tile_key)
        assert rack_of(await s.player(ALICE.id, ALICE)) == [str(t) for t in expected]


async def test_a_table_photo_shows_its_sets_and_becomes_the_table(tmp_path: Path) -> None:
    reading = reading_of(TABLE_PHOTO)
    assert reading.kind == "table" and reading.sets
    sets = format_table(reading.sets)
    async with session(tmp_path) as s:
        answer = await send_photo(s, ALICE, TABLE_PHOTO)
        assert answer.text.startswith(
            f"I read {len(reading.tiles)} tiles, in {len(reading.sets)} sets: <code>table: {sets}</code>"
        )
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert state.table == ()  # not before the tap

        shown = await s.tap(ALICE, answer, words.TABLE)
        assert shown.method == "sendPhoto" and shown.text.startswith(f"Table set: {len(reading.sets)} sets.")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert format_table(state.table) == sets


async def test_a_refused_tap_stores_nothing_and_leaves_the_buttons_to_use(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        answer = await send_photo(s, ALICE, RACK_PHOTO)
        before = await events(s, ALICE)
        # the rack photo's tiles as the table are laid out as typed loose tiles are; these make no table
        mark = s.fake.mark()
        s.fake.tap(ALICE, answer, words.TABLE)
        alert = await alert_after(s, mark)
        assert alert.params["show_alert"] is True and "do not make a table" in alert.params["text"]
        assert await events(s, ALICE) == before
        # the reading is still there: another button, then Cancel finds it answered
        done = await s.tap(ALICE, answer, words.RACK)
        assert done.text.startswith("Your rack (")
        mark = s.fake.mark()
        s.fake.tap(ALICE, answer, "Cancel")
        alert = await alert_after(s, mark)
        assert "already answered" in alert.params["text"]


async def test_the_reading_waits_in_the_database_across_a_restart(tmp_path: Path) -> None:
    reading = reading_of(RACK_PHOTO)
    async with session(tmp_path) as first:
        answer = await send_photo(first, CAROL, RACK_PHOTO)  # Carol has no game yet: her own starts
        url, messages = first.database_url, dict(first.fake.messages)
    async with session(tmp_path, database_url=url) as second:
        second.fake.messages.update(messages)
        done = await second.tap(CAROL, answer, words.RACK)
        assert done.text.startswith(f"Your rack ({len(reading.tiles)} tiles)")
        assert len(rack_of(await second.player(CAROL.id, CAROL))) == len(reading.tiles)


async def test_a_group_table_photo_is_proposed_and_a_player_confirms_it(tmp_path: Path) -> None:
    reading = reading_of(TABLE_PHOTO)
    assert reading.sets
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        game = await s.service.active_game(GROUP.id)
        before = await count_events(s.service, game.id)
        proposed = await send_photo(s, ALICE, TABLE_PHOTO, GROUP, caption="/table")
        assert f"<code>/table {format_table(reading.sets)}</code>" in proposed.text
        assert [b["text"] for b in proposed.buttons] == [words.TABLE, "Cancel"]
        assert await count_events(s.service, game.id) == before  # proposed, not set

        mark = s.fake.mark()
        s.fake.tap(CAROL, proposed, words.TABLE)  # not a player
        alert = await alert_after(s, mark)
        assert "not yours" in alert.params["text"]

        shown = await s.tap(BOB, proposed, words.TABLE, GROUP.id)
        assert shown.method == "sendPhoto" and shown.text.startswith(f"Table set: {len(reading.sets)} sets.")
        state = await s.service.active_game(GROUP.id)
        assert format_table(state.table) == format_table(reading.sets)
        assert await count_events(s.service, game.id) == before + 1


async def test_a_group_photo_after_a_turn_proposes_the_turn_players_play(tmp_path: Path) -> None:
    """No caption needed: the photo shows the table as recorded and new tiles, so it is the play of the player
    whose turn it is, once a player confirms it; the same photo again is the table as it is."""
    reading = reading_of(TABLE_PHOTO)
    assert reading.sets and len(reading.sets) >= 2
    async with session(tmp_path) as s:
        await melded_pair(s)  # Alice to play
        await s.ask(ALICE, f"/table {format_table(reading.sets[:-1])}", GROUP)
        last = reading.sets[-1]
        proposed = await send_photo(s, BOB, TABLE_PHOTO, GROUP)
        assert proposed.text == f"Alice played {format_tiles(last.tiles, STANDARD)}?"
        assert [b["text"] for b in proposed.buttons] == ["Yes, Alice played it", words.FIX, "Neither"]
        played = await s.tap(ALICE, proposed, "Yes, Alice played it", GROUP.id)
        assert played.method == "sendPhoto"
        assert played.text.startswith(f"Alice put down {last} ({len(last)} tiles")
        state = await s.service.active_game(GROUP.id)
        assert sorted(map(str, state.table)) == sorted(map(str, reading.sets))
        assert state.turn == BOB.id
        mark = s.fake.mark()
        s.fake.tap(ALICE, proposed, "Yes, Alice played it")
        assert "already answered" in (await alert_after(s, mark)).params["text"]
        same = await send_photo(s, BOB, TABLE_PHOTO, GROUP)
        assert same.text == "That is the table as I have it."


async def test_a_group_photo_that_loses_tiles_is_offered_as_a_correction_only(tmp_path: Path) -> None:
    reading = reading_of(TABLE_PHOTO)
    assert reading.sets
    async with session(tmp_path) as s:
        await melded_pair(s)
        await s.ask(ALICE, f"/table {format_table(reading.sets)} | 11B 12B 13B", GROUP)
        proposed = await send_photo(s, BOB, TABLE_PHOTO, GROUP)
        assert (
            proposed.text == "This photo shows a table without 11B 12B 13B of the table as I have it. "
            "Correct the table to it?"
        )
        assert [b["text"] for b in proposed.buttons] == [words.FIX, "Neither"]
        fixed = await s.tap(ALICE, proposed, words.FIX, GROUP.id)
        assert fixed.text.startswith("Table corrected: ")
        assert format_table((await s.service.active_game(GROUP.id)).table) == format_table(reading.sets)


async def test_a_photo_in_a_private_chat_tied_to_a_group_sets_the_groups_table(tmp_path: Path) -> None:
    reading = reading_of(TABLE_PHOTO)
    assert reading.sets
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie_private_chat(s, created, ALICE, "1B")
        answer = await send_photo(s, ALICE, TABLE_PHOTO)
        assert answer.text.startswith("Family: I read ")
        mark = s.fake.mark()
        s.fake.tap(ALICE, answer, words.TABLE)
        posted = await s.fake.reply(GROUP.id, mark)
        assert posted.method == "sendPhoto" and posted.text.startswith("Alice: Table set: ")
        state = await s.service.active_game(GROUP.id)
        assert format_table(state.table) == format_table(reading.sets)


async def test_a_group_photo_keeps_every_tile_on_the_table_unless_captioned_fix(tmp_path: Path) -> None:
    reading = reading_of(TABLE_PHOTO)
    assert reading.sets
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 11B 12B 13B", GROUP)  # not in the photo
        # a photo that lost tiles of the table is never the table as it is: offered as a correction only
        proposed = await send_photo(s, BOB, TABLE_PHOTO, GROUP, caption="/table")
        assert proposed.text == (
            "This photo shows a table without 11B 12B 13B of the table as I have it. Correct the table to it?"
        )
        assert [b["text"] for b in proposed.buttons] == [words.FIX, words.NEITHER]
        mark = s.fake.mark()
        s.fake.tap(ALICE, proposed, words.NEITHER)
        await s.fake.call("answerCallbackQuery", mark)
        assert [str(x) for x in (await s.service.active_game(GROUP.id)).table] == ["11B 12B 13B"]

        fixed = await send_photo(s, BOB, TABLE_PHOTO, GROUP, caption="/table fix")
        shown = await s.tap(ALICE, fixed, words.TABLE, GROUP.id)
        assert shown.text.startswith("Table corrected: ")
        assert format_table((await s.service.active_game(GROUP.id)).table) == format_table(reading.sets)

        mark = s.fake.mark()
        s.fake.send_document(BOB, b"minutes of the meeting", GROUP, mime_type="text/plain", caption="/table")
        assert (await s.fake.reply(GROUP.id, mark)).text == words.NOT_A_PICTURE


async def test_in_a_group_only_photos_for_the_bot_are_read(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        mark = s.fake.mark()
        s.fake.send_photo(CAROL, sizes_of(TABLE_PHOTO), GROUP, caption="our holiday")  # not a player
        s.fake.send_photo(BOB, sizes_of(TABLE_PHOTO), GROUP, caption="/table@another_bot")
        rules = await s.ask(BOB, "/rules", GROUP)  # one chat's updates are handled in order
        assert s.fake.sent(GROUP.id, mark) == [rules]
        assert not s.fake.fetched
        # a player's photo of nothing like tiles is read, and nothing is said
        mark = s.fake.mark()
        s.fake.send_photo(BOB, [(640, 480, picture((640, 480)))], GROUP, caption="our holiday")
        rules = await s.ask(BOB, "/rules", GROUP)
        assert s.fake.sent(GROUP.id, mark) == [rules] and len(s.fake.fetched) == 1

        # a photo replying to the bot is for the bot
        quoted = s.fake.messages[(GROUP.id, created.message_id)]
        mark = s.fake.mark()
        s.fake.send_photo(BOB, sizes_of(TABLE_PHOTO), GROUP, reply_to=quoted)
        proposed = await s.fake.reply(GROUP.id, mark)
        assert proposed.text.startswith("I read ") and proposed.button(words.TABLE)

        # only a player proposes the table (nothing is fetched for anyone else)
        fetched = len(s.fake.fetched)
        refused = await send_photo(s, CAROL, TABLE_PHOTO, GROUP, caption="/table")
        assert "not playing in this game" in refused.text and len(s.fake.fetched) == fetched


async def test_a_group_photo_without_a_game_says_how_to_start_one(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        answer = await send_photo(s, ALICE, TABLE_PHOTO, GROUP, caption="/table")
        assert "/new starts one" in answer.text
        assert not s.fake.fetched


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ({"data": b"%PDF-1.4 not a picture", "mime_type": "application/pdf"}, "That file is not a picture"),
        (
            {"data": b"\xff\xd8\xff garbage", "mime_type": "image/jpeg"},
            "I cannot read that photo: this is not a picture",
        ),
        ({"data": picture((9000, 6000), "PNG", "1"), "mime_type": "image/png"}, "megapixels"),
        ({"data": picture((20, 20), "PNG"), "mime_type": "image/png"}, "too small"),
        ({"data": picture((640, 480)), "mime_type": "image/jpeg"}, "I see no tiles in this photo"),
    ],
)
async def test_bad_files_get_a_clear_answer_and_change_nothing(
    tmp_path: Path, content: dict[str, object], said: str
) -> None:
    async with session(tmp_path) as s:
        mark = s.fake.mark()
        data = content["data"]
        mime = content["mime_type"]
        assert isinstance(data, bytes) and isinstance(mime, str)
        s.fake.send_document(ALICE, data, mime_type=mime)
        answer = await s.fake.reply(ALICE.id, mark)
        assert said in answer.text and not answer.buttons
        with pytest.raises(NoGame):  # no game was started for a file that was not read
            await s.service.game_for(ALICE.id, ALICE.id, private=True)


async def test_a_photo_too_large_to_fetch_or_lost_is_said(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        mark = s.fake.mark()
        s.fake.send_photo(ALICE, sizes_of(RACK_PHOTO), declared_size=25 * 1024 * 1024)
        answer = await s.fake.reply(ALICE.id, mark)
        assert "too large for me to fetch (25 MB" in answer.text
        assert not any(c.method == "getFile" for c in s.fake.calls)

        s.fake.fail_next("getFile", 400, "Bad Request: wrong file_id or the file is temporarily unavailable")
        mark = s.fake.mark()
        s.fake.send_photo(ALICE, sizes_of(RACK_PHOTO))
        answer = await s.fake.reply(ALICE.id, mark)
        assert answer.text == words.FETCH_FAILED

        # a photo offered in a size that is enough is fetched in that size, not a larger one
        big = Image.open(RACK_PHOTO).resize((1280, 960))
        buffer = io.BytesIO()
        big.save(buffer, "JPEG")
        huge = Image.open(RACK_PHOTO).resize((2560, 1920))
        buffer2 = io.BytesIO()
        huge.save(buffer2, "JPEG")
        mark = s.fake.mark()
        s.fake.send_photo(ALICE, [(640, 480, RACK_PHOTO.read_bytes()), (1280, 960, buffer.getvalue()),
                                  (2560, 1920, buffer2.getvalue())])  # fmt: skip
        answer = await s.fake.reply(ALICE.id, mark)
        assert answer.text.startswith("I read ")
        assert s.fake.fetched[-1] == f"file{len(s.fake.files) - 1}"


async def test_in_production_the_reading_runs_in_a_solver_process(tmp_path: Path) -> None:
    reading = reading_of(RACK_PHOTO)
    async with session(tmp_path, processes=1) as s:
        answer = await send_photo(s, ALICE, RACK_PHOTO)
        assert answer.text.startswith(
            f"I read {len(reading.tiles)} tiles: <code>{format_tiles(reading.tiles, STANDARD)}"
        )
        mark = s.fake.mark()
        s.fake.send_document(ALICE, b"\x89PNG\r\n\x1a\n broken", mime_type="image/png")  # its error comes back too
        assert (await s.fake.reply(ALICE.id, mark)).text.startswith("I cannot read that photo: ")
