"""The table as a whole: a correction replaces it; a shared table keeps every tile that lies on it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.game import errors
from bot.game.knowledge import reconcile
from bot.game.numbering import in_order, renumber
from bot.game.racks import check_room
from bot.game.seats import active_player, ensure_playing
from bot.game.state import GameState
from bot.game.tiles import check_sets, check_tiles, table_key, table_tiles, words
from bot.game.trace import traced
from solver.rules import Rules
from solver.sets import TileSet
from solver.text import N_, Text, say
from solver.tiles import Tile


def set_table(
    state: GameState,
    user_id: int,
    sets: Sequence[TileSet],
    *,
    with_rack: bool = True,
    based_on: Sequence[TileSet] | None = None,
) -> tuple[GameState, tuple[int, ...]]:
    """Replace the whole table (no turn passes). Returns the game and the players whose stored racks gave up
    tiles the new table shows (``knowledge``: the table is the newest word; each is told in private).

    ``with_rack``: the table and the player's own rack must fit the deck together (a table of one's own). A
    table everyone sees (a group's) is checked alone: what the group reads must not tell anyone's rack.
    ``based_on``: the table the new one was made from, which must still be the table, and every tile of it
    must stay (a shared table laid out anew: see ``check_unchanged``); its sets keep their numbers where they
    stay. None for a correction, which numbers the table anew.
    """
    ensure_playing(state)
    p = active_player(state, user_id)
    table = check_sets(sets, state.rules)
    if based_on is not None:
        check_unchanged(state, based_on)
        check_kept(state, table)
        numbers = renumber(state.numbers, traced(state.table, table, state.rules).kept_from)
        table, numbers = in_order(table, numbers)
    else:
        numbers = tuple(range(1, len(table) + 1))
    if with_rack:
        check_tiles(state.rules, say("the table and your rack"), table_tiles(table).elements(), p.rack)
    else:
        check_tiles(state.rules, say("the table"), table_tiles(table).elements())
    after = replace(state, table=table, numbers=numbers, adding=None)
    check_room(after)
    return reconcile(after, keep=[user_id] if with_rack else [])


def same_table(state: GameState, sets: Sequence[TileSet]) -> bool:
    """The table typed is the table as it lies (its sets in any order): nothing to record."""
    return table_key(sets) == table_key(state.table)


def is_play(state: GameState, new_table: Sequence[TileSet], *, fix: bool) -> bool:
    """Whether a shared table typed anew records a play: it has new tiles on it, and it is neither a correction
    (``fix``) nor the table a game starts from (its first)."""
    return bool(state.table) and not fix and bool(table_tiles(new_table) - table_tiles(state.table))


def check_unchanged(state: GameState, based_on: Iterable[TileSet]) -> None:
    """The table is still the one a message was read against.

    Checked under the game's lock: between reading a message and storing it, another player's message
    (a play, an undo) may have changed the table, and what this one says was worked out on the old one.
    """
    if table_key(state.table) != table_key(based_on):
        raise errors.TableChanged(
            N_(
                "the table changed while I read your message (another player changed it); "
                "look at it with /table and send yours again"
            )
        )


def check_kept(state: GameState, table: Iterable[TileSet]) -> None:
    """Every tile on the table stays on it, whatever else a play does."""
    lost = table_tiles(state.table) - table_tiles(table)
    if lost:
        raise errors.InvalidTable(lost_message(lost, state.rules))


def lost_message(lost: Counter[Tile], rules: Rules) -> Text:
    """The refusal of a table that lost tiles of the old one (``lost``)."""
    return say(
        "the new table lacks {tiles} from the old table; every tile on the table stays there "
        "(if the table was wrong, write it whole after /table fix)",
        tiles=words(lost, rules),
    )
