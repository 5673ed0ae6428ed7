"""End to end, one player in a private chat: the real bot polling the fake Bot API."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.telegram.errors import SORRY
from bot.telegram.parsing import MAX_TEXT
from bot.telegram.words import texts
from tests.bot_support import ALICE, BOB, PNG, rack_of, session, tiles
from tests.fake_bot_api import Call, png_size
from tests.storage_support import count_events


async def test_solve_answers_with_a_png_and_a_caption_with_numbered_moves(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B J 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        mark = s.fake.mark()
        photo = await s.ask(ALICE, "/solve", methods=("sendPhoto",))

        assert photo.photo is not None and photo.photo.startswith(PNG)
        width, height = png_size(photo.photo)
        assert width >= 200 and height >= 100
        # points are what the table counts: the joker as the 9R it stands for
        assert photo.text.startswith("Best play (most tiles): 5 tiles, 28 points: 3R 4R 5R J | 7B\n")
        assert "\n1. " in photo.text and "\n2. " in photo.text
        # under the best play, the hold-back advice (issue 24) when it differs from the play
        assert "\nRack left: 11K\nHold back: Keep 3R 4R 5R 7B J back and draw" in photo.text
        assert photo.button("I played this")["callback_data"].startswith("p:")
        assert photo.button("Most points instead")
        # a quick answer comes without a chat action (the photo is there first); see the slow-solve test
        assert all(c.at < photo.at for c in s.fake.sent(ALICE.id, mark, ("sendChatAction",)))


async def test_played_this_applies_the_shown_play_and_other_objective_solves_again(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B J 11K 12K 13K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        tiles_first = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert "8 tiles" in tiles_first.text

        points = await s.tap(ALICE, tiles_first, "Most points instead")  # every tile goes down either way
        assert points.method == "sendMessage" and points.text.startswith("The play with the most points is the same")

        done = await s.tap(ALICE, tiles_first, "I played this")
        assert done.text == "Played 3R 4R 5R | 7B | J 11K 12K 13K.\nAlice has no tile left: Alice wins!"
        # her last tile went down: going out ends her game
        assert await s.service.find_active_game(ALICE.id) is None
        state = await s.service.newest_game(ALICE.id)
        me = state.player(ALICE.id)
        assert me is not None and rack_of(me) == [] and state.winner == ALICE.id
        assert sum(len(x) for x in state.table) == 6 + 8
        # the photo's buttons are gone, and a second tap changes nothing
        assert any(c.method == "editMessageReplyMarkup" for c in s.fake.calls)
        before = await count_events(s.service, state.id)
        mark = s.fake.mark()
        s.fake.tap(ALICE, tiles_first, "I played this")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params.get("show_alert") is True and "this game has ended" in alert.params["text"].lower()
        assert await count_events(s.service, state.id) == before


async def test_a_second_tap_on_a_play_already_made_says_the_table_changed(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 11K")
        await s.ask(ALICE, "/table 6R 7R 8R")
        await s.ask(ALICE, "/meld")
        shown = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        done = await s.tap(ALICE, shown, "I played this")
        assert done.text == "Played 3R 4R 5R.\nYour rack (1 tile): 11K"
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        before = await count_events(s.service, state.id)
        mark = s.fake.mark()
        s.fake.tap(ALICE, shown, "I played this")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params.get("show_alert") is True and "changed" in alert.params["text"]
        assert await count_events(s.service, state.id) == before
        assert rack_of(await s.player(ALICE.id, ALICE)) == ["11K"]


async def test_plain_text_rack_and_table_lines_set_both_and_solve_at_once(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        photo = await s.ask(ALICE, "rack: 10R 11R 12R 13R 5B\ntable: 6R 7R 8R\n7K 7O 7B")
        assert photo.method == "sendPhoto" and photo.photo is not None and photo.photo.startswith(PNG)
        # not melded yet: an opening from the rack alone
        assert photo.text.startswith("Best opening (most tiles): 4 tiles, 46 points: 10R 11R 12R 13R")
        # the answer goes out before the position is stored; the chat's next message waits for the store
        await s.ask(ALICE, "/rules")
        me = await s.player(ALICE.id, ALICE)
        assert rack_of(me) == tiles("10R 11R 12R 13R 5B")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert [str(x) for x in state.table] == ["6R 7R 8R", "7B 7K 7O"]
        # the same position again is solved again, but stores nothing new
        events = await count_events(s.service, state.id)
        again = await s.ask(ALICE, "rack: 5B 10R 11R 12R 13R\ntable: 6R 7R 8R | 7B 7K 7O")
        assert again.method == "sendPhoto" and again.text == photo.text
        assert await count_events(s.service, state.id) == events

        # a loose list of table tiles is laid out in sets by the solver
        photo = await s.ask(ALICE, "table: 8B 9B 10B 1K 1O 1R")
        await s.ask(ALICE, "/rules")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert sorted(str(x) for x in state.table) == ["1R 1K 1O", "8B 9B 10B"]
        assert photo.method == "sendPhoto"


async def test_bad_notation_is_answered_in_one_short_message_and_changes_nothing(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        await s.ask(ALICE, "/table 6R 7R 8R")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        events = await count_events(s.service, state.id)

        for text, expected in [
            ("/rack 3R 14R", ["14R", "goes from 1 to 13"]),
            ("/draw 7X", ["7X", "X is no colour"]),
            ("/table 6R 7R 9R | 1K 2K 3K", ["set 1", "6R 7R 9R"]),
            ("/table 6R 7R 9R", ["do not make a table"]),
            ("rack: 1R 2R\ntable: 5B 6B | 1K 2K 3K", ["set 1"]),
            ("rack: 1R 2R 13R 13R 13R\ntable: 1K 2K 3K", ["13R"]),
            ("/play 11K 12K", ["lacks 11K 12K"]),
            ("3R 4R 15B", ["15B"]),
            ("/new meld=lots", ["meld", "whole number"]),
        ]:
            mark = s.fake.mark()
            answer = await s.ask(ALICE, text)
            assert answer.method == "sendMessage", text
            assert len(answer.text) < 200 and "Traceback" not in answer.text, answer.text
            for word in expected:
                assert word in answer.text, (text, answer.text)
            # a barrier in the same chat: after its answer, the bad message got exactly one
            await s.ask(ALICE, "/help")
            assert len(s.fake.sent(ALICE.id, mark)) == 2, [c.text for c in s.fake.sent(ALICE.id, mark)]

        assert await count_events(s.service, state.id) == events
        after = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert after == state


async def test_too_long_unknown_and_chatter_get_short_pointers(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        long = await s.ask(ALICE, "3R " * (MAX_TEXT // 3 + 10))
        assert "too long" in long.text and str(MAX_TEXT) in long.text
        unknown = await s.ask(ALICE, "/frobnicate now")
        assert unknown.text == "I don't know /frobnicate. /help lists what I can do."
        chatter = await s.ask(ALICE, "hello there")
        assert "/help" in chatter.text
        state = await s.service.find_active_game(ALICE.id)
        assert state is None or not any(p.rack for p in state.players)


async def test_bare_tiles_ask_what_they_are_and_the_buttons_store_them(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        question = await s.ask(ALICE, "3R 4R 5R J")
        assert "what are these tiles" in question.text
        mark = s.fake.mark()
        s.fake.tap(ALICE, question, "My rack")
        answer, best = await s.fake.replies(ALICE.id, mark, 2)
        assert "Your rack (4 tiles): 3R 4R 5R J" in answer.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R J")
        assert best.text.startswith("No opening worth 30 points")  # the rack known, the answer follows

        drew = await s.ask(ALICE, "7B")
        answer = await s.tap(ALICE, drew, "I drew")
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R 7B J")
        mark = s.fake.mark()  # a second tap on the same question draws nothing more
        s.fake.tap(ALICE, drew, "I drew")
        await s.fake.wait_for(
            lambda: next((c for c in s.fake.calls[mark:] if "already answered" in c.params.get("text", "")), None)
        )
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R 7B J")

        table = await s.ask(ALICE, "9K 10K 11K")
        answer = await s.tap(ALICE, table, "The table")  # rack and table known: the best play (no opening yet)
        assert answer.text.startswith("No opening worth 30 points")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        assert [str(x) for x in state.table] == ["9K 10K 11K"]


async def test_start_help_rules_new_status_fit_and_the_example(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        start = await s.ask(ALICE, "/start")
        assert "rack:" in start.text and "table:" in start.text
        example = await s.tap(ALICE, start, "example")
        assert example.method == "sendPhoto" and example.text.startswith("Best play")
        assert await s.service.find_active_game(ALICE.id) is None  # the example touches no game

        helped = await s.ask(ALICE, "/help")
        assert helped.text == texts.HELP and "/solve" in helped.text

        new = await s.ask(ALICE, "/new meld=25 jokers=1")
        assert new.text.startswith("New game (standard rules except: 1 joker; a first play (initial meld) of at least")
        rules = await s.ask(ALICE, "/rules")
        assert rules.text.startswith("Standard rules, except: 1 joker; a first play (initial meld) of at least 25")
        assert "In full: numbers 1 to 13 in four colours (red, blue, black and orange); two copies" in rules.text
        assert "=" not in rules.text.splitlines()[0]

        await s.ask(ALICE, "/rack 1B 2B")
        await s.ask(ALICE, "/table 4R 5R 6R | 3B 3K 3O")
        status = await s.ask(ALICE, "/status")
        assert status.method == "sendPhoto" and "Your rack (2 tiles): 1B 2B" in status.text

        fit = await s.ask(ALICE, "/fit 3R")
        assert fit.text.startswith("3R fits in 1 action:") and "1. Put 3R in set 1" in fit.text
        assert "set 1: 3R 4R 5R 6R" in fit.text
        nothing = await s.ask(ALICE, "/fit 9O")
        assert "cannot be fitted" in nothing.text

        await s.ask(ALICE, "/table 6R 7R 8R")
        no_play = await s.ask(ALICE, "/solve")
        assert no_play.method == "sendMessage" and "Draw a tile" in no_play.text


async def test_each_private_chat_keeps_its_own_game(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        await s.ask(BOB, "/rack 9K 10K")
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R")
        assert rack_of(await s.player(BOB.id, BOB)) == tiles("9K 10K")
        shown = await s.ask(BOB, "/rack")
        assert "9K 10K" in shown.text and "3R" not in shown.text


async def test_a_bug_is_logged_with_where_it_happened_and_the_chat_only_hears_sorry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import bot.telegram.table_steps as table_module

    def broken(*args: object, **kwargs: object) -> bytes:
        raise KeyError("a bug in the picture code")

    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        monkeypatch.setattr(table_module, "table_picture", broken)
        with caplog.at_level(logging.ERROR, logger="bot.telegram.errors"):
            sorry = await s.ask(ALICE, "/status")
        assert sorry.text == SORRY
        assert "KeyError" not in sorry.text and "Traceback" not in sorry.text
        logged = [r for r in caplog.records if r.name == "bot.telegram.errors"]
        # which update and chat (to find it in the database), never what was typed (it may be a rack)
        assert logged and logged[0].exc_info is not None
        assert f"in chat {ALICE.id}" in logged[0].getMessage() and "/status" not in logged[0].getMessage()
        # the bot goes on answering
        assert (await s.ask(ALICE, "/help")).text == texts.HELP


async def test_undo_never_takes_away_the_seat_of_a_private_game(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1R")
        undone = await s.ask(ALICE, "/undo")
        assert undone.text.startswith("Undone: Alice's rack")
        nothing = await s.ask(ALICE, "/undo")
        assert nothing.text == "There is no change of yours to undo"
        answer = await s.ask(ALICE, "/rack 3R 4R 5R")
        assert "3R 4R 5R" in answer.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R")


async def test_a_private_game_that_lost_its_player_seats_them_again(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        # a game from before the seat a game starts with was kept: its joining was an ordinary one,
        # and an /undo took it back
        game = await s.service.new_game(BOB.id, BOB.id)
        await s.service.join(game.id, BOB.id, "Bob")
        await s.service.undo(game.id, BOB.id)
        answer = await s.ask(BOB, "/rack 10K 11K")
        assert "10K 11K" in answer.text
        assert rack_of(await s.player(BOB.id, BOB)) == tiles("10K 11K")
        await s.ask(BOB, "/undo")  # the rack
        kept = await s.ask(BOB, "/undo")  # the seat it was given again stays
        assert kept.text == "There is no change of yours to undo"


async def test_a_question_about_tiles_is_answered_once(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        question = await s.ask(ALICE, "7B")
        mark = s.fake.mark()
        s.fake.tap(ALICE, question, "I drew")
        s.fake.tap(ALICE, question, "I drew")  # a double tap, or a tap on the old message later

        def alert() -> Call | None:
            calls = s.fake.calls[mark:]
            return next((c for c in calls if c.method == "answerCallbackQuery" and c.params.get("show_alert")), None)

        refused = await s.fake.wait_for(alert, 10, "the second tap's alert")
        assert "already" in refused.params["text"]
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R 7B")
        edits = [c for c in s.fake.calls[mark:] if c.method == "editMessageReplyMarkup"]
        assert [c.params["message_id"] for c in edits] == [question.message_id]


async def test_a_command_for_another_bot_is_not_called_unknown(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        answer = await s.ask(ALICE, "/solve@other_bot")
        assert answer.text == "/solve@other_bot is for another bot; here write /solve alone, or see /help."


async def test_an_empty_rack_line_asks_for_the_rack_and_keeps_the_one_stored(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        answer = await s.ask(ALICE, "rack:")
        assert answer.text == "Send your rack after rack:, like rack: 3R 4R 5R J"
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("3R 4R 5R")


async def test_a_misspelt_rack_or_table_keyword_is_named(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        no_colon = await s.ask(ALICE, "rack 3R 4R 5R")
        assert no_colon.text == (
            "Start the line with rack: and a colon, like rack: 3R 4R 5R\nDid you mean <code>rack: 3R 4R 5R</code>?"
        )
        assert [b["text"] for b in no_colon.buttons] == ["rack: 3R 4R 5R", "Cancel"]
        typo = await s.ask(ALICE, "rack: 3R 4R 5R\ntabel: 6R 7R 8R")
        assert typo.text.startswith("Did you mean table: instead of tabel:? Start each line with rack: or table:")
        assert [b["text"] for b in typo.buttons] == ["rack: 3R 4R 5R\ntable: 6R 7R 8R", "Cancel"]
        chatter = await s.ask(ALICE, "back")  # a word near "rack" without tiles is just chatter
        assert "/help" in chatter.text and "rack:" in chatter.text and "colon" not in chatter.text
        state = await s.service.find_active_game(ALICE.id)
        assert state is None or not any(p.rack for p in state.players)


async def test_the_example_says_it_is_a_play_after_the_opening(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        start = await s.ask(ALICE, "/start")
        example = await s.tap(ALICE, start, "example")
        assert "until you send /meld" in example.text
