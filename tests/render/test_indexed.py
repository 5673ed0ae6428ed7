"""The fast painter (cached pieces in the palette) gives exactly the picture of the reference painter.

Every picture the bot sends comes from ``draw_indexed``; ``draw`` composites
the same layout in RGB, one shape over another, and ``png.encode`` maps it to
the palette. Equal pixels at every scale and shape of table mean the pieces
were cut and placed right (a tab's corner, a label on its tab, the rack's rim).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.telegram.words.language import LANGUAGES
from bot.telegram.words.picture import wording_in
from render import draw, draw_indexed, png
from render.examples import FULL_DECK_TABLE, full_deck_play, no_play, small_play, solution
from render.layout import SCALES, Layout, TextRole, layout_solution, layout_table, min_width
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD
from solver.sets import TileSet
from solver.tiles import Tile
from tests.render.test_layout import plays, tile_sets


def assert_same_picture(layout: Layout) -> None:
    fast = draw_indexed(layout)
    reference = draw(layout).quantize(palette=png.palette(), dither=Image.Dither.NONE)
    assert fast.mode == "P" and fast.size == reference.size
    assert fast.convert("RGB").tobytes() == reference.convert("RGB").tobytes()


@pytest.mark.parametrize("scale", SCALES)
def test_the_largest_play_at_every_scale(scale: float) -> None:
    assert_same_picture(layout_solution(full_deck_play(), scale=scale))


@pytest.mark.parametrize("scale", SCALES)
def test_a_table_with_header_and_rack_at_every_scale(scale: float) -> None:
    table = parse_table(FULL_DECK_TABLE, STANDARD)
    rack = parse_tiles("1R 5B 9K 13O J", STANDARD)
    assert_same_picture(layout_table(table, STANDARD, rack=rack, header="Anna's table", scale=scale))


@pytest.mark.parametrize("scale", [1.0, 0.5, 0.3])
def test_empty_table_no_play_and_a_small_play(scale: float) -> None:
    assert_same_picture(layout_table([], STANDARD, rack=parse_tiles("3R J", STANDARD), header="Empty", scale=scale))
    assert_same_picture(layout_solution(no_play(), scale=scale))
    play = small_play()
    assert_same_picture(layout_solution(play, scale=scale, labels=[str(10 + i) for i in range(len(play.table))]))


def test_a_narrow_picture_splits_long_sets_under_continued_tabs() -> None:
    table = parse_table("1-13R | 1-13B | J 2-12K J", STANDARD)
    layout = layout_table(table, STANDARD, width=min_width() + 200, scale=1.0)
    assert any(tab.text.endswith("cont.") for s in layout.sets for tab in s.tabs)
    assert_same_picture(layout)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_empty_tables_words_stay_in_its_tray_at_every_width(code: str) -> None:
    """The words on an empty table's tray fit inside it, at every width from the narrowest and at every size, in
    every language (a glyph that inked a pixel past the tray drew the tray's colour onto the felt there)."""
    wording = wording_in(code)
    for scale in (1.0, 0.8, 0.6, 0.45, 0.3):
        for width in range(min_width(), 400):
            layout = layout_solution(solution((), [], [], [], []), width=width, scale=scale, wording=wording)
            assert layout.empty_table is not None
            tray = layout.empty_table
            words = [t.box for t in layout.texts if t.role is TextRole.EMPTY]
            assert words and all(tray.x < b.x and b.right < tray.right and tray.y < b.y for b in words), (scale, width)
            assert all(b.bottom < tray.bottom for b in words), (scale, width)
            assert_same_picture(layout)


@settings(max_examples=40, deadline=None)
@given(play=plays(), width=st.integers(min_width(), 1300), scale=st.sampled_from(SCALES))
def test_random_plays(
    play: tuple[list[TileSet], list[list[int | None]], list[int | None], list[Tile]], width: int, scale: float
) -> None:
    sets, origins, kept, rack = play
    assert_same_picture(layout_solution(solution((), sets, origins, kept, rack), width=width, scale=scale))


@settings(max_examples=15, deadline=None)
@given(sets=st.lists(tile_sets(), max_size=30), scale=st.sampled_from(SCALES))
def test_random_tables(sets: list[TileSet], scale: float) -> None:
    assert_same_picture(layout_table(sets, STANDARD, rack=[Tile()], header="A header line", scale=scale))
