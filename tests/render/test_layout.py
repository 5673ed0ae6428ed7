"""Layout of table and play pictures: every box inside, nothing overlapping, wrapping at every width."""

from __future__ import annotations

import io
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import render_solution
from render.examples import FULL_DECK_TABLE, full_deck_play, no_play, small_play, solution
from render.flow import chunks, flow, rows_of
from render.geometry import Box
from render.layout import (
    Layout,
    LayoutError,
    TextRole,
    fits_telegram,
    layout_solution,
    layout_table,
    min_width,
    split_halves,
)
from render.marks import Mark, mark_of, marks_of, summary
from render.theme import MAX_WIDTH, MIN_WIDTH
from solver.notation import parse_table, parse_tiles
from solver.planner import numbered, plan_of
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Origin
from solver.solve import solve
from solver.tiles import PALETTE, Tile


def check_layout(layout: Layout) -> None:
    """The invariants every picture must keep."""
    assert layout.width > 0 and layout.height > 0
    drawn = layout.all_tiles()
    for place in drawn:
        assert place.box.inside(layout.width, layout.height), place
    for a, b in itertools.combinations(drawn, 2):
        assert not a.box.overlaps(b.box), (a, b)
    for text in layout.texts:
        assert text.box.inside(layout.width, layout.height), text
        for place in drawn:
            assert not text.box.overlaps(place.box), (text, place)
    trays = [t for s in layout.sets for t in s.trays]
    tabs = [t.box for s in layout.sets for t in s.tabs]
    for shape in trays + tabs:
        assert shape.inside(layout.width, layout.height), shape
    for one, other in itertools.combinations(trays + tabs, 2):
        assert not one.overlaps(other), (one, other)
    # Each table tile lies on one of its own set's trays.
    for place in layout.tiles:
        assert place.set_index is not None
        assert any(t.contains(place.box) for t in layout.sets[place.set_index].trays), place
    if layout.rack_tray is not None:
        assert layout.rack_tray.inside(layout.width, layout.height)
        assert all(layout.rack_tray.contains(p.box) for p in layout.rack)
        assert all(not layout.rack_tray.overlaps(t) for t in trays + tabs)


def reading_order(layout: Layout) -> list[int]:
    """Set indices in the order a reader meets their first tray: top to bottom, left to right."""
    firsts = [(s.trays[0].y, s.trays[0].x, s.index) for s in layout.sets]
    return [i for _, _, i in sorted(firsts)]


# --- flow ---------------------------------------------------------------------------------------------------------


def test_flow_wraps_in_order_and_keeps_an_oversized_item() -> None:
    assert flow([40, 40, 40], 100, 10) == [(0, 0), (0, 50), (1, 0)]
    assert flow([150, 20], 100, 10) == [(0, 0), (1, 0)]
    assert flow([20, 150, 20], 100, 10) == [(0, 0), (1, 0), (2, 0)]
    assert rows_of(flow([], 100, 10)) == 0


def test_chunks_split_only_when_needed() -> None:
    assert chunks(5, 13) == [range(0, 5)]
    assert chunks(27, 13) == [range(0, 13), range(13, 26), range(26, 27)]
    assert chunks(3, 0) == [range(0, 1), range(1, 2), range(2, 3)]


def test_box_geometry() -> None:
    a = Box(0, 0, 10, 10)
    assert not a.overlaps(Box(10, 0, 5, 5))  # touching is not overlapping
    assert a.overlaps(Box(9, 9, 5, 5))
    assert a.inside(10, 10) and not a.inside(9, 10)
    assert a.grown(2) == Box(-2, -2, 14, 14)


# --- marks and summary --------------------------------------------------------------------------------------------


def test_mark_of_tells_rack_moved_and_plain() -> None:
    assert mark_of(Origin(None), 0) is Mark.RACK
    assert mark_of(Origin(None), None) is Mark.RACK
    assert mark_of(Origin(2), 2) is Mark.PLAIN
    assert mark_of(Origin(1), 2) is Mark.MOVED
    assert mark_of(Origin(1), None) is Mark.MOVED


def test_marks_of_small_play() -> None:
    marks = marks_of(small_play())
    assert marks[0] == [Mark.PLAIN, Mark.PLAIN, Mark.PLAIN, Mark.RACK]
    assert marks[2] == [Mark.PLAIN] * 3
    assert marks[3] == [Mark.RACK, Mark.MOVED, Mark.RACK]
    assert marks[4] == [Mark.RACK] * 3


