"""Plays: rack tiles put on the table in one turn, and the initial meld.

Whose play it is is always said, never guessed from whose rack holds the tiles: the player who typed it or
pressed the button, or the one the chat asked about. A play on someone else's turn is refused with
``NotYourTurn`` until it is recorded as such, so no turn is ever skipped silently. A play may come in
parts (``turns``): what the player who played last puts down before the next player acts adds to the same
turn, and an initial meld is judged on the whole turn.

A play never puts a tile into the game that was not on the table or the player's rack: the tiles laid must
be on the rack as the bot knows it (or among its tiles it does not know). A play the player records
themselves with tiles their known rack lacks is refused (their rack, or the play, is wrong); recorded by
someone else (who cannot see the rack), it stands, and the player's rack is forgotten and asked for again.
A player whose last tile goes down has gone out: the game is won, and waits for the other racks' tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from bot.game import errors
from bot.game.ending import after_going_out
from bot.game.knowledge import reconcile
from bot.game.numbering import in_order, order_of, renumber
from bot.game.racks import check_room
from bot.game.seats import active_player, ensure_playing, next_turn, with_player
from bot.game.state import Adding, GameState, Played, PlayerState
from bot.game.table import check_kept, check_unchanged
from bot.game.tiles import check_sets, check_tiles, sort_tiles, table_key, table_tiles, words
from bot.game.trace import Trace, traced
from bot.game.turns import passed_over, turn_check
from solver.sets import TileSet
from solver.solution import Solution
from solver.text import N_, counted, say
from solver.tiles import Tile


def mark_melded(state: GameState, user_id: int) -> GameState:
    """The player made the initial meld outside the bot (``/meld``): only in a private game of one's own,
    where nobody else keeps the record. In a group's game the opening is a play the group sees."""
    ensure_playing(state)
    p = active_player(state, user_id)
    if state.is_group:
        raise errors.NotAnOpening(
            N_(
                "in a group's game the initial meld is made by playing it: the group sees it recorded "
                "(or chooses to record a smaller one as a house rule)"
            ),
            None,
            state.rules.initial_meld,
        )
    return with_player(state, replace(p, melded=True))


def opening_points(before: Sequence[TileSet], after: Sequence[TileSet]) -> int | None:
    """What a first play is worth as an initial meld: the value of its new sets (a joker as the tile it stands
    for), or None when it changed a set of the table (an opening lays new sets only, from the rack alone)."""
    old = Counter(_tiles_of(s) for s in before)
    value = 0
    for s in after:
        if old[_tiles_of(s)] > 0:
            old[_tiles_of(s)] -= 1
        else:
            value += s.value
    return None if +old else value


def _tiles_of(s: TileSet) -> tuple[str, ...]:
    return tuple(str(t) for t in s.tiles)


def check_opening(before: Sequence[TileSet], table: Sequence[TileSet], needed: int) -> None:
    """A first play (all of the turn: ``before`` is the table as the turn began) must be a valid initial
    meld (``NotAnOpening`` says by how much it falls short)."""
    points = opening_points(before, table)
    if points is None:
        raise errors.NotAnOpening(
            N_("a first play (the initial meld) lays new sets from the rack only; it may not change the table's sets"),
            None,
            needed,
        )
    if points < needed:
        short = counted(
            "an initial meld needs {n} point; this one has {points} of {n}",
            "an initial meld needs {n} points; this one has {points} of {n}",
            needed,
            points=points,
        )
        raise errors.NotAnOpening(short, points, needed)


def opening_due(state: GameState, player: int) -> bool:
    """Whether what ``player`` puts down now must be (part of) an initial meld."""
    p = state.player(player)
    if p is None:
        return False
    adding = state.adding
    if adding is not None and adding.player == player:
        return adding.opening
    return not p.melded


def play_turn_check(state: GameState, player: int) -> None:
    """A play by ``player`` comes on their turn, or adds to the play they just made (``NotYourTurn`` otherwise,
    naming whose turn it is)."""
    if state.adding is not None and state.adding.player == player:
        return
    turn_check(state, player)


