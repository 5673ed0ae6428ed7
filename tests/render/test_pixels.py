"""The PNGs themselves: highlights where the layout says, Telegram's limits, determinism, the shipped font."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import render
from render import fonts, indexed, png
from render.examples import FULL_DECK_TABLE, full_deck_play, no_play, small_play
from render.layout import Layout, TilePlace, fits_telegram, layout_solution, layout_table
from render.marks import Mark
from render.theme import (
    FELT,
    INK,
    MIN_WIDTH,
    MOVED_RING,
    RACK_RING,
    RGB,
    TELEGRAM_MAX_BYTES,
    TILE_EDGE,
    TILE_FACE,
)
from render.tile import ring_width
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Solution
from solver.tiles import PALETTE, Tile

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(a: tuple[int, ...], b: RGB, tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def pixel(img: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    value = img.getpixel(xy)
    assert isinstance(value, tuple)
    return value


def ring_points(place: TilePlace) -> list[tuple[int, int]]:
    """Points in the middle of the tile's ring on its left, right and bottom edges (clear of corners and badge)."""
    b = place.box
    inset = ring_width(place.mark, place.metrics) // 2
    return [
        (b.x + inset, b.y + b.h // 2),
        (b.right - 1 - inset, b.y + b.h // 2),
        (b.x + b.w // 2, b.bottom - 1 - inset),
    ]


def picture(sol: Solution) -> tuple[Layout, Image.Image]:
    return layout_solution(sol), decode(render.render_solution(sol))


@pytest.mark.parametrize("make", [small_play, full_deck_play])
def test_highlight_rings_are_where_the_layout_says(make: object) -> None:
    assert callable(make)
    layout, img = picture(make())
    assert img.size == (layout.width, layout.height)
    seen = set()
    for place in layout.tiles:
        seen.add(place.mark)
        for xy in ring_points(place):
            colour = pixel(img, xy)
            if place.mark is Mark.RACK:
                assert close(colour, RACK_RING), (place, xy, colour)
            elif place.mark is Mark.MOVED:
                assert close(colour, MOVED_RING), (place, xy, colour)
            else:
                assert not close(colour, RACK_RING, 60) and not close(colour, MOVED_RING, 60), (place, colour)
    assert Mark.RACK in seen and Mark.PLAIN in seen


def test_rack_badge_sits_in_the_top_right_corner() -> None:
    layout, img = picture(small_play())
    for place in layout.tiles:
        m = place.metrics
        # Just inside the badge disc, left of its glyph.
        xy = (place.box.right - m.ring - m.badge + 3, place.box.y + m.ring + m.badge // 2)
        colour = pixel(img, xy)
        if place.mark is Mark.RACK:
            assert close(colour, RACK_RING), (place, colour)
        elif place.mark is Mark.PLAIN:
            assert not close(colour, RACK_RING, 60), (place, colour)


def test_plain_tile_has_a_cream_face_and_the_number_in_its_colour() -> None:
    layout, img = picture(no_play())
    place = layout.tile(0, 0)  # 3R
    assert close(pixel(img, (place.box.x + 6, place.box.y + 10)), TILE_FACE, 8)
    assert close(pixel(img, (place.box.x, place.box.y + place.box.h // 2)), TILE_EDGE, 40)
    crop = img.crop(place.box.as_tuple())
    colours = crop.getcolors(crop.width * crop.height)
    assert colours is not None
    found = [c for _, c in colours if isinstance(c, tuple)]
    assert any(close(c, INK[PALETTE[0]], 30) for c in found)
    assert not any(close(c, INK[PALETTE[1]], 30) for c in found)


def test_background_around_the_tiles_is_felt() -> None:
    layout, img = picture(small_play())
    assert pixel(img, (2, 2)) == FELT
    assert pixel(img, (layout.width - 3, layout.height - 3)) == FELT


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(lambda: render.render_solution(small_play()), id="small play"),
        pytest.param(lambda: render.render_solution(no_play()), id="no play"),
        pytest.param(lambda: render.render_solution(full_deck_play()), id="largest play"),
        pytest.param(lambda: render.render_solution(full_deck_play(), show_rack=False), id="no rack"),
        pytest.param(lambda: render.render_table([], STANDARD), id="empty table"),
        pytest.param(lambda: render.render_table(parse_table("5-7O", STANDARD), STANDARD), id="single set"),
        pytest.param(
            lambda: render.render_table(
                parse_table(FULL_DECK_TABLE, STANDARD), STANDARD, rack=parse_tiles("1R 2R", STANDARD), header="All"
            ),
            id="largest table",
        ),
        pytest.param(
            lambda: render.render_table(
                [TileSet.run(c, 1, length=99) for c in PALETTE for _ in range(9)], Rules(numbers=99, copies=9, jokers=0)
            ),
            id="huge variant",
        ),
    ],
)
def test_every_picture_is_a_png_within_telegram_limits(data: object) -> None:
    assert callable(data)
    raw = data()
    assert isinstance(raw, bytes)
    img = decode(raw)
    assert fits_telegram(img.width, img.height)
    assert len(raw) < TELEGRAM_MAX_BYTES
    assert len(raw) < 1024 * 1024  # well under: a phone downloads it quickly
    assert img.width <= 1300


def test_sizes_for_phone() -> None:
    """The largest table wraps onto more rows of a picture no wider than a run of 13 on one row: on a phone,
    whose screen the picture is fitted across, its tiles look as big as a small table's (they used to be
    shrunk to the 1200 px a wide picture took)."""
    small = layout_solution(small_play())
    layout = layout_solution(full_deck_play())
    assert layout.metrics.scale == 1.0 and layout.metrics.tile_w == small.metrics.tile_w
    thirteen = 2 * layout.metrics.margin + 2 * layout.metrics.tray_pad + 13 * layout.metrics.tile_pitch
    assert layout.width <= thirteen and small.width == MIN_WIDTH
    # how wide a tile looks across the phone's screen: at least 6/7 of the small table's
    assert layout.metrics.tile_w / layout.width >= small.metrics.tile_w / small.width * 6 / 7
    assert layout.height > layout.width  # more rows, not smaller tiles


def test_same_input_gives_identical_bytes() -> None:
    first = render.render_solution(full_deck_play())
    assert render.render_solution(full_deck_play()) == first
    # Also from cold caches: the palette and the tile sprites are rebuilt, and must come out the same.
    png.palette.cache_clear()
    indexed.clear_caches()
    render.tile.tile_sprite.cache_clear()
    render.tile.grounded_sprite.cache_clear()
    fonts.font.cache_clear()
    assert render.render_solution(full_deck_play()) == first


def test_png_carries_no_metadata() -> None:
    img = Image.open(io.BytesIO(render.render_solution(small_play())))
    assert not {"date", "time", "Creation Time", "Software"} & set(img.info)


def test_the_png_holds_exactly_the_painted_palette_picture() -> None:
    painted = render.draw_indexed(layout_solution(full_deck_play()))
    back = Image.open(io.BytesIO(png.encode(painted)))
    assert back.format == "PNG" and back.mode == "P" and back.size == painted.size
    assert back.getpalette() == painted.getpalette()
    assert back.tobytes() == painted.tobytes()


def test_palette_keeps_every_theme_colour_exactly() -> None:
    entries = png.palette().getpalette() or []
    colours = {tuple(entries[i : i + 3]) for i in range(0, len(entries), 3)}
    assert set(png.theme_colours()) <= colours
    assert RACK_RING in colours and MOVED_RING in colours and FELT in colours


def test_palette_encoding_stays_close_to_the_drawn_picture() -> None:
    from PIL import ImageChops, ImageStat

    drawn = render.draw(layout_table(parse_table("1-13R | 7RBKO | J 2B 3B", STANDARD), STANDARD, header="Close"))
    back = decode(png.encode(drawn))
    diff = ImageChops.difference(drawn, back)
    assert sum(ImageStat.Stat(diff).mean) / 3 < 1.0


def test_font_comes_with_the_package() -> None:
    shipped = Path(render.__file__).parent / "fonts" / fonts.FONT_FILE
    assert shipped.is_file()
    assert (shipped.parent / "LICENSE-DejaVu.txt").is_file()
    assert fonts._font_bytes() == shipped.read_bytes()
    assert fonts.font(20).getname() == ("DejaVu Sans", "Bold")


def test_warm_up_fills_the_caches() -> None:
    png.palette.cache_clear()
    indexed.clear_caches()
    render.tile.grounded_sprite.cache_clear()
    render.warm_up()
    assert png.palette.cache_info().currsize == 1
    assert render.tile.grounded_sprite.cache_info().currsize >= 50
    # a solver process's first pictures find every tile's pieces cut already, in any mark, on table or rack
    cut = indexed._tile.cache_info().misses
    render.render_solution(small_play())
    render.render_table(parse_table(FULL_DECK_TABLE, STANDARD), STANDARD, rack=[*STANDARD.tiles(), Tile()])
    assert indexed._tile.cache_info().misses == cut