def test_summary_words() -> None:
    assert summary(small_play()) == "7 tiles, 44 points"
    assert summary(no_play()) == "No play: draw a tile"
    before = parse_table("3-5R", STANDARD)
    after = parse_table("3-6R", STANDARD)
    one = solution(before, after, [[0, 0, 0, None]], [0], (), initial_meld=False)
    assert summary(one) == "1 tile, 6 points"


# --- examples -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [small_play, no_play, full_deck_play])
def test_examples_keep_the_invariants(make: object) -> None:
    assert callable(make)
    sol = make()
    layout = layout_solution(sol)
    check_layout(layout)
    assert len(layout.tiles) == sum(len(s) for s in sol.table)
    assert len(layout.rack) == len(sol.rack_left)
    assert [s.tabs[0].text for s in layout.sets] == [str(i + 1) for i in range(len(sol.table))]
    assert reading_order(layout) == list(range(len(sol.table)))
    assert MIN_WIDTH <= layout.width <= MAX_WIDTH
    assert layout.fits_telegram()


def test_layout_marks_follow_the_solution() -> None:
    sol = small_play()
    layout = layout_solution(sol)
    marks = marks_of(sol)
    for place in layout.tiles:
        assert place.set_index is not None
        assert place.tile == sol.table[place.set_index].tiles[place.position]
        assert place.mark is marks[place.set_index][place.position]
    assert layout.tile(3, 1).mark is Mark.MOVED
    with pytest.raises(KeyError):
        layout.tile(9, 0)


def test_tiles_of_a_set_read_left_to_right_with_gaps() -> None:
    layout = layout_solution(full_deck_play())
    for i, _ in enumerate(layout.sets):
        xs = [p.box.x for p in sorted((p for p in layout.tiles if p.set_index == i), key=lambda p: p.position)]
        assert xs == sorted(xs)
        # Neighbours keep a visible gap, so tiles read as separate tiles.
        assert all(b - a > layout.metrics.tile_w for a, b in itertools.pairwise(xs))


def test_legend_lists_only_marks_that_appear() -> None:
    assert [p.mark for p in layout_solution(small_play()).legend] == [Mark.RACK, Mark.MOVED, Mark.PLAIN]
    assert layout_solution(no_play()).legend == ()
    only_rack = solution((), parse_table("1-3K", STANDARD), [[None, None, None]], [None], ())
    assert [p.mark for p in layout_solution(only_rack).legend] == [Mark.RACK]


def test_header_and_rack_caption() -> None:
    texts = {t.role: t.text for t in layout_solution(small_play()).texts}
    assert texts[TextRole.HEADER] == "7 tiles, 44 points"
    assert texts[TextRole.CAPTION] == "Rack left: 4 tiles"
    assert {t.role: t.text for t in layout_solution(no_play()).texts}[TextRole.CAPTION] == "Your rack: 5 tiles"
    assert "you win" in {t.role: t.text for t in layout_solution(full_deck_play()).texts}[TextRole.CAPTION]


def test_rack_is_sorted_by_the_rules() -> None:
    layout = layout_solution(no_play())
    shown = [p.tile for p in sorted(layout.rack, key=lambda p: (p.box.y, p.box.x))]
    assert shown == sorted(no_play().rack_left, key=STANDARD.tile_key)


def test_show_rack_false_leaves_it_out() -> None:
    with_rack = layout_solution(small_play())
    without = layout_solution(small_play(), show_rack=False)
    assert without.rack == () and without.rack_tray is None
    assert TextRole.CAPTION not in {t.role for t in without.texts}
    assert without.height < with_rack.height
    check_layout(without)


def test_a_picture_without_the_rack_does_not_say_your_rack() -> None:
    """Without the rack it is the group's picture of someone's play: "your rack" would be the reader's."""
    legend = [t.text for t in layout_solution(small_play(), show_rack=False).texts if t.role is TextRole.LEGEND]
    assert legend == ["just played", "moved from another set", "unchanged"]
    mine = [t.text for t in layout_solution(small_play()).texts if t.role is TextRole.LEGEND]
    assert mine[0] == "from your rack"


def test_empty_table() -> None:
    layout = layout_table([], STANDARD, header="The table")
    check_layout(layout)
    assert layout.tiles == () and layout.sets == ()
    assert layout.empty_table is not None and layout.empty_table.inside(layout.width, layout.height)
    empty_note = [t for t in layout.texts if t.role is TextRole.EMPTY]
    assert len(empty_note) == 1 and layout.empty_table.contains(empty_note[0].box)
    assert layout.width == MIN_WIDTH


