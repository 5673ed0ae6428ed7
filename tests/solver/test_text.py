"""The engine's words are templates the catalogues hold, and their English is what it always was."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from bot.telegram.words.catalogues import extract
from solver.deck import check_deck
from solver.errors import RummikubError
from solver.fit import fit
from solver.kept import check_size
from solver.moves import Move, MoveKind, Transfer, apply_moves
from solver.notation import NotationError, parse_table, parse_tiles
from solver.planner import plan
from solver.puzzle import parse_puzzle
from solver.rules import STANDARD, Rules
from solver.rules_text import parse_rules
from solver.sets import make_set
from solver.text import Text
from solver.tiles import JOKER, Colour, Tile


@pytest.fixture(scope="module")
def marked() -> set[str]:
    """Every message Babel finds (a plural message's both forms)."""
    found: set[str] = set()
    for message in extract():
        found.update([message.id] if isinstance(message.id, str) else message.id)
    return found


def uncovered(text: Text, marked: set[str]) -> list[str]:
    """The templates in ``text`` (and the texts inside it) that the catalogues do not hold."""
    missing = [t for t in (text.template, text.plural) if t is not None and t not in marked]
    for value in text.params.values():
        if isinstance(value, Text):
            missing += uncovered(value, marked)
    return missing


def error_of(call: Callable[[], object]) -> RummikubError:
    with pytest.raises(RummikubError) as caught:
        call()
    return caught.value


R = STANDARD
R3, R4, R5 = Tile(3, Colour.RED), Tile(4, Colour.RED), Tile(5, Colour.RED)

ERRORS: list[tuple[Callable[[], object], str]] = [
    (
        lambda: parse_tiles("3R 3X", R),
        "3X: X is no colour; the colours are R red, B blue, K black, O orange",
    ),
    (
        lambda: parse_tiles("hello", R),
        "hello: a tile needs a number too: write tiles like 3R, R3, red 3 or J; runs like 3-6R; groups like 7RBK",
    ),
    (lambda: parse_tiles("6-3R", R), "6-3R: write a run low to high, like 3-6R"),
    (
        lambda: parse_table("3R 4R | 7B 7K 7O", R),
        "3R 4R (set 1): a set has at least 3 tiles, this has 2",
    ),
    (
        lambda: parse_table("3R 5R 9R", R),
        "3R 5R 9R (set 1): a run has no gaps: 4R 6R 7R 8R are missing",
    ),
    (lambda: check_deck(R, [R3] * 3), "3 copies of 3R in all, but the deck has only 2"),
    (lambda: check_deck(Rules(jokers=0), [JOKER]), "1 joker in all, but the deck has none"),
    (lambda: parse_rules("meld=x"), "meld=x: meld takes a whole number in digits 0-9, like meld=25"),
    (lambda: parse_rules("meld"), "meld: write rule options as name=number, like /new meld=25 jokers=1"),
    (
        lambda: Rules(jokers=3),
        "jokers=3: a set must hold a numbered tile, so there must be fewer jokers than the smallest set (3)",
    ),
    (lambda: parse_puzzle("3R\n2\n1 3R 4R 5R"), "line 2 says 2 rows, but 1 follow"),
    (lambda: parse_puzzle("3Q\n0"), "`3Q` (line 1, the goal tile): the colours are B G R Y"),
    (
        lambda: apply_moves([make_set([R3, R4, R5], R)], [Move(MoveKind.EXTEND, (Transfer((R3,), 2, 1),), ())]),
        "move 1: 3R not in set 2",
    ),
]


@pytest.mark.parametrize(("call", "english"), ERRORS)
def test_errors_are_marked_templates_with_the_old_english(
    call: Callable[[], object], english: str, marked: set[str]
) -> None:
    error = error_of(call)
    assert str(error) == str(error.text) == english
    assert error.text.params, "the values are kept apart from the words"
    assert uncovered(error.text, marked) == []
    again = pickle.loads(pickle.dumps(error))  # the worker processes send errors back pickled
    assert (str(again), again.text) == (english, error.text)


def test_a_table_too_big_to_solve_says_so_in_marked_words(marked: set[str]) -> None:
    rules = Rules(numbers=99, copies=9, jokers=9, smallest_set=13)
    colours = rules.colour_order
    runs = [
        make_set([Tile(n, colours[i % 4]) for n in range(1 + 3 * i % 70, 26 + 3 * i % 70)], rules) for i in range(36)
    ]
    error = error_of(lambda: check_size(runs, rules))
    assert str(error).startswith("this table's sets can grow in ")
    assert "smallest_set=13 grow in many ways; lay fewer long runs" in str(error)
    assert uncovered(error.text, marked) == []


def test_a_notation_errors_hint_is_the_set_errors_text() -> None:
    error = error_of(lambda: parse_table("3R 4R", R))
    assert isinstance(error, NotationError)
    assert isinstance(error.hint, Text)
    assert str(error.hint) == "a set has at least 3 tiles, this has 2"
    assert error.text.params["hint"] == error.hint


def moves(before: str, after: str, placed: str = "") -> tuple[Move, ...]:
    return plan(parse_table(before, R), parse_table(after, R), parse_tiles(placed, R), R).moves


MOVES = [
    (("4R 5R 6R | 7B 7K 7O", "4R 5R 6R 7R | 7B 7K 7O", "7R"), "Put 7R from your rack on set 1 (set 1: 4R 5R 6R 7R)"),
    (("3R 4R 5R | 6R 7R 8R", "3-8R"), "Join set 2 onto set 1 (set 1: 3R 4R 5R 6R 7R 8R)"),
    (
        ("1R 2R 3R 4R", "2R 3R 4R | 1R 1B 1K", "1B 1K"),
        "Take 1R from set 1 and 1B 1K from your rack and lay them as new set 2 (set 2: 1R 1B 1K)",
    ),
    (
        ("1-4R | 4B 4K 4O 4R | 1-4K", "1-3R | 4B 4K 4R | 1-3K | 4R 4K 4O"),
        "Take 4R from set 1, 4O from set 2 and 4K from set 3 and lay them as new set 4 (set 4: 4R 4K 4O)",
    ),
    (
        ("4R J 6R | 9K 10K 11K", "4R 5R 6R | 9K 10K 11K J", "5R"),
        "Put 5R from your rack in place of the joker in set 1; take the joker from set 1 and put it on set 2 "
        "(set 2: 9K 10K 11K J)",
    ),
]


@pytest.mark.parametrize(("position", "english"), MOVES)
def test_moves_are_marked_templates_with_the_old_english(
    position: tuple[str, ...], english: str, marked: set[str]
) -> None:
    (move,) = moves(*position)
    text = move.text()
    assert move.describe() == str(text) == english
    assert move.to_json()["text"] == english
    assert uncovered(text, marked) == []


def test_a_move_that_leaves_the_table_invalid_says_so_in_marked_words(marked: set[str]) -> None:
    move = Move(MoveKind.NEW_SET, (Transfer((R3, R4), None, 2),), ((2, (R3, R4)),), 2, table_valid=False)
    assert move.describe() == "Lay 3R 4R from your rack as new set 2 (the table is not valid yet)"
    assert uncovered(move.text(), marked) == []


def test_every_way_of_moving_a_joker_is_one_marked_sentence(marked: set[str]) -> None:
    seen = set()
    for firsts in ((R3,), (R3, R4)):
        for extra in ((), (R5,)):
            for target, created, others in ((2, None, ()), (3, 3, ()), (3, 3, (Transfer((R5,), None, 3),))):
                joker = Transfer((JOKER, *extra), 1, target)
                move = Move(MoveKind.MOVE_JOKER, (Transfer(firsts, None, 1), joker, *others), (), created)
                text = move.text()
                assert uncovered(text, marked) == []
                seen.add(text.template)
    assert len(seen) == 12


def test_fit_answers_in_marked_words_with_the_old_english(marked: set[str]) -> None:
    table = parse_table("4B 5B 6B 7B | 8B 9B 10B", R)
    found = fit(table, Tile(6, Colour.BLUE), R)
    assert found is not None
    assert found.describe() == (
        "6B fits in 2 actions:\n"
        "1. Join set 2 onto set 1\n"
        "2. Put 6B in set 1\n"
        "Table after:\n"
        "  set 1: 4B 5B 6B\n"
        "  set 3: 6B 7B 8B 9B 10B"
    )
    assert found.describe() == "\n".join(str(line) for line in found.texts())
    assert found.lines() == [str(line) for line in found.numbered()]
    for line in found.texts():
        assert uncovered(line, marked) == []
    one = fit(parse_table("4R 5R 6R", R), Tile(7, Colour.RED), R)
    assert one is not None
    assert str(one.texts()[0]) == "7R fits in 1 action:"
