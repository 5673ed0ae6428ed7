"""Replies that read like a person wrote them, end to end: the rules in words, examples that keep to the
game's rules, an empty rack, the same play under the other goal, the played tiles in the order of the sets."""

from __future__ import annotations

from pathlib import Path

from bot.telegram.runtime.work import table_picture
from render.layout import layout_table
from render.theme import MIN_WIDTH
from solver.rules import STANDARD
from tests.bot_support import ALICE, session
from tests.e2e.test_bounds import long_runs
from tests.fake_bot_api import png_size


async def test_rules_of_the_boxed_game_read_as_a_sentence(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/new")
        rules = await s.ask(ALICE, "/rules")
        assert rules.text.startswith(
            "Standard rules: numbers 1 to 13 in four colours (red, blue, black and orange); two copies of each; "
            "2 jokers; 14 tiles each to begin; sets of at least 3 tiles; a first play (initial meld) of at least 30 "
            "points from your own rack; a joker counts 30 points."
        )
        assert "smallest_set" not in rules.text and "=" not in rules.text.splitlines()[0]


async def test_a_game_without_jokers_never_suggests_one(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        new = await s.ask(ALICE, "/new jokers=0")
        assert new.text == "New game (standard rules except: no jokers).\nSend your rack: /rack 3R 4R 5R 7B"
        rules = await s.ask(ALICE, "/rules")
        assert rules.text.startswith("Standard rules, except: no jokers.\nIn full: ")
        assert "joker counts" not in rules.text
        asked = await s.ask(ALICE, "rack:")
        assert asked.text == "Send your rack after rack:, like rack: 3R 4R 5R 7B"
        for answer in (new, rules, asked):
            assert " J" not in answer.text


async def test_a_one_colour_deck_suggests_tiles_of_that_colour(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        new = await s.ask(ALICE, "/new colours=1 numbers=9 jokers=1")
        assert new.text.endswith("Send your rack: /rack 3R 4R 5R J")
        assert "numbers 1 to 9 in one colour (red)" in new.text


async def test_an_empty_rack_is_called_empty(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/new")
        board = await s.ask(ALICE, "/rack")
        assert board.text.startswith("Your rack is empty.")
        status = await s.ask(ALICE, "/status")
        assert "Your rack is empty." in status.text
        for answer in (board, status):
            assert "(none)" not in answer.text and "0 tiles" not in answer.text


async def test_the_other_objective_finding_the_same_play_says_so(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        photo = await s.ask(ALICE, "rack: 10R 11R 12R 13R 5B\ntable: 6R 7R 8R", methods=("sendPhoto",))
        assert photo.text.startswith("Best opening (most tiles): 4 tiles, 46 points: 10R 11R 12R 13R")
        same = await s.tap(ALICE, photo, "Most points instead")
        assert same.method == "sendMessage"
        assert same.text == "The play with the most points is the same one: tap ✅ I played this above to record it."
        done = await s.tap(ALICE, photo, "I played this")
        assert done.text.startswith("Played 10R 11R 12R 13R.")


async def test_the_other_objective_finding_another_play_sends_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack J 1R 2R 4R 13B 13K")
        await s.ask(ALICE, "/meld")
        tiles = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert tiles.text.startswith("Best play (most tiles): 4 tiles, 10 points")  # the joker as the 3R it is
        points = await s.tap(ALICE, tiles, "Most points instead")
        assert points.method == "sendPhoto" and points.text.startswith("Best play (most points): 3 tiles, 39 points")
        back = await s.tap(ALICE, points, "Most tiles instead")  # the same as the first answer, but not the last
        assert back.method == "sendPhoto" and back.text == tiles.text


async def test_an_empty_tables_picture_says_it_is_empty_once(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/new")
        shown = await s.ask(ALICE, "/table", methods=("sendPhoto",))
        assert shown.text == "No sets yet. Set the table: /table 6R 7R 8R"
        # the picture has no heading that repeats it: it is the bare table with the empty rack below
        assert shown.photo == table_picture([], STANDARD, [], None)
        texts = [t.text for t in layout_table([], STANDARD, rack=[]).texts]
        assert texts == ["The table is empty", "Your rack is empty"]


async def test_the_tiles_played_are_listed_set_by_set_in_the_order_of_the_table(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/table 4B 5B 6B | 1R 2R 3R")
        await s.ask(ALICE, "/rack 4R 7B")
        await s.ask(ALICE, "/meld")
        photo = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert photo.text.startswith("Best play (most tiles): 2 tiles, 11 points: 7B | 4R\n")  # not 4R 7B
        done = await s.tap(ALICE, photo, "I played this")
        assert done.text.startswith("Played 7B | 4R.")


async def test_an_opening_offers_the_bigger_play_onto_the_table_in_the_same_answer(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7B")
        await s.ask(ALICE, "/rack 10R 11R 12R 13R 9B 5R")  # a newcomer mid-game who never sent /meld
        opening = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert opening.text.startswith("Best opening (most tiles): 4 tiles, 46 points: 10R 11R 12R 13R")
        assert opening.text.endswith(
            "Made your initial meld already? Playing onto the table puts down more (5 tiles, 51 points): "
            "tap I have melded: play onto the table."
        )
        assert opening.button("I played this") and opening.button("Most points instead")
        onto = await s.tap(ALICE, opening, "I have melded: play onto the table")
        assert onto.method == "sendPhoto" and onto.text.startswith("Best play (most tiles): 5 tiles, 51 points")
        assert "I have melded" not in onto.text and not any("I have melded" in b["text"] for b in onto.buttons)
        assert (await s.player(ALICE.id, ALICE)).melded
        done = await s.tap(ALICE, onto, "I played this")
        assert done.text.startswith("Played ")


async def test_an_opening_as_big_as_the_play_onto_the_table_offers_nothing_more(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/table 1B 2B 3B")
        await s.ask(ALICE, "/rack 10R 11R 12R 13R")
        opening = await s.ask(ALICE, "/solve", methods=("sendPhoto",))
        assert opening.text.startswith("Best opening (most tiles): 4 tiles")
        assert "initial meld" not in opening.text
        assert not any("I have melded" in b["text"] for b in opening.buttons)


async def test_no_opening_but_a_play_onto_the_table_offers_it_with_a_button(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/table 6R 7R 8R")
        await s.ask(ALICE, "/rack 5R 1K")
        none = await s.ask(ALICE, "/solve")
        assert none.text.startswith("No opening worth 30 points from your rack yet (5R 1K). Draw a tile: /draw 7B")
        assert none.text.endswith(
            "Playing onto the table puts down more (1 tile, 5 points): tap I have melded: play onto the table."
        )
        onto = await s.tap(ALICE, none, "I have melded: play onto the table")
        assert onto.method == "sendPhoto" and onto.text.startswith("Best play (most tiles): 1 tile, 5 points: 5R")


async def test_a_forged_melded_button_changes_nothing(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/table 6R 7R 8R")
        await s.ask(ALICE, "/rack 5R 1K")
        none = await s.ask(ALICE, "/solve")
        for forged, said in (("m:99999:t", "There is no game 99999"), ("m:1:x", "earlier")):
            none.buttons[0]["callback_data"] = forged
            mark = s.fake.mark()
            s.fake.tap(ALICE, none, "I have melded: play onto the table")
            alert = await s.fake.call("answerCallbackQuery", mark)
            assert said in alert.params.get("text", "")
        assert not (await s.player(ALICE.id, ALICE)).melded


async def test_a_large_tables_picture_is_a_phones_width_with_more_rows(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        table = " | ".join(f"{n}R {n}B {n}K" for n in range(1, 14))
        shown = await s.ask(ALICE, f"/table {table}", methods=("sendPhoto",))
        assert shown.photo is not None
        width, height = png_size(shown.photo)
        assert width == MIN_WIDTH and height > width


async def test_an_opening_beside_a_table_too_large_to_play_onto_is_still_answered(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/new numbers=99 copies=9 jokers=9 smallest=13")
        state = await s.service.game_for(ALICE.id, ALICE.id, private=True)
        await s.service.set_table(state.id, ALICE.id, long_runs(36), with_rack=False)
        rack = " ".join(f"{n}R" for n in range(80, 93))  # a run of 13 from the rack alone
        answer = await s.ask(ALICE, f"rack: {rack}", methods=("sendMessage", "sendPhoto"))
        assert answer.method == "sendPhoto" and answer.text.startswith("Best opening (most tiles): 13 tiles"), (
            answer.text
        )
        assert not any("I have melded" in b["text"] for b in answer.buttons)
