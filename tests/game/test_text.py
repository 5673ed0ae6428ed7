"""The game service's refusals are templates with values: the catalogues find each template, the English
reads as it always did, and a translation may reorder a whole sentence (its values, and the words nested
in it, translated too)."""

from __future__ import annotations

import functools
import gettext
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.game import EventKind, GameState, GameStatus, PlayerState
from bot.game import errors as e
from bot.game.plays import apply_suggestion, play
from bot.game.reading import NoReading, Rack, read_play
from bot.game.table import check_kept
from bot.game.tiles import check_sets
from bot.storage import GameService
from bot.telegram.words import language
from bot.telegram.words.catalogues import extract
from solver import STANDARD, Objective, Origin, Solution
from solver.errors import RummikubError
from solver.notation import parse_table_chunks
from solver.solve import arrange
from solver.text import Text
from tests.storage_support import ALICE, BOB, empty_pool, service_at, table, tiles, two_player_game

CAROL = 3


@functools.cache
def catalogue() -> Catalog:
    return extract()


def marked(text: Text) -> None:
    """``text``'s template (and its plural) is a message of the catalogues."""
    found = catalogue().get(text.template)
    assert found is not None, f"not extracted: {text.template!r}"
    if text.plural is not None:
        assert isinstance(found.id, tuple) and found.id == (text.template, text.plural)


def refusal(error: RummikubError, english: str) -> Text:
    """The error's words: a marked template whose English is ``english``, exactly."""
    marked(error.text)
    assert str(error) == english == str(error.text)
    return error.text


