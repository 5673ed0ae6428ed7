"""The rules of keeping a game: each request as a pure function of the game before it.

Nothing here touches the database: a function takes a ``GameState`` and
returns the next one (or raises a ``GameError``), so the service can run it
inside a locked transaction, retry it, and diff the result for the history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime

from bot.storage import errors
from bot.storage.domain import GameState, GameStatus, PlayerScore, PlayerState
from solver.deck import DeckError, check_deck
from solver.rules import Rules
from solver.sets import SetError, TileSet, make_set
from solver.solution import Solution
from solver.tiles import Tile

MAX_NAME = 64


def clean_name(name: str, user_id: int) -> str:
    """A display name that fits the column and is never empty."""
    name = " ".join(name.split())[:MAX_NAME]
    return name or f"player {user_id}"


def ensure_running(state: GameState) -> None:
    if not state.running:
        raise errors.GameOver("this game has ended; /new starts another")


def active_player(state: GameState, user_id: int) -> PlayerState:
    """The user's seat, if they play in this game now."""
    p = state.player(user_id)
    if p is None or not p.active:
        raise errors.NotAPlayer("you are not playing in this game; /join first")
    return p


def sort_tiles(tiles: Iterable[Tile], rules: Rules) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=rules.tile_key))


def check_tiles(rules: Rules, what: str, *parts: Iterable[Tile]) -> None:
    """Every tile exists in this game's deck, and no more of each than the deck holds."""
    lists = [list(part) for part in parts]
    for part in lists:
        for t in part:
            if rules.copies_of(t) == 0:
                raise errors.TooManyTiles(f"{t} is not in this game's deck ({rules.describe()})")
    try:
        check_deck(rules, *lists)
    except DeckError as why:
        raise errors.TooManyTiles(f"{what}: {why}") from None


def check_sets(sets: Sequence[TileSet], rules: Rules) -> tuple[TileSet, ...]:
    """Each set valid under this game's rules (they may differ from the rules it was parsed with)."""
    out = []
    for number, s in enumerate(sets, start=1):
        try:
            out.append(make_set(s.tiles, rules))
        except SetError as why:
            raise errors.InvalidTable(f"set {number} ({s}): {why}") from None
    return tuple(out)


def table_tiles(table: Iterable[TileSet]) -> Counter[Tile]:
    total: Counter[Tile] = Counter()
    for s in table:
        total.update(s.tiles)
    return total


def missing(have: Iterable[Tile], need: Iterable[Tile]) -> Counter[Tile]:
    """The tiles of ``need`` that ``have`` lacks (with multiplicity)."""
    return Counter(need) - Counter(have)


def words(tiles: Counter[Tile], rules: Rules) -> str:
    return " ".join(str(t) for t in sort_tiles(tiles.elements(), rules))


def next_turn(state: GameState, after: int | None) -> int | None:
    """The active player seated after ``after`` (round the table), None when nobody plays."""
    current = state.player(after) if after is not None else None
    return _seated_after(state, current.seat if current is not None else None)


def _seated_after(state: GameState, seat: int | None) -> int | None:
    """The active player in the first seat after ``seat`` (round the table; the first seat for None)."""
    seated = sorted(state.active_players, key=lambda p: p.seat)
    if not seated:
        return None
    later = [p for p in seated if seat is not None and p.seat > seat]
    return (later or seated)[0].user_id


def with_player(state: GameState, player: PlayerState) -> GameState:
    others = [p for p in state.players if p.user_id != player.user_id]
    return replace(state, players=tuple(sorted([*others, player], key=lambda p: p.seat)))


# --- the requests -----------------------------------------------------------------------------


def join(state: GameState, user_id: int, name: str) -> GameState:
    """Sit down at the end of the table; someone who left comes back with an empty rack."""
    ensure_running(state)
    old = state.player(user_id)
    if old is not None and old.active:
        raise errors.AlreadyJoined(f"{old.name} already plays in this game")
    seat = max((p.seat for p in state.players), default=-1) + 1
    player = PlayerState(
        user_id=user_id,
        name=clean_name(name, user_id),
        seat=seat,
        rack=(),
        melded=old.melded if old else False,
        tiles_played=old.tiles_played if old else 0,
        active=True,
    )
    state = with_player(state, player)
    return replace(state, turn=state.turn if state.turn is not None else user_id)