def test_single_set_makes_a_small_picture() -> None:
    layout = layout_table(parse_table("7RBK", STANDARD), STANDARD)
    check_layout(layout)
    assert len(layout.sets) == 1 and len(layout.tiles) == 3
    assert layout.width == MIN_WIDTH
    assert layout.height < 250


def test_largest_table_holds_every_tile_of_the_deck() -> None:
    sets = parse_table(FULL_DECK_TABLE, STANDARD)
    layout = layout_table(sets, STANDARD, rack=[], header="Every tile")
    check_layout(layout)
    assert len(layout.tiles) == STANDARD.deck_size() == 106
    assert layout.metrics.scale == 1.0
    assert layout.fits_telegram()


def test_largest_table_at_every_width() -> None:
    sets = parse_table(FULL_DECK_TABLE, STANDARD)
    rack = parse_tiles("1R 2B 3K 4O J", STANDARD)
    for width in range(min_width(), 1500, 7):
        layout = layout_table(sets, STANDARD, rack=rack, header="Wrapping", width=width, scale=1.0)
        check_layout(layout)
        assert layout.width <= width
        assert len(layout.tiles) == 106 and len(layout.rack) == 5
        assert reading_order(layout) == list(range(len(sets)))


def test_too_narrow_is_an_error() -> None:
    with pytest.raises(LayoutError):
        layout_table(parse_table("1-3R", STANDARD), STANDARD, width=min_width() - 1, scale=1.0)
    with pytest.raises(LayoutError):
        layout_table(parse_table("1-3R", STANDARD), STANDARD, width=20)


def test_a_run_longer_than_a_row_continues_on_the_next() -> None:
    rules = Rules(numbers=40)
    long_run = TileSet.run(PALETTE[0], 1, jokers_at=(5,), length=40)
    layout = layout_table([long_run, TileSet.run(PALETTE[1], 1)], rules)
    check_layout(layout)
    first = layout.sets[0]
    assert len(first.trays) >= 2
    assert [t.text for t in first.tabs][1:] == ["1 cont."] * (len(first.trays) - 1)
    assert len([p for p in layout.tiles if p.set_index == 0]) == 40
    assert layout.sets[1].tabs[0].text == "2"


def test_a_huge_variant_table_is_shrunk_into_telegram_limits() -> None:
    rules = Rules(numbers=99, copies=9, jokers=0)
    sets = [TileSet.run(c, 1, length=99) for c in rules.colour_order for _ in range(rules.copies)]
    layout = layout_table(sets, rules, header="Everything")
    check_layout(layout)
    assert len(layout.tiles) == 99 * 4 * 9
    assert layout.fits_telegram()
    assert layout.metrics.scale < 1.0


def test_fits_telegram_limits() -> None:
    assert fits_telegram(1200, 8800)
    assert not fits_telegram(1200, 8801)
    assert fits_telegram(100, 2000)
    assert not fits_telegram(100, 2001)


# --- random tables at random widths ---------------------------------------------------------------------------------


@st.composite
def tile_sets(draw: st.DrawFn) -> TileSet:
    colour = draw(st.sampled_from(PALETTE))
    if draw(st.booleans()):
        length = draw(st.integers(3, 13))
        start = draw(st.integers(1, 14 - length))
        jokers = draw(st.lists(st.integers(0, length - 1), max_size=2, unique=True))
        return TileSet.run(colour, start, jokers, length)
    colours = draw(st.lists(st.sampled_from(PALETTE), min_size=1, max_size=4, unique=True))
    missing = [c for c in PALETTE if c not in colours]
    joker_count = draw(st.integers(max(0, 3 - len(colours)), min(2, len(missing))))
    return TileSet.group(draw(st.integers(1, 13)), colours, missing[:joker_count])


@st.composite
def plays(draw: st.DrawFn) -> tuple[list[TileSet], list[list[int | None]], list[int | None], list[Tile]]:
    sets = draw(st.lists(tile_sets(), max_size=18))
    kept: list[int | None] = [draw(st.one_of(st.none(), st.integers(0, 20))) for _ in sets]
    origins = [[draw(st.sampled_from([None, k, 21])) for _ in s.tiles] for s, k in zip(sets, kept, strict=True)]
    rack = draw(st.lists(st.sampled_from([*STANDARD.tiles(), Tile()]), max_size=30))
    return sets, origins, kept, rack


