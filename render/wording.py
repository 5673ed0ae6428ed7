"""Every word a picture shows, English unless the caller passes its reader's language.

``render`` knows no languages: the bot fills a ``Wording`` from its catalogues and passes it along (it
travels to a worker process, so it is plain data). Words that depend on a number keep every plural form
and the language's gettext plural rule (``plural``, a C expression of ``n``), which picks one.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Wording:
    #: the legend, for the player the play is for
    from_rack: str = "from your rack"
    moved: str = "moved from another set"
    unchanged: str = "unchanged"
    #: the legend's first item in a picture everyone reads (a group's, without a rack)
    just_played: str = "just played"
    #: the label of the half of a run split off by the play, beside the half it split from
    split_from: str = "{label}, split from {home}"
    #: a set's label on its second and later rows
    continued: str = "{label} cont."
    empty_table: str = "The table is empty"
    no_play: str = "No play: draw a tile"
    #: the header: what a play puts down; ``{tiles}`` and ``{points}`` are counts (``tiles``, ``points``)
    play: str = "{tiles}, {points}"
    #: the header's additions after the tiles and points a play puts down
    initial_meld: str = "initial meld"
    best_in_time: str = "best found in time"
    #: the captions over the rack; ``{tiles}`` is a count of tiles
    your_rack: str = "Your rack: {tiles}"
    rack: str = "Rack: {tiles}"
    rack_left: str = "Rack left: {tiles}"
    rack_empty: str = "Your rack is empty"
    rack_won: str = "Rack left: empty, you win!"
    #: the heading of the unseen tiles' picture (``{tiles}`` a count of tiles), and where they are
    unseen: str = "Unseen: {tiles}"
    unseen_where: str = "{pool} in the pool, {racks} on the other racks"
    #: plural forms of a count of tiles and of points, and the rule choosing among them
    tiles: tuple[str, ...] = ("{n} tile", "{n} tiles")
    points: tuple[str, ...] = ("{n} point", "{n} points")
    plural: str = "n != 1"
    #: whether the language is written right to left. The layout still runs left to right, like the tiles;
    #: each line with right-to-left letters is shaped as a right-to-left line wherever it comes from
    #: (``render.fonts``), so this only tells a caller the language's direction.
    right_to_left: bool = False

    def count(self, forms: tuple[str, ...], n: int) -> str:
        """``n`` in the fitting form of ``forms`` (``self.tiles`` or ``self.points``)."""
        index = _rule(self.plural)(n)
        return forms[min(index, len(forms) - 1)].format(n=n)


@functools.cache
def _rule(expression: str) -> Callable[[int], int]:
    return gettext.c2py(expression)


ENGLISH = Wording()