def turn_to_a_seat(state: GameState, before: GameState) -> GameState:
    """``state`` with the turn on a seated player: when the player whose turn it is no longer sits at the
    table (an undo of their joining took the seat), the turn goes to the next seat after theirs."""
    turn = state.player(state.turn) if state.turn is not None else None
    if state.turn is None or (turn is not None and turn.active):
        return state
    gone = before.player(state.turn)
    return replace(state, turn=_seated_after(state, gone.seat if gone is not None else None))


def leave(state: GameState, user_id: int) -> GameState:
    """Stand up: the rack goes back to the pool, the turn moves on if it was theirs."""
    ensure_running(state)
    p = active_player(state, user_id)
    after = with_player(state, replace(p, active=False, rack=()))
    turn = next_turn(after, user_id) if state.turn == user_id else state.turn
    return replace(after, turn=turn)


def set_rack(state: GameState, user_id: int, tiles: Sequence[Tile]) -> GameState:
    ensure_running(state)
    p = active_player(state, user_id)
    check_tiles(state.rules, "the table and your rack", table_tiles(state.table).elements(), tiles)
    return with_player(state, replace(p, rack=sort_tiles(tiles, state.rules)))


def draw(state: GameState, user_id: int, tiles: Sequence[Tile]) -> GameState:
    ensure_running(state)
    p = active_player(state, user_id)
    if not tiles:
        raise errors.NoTiles("name the tiles you drew, like /draw 7B")
    rack = (*p.rack, *tiles)
    check_tiles(state.rules, "the table and your rack with the tiles drawn", table_tiles(state.table).elements(), rack)
    return with_player(state, replace(p, rack=sort_tiles(rack, state.rules)))


def set_table(
    state: GameState,
    user_id: int,
    sets: Sequence[TileSet],
    *,
    with_rack: bool = True,
    based_on: Sequence[TileSet] | None = None,
) -> GameState:
    """Replace the whole table (no turn passes).

    ``with_rack``: the table and the player's rack must fit the deck together. A table everyone sees (a
    group's) is checked alone: what the group reads must not tell anyone's rack, and the table everyone
    sees is right over a rack typed earlier. ``based_on``: the table the new one was made from, which
    must still be the table, and every tile of it must stay (a shared table laid out anew: see
    ``check_unchanged``); None for a correction.
    """
    ensure_running(state)
    p = active_player(state, user_id)
    table = check_sets(sets, state.rules)
    if based_on is not None:
        check_unchanged(state, based_on)
        check_kept(state, table)
    if with_rack:
        check_tiles(state.rules, "the table and your rack", table_tiles(table).elements(), p.rack)
    else:
        check_tiles(state.rules, "the table", table_tiles(table).elements())
    return replace(state, table=table)


def check_unchanged(state: GameState, based_on: Iterable[TileSet]) -> None:
    """The table is still the one a message was read against.

    Checked under the game's lock: between reading a message and storing it, another player's message
    (a play, an undo) may have changed the table, and what this one says was worked out on the old one.
    """
    if table_key(state.table) != table_key(based_on):
        raise errors.TableChanged(
            "the table changed while I read your message (another player changed it); "
            "look at it with /table and send yours again"
        )


def check_kept(state: GameState, table: Iterable[TileSet]) -> None:
    """Every tile on the table stays on it, whatever else a play does."""
    lost = table_tiles(state.table) - table_tiles(table)
    if lost:
        raise errors.InvalidTable(lost_message(lost, state.rules))


def lost_message(lost: Counter[Tile], rules: Rules) -> str:
    return (
        f"the new table lacks {words(lost, rules)} from the old table; every tile on the table stays there "
        "(if the table was wrong, write it whole after /table fix)"
    )


def mark_melded(state: GameState, user_id: int) -> GameState:
    ensure_running(state)
    p = active_player(state, user_id)
    return with_player(state, replace(p, melded=True))


def pass_turn(state: GameState, user_id: int) -> GameState:
    """Move the turn to the next player. Any player may do it: the bot keeps the record, it is no referee."""
    ensure_running(state)
    active_player(state, user_id)
    return replace(state, turn=next_turn(state, state.turn))


