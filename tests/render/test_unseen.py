"""The unseen tiles' picture (``render.unseen``): a PNG of every kind, its words from ``Wording``."""

from __future__ import annotations

from bot.coach.unseen import unseen_tiles
from render.unseen import draw_unseen, render_unseen
from render.wording import Wording
from solver import STANDARD, parse_table, parse_tiles
from tests.fake_bot_api import png_size


def test_the_picture_is_a_png_a_row_a_colour_and_the_jokers() -> None:
    rack = parse_tiles("3R 4R 5R 7B J", STANDARD)
    table = parse_table("6R 7R 8R | 7K 7O 7R", STANDARD)
    tiles = sorted(unseen_tiles(STANDARD, table, rack).items(), key=lambda e: STANDARD.tile_key(e[0]))
    picture = render_unseen(tiles, STANDARD, 80, 17)
    width, height = png_size(picture)
    assert picture.startswith(b"\x89PNG") and 600 <= width <= 1400 and height < width
    # the same tiles in another language's words give a picture of the same size
    german = Wording(unseen="Nicht gesehen: {tiles}", unseen_where="{pool} im Vorrat, {racks} auf den Bänkchen")
    assert draw_unseen(tiles, STANDARD, 80, 17, wording=german).size == (width, height)


def test_nothing_unseen_still_draws_the_empty_slots() -> None:
    assert render_unseen([], STANDARD, 0, 0).startswith(b"\x89PNG")