def game(*, melded: bool = True, racks: Mapping[int, str] | None = None, table_text: str = "") -> GameState:
    racks = racks or {}
    players = tuple(
        PlayerState(uid, name, seat, tuple(tiles(racks.get(uid, ""))), melded, 0, True)
        for seat, (uid, name) in enumerate([(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")])
    )
    return GameState(
        id=1, chat_id=-5, status=GameStatus.RUNNING, rules=STANDARD,
        table=tuple(table(table_text)) if table_text else (), players=players, turn=ALICE, invite="x", version=1,
        created_at=datetime.now(UTC), ended_at=None,
    )  # fmt: skip


class Fake(gettext.NullTranslations):
    """A catalogue that knows a few messages (the plural keyed by its singular)."""

    def __init__(self, words: Mapping[str, str]) -> None:
        super().__init__()
        self.words = words

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.words.get(msgid1, msgid1 if n == 1 else msgid2)


@pytest.fixture
def translated(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """Speak a made-up language whose words the test fills in."""
    words: dict[str, str] = {}
    monkeypatch.setattr(language, "catalogue", lambda code: Fake(words))
    with language.speaking("de"):
        yield words


# --- the game core ------------------------------------------------------------------------------


def test_whose_turn_it_is_is_a_value_of_the_refusal(translated: dict[str, str]) -> None:
    with pytest.raises(e.NotYourTurn) as why:
        play(game(racks={CAROL: "1R 2R 3R"}), CAROL, CAROL, table("1-3R"))
    text = refusal(why.value, "it is Alice's turn")
    assert text.template == "it is {name}'s turn" and text.params == {"name": "Alice"}
    assert why.value.turn == ALICE
    translated["it is {name}'s turn"] = "{name} ist dran"
    assert language.spoken(why.value) == "Alice ist dran"


def test_an_opening_short_of_points_counts_them() -> None:
    with pytest.raises(e.NotAnOpening) as why:
        play(game(melded=False, racks={ALICE: "1R 2R 3R"}), ALICE, ALICE, table("1-3R"))
    text = refusal(why.value, "an initial meld needs 30 points; this one has 6 of 30")
    assert text.plural is not None and text.count == 30 and text.params["points"] == 6
    assert (why.value.points, why.value.needed) == (6, 30)
    with pytest.raises(e.NotAnOpening) as changed:
        play(game(melded=False, racks={ALICE: "4R"}, table_text="1-3R"), ALICE, ALICE, table("1-4R"))
    refusal(
        changed.value,
        "a first play (the initial meld) lays new sets from the rack only; it may not change the table's sets",
    )
    assert changed.value.points is None


def test_a_stale_suggestion_is_a_plain_marked_message() -> None:
    state = game(racks={ALICE: "4R 5R"}, table_text="1-3R")
    after = tuple(table("7B 8B 9B | 3-5R"))  # solved for another table
    solution = Solution(
        rules=STANDARD, objective=Objective.TILES, initial_meld=False, table_before=tuple(table("7B 8B 9B")),
        table=after, origins=tuple(tuple(Origin(None) for _ in s.tiles) for s in after), kept_from=(0,),
        placed=tuple(tiles("4R 5R")), rack_left=(), points_placed=9, kept_sets=1, optimal=True, solve_ms=1.0,
    )  # fmt: skip
    with pytest.raises(e.StaleSuggestion) as why:
        apply_suggestion(state, ALICE, solution)
    text = refusal(why.value, "the table has changed since this suggestion; ask /solve again")
    assert not text.params


def test_a_bad_set_nests_the_solvers_reason() -> None:
    with pytest.raises(e.InvalidTable) as why:
        check_sets(table("1-3R"), replace(STANDARD, smallest_set=4))
    marked(why.value.text)
    reason = why.value.text.params["why"]
    assert isinstance(reason, Text)  # words of its own, translated where they are shown
    assert str(why.value) == f"set 1 (1R 2R 3R): {reason}"
    assert why.value.text.params["set"] == "1R 2R 3R"


def test_lost_tiles_are_one_sentence_with_the_tiles_as_a_value(translated: dict[str, str]) -> None:
    with pytest.raises(e.InvalidTable) as why:
        check_kept(game(table_text="3-5R | 9K 9O 9B"), table("3-5R"))
    text = refusal(
        why.value,
        "the new table lacks 9B 9K 9O from the old table; every tile on the table stays there "
        "(if the table was wrong, write it whole after /table fix)",
    )
    translated[text.template] = "{tiles} fehlen"
    assert language.spoken(why.value) == "9B 9K 9O fehlen"


def test_too_many_tiles_names_what_holds_them() -> None:
    with pytest.raises(e.TooManyTiles) as why:
        play(
            game(racks={ALICE: "1R"}, table_text="1R 2R 3R | 1R 1B 1K"),
            ALICE,
            ALICE,
            table("1R 2R 3R | 1R 1B 1K | 1R 2R 3R"),
        )
    marked(why.value.text)
    what = why.value.text.params["what"]
    assert isinstance(what, Text) and str(what) == "the new table"
    marked(what)
    assert str(why.value).startswith("the new table: ")


def test_loose_tiles_that_fit_nowhere() -> None:
    with pytest.raises(NoReading) as why:
        read_play(table("7B 8B 9B"), parse_table_chunks("5K", STANDARD), STANDARD, arrange, Rack.unknown(14))
    text = refusal(
        why.value,
        "5K fits onto no set of the table; to rearrange sets, write each changed set as it is now, "
        "like /play 1R 2R 3R 4R for 4R onto 1R 2R 3R",
    )
    assert text.params == {"tiles": "5K"}


def test_where_loose_tiles_go_is_said_in_words() -> None:
    chunks = parse_table_chunks("10B", STANDARD)
    found = read_play(table("7B 8B 9B | 10R 10K 10O"), chunks, STANDARD, arrange, Rack.unknown(14))
    for reading in found:
        for where in reading.said():
            marked(where)
    assert sorted(str(where) for reading in found for where in reading.said()) == [
        "10B onto 10R 10K 10O",
        "10B onto 7B 8B 9B",
    ]


def test_every_kind_of_change_has_marked_words() -> None:
    for kind in EventKind:
        marked(kind.text)
        assert str(kind.text) == kind.words


# --- the service --------------------------------------------------------------------------------


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with service_at(tmp_path) as s:
        yield s


async def test_the_services_refusals_are_marked(service: GameService) -> None:
    with pytest.raises(e.NoGame) as none:
        await service.active_game(-77)
    refusal(none.value, "no game is running in this chat; /new starts one")
    with pytest.raises(e.NoGame) as unknown:
        await service.game(999)
    assert refusal(unknown.value, "there is no game 999").params == {"game_id": 999}
    game = await two_player_game(service)
    with pytest.raises(e.GameAlreadyRunning) as running:
        await service.new_game(game.chat_id, ALICE)
    refusal(running.value, "a game is already running in this chat; /end it first")
    with pytest.raises(e.AlreadyJoined) as joined:
        await service.join(game.id, BOB, "Bobby")
    refusal(joined.value, "Bob already plays in this game")


async def test_an_undo_conflict_is_a_whole_sentence_per_case(service: GameService, translated: dict[str, str]) -> None:
    game = await two_player_game(service)
    await service.draw(game.id, ALICE)  # a draw ends the turn: Bob's draw changes the turn after Alice's
    await service.draw(game.id, BOB)
    with pytest.raises(e.UndoConflict) as why:
        await service.undo(game.id, ALICE)
    text = refusal(why.value, "cannot undo Alice's draw: Bob's draw changed the same things after it; undo that first")
    assert text.params["name"] == "Alice" and text.params["other_name"] == "Bob"
    assert text.params["change"] == EventKind.TILES_DRAWN.text
    assert text.params["other"] == EventKind.TILES_DRAWN.text
    translated[text.template] = "{other_name}s {other} kam nach {name}s {change}"
    translated["draw"] = "Ziehen"
    assert language.spoken(why.value) == "Bobs Ziehen kam nach Alices Ziehen"


async def test_a_pass_on_an_empty_pool_is_named_so_in_a_conflict(service: GameService) -> None:
    game = await two_player_game(service)
    await empty_pool(service, game.id, BOB)
    await service.pass_turn(game.id, ALICE)
    await service.pass_turn(game.id, BOB)
    with pytest.raises(e.UndoConflict) as why:
        await service.undo(game.id, ALICE)
    text = refusal(why.value, "cannot undo Alice's pass: Bob's pass changed the same things after it; undo that first")
    assert text.params["change"] == EventKind.TURN_PASSED.text


async def test_a_turn_without_a_play_while_the_pool_holds_tiles_is_a_draw(service: GameService) -> None:
    game = await two_player_game(service)
    with pytest.raises(e.NoTiles) as why:
        await service.pass_turn(game.id, ALICE)
    text = refusal(why.value, "78 tiles are still in the pool: a turn without a play is a draw (/draw)")
    assert text.plural is not None and text.count == 78


async def test_an_undo_that_would_conjure_tiles_names_neither_the_rack_nor_its_tiles(service: GameService) -> None:
    game = await two_player_game(service)
    await service.set_rack(game.id, ALICE, tiles("11R"))
    await service.set_rack(game.id, ALICE, tiles("1B"))
    await service.set_table(game.id, BOB, table("11R 11B 11K | 10R 11R 12R"))
    with pytest.raises(e.TooManyTiles) as why:
        await service.undo(game.id, ALICE)  # her rack before: an 11R, and the table holds both
    text = refusal(
        why.value,
        "after this undo, the table and a rack would hold more tiles than the deck has; undo the later changes first",
    )
    assert text.params == {}  # it may be read in a group: whose rack would hold what is not said


async def test_the_opening_and_the_end_of_the_game_are_said_in_marked_words(service: GameService) -> None:
    game = await two_player_game(service)
    with pytest.raises(e.NotAnOpening) as meld:
        await service.mark_melded(game.id, ALICE)
    refusal(
        meld.value,
        "in a group's game the initial meld is made by playing it: the group sees it recorded "
        "(or chooses to record a smaller one as a house rule)",
    )
    with pytest.raises(e.GameError) as early:
        await service.declare(game.id, ALICE, tiles("1R"))
    refusal(early.value, "the game is still on: the tiles left on the racks are told once it is over")
    await service.end_game(game.id, ALICE)
    with pytest.raises(e.GameFinished) as finished:
        await service.draw(game.id, ALICE)
    refusal(finished.value, "this game is over: tell me the tiles left on your rack with /left (or /end closes it now)")