def play(
    state: GameState,
    user_id: int,
    new_table: Sequence[TileSet],
    player: int | None,
    *,
    based_on: Sequence[TileSet] | None = None,
) -> tuple[GameState, tuple[Tile, ...]]:
    """A play at the table: the new table keeps every old tile, in valid sets, and adds at least one.

    ``player`` is whose rack the new tiles came from: that rack must hold them
    and loses them, and that player has now melded. None records a play by
    someone whose rack the bot does not know. The turn passes to the next
    player after whoever played (or after the current one, if unknown).
    """
    ensure_running(state)
    active_player(state, user_id)
    if based_on is not None:
        check_unchanged(state, based_on)
    table = check_sets(new_table, state.rules)
    check_kept(state, table)
    old, new = table_tiles(state.table), table_tiles(table)
    placed_count = new - old
    placed = sort_tiles(placed_count.elements(), state.rules)
    if not placed:
        raise errors.NothingPlayed("no tile was put down; to correct the table use /table")
    after = replace(state, table=table)
    rack: Iterable[Tile] = ()
    if player is not None:
        p = active_player(state, player)
        short = placed_count - Counter(p.rack)
        if short:
            raise errors.TilesNotOnRack(f"{p.name}'s rack does not hold {words(short, state.rules)}")
        left = Counter(p.rack) - placed_count
        rack = sort_tiles(left.elements(), state.rules)
        after = with_player(after, replace(p, rack=tuple(rack), melded=True, tiles_played=p.tiles_played + len(placed)))
    check_tiles(state.rules, "the new table", new.elements())
    try:
        check_tiles(state.rules, "", new.elements(), rack)
    except errors.TooManyTiles:  # said where others may read it (a group): which tiles would tell the rack
        raise errors.TooManyTiles(
            "the new table and the rest of the player's rack hold more tiles than the deck has; "
            "the rack is out of date: set it again in private"
        ) from None
    turn = next_turn(after, player if player is not None else state.turn)
    return replace(after, turn=turn), placed


def apply_suggestion(state: GameState, user_id: int, solution: Solution) -> tuple[GameState, tuple[Tile, ...]]:
    """Make the solver's play for ``user_id``: the table and the rack change together."""
    ensure_running(state)
    p = active_player(state, user_id)
    if not solution.has_play:
        raise errors.NothingPlayed("this suggestion puts no tile down; draw a tile instead")
    if solution.rules != state.rules:
        raise errors.StaleSuggestion("this suggestion was made under other rules; ask /solve again")
    if table_key(solution.table_before) != table_key(state.table):
        raise errors.StaleSuggestion("the table has changed since this suggestion; ask /solve again")
    if Counter(solution.placed) + Counter(solution.rack_left) != Counter(p.rack):
        raise errors.StaleSuggestion("your rack has changed since this suggestion; ask /solve again")
    if not p.melded and not solution.initial_meld:
        raise errors.StaleSuggestion(
            "you have not made your initial meld, but this suggestion was solved as if you had; ask /solve again"
        )
    after, placed = play(state, user_id, solution.table, player=user_id)
    if Counter(placed) != Counter(solution.placed):
        raise errors.StaleSuggestion("this suggestion does not add up (its table and its placed tiles differ)")
    return after, placed


def table_key(table: Iterable[TileSet]) -> list[tuple[str, ...]]:
    """A table as its sets' tiles, the sets in any order: equal keys, the same sets (jokers' meanings aside)."""
    return sorted(tuple(str(t) for t in s.tiles) for s in table)


def end(state: GameState, now: datetime) -> tuple[GameState, tuple[PlayerScore, ...]]:
    ensure_running(state)
    return replace(state, status=GameStatus.ENDED, ended_at=now), scores(state)


def scores(state: GameState) -> tuple[PlayerScore, ...]:
    """Points left on each active player's rack (a joker costs 30), fewest first; racks the bot never
    knew last (an empty rack nobody set is no win)."""
    rows = [PlayerScore(p.user_id, p.name, len(p.rack), p.points_left, p.rack_known) for p in state.active_players]
    return tuple(sorted(rows, key=lambda s: (not s.rack_known, s.points_left, s.tiles_left)))
