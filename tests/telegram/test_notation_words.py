"""Every notation mistake, in every language the bot speaks, names the piece as it was typed and says what
is wrong in plain words: no character offsets, no backticks (issue 26)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.telegram.words.language import LANGUAGES, speaking, spoken
from solver import STANDARD
from solver.notation import NotationError, parse_table, parse_tiles
from solver.whole import shown

#: how each language would say "character 12" (what an offset would look like)
OFFSET = re.compile(r"\b(?:character|Zeichen|teken|car[áa]cter|caract[èe]re|символ|תו)\s*\d", re.IGNORECASE)
TILE_LIKE = "0123456789rbkoyjsgzncRBKOYJSGZNC*- |;,:\n\U0001f534\U0001f0cf"


def _said_in_every_language(error: NotationError) -> None:
    for code in LANGUAGES:
        with speaking(code):
            text = spoken(error)
        assert shown(error.token) in text, (code, text)
        assert "`" not in text and not OFFSET.search(text), (code, text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=TILE_LIKE, min_size=1, max_size=40))
def test_any_mistake_names_the_piece_in_every_language(text: str) -> None:
    for parse in (parse_tiles, parse_table):
        try:
            parse(text, STANDARD)
        except NotationError as error:
            _said_in_every_language(error)


@pytest.mark.parametrize(
    "text",
    ["1O 2O 4O | 7K 8K 9K", "3R 4R | 5B", "14R", "0K", "3X", "7R 7R 7B", "5-5R", "9-7B", "7RRB", "rakc: 3R", "J J J J"],
)
def test_the_usual_mistakes_name_the_piece_in_every_language(text: str) -> None:
    raised = 0
    for parse in (parse_tiles, parse_table):
        try:
            parse(text, STANDARD)
        except NotationError as error:
            raised += 1
            _said_in_every_language(error)
    assert raised
