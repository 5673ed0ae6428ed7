"""End to end, a family group: one shared table, private racks through deep links, turns, undo, the end."""

from __future__ import annotations

from pathlib import Path

from tests.bot_support import ALICE, BOB, CAROL, PNG, Session, melded, rack_of, session, tie_private_chat, tiles
from tests.fake_bot_api import Call, Chat, User

GROUP = Chat(-100111, "group", "Family")
SUPERGROUP = Chat(-1001234567, "supergroup", "Family")


async def new_game_with_two(s: Session) -> Call:
    """Alice starts a game in the group and Bob taps Join; the /new message (with its buttons)."""
    created = await s.ask(ALICE, "/new", GROUP)
    assert "Alice sits first" in created.text
    joined = await s.tap(BOB, created, "Join", GROUP.id)
    assert "Bob joined" in joined.text and "Alice to play. 78 tiles in the pool." in joined.text  # 14 tiles each
    return created


async def test_the_whole_group_game_with_two_players(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        game = await s.service.active_game(GROUP.id)
        assert [p.name for p in game.active_players] == ["Alice", "Bob"]
        assert created.button("My rack")["url"] == f"https://t.me/rummi_test_bot?start={game.invite}"

        # a rack typed in the group is neither stored nor repeated: the answer is the private-chat button
        mark = s.fake.mark()
        refused = await s.ask(ALICE, "/rack 3R 4R 5R 7B J 11K", GROUP)
        assert "private" in refused.text and "3R" not in refused.text
        assert refused.button("My rack")["url"].endswith(game.invite)
        assert all("11K" not in c.text for c in s.fake.sent(GROUP.id, mark))
        assert rack_of(await s.player(GROUP.id, ALICE)) == []

        # the shared table, set in the group, shown to the group
        table = await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R", GROUP)
        assert table.method == "sendPhoto" and table.photo is not None and table.photo.startswith(PNG)

        # Alice opens the deep link: her private chat is now tied to the group's game
        mark = s.fake.mark()
        s.fake.follow(ALICE, created, "My rack")
        linked = await s.fake.reply(ALICE.id, mark)
        assert "table of Family" in linked.text
        await s.ask(ALICE, "/rack 3R 4R 5R 7B J 11K")
        alice = await s.player(GROUP.id, ALICE)
        assert rack_of(alice) == tiles("3R 4R 5R 7B 11K J")
        # in a group's game an opening is made only by playing it: no /meld
        refused = await s.ask(ALICE, "/meld")
        assert refused.text.startswith("Family: ") and "made by playing it" in refused.text
        assert not (await s.player(GROUP.id, ALICE)).melded
        await melded(s, GROUP.id, ALICE)  # set-up: as if she had played her opening earlier

        # solve in private against the group's table, and play it
        suggestion = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert suggestion.text.startswith("Family: Best play (most tiles): 5 tiles")
        mark = s.fake.mark()
        s.fake.tap(ALICE, suggestion, "I played this")
        private_note = await s.fake.reply(ALICE.id, mark, ("sendMessage",))
        assert private_note.text.startswith("Family: Played 3R 4R 5R J | 7B.") and "Bob to play" in private_note.text
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.photo is not None and posted.photo.startswith(PNG)
        # the joker counts as the 9R it stands for; her rack told (6 tiles, not the 14 dealt) put 8 back in the pool
        assert posted.text == "Alice put down 3R 4R 5R J | 7B (5 tiles, 28 points). Bob to play. 80 tiles in the pool."
        assert "11K" not in posted.text  # never the rest of anyone's rack
        game = await s.service.active_game(GROUP.id)
        assert game.turn == BOB.id
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["11K"]

        # Bob links his private chat too and sets his rack there
        mark = s.fake.mark()
        s.fake.follow(BOB, created, "My rack")
        await s.fake.reply(BOB.id, mark)
        await s.ask(BOB, "/rack 10B 11B 12B 9K")

        status = await s.ask(BOB, "/status", GROUP)
        assert status.method == "sendPhoto"
        assert "Alice: 1 tile" in status.text and "Bob: 4 tiles" in status.text
        assert "Bob: 4 tiles, no meld yet ← to play" in status.text
        assert status.text.endswith("90 tiles in the pool.")
        assert "9K" not in status.text and "11K" not in status.text

        # Bob records his opening in the group; the picture shows it, the turn goes back to Alice
        played = await s.ask(BOB, "/play 10B 11B 12B", GROUP)
        assert played.method == "sendPhoto"
        assert played.text == "Bob put down 10B 11B 12B (3 tiles, 33 points). Alice to play. 90 tiles in the pool."
        assert rack_of(await s.player(GROUP.id, BOB)) == ["9K"]

        # undo takes the play back exactly: table, rack, turn
        undone = await s.ask(BOB, "/undo", GROUP)
        assert undone.text.startswith("Undone: Bob's play") and "Bob to play" in undone.text
        game = await s.service.active_game(GROUP.id)
        assert "10B 11B 12B" not in [str(x) for x in game.table] and game.turn == BOB.id
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("10B 11B 12B 9K")

        await s.ask(BOB, "/play 10B 11B 12B", GROUP)
        # with tiles in the pool a turn without a play is a draw, told in one step
        refused = await s.ask(ALICE, "/pass", GROUP)
        assert refused.text == "90 tiles are still in the pool: a turn without a play is a draw (/draw)"
        drew = await s.ask(ALICE, "/draw", GROUP)
        assert drew.text == "Alice drew a tile. Bob to play. 89 tiles in the pool."

        # /end stops the game; the racks are told (Bob's with a tap: the bot knows it), the lowest wins
        asked = await s.ask(ALICE, "/end", GROUP)
        stopped = await s.tap(ALICE, asked, "Stop the game", GROUP.id)
        assert stopped.text.splitlines() == [
            "The game is stopped. The lowest rack wins.",
            "Alice, Bob: tell me the tiles left on your rack, like /left 7R 8K J (or tap below if I know your rack).",
        ]
        told = await s.tap(BOB, stopped, "My rack as you have it", GROUP.id)
        assert told.text.startswith("Bob has 9 points left: 9K.\nAlice: tell me the tiles left on your rack")
        scored = await s.ask(ALICE, "/left 11K 2R", GROUP)  # her drawn tile never named: she says it now
        assert scored.text.splitlines() == [
            "Alice has 13 points left: 2R 11K.",
            "Game over. Bob wins.",
            "Bob: +13",
            "Alice: \u221213",
            "/scores shows the totals.",
        ]
        assert await s.service.find_active_game(GROUP.id) is None


async def test_group_only_answers_commands_and_position_lines(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        mark = s.fake.mark()
        s.fake.send(ALICE, "what's for dinner? 3 pizzas", GROUP)
        s.fake.send(ALICE, "/weather@other_bot", GROUP)
        answer = await s.ask(ALICE, "table: 6R 7R 8R | 9B 9K 9O", GROUP)
        assert answer.method == "sendPhoto"
        assert len(s.fake.sent(GROUP.id, mark)) == 1, [c.text for c in s.fake.sent(GROUP.id, mark)]
        private_rack = await s.ask(BOB, "rack: 1B 2B 3B", GROUP)
        assert "private" in private_rack.text and "1B" not in private_rack.text
        assert rack_of(await s.player(GROUP.id, BOB)) == []
        mark = s.fake.mark()
        solve = await s.ask(BOB, "/solve", GROUP)
        assert solve.button("My rack")
        assert not [c for c in s.fake.calls[mark:] if c.method == "deleteMessage"]  # nothing secret to hide
        mark = s.fake.mark()
        await s.ask(BOB, "/rack 1B 2B 3B", GROUP)
        deleted = [c for c in s.fake.calls[mark:] if c.method == "deleteMessage"]
        assert len(deleted) == 1 and deleted[0].params["chat_id"] == GROUP.id
        # a play Bob types while it is Alice's turn: the bot asks whose it was, then about the opening
        whose = await s.ask(BOB, "/play 1K 2K 3K", GROUP)
        assert whose.text == "It is Alice's turn. Whose play is this?"
        opening = await s.tap(BOB, whose, "Alice's", GROUP.id)
        assert "6 of 30" in opening.text and "house rule" in opening.text
        recorded = await s.tap(BOB, opening, "Record it anyway (house rule)", GROUP.id)
        assert recorded.method == "sendPhoto"
        assert recorded.text == (
            "Alice put down 1K 2K 3K (3 tiles, 6 points). Recorded by Bob. Bob to play. 72 tiles in the pool."
        )
        game = await s.service.active_game(GROUP.id)
        assert "1K 2K 3K" in [str(x) for x in game.table] and game.turn == BOB.id


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 6R 7R 8R", GROUP)
        mark = s.fake.mark()
        s.fake.offer({"message": s.fake.user_message(ALICE, GROUP, migrate_to_chat_id=SUPERGROUP.id)})
        s.fake.offer({"message": s.fake.user_message(ALICE, SUPERGROUP, migrate_from_chat_id=GROUP.id)})
        status = await s.ask(BOB, "/status", SUPERGROUP)
        assert status.method == "sendPhoto" and "Alice: 14 tiles, no meld yet ← to play" in status.text
        assert not s.fake.sent(GROUP.id, mark)
        game = await s.service.active_game(SUPERGROUP.id)
        assert [str(x) for x in game.table] == ["6R 7R 8R"]
        # the private link still reaches the game in its new chat
        mark = s.fake.mark()
        s.fake.follow(ALICE, created, "My rack")
        assert "table of Family" in (await s.fake.reply(ALICE.id, mark)).text


async def test_a_post_to_a_migrated_group_follows_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        mark = s.fake.mark()
        s.fake.follow(ALICE, created, "My rack")
        await s.fake.reply(ALICE.id, mark)
        await s.ask(ALICE, "/rack 9R 10R 11R 1K")
        suggestion = await s.ask(ALICE, "/solve", methods=("sendPhoto",))  # an opening of 30 points
        # Telegram says the group moved when the bot posts the play there
        s.fake.fail_next(
            "sendPhoto",
            400,
            "Bad Request: group chat was upgraded to a supergroup chat",
            {"migrate_to_chat_id": SUPERGROUP.id},
        )
        mark = s.fake.mark()
        s.fake.tap(ALICE, suggestion, "I played this")
        posted = await s.fake.reply(SUPERGROUP.id, mark, ("sendPhoto",))
        assert posted.text.startswith("Alice put down 9R 10R 11R (3 tiles, 30 points). Bob to play.")
        game = await s.service.active_game(SUPERGROUP.id)
        assert [str(x) for x in game.table] == ["9R 10R 11R"]


async def test_racks_stay_private_between_players(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        for user, rack in ((ALICE, "3R 4R 5R"), (BOB, "8K 9K 10K")):
            await tie_private_chat(s, created, user, rack)
        bob_view = await s.ask(BOB, "/status")
        assert "8K 9K 10K" in bob_view.text and "3R" not in bob_view.text
        assert "Alice: 3 tiles" in bob_view.text
        stranger = await s.ask(BOB, "/join")
        assert "group" in stranger.text


async def test_undo_of_a_join_names_who_stood_up(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(CAROL, "/join", GROUP)
        undone = await s.ask(CAROL, "/undo", GROUP)
        assert undone.text.startswith("Undone: Carol's joining.")
        assert (await s.service.active_game(GROUP.id)).player(CAROL.id) is None


async def test_the_first_to_join_reads_a_clean_line(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.service.new_game(GROUP.id, ALICE.id)  # nobody seated yet
        joined = await s.ask(ALICE, "/join", GROUP)
        assert joined.text == "Alice joined. Players: Alice.\nTap My rack to set your rack in private."


async def test_an_anonymous_admin_is_not_seated_and_is_told_to_tap_join(tmp_path: Path) -> None:
    """An admin who writes as the group: Telegram sends GroupAnonymousBot as the sender, the group as sender_chat."""
    anonymous = User(1087968824, "Group", "GroupAnonymousBot")
    async with session(tmp_path) as s:

        async def as_the_group(text: str) -> Call:
            message = s.fake.user_message(anonymous, GROUP, text=text)
            message["sender_chat"] = GROUP.to_json()
            mark = s.fake.mark()
            s.fake.offer({"message": message})
            return await s.fake.reply(GROUP.id, mark)

        created = await as_the_group("/new")
        assert "sits first" not in created.text and "Tap Join" in created.text
        assert (await s.service.active_game(GROUP.id)).active_players == ()
        refused = await as_the_group("/join")
        assert "anonymous admin" in refused.text
        assert (await s.service.active_game(GROUP.id)).active_players == ()
        joined = await s.tap(ALICE, created, "Join", GROUP.id)
        assert joined.text.startswith("Alice joined.")


async def test_a_game_nobody_sits_at_can_be_ended_by_anyone(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.service.new_game(GROUP.id, ALICE.id)  # as an anonymous admin starts one
        ended = await s.ask(BOB, "/end", GROUP)  # nothing to stop for: closed at once, nothing to score
        assert ended.text == "Game over: too few racks were told to score it."
        assert await s.service.find_active_game(GROUP.id) is None


#: Six runs of 13: with two racks of 14 dealt, the table empties the pool (78 + 28 = 106).
EVERY_RUN = " | ".join(" ".join(f"{n}{colour}" for n in range(1, 14)) for colour in "RRBBKK")


async def test_a_pass_for_another_player_says_whose_turn_was_passed(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, f"/table {EVERY_RUN}", GROUP)
        assert (await s.service.active_game(GROUP.id)).pool == 0
        asked = await s.ask(BOB, "/pass", GROUP)  # Alice's turn: Bob is asked whose pass it is
        assert asked.text == "It is Alice's turn. Who passes?"
        passed = await s.tap(BOB, asked, "Alice", GROUP.id)
        assert passed.text == (
            "Alice passes (the pool is empty). Bob to play. The pool is empty: a turn without a play is a pass (/pass)."
        )
        asked = await s.ask(ALICE, "/pass", GROUP)  # now Bob's turn
        assert asked.text == "It is Bob's turn. Who passes?"
        # Alice's own pass, Bob's turn passed over: Bob did not pass, so the round of passes starts again
        again = await s.tap(ALICE, asked, "Me (Alice): Bob's turn is passed over", GROUP.id)
        assert again.text == (
            "Alice passes (the pool is empty). Turn passed over: Bob. Bob to play. "
            "The pool is empty: a turn without a play is a pass (/pass)."
        )
        # Bob passes too: every player passed in a row, so nobody can play on
        ended = await s.ask(BOB, "/pass", GROUP)
        assert ended.text.splitlines() == [
            "Bob passes (the pool is empty). "
            "Nobody can play on: the pool is empty and every player passed. The lowest rack wins.",
            "Alice, Bob: tell me the tiles left on your rack, like /left 7R 8K J (or tap below if I know your rack).",
        ]
        assert (await s.service.active_game(GROUP.id)).turn is None


async def test_a_draw_on_someone_elses_turn_is_asked_about_and_said(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        asked = await s.ask(BOB, "/draw", GROUP)  # Alice's turn
        assert asked.text == "It is Alice's turn. Who drew?"
        drew = await s.tap(BOB, asked, "Alice", GROUP.id)  # Bob keeps the record for Alice
        assert drew.text == "Alice drew a tile. Bob to play. 77 tiles in the pool."
        asked = await s.ask(ALICE, "/draw", GROUP)  # Bob's turn, and Alice drew again
        mine = await s.tap(ALICE, asked, "Me (Alice): Bob's turn is passed over", GROUP.id)
        assert mine.text == "Alice drew a tile. Turn passed over: Bob. Bob to play. 76 tiles in the pool."
        game = await s.service.active_game(GROUP.id)
        assert [p.rack_size for p in game.active_players] == [16, 14]


async def tie(s: Session, created: Call, user: User, rack: str) -> None:
    await tie_private_chat(s, created, user, rack, meld=True)


async def test_a_mistaken_end_can_be_undone(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        asked = await s.ask(BOB, "/end", GROUP)
        assert asked.text.startswith("Stop the game now?")
        stopped = await s.tap(BOB, asked, "Stop the game", GROUP.id)
        assert stopped.text.startswith("The game is stopped.")
        asked = await s.ask(BOB, "/end", GROUP)  # while it waits for the racks: close it
        assert asked.text == "Close the game now? Racks not told yet get no score."
        ended = await s.tap(BOB, asked, "Close the game", GROUP.id)
        assert ended.text.startswith("Game over")
        assert await s.service.find_active_game(GROUP.id) is None
        undone = await s.ask(BOB, "/undo", GROUP)  # the close, then the stop
        assert undone.text.startswith("Undone: Bob's end of the game.")
        undone = await s.ask(BOB, "/undo", GROUP)
        assert undone.text.startswith("Undone: Bob's stop of the game.")
        game = await s.service.active_game(GROUP.id)
        assert [str(x) for x in game.table] == ["1K 2K 3K"] and game.playing and game.turn == ALICE.id


async def test_another_players_play_is_undone_after_a_confirmation(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 6R 7R 8R", GROUP)
        await tie(s, created, ALICE, "9R 10R 4K")
        await tie(s, created, BOB, "1B 2B")
        suggestion = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        mark = s.fake.mark()
        s.fake.tap(ALICE, suggestion, "I played this")
        await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        asked = await s.ask(BOB, "/undo", GROUP)
        assert asked.text == "The last change is Alice's play, not yours. Undo it? Alice can tap, or you confirm."
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["4K"]  # nothing undone before a tap
        undone = await s.tap(BOB, asked, "Undo Alice's play", GROUP.id)
        assert undone.text.startswith("Undone: Alice's play.")
        assert rack_of(await s.player(GROUP.id, ALICE)) == tiles("9R 10R 4K")
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("1B 2B")


async def test_undoing_a_join_passes_the_turn_on_from_that_seat(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(CAROL, "/join", GROUP)
        await s.ask(ALICE, "/draw", GROUP)
        drew = await s.ask(BOB, "/draw", GROUP)
        assert drew.text == "Bob drew a tile. Carol to play. 62 tiles in the pool."
        asked = await s.ask(CAROL, "/undo", GROUP)  # Bob's draw came after Carol's joining
        await s.tap(CAROL, asked, "Undo my joining instead", GROUP.id)
        assert (await s.service.active_game(GROUP.id)).turn == ALICE.id  # the seat after Carol's, round


async def test_the_group_hears_who_won_with_i_played_this(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie(s, created, ALICE, "9R 10R 11R")
        suggestion = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        mark = s.fake.mark()
        s.fake.tap(ALICE, suggestion, "I played this")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        waiting = "Bob: tell me the tiles left on your rack, like /left 7R 8K J (or tap below if I know your rack)."
        assert posted.text == (
            f"Alice put down 9R 10R 11R (3 tiles, 30 points). Alice has no tile left: Alice wins!\n{waiting}"
        )
        assert posted.button("My rack as you have it")
        note = [c for c in s.fake.sent(ALICE.id, mark) if c.method == "sendMessage"][-1]
        assert note.text == f"Family: Played 9R 10R 11R.\nAlice has no tile left: Alice wins!\n{waiting}"
        scored = await s.ask(BOB, "/left 5K 6O", GROUP)  # the last rack told scores the game
        assert scored.text.splitlines() == [
            "Bob has 11 points left: 5K 6O.",
            "Game over. Alice wins.",
            "Alice: +11",
            "Bob: \u221211",
            "/scores shows the totals.",
        ]


async def test_buttons_of_an_ended_game_say_it_has_ended(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie(s, created, ALICE, "9R 10R 11R 4K")
        suggestion = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        mark = s.fake.mark()
        await s.tap(ALICE, await s.ask(ALICE, "/end", GROUP), "Stop the game", GROUP.id)
        await s.fake.call("answerCallbackQuery", mark)  # the question's own answer, before the buttons below
        # stopped, it waits for the racks: no play goes onto its table any more
        mark = s.fake.mark()
        s.fake.tap(ALICE, suggestion, "I played this")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert "game is over" in alert.params["text"].lower(), alert.params
        mark = s.fake.mark()
        await s.tap(ALICE, await s.ask(ALICE, "/end", GROUP), "Close the game", GROUP.id)
        await s.fake.call("answerCallbackQuery", mark)
        for button in ("Most points instead", "I played this"):
            mark = s.fake.mark()
            s.fake.tap(ALICE, suggestion, button)
            alert = await s.fake.call("answerCallbackQuery", mark)
            assert "this game has ended" in alert.params["text"].lower(), alert.params


async def test_a_rack_never_set_is_not_scored_as_a_win(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(CAROL, "/join", GROUP)
        opening = await s.ask(ALICE, "/play 1K 2K 3K", GROUP)  # no rack known, below the meld
        await s.tap(ALICE, opening, "Record it anyway (house rule)", GROUP.id)
        await tie(s, created, CAROL, "9B 9O")
        await s.tap(BOB, await s.ask(BOB, "/end", GROUP), "Stop the game", GROUP.id)
        # closed before Alice and Bob told their racks: Carol's alone, known whole, is no score against nobody
        ended = await s.tap(BOB, await s.ask(BOB, "/end", GROUP), "Close the game", GROUP.id)
        assert ended.text.splitlines() == [
            "Game over: too few racks were told to score it.",
            "No score (rack never told): Alice, Bob",
        ]
        await s.ask(ALICE, "/new", GROUP)
        alone = await s.ask(ALICE, "/end", GROUP)  # a game of one: closed at once, nothing to score
        assert alone.text == "Game over: too few racks were told to score it."


async def test_a_private_chat_tied_to_the_last_game_follows_the_groups_next_game(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie(s, created, BOB, "1B 2B")
        first = await s.service.active_game(GROUP.id)
        await s.tap(ALICE, await s.ask(ALICE, "/end", GROUP), "Stop the game", GROUP.id)
        await s.tap(ALICE, await s.ask(ALICE, "/end", GROUP), "Close the game", GROUP.id)
        await s.ask(ALICE, "/new", GROUP)
        await s.ask(BOB, "/join", GROUP)
        assert (await s.service.active_game(GROUP.id)).id != first.id
        await s.ask(ALICE, "/table 5K 6K 7K", GROUP)
        mark = s.fake.mark()
        await s.ask(BOB, "/rack 8K 1R")  # in the same private chat as in the first game
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("1R 8K")  # the group's new game, not a solo one
        assert await s.service.find_active_game(BOB.id) is None
        assert not s.fake.sent(GROUP.id, mark)  # a rack is never told to the group
