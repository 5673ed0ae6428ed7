"""End to end, the coach in the chat (issue 24): /hint through its four levels, /unseen, How did I do?, the
review at the end of a game, the hold-back sentence under an answer and A simpler play, in English and German,
through the loopback fake Bot API and a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.bot_support import ALICE, BOB, PNG, session, tie_private_chat
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.fake_bot_api import Call
from tests.storage_support import count_events


async def _german(s: object) -> None:
    from tests.bot_support import Session

    assert isinstance(s, Session)
    await s.ask(ALICE, "/language")
    mark = s.fake.mark()
    call = s.fake.sent(ALICE.id)[-1]
    s.fake.tap(ALICE, call, "Deutsch")
    await s.fake.reply(ALICE.id, mark)


async def test_hint_goes_through_four_levels_that_agree_with_the_whole_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        one = await s.ask(ALICE, "/hint")
        assert one.text == "Hint 1 of 4: You can lay 4 tiles"
        two = await s.tap(ALICE, one, "More")
        assert two.text.startswith("Hint 2 of 4: Look at ")
        assert "your red tiles" in two.text and "your 7s" in two.text
        three = await s.tap(ALICE, two, "More")
        assert three.text == (
            "Hint 3 of 4: Lay 3R 4R 5R 7B from your rack, using the red run (set 1) and the group of 7s (set 2)"
        )
        four = await s.tap(ALICE, three, "Show the play")
        assert four.method == "sendPhoto" and four.photo is not None and four.photo.startswith(PNG)
        assert four.text.startswith("Best play (most tiles): 4 tiles")
        laid = four.text.split("\n")[0].rsplit(": ", 1)[1]
        assert sorted(laid.replace("|", " ").split()) == sorted(["3R", "4R", "5R", "7B"])
        # the play shown is the one the hints told of, and "I played this" records it
        tapped = s.fake.mark()
        done = await s.tap(ALICE, four, "I played this")
        assert done.text.startswith("Played ")
        await s.fake.call("answerCallbackQuery", tapped)
        # a hint's button once the table has changed says so, and changes nothing
        mark = s.fake.mark()
        s.fake.tap(ALICE, two, "More")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params.get("show_alert") is True and "changed" in alert.params["text"]


async def test_hint_before_the_opening_says_the_meld_and_without_a_play_says_draw(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 10R 11R 12R 1B 5K")
        one = await s.ask(ALICE, "/hint")
        assert one.text == "Hint 1 of 4: You can open with 3 tiles (33 points)"
        # /hint typed again in the same position gives the next level
        two = await s.ask(ALICE, "/hint")
        assert two.text.startswith("Hint 2 of 4: Look at your red tiles")
        await s.ask(ALICE, "/rack 1R 5B 9K")
        none = await s.ask(ALICE, "/hint")
        assert none.text == "Hint 1 of 4: No opening of 30 points yet: draw"
        assert none.button("Unseen tiles")


async def test_unseen_sends_the_picture_and_the_counts_and_outs_of_a_known_position(tmp_path: Path) -> None:
    from bot.coach.unseen import outs_of
    from bot.telegram.words.language import spoken

    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        answer = await s.ask(ALICE, "/unseen", methods=("sendPhoto",))
        assert answer.photo is not None and answer.photo.startswith(PNG)
        lines = answer.text.split("\n")
        # 106 tiles less 6 on the table and 6 on the rack; a game of one: all of them in the pool
        assert lines[0] == "94 tiles unseen: 94 in the pool, 0 on the other racks"
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        _seen, outs = outs_of(state, ALICE.id)  # every unseen kind solved again, here, one by one
        assert lines[1:] == [spoken(line) for line in outs.lines()]
        assert outs.count > 0 and lines[1].startswith(f"{outs.count} of 94 unseen tiles would let you lay more; ")
        assert lines[2].startswith("Best: ")
        # the button under an answer gives the same
        photo = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        again = await s.tap(ALICE, photo, "Unseen tiles")
        assert again.method == "sendPhoto" and again.text == answer.text


async def test_unseen_before_the_opening_counts_the_draws_that_reach_the_meld(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 10R 11R 5B 9K")
        answer = await s.ask(ALICE, "/unseen", methods=("sendPhoto",))
        assert answer.text.split("\n")[0] == "102 tiles unseen: 102 in the pool, 0 on the other racks"
        assert " unseen tiles would let you open; " in answer.text
        assert "Best: " in answer.text and "to open with 3 tiles" in answer.text


async def test_how_did_i_do_grades_a_play_that_missed_tiles_and_a_best_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        played = await s.ask(ALICE, "/play 3R 4R 5R", methods=("sendPhoto",))
        graded = await s.tap(ALICE, played, "How did I do?")
        assert graded.method == "sendPhoto" and graded.photo is not None
        assert graded.text.startswith("Could be better: 1 more tile was possible: 3R 4R 5R 7B\n")
        assert "Best play (most tiles): 4 tiles" in graded.text
        await s.ask(ALICE, "/draw 1O")
        await s.ask(ALICE, "/rack 1B 2B 3B 11K")
        best = await s.ask(ALICE, "/play 1B 2B 3B", methods=("sendPhoto",))
        graded = await s.tap(ALICE, best, "How did I do?")
        assert graded.method == "sendMessage" and graded.text == "Best play: you laid all 3 you could"


async def test_the_review_names_the_worst_turns_and_the_share_of_best_plays(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 11K 12K 13K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        await s.ask(ALICE, "/play 11K 12K 13K", methods=("sendPhoto",))  # 7 could go down, out
        await s.ask(ALICE, "/draw 2O")
        await s.ask(ALICE, "/play 3R 4R 5R", methods=("sendPhoto",))  # 7B could go too
        await s.ask(ALICE, "/draw 5O")
        await s.ask(ALICE, "/rack 1B 2B 3B 2O 5O 9K")
        won = await s.ask(ALICE, "/play 1B 2B 3B", methods=("sendPhoto",))  # the best: nothing else fits
        review = await s.ask(ALICE, "/review")
        assert review.text == (
            "Your game in review:\n"
            "Best plays: 1 of your 3 turns (33%)\n"
            "Turn 1: you could have gone out (4 more tiles)\n"
            "Turn 2: 1 tile missed (Could be better)"
        )
        assert won.button("How did I do?")


async def test_a_play_taken_back_leaves_the_review(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 11K 12K 13K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        await s.ask(ALICE, "/play 11K 12K 13K", methods=("sendPhoto",))  # 7 could go down
        await s.ask(ALICE, "/undo", methods=("sendPhoto",))
        review = await s.ask(ALICE, "/review")
        assert "Turn 1" not in review.text  # the play is no longer on the table: nothing to grade
        await s.ask(ALICE, "/play 3R 4R 5R | 7B | 11K 12K 13K", methods=("sendPhoto",))
        review = await s.ask(ALICE, "/review")
        assert review.text == "Your game in review:\nBest plays: 1 of your 1 turn (100%)\nNo turn missed a tile"


async def test_going_out_offers_the_review_under_the_last_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R")
        await s.ask(ALICE, "/table 6R 7R 8R")
        await s.ask(ALICE, "/meld")
        shown = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert "Hold back" not in shown.text  # the play that goes out is never held back
        done = await s.tap(ALICE, shown, "I played this")
        review = await s.tap(ALICE, done, "Review")
        assert review.text == "Your game in review:\nBest plays: 1 of your 1 turn (100%)\nNo turn missed a tile"


async def test_the_hold_back_sentence_is_under_the_best_play_when_it_differs(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        photo = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert photo.text.endswith(
            "Rack left: 9K 11K\nHold back: Keep 3R 4R 5R 7B back and draw: on your rack the others cannot play "
            "with them, and with more tiles you can lay them all at once to go out"
        )


async def test_a_simpler_play_under_a_play_of_more_than_three_moves(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 5R 7B 4B 12K 1O 2O 3O")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R | 1B 2B 3B | 9K 10K 11K")
        await s.ask(ALICE, "/meld")
        photo = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert "\n4. " in photo.text
        simpler = await s.tap(ALICE, photo, "A simpler play")
        assert simpler.method == "sendPhoto" and simpler.photo is not None
        head = simpler.text.split("\n")[0]
        assert head.startswith("A simpler play, in ") and "fewer than the best play" in head
        assert "\n4. " not in simpler.text and "\n1. " in simpler.text
        # an answer of three moves or fewer has no such button
        await s.ask(ALICE, "/rack 3R 4R 5R 9K")
        await s.ask(ALICE, "/table 6R 7R 8R")
        short = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert not any("simpler" in b["text"] for b in short.buttons)


async def test_the_coach_speaks_german(tmp_path: Path) -> None:
    from bot.coach.hints import hint
    from bot.telegram.words import coach
    from bot.telegram.words.language import _, speaking, spoken
    from solver import STANDARD, parse_table, parse_tiles
    from solver.solve import solve

    async with session(tmp_path) as s:
        await _german(s)
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        one = await s.ask(ALICE, "/hint")
        solution = solve(
            parse_tiles("3R 4R 5R 7B 9K 11K", STANDARD), parse_table("6R 7R 8R | 7K 7O 7R", STANDARD), STANDARD
        )
        with speaking("de"):
            first = hint(solution, 1)
            assert first is not None
            expected = _(coach.HINT_HEAD).format(level=1, text=spoken(first.text))
            more = _(coach.MORE_HINT_BUTTON).format(level=2)
            how = _(coach.HOW_BUTTON)
            review_head = _(coach.REVIEW_HEAD)
        assert one.text == expected and one.text != f"Hint 1 of 4: {first.text}"
        two = await s.tap(ALICE, one, more)
        assert two.text.startswith(expected.split(":")[0].replace("1", "2"))
        unseen = await s.ask(ALICE, "/unseen", methods=("sendPhoto",))
        assert unseen.photo is not None and "unseen" not in unseen.text
        photo = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert "Hold back" not in photo.text and "Keep" not in photo.text and "3R 4R 5R 7B" in photo.text
        played = await s.ask(ALICE, "/play 3R 4R 5R", methods=("sendPhoto",))
        graded = await s.tap(ALICE, played, how)
        assert graded.photo is not None and "3R 4R 5R 7B" in graded.text and "Could be better" not in graded.text
        review = await s.ask(ALICE, "/review")
        assert review.text.startswith(review_head)


async def test_coach_buttons_that_are_forged_or_stale_are_answered_and_change_nothing(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        one = await s.ask(ALICE, "/hint")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        before = await count_events(s.service, state.id)
        for data in ("h:notatoken123:2", "h:x:9", "u:999999", "w:notatoken123:0", "v:abc", "y:1:t:zz"):
            forged = Call("sendMessage", {**one.params, "reply_markup": {
                "inline_keyboard": [[{"text": "x", "callback_data": data}]]}}, one.files, one.at,
                one.result)  # fmt: skip
            mark = s.fake.mark()
            s.fake.tap(ALICE, forged, "x")
            alert = await s.fake.call("answerCallbackQuery", mark)
            assert alert.params.get("show_alert") is True, data
        assert await count_events(s.service, state.id) == before


async def test_how_did_i_do_under_a_group_post_is_answered_to_the_player_alone(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie_private_chat(s, created, ALICE, "3R 4R 5R 7B 9K 11K", meld=True)
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R", GROUP)
        posted = await s.ask(ALICE, "/play 3R 4R 5R", GROUP, methods=("sendPhoto",))
        label = "🎯 How did I do? (in private)"
        assert posted.button(label)
        mark = s.fake.mark()
        s.fake.tap(BOB, posted, label)  # not Bob's play: he is told, and nothing is sent anywhere
        refused = await s.fake.call("answerCallbackQuery", mark)
        assert refused.params.get("show_alert") and "Only Alice can ask" in refused.params["text"]
        mark = s.fake.mark()
        s.fake.tap(ALICE, posted, label)
        graded = await s.fake.reply(ALICE.id, mark, ("sendPhoto",))
        assert graded.text.startswith("Family: Could be better: 1 more tile was possible: 3R 4R 5R 7B\n")
        told = await s.fake.wait_for(
            lambda: next(
                (c for c in s.fake.calls[mark:] if c.method == "answerCallbackQuery" and c.params.get("text")), None
            )
        )
        assert told.params["text"] == "I sent it to you in private."
        assert not [c for c in s.fake.sent(GROUP.id, mark)]  # the group reads nothing of Alice's rack
