"""A message that tells more than one thing at once: a rack and a table (``rack: … table: …``), or a play
and the rack left after it. Each is one change, stored whole or not at all.

The parts go in an order whose games in between are true: when the new table holds tiles of the old rack
(the rack typed with it is what is left after playing them), the old rack is emptied first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from enum import Enum

from bot.game.plays import play
from bot.game.racks import set_rack
from bot.game.seats import active_player, with_player
from bot.game.state import GameState, Played
from bot.game.tiles import table_tiles
from bot.game.trace import Trace
from solver.sets import TileSet
from solver.tiles import Tile


class Part(Enum):
    EMPTY_RACK = "empty rack"
    TABLE = "table"
    RACK = "rack"


def order(state: GameState, user_id: int, rack: Sequence[Tile] | None, table: Sequence[TileSet] | None) -> list[Part]:
    """The parts of a ``rack:``/``table:`` message in the order to make them; a part that says what the game
    already holds (the same rack, the same table laid the same way) is no change, and left out."""
    me = active_player(state, user_id)
    if rack is not None and Counter(rack) == Counter(me.rack) and me.rack_known:
        rack = None
    if table is not None and [s.tiles for s in table] == [s.tiles for s in state.table]:
        table = None
    out: list[Part] = []
    if table is not None:
        laid = table_tiles(table)
        if rack is not None and any(laid[t] + me.rack.count(t) > state.rules.copies_of(t) for t in me.rack):
            out.append(Part.EMPTY_RACK)
        out.append(Part.TABLE)
    if rack is not None:
        out.append(Part.RACK)
    return out


def play_with_rack(
    state: GameState,
    recorder: int,
    player: int,
    new_table: Sequence[TileSet],
    *,
    trace: Trace | None = None,
    based_on: Sequence[TileSet] | None = None,
    out_of_turn: bool = False,
    opening_waived: bool = False,
    rack_after: Sequence[Tile] | None = None,
    now: datetime | None = None,
) -> Played:
    """A play (``plays.play``), and with it the recorder's rack as they typed it beside the new table, when the
    play is theirs and the game goes on: the rack typed is the truth of what is left, so the rack stored before
    (which may be out of date) does not judge the play."""
    me = state.player(recorder)
    if rack_after is not None and player == recorder and me is not None and me.active:
        # the rack before the play held the tiles put down and the rack typed: its count too (a count stored
        # before may be out of date as well), so the play goes out only when the rack typed is empty
        placed = sum((table_tiles(new_table) - table_tiles(state.table)).values())
        state = with_player(state, replace(me, rack=(), unnamed=0, rack_size=placed + len(rack_after)))
    played = play(
        state, recorder, player, new_table, trace=trace, based_on=based_on, out_of_turn=out_of_turn,
        opening_waived=opening_waived, now=now,
    )  # fmt: skip
    if rack_after is None or played.by != recorder or not played.state.playing:
        return played
    after, trimmed = set_rack(played.state, recorder, rack_after)
    return replace(played, state=after, rack_short=(), trimmed=tuple(sorted({*played.trimmed, *trimmed})))