def play(
    state: GameState,
    recorder: int,
    player: int,
    new_table: Sequence[TileSet],
    *,
    trace: Trace | None = None,
    based_on: Sequence[TileSet] | None = None,
    out_of_turn: bool = False,
    opening_waived: bool = False,
    now: datetime | None = None,
) -> Played:
    """``player`` put tiles down, leaving ``new_table``; ``recorder`` (a player at the table) says so.

    The new table keeps every old tile, in valid sets, and adds at least one, from the player's rack. A first
    play must be a valid initial meld unless ``opening_waived`` (a house rule the players chose). ``trace``:
    where each tile of ``new_table`` came from (traced here when not given). ``out_of_turn``: the play is
    recorded although it was someone else's turn; the turns in between are passed over (and said so).
    ``based_on``: the table the play was worked out on, which must still be the table. ``now``: when it
    happens (a play that ends the game dates its end).
    """
    ensure_playing(state)
    active_player(state, recorder)
    p = active_player(state, player)
    if based_on is not None:
        check_unchanged(state, based_on)
    table = check_sets(new_table, state.rules)
    check_kept(state, table)
    new = table_tiles(table)
    placed_count = new - table_tiles(state.table)
    placed = sort_tiles(placed_count.elements(), state.rules)
    if not placed:
        raise errors.NothingPlayed(N_("no tile was put down; to correct the table use /table fix"))
    check_tiles(state.rules, say("the new table"), new.elements())
    adding = state.adding if state.adding is not None and state.adding.player == player else None
    if not out_of_turn:
        play_turn_check(state, player)
    turn_began = adding.before if adding is not None else state.table
    opening = opening_due(state, player) and not opening_waived
    if opening:
        check_opening(turn_began, table, state.rules.initial_meld)
    mover, short = _rack_after(p, placed_count, state, recorder)
    trace = trace if trace is not None and trace.fits(table) else traced(state.table, table, state.rules)
    numbers = renumber(state.numbers, trace.kept_from)
    order = order_of(numbers)
    table, numbers = in_order(table, numbers)
    after = with_player(replace(state, table=table, numbers=numbers, passes=0), mover)
    skipped: tuple[int, ...] = ()
    if adding is None:
        skipped = passed_over(state, player)
        after = replace(after, turn=next_turn(after, player), adding=Adding(player, tuple(state.table), opening))
    after, trimmed = reconcile(after, keep=[player])
    check_room(after)
    won = mover.rack_size == 0
    if won:
        after = after_going_out(after, player, now or datetime.now(UTC))
    return Played(
        after,
        placed,
        player,
        rack_short=sort_tiles(short.elements(), state.rules),
        trimmed=trimmed,
        skipped=skipped,
        added=adding is not None,
        won=won,
        trace=trace.permuted(order),
    )


def _rack_after(
    p: PlayerState, placed: Counter[Tile], state: GameState, recorder: int
) -> tuple[PlayerState, Counter[Tile]]:
    """The player once ``placed`` left their rack, and the tiles their known rack could not give.

    Placed tiles come off the rack's known tiles first, then from its unknown ones. A play that needs more
    than the rack holds is refused; one whose tiles the known rack lacks is refused when the player records
    it (their word against their own rack: one is wrong), and otherwise forgets the rack.
    """
    count = sum(placed.values())
    if count > p.rack_size and recorder == p.user_id:  # said to the player: "you"
        raise errors.RackLacks(
            counted(
                "you have only {n} tile on your rack, and this play puts down {placed}",
                "you have only {n} tiles on your rack, and this play puts down {placed}",
                p.rack_size,
                placed=count,
            )
        )
    if count > p.rack_size:
        raise errors.RackLacks(
            counted(
                "{name} has only {n} tile on their rack, and this play puts down {placed}",
                "{name} has only {n} tiles on their rack, and this play puts down {placed}",
                p.rack_size,
                name=p.name,
                placed=count,
            )
        )
    known = Counter(p.rack)
    beyond = placed - known
    short: Counter[Tile] = Counter()
    if sum(beyond.values()) > p.unknown:
        if recorder == p.user_id:
            raise errors.RackLacks(
                N_(
                    "your rack as I have it does not hold {tiles}, and the table cannot give them; "
                    "if your rack is wrong, send it again (/rack), or type the whole new table"
                ),
                tiles=words(beyond, state.rules),
            )
        short = beyond
        rack: tuple[Tile, ...] = ()
    else:
        left = known - placed
        rack = sort_tiles(left.elements(), state.rules)
    size = p.rack_size - count
    unnamed = min(p.unnamed, size - len(rack))
    mover = replace(p, rack=rack, rack_size=size, unnamed=unnamed, melded=True, tiles_played=p.tiles_played + count)
    return mover, short


def apply_suggestion(
    state: GameState, user_id: int, solution: Solution, *, out_of_turn: bool = False, now: datetime | None = None
) -> Played:
    """Make the solver's play for ``user_id`` ("I played this"): the table and the rack change together,
    the new table numbered and traced as the suggestion showed it (``solution`` in its shown order)."""
    ensure_playing(state)
    p = active_player(state, user_id)
    if not solution.has_play:
        raise errors.NothingPlayed(N_("this suggestion puts no tile down; draw a tile instead"))
    check_suggestion(state, p, solution)
    trace = Trace(solution.kept_from, solution.origins)
    played = play(state, user_id, user_id, solution.table, trace=trace, out_of_turn=out_of_turn, now=now)
    if Counter(played.placed) != Counter(solution.placed):
        raise errors.StaleSuggestion(N_("this suggestion does not add up (its table and its placed tiles differ)"))
    return played


def check_suggestion(state: GameState, p: PlayerState, solution: Solution) -> None:
    """The suggestion was made for this very table and rack (and the meld as it stands): else it is stale,
    said before anything else is asked."""
    if solution.rules != state.rules:
        raise errors.StaleSuggestion(N_("this suggestion was made under other rules; ask /solve again"))
    if table_key(solution.table_before) != table_key(state.table):
        raise errors.StaleSuggestion(N_("the table has changed since this suggestion; ask /solve again"))
    if Counter(solution.placed) + Counter(solution.rack_left) != Counter(p.rack) or not p.rack_known:
        raise errors.StaleSuggestion(N_("your rack has changed since this suggestion; ask /solve again"))
    if opening_due(state, p.user_id) and not solution.initial_meld:
        raise errors.StaleSuggestion(
            N_("you have not made your initial meld, but this suggestion was solved as if you had; ask /solve again")
        )