@settings(max_examples=60, deadline=None)
@given(play=plays(), width=st.integers(min_width(), 2000))
def test_random_plays_at_random_widths(
    play: tuple[list[TileSet], list[list[int | None]], list[int | None], list[Tile]], width: int
) -> None:
    sets, origins, kept, rack = play
    sol = solution((), sets, origins, kept, rack)
    layout = layout_solution(sol, width=width, scale=1.0)
    check_layout(layout)
    assert layout.width <= width
    assert len(layout.tiles) == sum(len(s) for s in sets)
    assert len(layout.rack) == len(rack)
    # in table order, except that a set continuing the same old set as an earlier one (a run split in two)
    # comes right after it
    assert reading_order(layout) == list(split_halves(kept, [str(i + 1) for i in range(len(sets))])[0])
    for place in layout.tiles:
        assert place.set_index is not None
        assert place.mark is mark_of(Origin(origins[place.set_index][place.position]), kept[place.set_index])


@settings(max_examples=25, deadline=None)
@given(sets=st.lists(tile_sets(), max_size=30), scale=st.sampled_from([0.3, 0.5, 0.75, 1.0]))
def test_random_tables_at_every_scale(sets: list[TileSet], scale: float) -> None:
    layout = layout_table(sets, STANDARD, rack=[Tile()], header="A header line", scale=scale)
    check_layout(layout)
    assert layout.metrics.scale == scale


def test_a_short_wide_play_wraps_onto_more_rows_for_a_phone() -> None:
    layout = layout_solution(small_play())
    one_row_width = sum(s.box.w for s in layout.sets)
    assert layout.width < one_row_width  # it did wrap
    assert layout.width >= MIN_WIDTH and layout.height <= layout.width  # but is not taller than wide
    assert len({s.trays[0].y for s in layout.sets}) >= 2


def test_first_turn_without_a_play_shows_the_empty_table_and_the_rack() -> None:
    sol = solution((), (), [], [], parse_tiles("1R 5B 9K 13O J", STANDARD))
    layout = layout_solution(sol)
    check_layout(layout)
    texts = {t.role: t.text for t in layout.texts}
    assert texts[TextRole.HEADER] == "No play: draw a tile"
    assert texts[TextRole.EMPTY] == "The table is empty"
    assert len(layout.rack) == 5 and layout.legend == ()


def test_sets_can_carry_the_move_lists_numbers() -> None:
    play = small_play()
    names = [str(10 + i) for i in range(len(play.table))]
    layout = layout_solution(play, labels=names)
    check_layout(layout)
    assert [s.label for s in layout.sets] == names
    assert [t.text for s in layout.sets for t in s.tabs] == names
    with pytest.raises(LayoutError):
        layout_solution(play, labels=names[:-1])


# --- a split run ----------------------------------------------------------------------------------------------


def test_the_half_split_off_a_run_is_drawn_beside_the_other_and_says_so() -> None:
    table = parse_table("1R 2R 3R 4R 5R 6R 7R | 9K 10K 11K | 2B 3B 4B | 5O 6O 7O", STANDARD)
    sol = solve(parse_tiles("4K 4O", STANDARD), table, STANDARD, initial_meld=False)
    shown, numbers = numbered(sol, plan_of(sol))
    layout = layout_solution(shown, labels=[str(n) for n in numbers])
    labels = [layout.sets[i].label for i in reading_order(layout)]
    assert labels[:2] == ["1", "5, split from 1"], labels  # numbered 5, after every old set, yet drawn second
    assert [str(shown.table[i]) for i in reading_order(layout)[:2]] == ["1R 2R 3R", "5R 6R 7R"]
    first, half = layout.sets[reading_order(layout)[0]], layout.sets[reading_order(layout)[1]]
    assert first.trays[0].y == half.trays[0].y  # on the same row, next to each other
    # its tiles stayed in the run they were in: not marked as moved from another set
    assert {p.mark for p in layout.tiles if p.set_index == half.index} == {Mark.PLAIN}
    png = render_solution(shown, labels=[str(n) for n in numbers])
    assert Image.open(io.BytesIO(png)).size == (layout.width, layout.height)


def test_a_table_of_many_short_sets_wraps_at_a_phones_width_at_full_size() -> None:
    sets = [TileSet.group(n, PALETTE[:3]) for n in range(1, 14)] * 2
    layout = layout_table(sets, STANDARD, rack=parse_tiles("1R 2B", STANDARD), header="26 sets")
    check_layout(layout)
    assert layout.metrics.scale == 1.0 and layout.width == MIN_WIDTH
    assert len({s.trays[0].y for s in layout.sets}) >= 8 and layout.height > layout.width
