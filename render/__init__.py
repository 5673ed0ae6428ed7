"""Pictures of a Rummikub table and of a suggested play, as PNG bytes.

``render_solution`` is what the bot sends after a solve; ``render_table`` shows
a table as it is (for /status). The ``layout_*`` functions say where every tile
and set goes without drawing, for tests and for the move list. Both paint with
``draw_indexed`` (cached pieces in the palette); ``draw`` paints the same
picture in full RGB, the reference it is tested against. ``render_scores``
draws a group's scores as a small table (for /scores, ``render.scores``).
"""

from __future__ import annotations

from collections.abc import Sequence

from render.draw import draw
from render.geometry import Box
from render.indexed import draw_indexed
from render.layout import (
    Layout,
    LayoutError,
    SetPlace,
    TextPlace,
    TextRole,
    TilePlace,
    fits_telegram,
    layout_solution,
    layout_table,
)
from render.marks import Mark, legend_words, mark_of, marks_of, summary
from render.png import encode
from render.scores import ScoreLayout, ScoreSheet, layout_scores, render_scores, score_text
from render.wording import ENGLISH, Wording
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Solution
from solver.tiles import Tile


def render_solution(
    solution: Solution,
    *,
    show_rack: bool = True,
    labels: Sequence[str] | None = None,
    wording: Wording = ENGLISH,
) -> bytes:
    """PNG of the table after the play: rack tiles and moved tiles marked, a summary header, the rack left.

    ``labels`` names the sets as the move list does (``Plan.numbers``); by default 1, 2, ...
    ``wording`` holds every word the picture shows, in its reader's language.
    """
    return encode(draw_indexed(layout_solution(solution, show_rack=show_rack, labels=labels, wording=wording)))


def render_table(
    sets: Sequence[TileSet],
    rules: Rules,
    *,
    rack: Sequence[Tile] | None = None,
    header: str | None = None,
    labels: Sequence[str] | None = None,
    wording: Wording = ENGLISH,
) -> bytes:
    """PNG of a table as it is, optionally with a header line (in the reader's words), the sets' numbers
    (``labels``, by default 1, 2, ...) and the rack below."""
    layout = layout_table(sets, rules, rack=rack, header=header, labels=labels, wording=wording)
    return encode(draw_indexed(layout))


def warm_up() -> None:
    """Load the font, build the palette and every tile's pieces now (about 0.25 s), not on the first replies."""
    from render.examples import full_deck_play
    from render.indexed import warm_pieces
    from render.theme import Metrics

    play = full_deck_play()
    warm_pieces(play.rules, Metrics.at(1.0))
    render_solution(play)


__all__ = [
    "ENGLISH",
    "Box",
    "Layout",
    "LayoutError",
    "Mark",
    "ScoreLayout",
    "ScoreSheet",
    "SetPlace",
    "TextPlace",
    "TextRole",
    "TilePlace",
    "Wording",
    "draw",
    "draw_indexed",
    "encode",
    "fits_telegram",
    "layout_scores",
    "layout_solution",
    "layout_table",
    "legend_words",
    "mark_of",
    "marks_of",
    "render_scores",
    "render_solution",
    "render_table",
    "score_text",
    "summary",
    "warm_up",
]
