"""The notation people type: every spelling, canonical output, round trips, and no crash on junk."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import (
    JOKER,
    STANDARD,
    Colour,
    NotationError,
    Rules,
    RummikubError,
    Tile,
    format_table,
    format_tiles,
    parse_set,
    parse_table,
    parse_tiles,
)

R = Rules()
RED3 = Tile(3, Colour.RED)


def names(text: str, rules: Rules = R) -> list[str]:
    return [str(t) for t in parse_tiles(text, rules)]


@pytest.mark.parametrize(
    "text",
    ["3R", "3r", "R3", "r3", "red 3", "Red3", "3 red", "RED 3", "\U0001f534 3", "3\U0001f534", "\U0001f5343"],
)
def test_every_spelling_of_red_three(text: str) -> None:
    assert parse_tiles(text, R) == [RED3]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11B blue11 \U0001f535 11", ["11B"] * 3),
        ("black11 K11 11k \u26ab11 \u26ab\ufe0f11", ["11K"] * 5),
        ("orange 9 9O O9 \U0001f7e09", ["9O"] * 4),
        ("yellow 9 9Y y9 \U0001f7e1 9", ["9O"] * 4),
    ],
)
def test_colour_words_emoji_and_yellow(text: str, expected: list[str]) -> None:
    assert names(text) == expected


@pytest.mark.parametrize("text", ["J", "j", "JK", "jk", "joker", "Joker", "*", "\U0001f0cf"])
def test_joker_spellings(text: str) -> None:
    assert parse_tiles(text, R) == [JOKER]


def test_run_and_group_shorthand() -> None:
    assert names("3-6R") == names("R3-6") == ["3R", "4R", "5R", "6R"]
    assert names("3 - 6 red") == ["3R", "4R", "5R", "6R"]
    assert names("7RBK") == names("RBK7") == ["7R", "7B", "7K"]
    assert names("12bko") == ["12B", "12K", "12O"]


def test_separators_between_tiles_and_sets() -> None:
    assert names("3R,4R, 5R") == ["3R", "4R", "5R"]
    for sep in ["|", ";", "\n", " | "]:
        assert [str(s) for s in parse_table(f"3R 4R 5R{sep}7B 7K 7O", R)] == ["3R 4R 5R", "7B 7K 7O"]


def test_canonical_output() -> None:
    assert str(parse_set("5R 3R 4R", R)) == "3R 4R 5R"
    assert str(parse_set("7O 7B 7R", R)) == "7R 7B 7O"
    assert str(parse_set("3R J 5R", R)) == "3R J 5R"
    assert str(parse_set("J 5R 3R", R)) == "3R J 5R"
    # a joker the user put at the low end stays there
    assert str(parse_set("J 5R 6R", R)) == "J 5R 6R"
    assert parse_set("J 5R 6R", R).stands_for[0] == Tile(4, Colour.RED)
    # otherwise it goes to the high end, or the low end when the run ends at 13
    assert str(parse_set("12K J 13K", R)) == "J 12K 13K"
    assert format_tiles(parse_tiles("J 5B 3R 12K 1B", R), R) == "3R 1B 5B 12K J"
    assert format_table(parse_table("6R 7R 8R | 7K 7O 7R", R)) == "6R 7R 8R | 7R 7K 7O"


@pytest.mark.parametrize(
    ("text", "token", "hint"),
    [
        ("3R 14R", "14R", "number goes from 1 to 13"),
        ("0B", "0B", "number goes from 1 to 13"),
        ("3X", "3X", "is no colour"),
        ("7", "7", "needs a colour"),
        ("blue", "blue", "needs a number"),
        ("3R ??", "??", "is no tile"),
        ("6-3R", "6-3R", "low to high"),
        ("7RR", "7RR", "each colour once"),
    ],
)
def test_mistakes_name_the_token_and_a_hint_in_plain_words(text: str, token: str, hint: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_tiles(text, R)
    assert caught.value.token == token
    assert caught.value.position == text.index(token)  # kept for a caller; never said
    said = str(caught.value)
    assert hint in said and said.startswith(f"{token}: ")
    assert "`" not in said and "character" not in said


def test_colours_outside_the_variant_are_refused() -> None:
    three = Rules(colours=3)
    with pytest.raises(NotationError, match="colours are R red, B blue, K black"):
        parse_tiles("5O", three)


@pytest.mark.parametrize(
    ("table", "where", "why"),
    [
        ("3R 4R 5R | 7B 7K", "set 2", "at least 3 tiles"),
        ("3R 4R 6R", "set 1", "no gaps"),
        ("12R 13R 1R", "set 1", "wrap"),
        ("7R 7R 7B", "set 1", "one tile of each colour"),
        ("3R 4B 5K", "set 1", "mixes numbers and colours"),
        ("1B 2B 3B | 5R 5B 5K 5O J", "set 2", "at most 4 tiles"),
        ("4R 4R 5R", "set 1", "twice"),
    ],
)
def test_invalid_table_sets_are_reported_by_position_and_why(table: str, where: str, why: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_table(table, R)
    assert where in str(caught.value)
    assert why in str(caught.value)


def test_valid_sets_with_jokers() -> None:
    for text in ["J 2R 3R", "2R 3R J", "2R J 4R", "J J 5K", "5K J J", "7R 7B J", "7R J J", "7R 7B 7K 7O"]:
        assert len(parse_set(text, R)) == 3 or len(parse_set(text, R)) == 4
    with pytest.raises(NotationError):
        parse_set("J J J", R)


tiles = st.builds(Tile, st.integers(1, 13), st.sampled_from(list(Colour))) | st.just(JOKER)


@given(st.lists(tiles, max_size=30))
def test_round_trip_of_any_rack(rack: list[Tile]) -> None:
    assert sorted(parse_tiles(format_tiles(rack, R), R), key=R.tile_key) == sorted(rack, key=R.tile_key)


@given(st.integers(0, 3), st.integers(1, 11), st.integers(3, 5), st.data())
def test_round_trip_of_runs(colour_i: int, start: int, length: int, data: st.DataObject) -> None:
    length = min(length, 14 - start)
    if length < 3:
        return
    colour = list(Colour)[colour_i]
    jokers = data.draw(st.sets(st.integers(0, length - 1), max_size=min(2, length - 1)))
    written = " ".join("J" if i in jokers else f"{start + i}{colour.value}" for i in range(length))
    laid = parse_set(written, R)
    assert str(laid) == written
    assert parse_set(str(laid), R) == laid


@settings(max_examples=300)
@given(st.text(max_size=60))
def test_any_text_raises_nothing_but_our_own_error(text: str) -> None:
    for parse in (parse_tiles, parse_table):
        with contextlib.suppress(RummikubError):
            parse(text, STANDARD)


@settings(max_examples=300)
@given(st.text(alphabet="0123456789rbkoyjRBKOYJ*- |;,\n\U0001f534\U0001f0cf", max_size=40))
def test_tile_like_text_raises_nothing_but_our_own_error(text: str) -> None:
    for parse in (parse_tiles, parse_table):
        with contextlib.suppress(RummikubError):
            parse(text, STANDARD)


def test_errors_survive_pickling_for_worker_processes() -> None:
    import pickle

    with pytest.raises(NotationError) as caught:
        parse_table("3R 4R | 14B", R)
    again = pickle.loads(pickle.dumps(caught.value))
    assert (again.token, again.position, again.hint, str(again)) == (
        caught.value.token,
        caught.value.position,
        caught.value.hint,
        str(caught.value),
    )


def test_numbers_too_long_or_not_in_ascii_digits_are_the_parsers_error() -> None:
    from solver import STANDARD, NotationError, parse_tiles

    for text in ("9" * 4301 + "R", "R" + "9" * 4301, "3-" + "9" * 5000 + "R", "9" * 5000 + "RBK"):
        with pytest.raises(NotationError, match="number goes from 1 to 13") as caught:
            parse_tiles(text, STANDARD)
        assert len(str(caught.value)) < 100  # the token is quoted shortened
    for text in ("\u00b2R", "\u0663R", "\u2460R"):
        with pytest.raises(NotationError, match="is no tile"):
            parse_tiles(text, STANDARD)


# --- issue 18: the spellings new users tried -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3R-5R", ["3R", "4R", "5R"]),
        ("3r-5r", ["3R", "4R", "5R"]),
        ("R3-R5", ["3R", "4R", "5R"]),
        ("3R4R5R", ["3R", "4R", "5R"]),
        ("3\U0001f7e54\U0001f7e55\U0001f7e5", ["3R", "4R", "5R"]),
        ("\U0001f7e53\U0001f7e54", ["3R", "4R"]),
        ("(3R 4R 5R)", ["3R", "4R", "5R"]),
        ("3R 4R 5R.", ["3R", "4R", "5R"]),
        ("3R, 4R, 5R.", ["3R", "4R", "5R"]),
        ("3R 4R 5R / 7B 7K 7O", ["3R", "4R", "5R", "7B", "7K", "7O"]),
        ("none", []),
        ("\U0001f7e5 3 \U0001f7e63 \u2b1b3 \U0001f7e7 3 \U0001f7e83", ["3R", "3B", "3K", "3O", "3O"]),
        ("\U0001f7e5\ufe0f3 \u2b1b\ufe0f 3", ["3R", "3K"]),
        ("3 rot", ["3R"]),
        ("3R\u00a04R\u202f5R", ["3R", "4R", "5R"]),
        ("\u05d0\u05d3\u05d5\u05dd\u200f 3\u200e, \u2067\u05db\u05d7\u05d5\u05dc 4\u2069", ["3R", "4B"]),
        ("3 red", ["3R"]),
        ("red 3", ["3R"]),
        ("3-5 rot", ["3R", "4R", "5R"]),
    ],
)
def test_forgiving_spellings(text: str, expected: list[str]) -> None:
    assert names(text) == expected


@pytest.mark.parametrize(
    ("words", "colour"),
    [
        (["rot", "rote", "rood", "rojo", "roja", "rouge", "красный", "красная", "אדום", "Rot", "КРАСНЫЙ"], "R"),
        (["blau", "blauw", "azul", "bleu", "bleue", "синий", "синяя", "כחול"], "B"),
        (["schwarz", "zwart", "negro", "negra", "noir", "noire", "чёрный", "черный", "שחור"], "K"),
        (["orange", "oranje", "naranja", "оранжевый", "כתום"], "O"),
        (["gelb", "geel", "amarillo", "jaune", "жёлтый", "желтый", "צהוב"], "O"),
    ],
)
def test_colour_words_of_every_language_either_side_of_the_number(words: list[str], colour: str) -> None:
    for word in words:
        assert names(f"{word} 7") == names(f"7 {word}") == names(f"7{word}") == [f"7{colour}"], word


def test_a_table_in_brackets_slashes_and_a_full_stop_is_its_sets() -> None:
    expected = ["3R 4R 5R", "7B 7K 7O"]
    for text in ["(3R 4R 5R) (7B 7K 7O)", "(3R 4R 5R)(7B 7K 7O).", "3R-5R / 7B 7K 7O", "[3R4R5R] [7BKO]"]:
        assert [str(s) for s in parse_table(text, R)] == expected, text
    assert parse_table("none", R) == parse_table("empty.", R) == parse_table("leer", R) == []


@pytest.mark.parametrize(
    ("text", "token", "hint"),
    [
        ("3R-5B", "3R-5B", "one colour"),
        ("3R4", "4", "needs a colour"),
        ("3R-14R", "3R-14R", "number goes from 1 to 13"),
        ("5R-3R", "5R-3R", "low to high"),
        ("3 rotx", "3", "needs a colour"),
        ("(3R ??)", "??", "is no tile"),
    ],
)
def test_the_forgiving_forms_still_name_real_mistakes(text: str, token: str, hint: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_tiles(text, R)
    assert caught.value.token == token
    assert hint in str(caught.value)


_SPELLINGS = {
    Colour.RED: ["R", "r", "red ", "rot ", "\U0001f7e5", "\U0001f534"],
    Colour.BLUE: ["B", "b", "blue ", "blauw ", "\U0001f7e6"],
    Colour.BLACK: ["K", "k", "black ", "noir ", "\u2b1b"],
    Colour.ORANGE: ["O", "o", "Y", "orange ", "\U0001f7e7", "\U0001f7e8"],
}


@given(
    st.lists(st.tuples(tiles, st.integers(0, 5), st.booleans()), max_size=20),
    st.sampled_from([" ", ", ", " / ", "\n"]),
)
def test_any_rack_in_mixed_spellings_reads_back(spelt: list[tuple[Tile, int, bool]], between: str) -> None:
    words = []
    for tile, which, colour_first in spelt:
        if tile.is_joker:
            words.append(["J", "joker", "*", "\U0001f0cf"][which % 4])
            continue
        assert tile.colour is not None
        name = _SPELLINGS[tile.colour][which % len(_SPELLINGS[tile.colour])]
        words.append(f"{name}{tile.number}" if colour_first else f"{tile.number}{name.strip()}")
    text = between.join(words) + "."
    assert parse_tiles(text, R) == [t for t, _, _ in spelt]


# --- issue 26: each language's own colour letters ---------------------------------------------------------


def test_each_language_reads_its_own_colour_letters_beside_the_notations() -> None:
    from solver.colour_words import letters_for

    german, dutch, french = letters_for("de"), letters_for("nl"), letters_for("fr")
    assert parse_tiles("1S 2G 3R 4B 5K", R, german) == parse_tiles("1K 2O 3R 4B 5K", R)
    assert parse_tiles("1Z 2G 7ZBR", R, dutch) == parse_tiles("1K 2O 7K 7B 7R", R)
    assert parse_tiles("9N", R, french) == parse_tiles("9K", R)
    assert parse_tiles("4С 5Ч 6О 7Ж", R, letters_for("ru")) == parse_tiles("4B 5K 6O 7O", R)
    assert parse_tiles("3א 4ש 5צ", R, letters_for("he")) == parse_tiles("3R 4K 5O", R)
    with pytest.raises(NotationError, match="1S: S is no colour; the colours are R red, B blue, K black, O orange"):
        parse_tiles("1S", R)  # English has no S
    with pytest.raises(NotationError, match="the colours are R red, B blue, S black, G orange"):
        parse_tiles("1X", R, german)


def test_no_language_letter_is_ambiguous() -> None:
    """Within a language every letter names one colour, none is the joker's J, and a language's own letter is
    never a notation letter meaning another colour."""
    from solver.colour_words import LANGUAGE_LETTERS, LETTERS

    for code, own in LANGUAGE_LETTERS.items():
        assert "j" not in own, code
        for letter, colour in own.items():
            assert LETTERS.get(letter, colour) is colour, (code, letter)
            assert letter == letter.lower(), (code, letter)


#: Cyrillic letters drawn like a Latin one.
_LOOKALIKES = {"а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t"}


def test_no_language_letter_looks_like_a_notation_letter_for_another_colour() -> None:
    """Russian К (красный, red) is drawn like the notation's K (black): reading it as red would record a wrong
    tile for someone who meant the notation, so Russian has no letter for red."""
    from solver.colour_words import LANGUAGE_LETTERS, LETTERS

    for code, own in LANGUAGE_LETTERS.items():
        for letter, colour in own.items():
            twin = LETTERS.get(_LOOKALIKES.get(letter, letter))
            assert twin is None or twin is colour, (code, letter)
    with pytest.raises(NotationError, match="К"):
        parse_tiles("3К", R, LANGUAGE_LETTERS["ru"] | LETTERS)
