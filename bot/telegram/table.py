"""The shared table and the turn: /table, /play, /undo, /status, /meld, /pass, /fit.

A change to a group's table is shown in the group with its picture, also when
it was made from a player's private chat linked to that group.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from telegram import Chat, Update
from telegram.ext import ContextTypes

from bot.game import EventKind, GameState, PlayerState
from bot.game.errors import NoGame
from bot.game.table import lost_message
from bot.game.tiles import table_key, table_tiles
from bot.telegram import replies
from bot.telegram.deps import deps
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, in_group_game, is_group, name_of, seat_of, speaker
from bot.telegram.parsing import command_text
from bot.telegram.sending import photo_coming, post_to_game_chat, say, show
from bot.telegram.work import play_picture, table_picture
from solver.errors import RummikubError
from solver.fit import fit
from solver.notation import NotationError, format_table, parse_table, parse_tiles
from solver.puzzle_search import PuzzleLimitError
from solver.sets import TileSet
from solver.table import given_as_sets, read_table
from solver.tiles import Tile

TABLE_EVENTS = {EventKind.TABLE_SET, EventKind.PLAY_RECORDED, EventKind.SUGGESTION_APPLIED}


def _args(update: Update) -> str:
    assert update.message is not None and update.message.text is not None
    return command_text(update.message.text)


async def read_table_for(context: ContextTypes.DEFAULT_TYPE, text: str, state: GameState) -> list[TileSet]:
    """The table a message gives: sets as typed are parsed here and now; loose tiles go to the solver.

    Parsing is quick and pure Python; in a thread it only waited for the GIL, behind the handlers of
    every other message that came at the same time.
    """
    if given_as_sets(text):
        return parse_table(text, state.rules)
    d = deps(context)
    return await d.off_loop(read_table, text, state.rules, time_limit=d.settings.solver_time_limit)


async def show_table(update: Update, context: ContextTypes.DEFAULT_TYPE, state: GameState, caption: str) -> None:
    """The table's picture in this chat: with the viewer's rack below in private, never in a group."""
    chat, user = speaker(update)
    rack: Sequence[Tile] | None = None
    if not is_group(chat):
        me = state.player(user.id)
        rack = me.rack if me is not None and me.active else None
    async with photo_coming(context, chat):
        header = replies.table_header(state)
        picture = await deps(context).off_loop(table_picture, state.table, state.rules, rack, header)
    await show(update, context, picture, caption)


#: ``/table fix …``: replace a shared table even though tiles leave it (a mistake typed earlier).
FIX_WORD = "fix"


_FIX = re.compile(rf"\s*{FIX_WORD}(?:[\s:]+|$)", re.IGNORECASE)


def fix_word(text: str) -> tuple[bool, str]:
    """Whether the text starts with the word ``fix`` (then a space, a new line or a colon), and the rest."""
    m = _FIX.match(text)
    if m is None:
        return False, text
    return True, text[m.end() :].strip()


def shares_table(state: GameState, chat: Chat) -> bool:
    """A table others play on too: a group's game, here in the group or from a private chat linked to it."""
    return is_group(chat) or in_group_game(state, chat)


async def set_table(update: Update, context: ContextTypes.DEFAULT_TYPE, state: GameState, text: str) -> GameState:
    """The table is now ``text`` (/table, a ``table:`` line, tiles tapped as the table).

    On a player's own table it is a correction, anything goes. A shared table keeps every tile that lies
    on it (``change_shared_table``), unless the text starts with ``fix``.
    """
    chat, user = speaker(update)
    fix, text = fix_word(text)
    if not text:
        raise RummikubError("write the whole table after /table fix, like /table fix 6R 7R 8R | 7K 7O 7R")
    sets = await read_table_for(context, text, state)
    if shares_table(state, chat):
        return await change_shared_table(update, context, state, sets, fix=fix)
    state = await deps(context).service.set_table(state.id, user.id, sets)
    await show_table(update, context, state, f"Table set: {replies.plural(len(state.table), 'set')}.")
    return state


async def change_shared_table(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    state: GameState,
    sets: Sequence[TileSet],
    *,
    fix: bool = False,
    show_here: bool = True,
    rack_after: Sequence[Tile] | None = None,
) -> GameState:
    """A new shared table: every old tile still there, in valid sets, and the group sees it.

    New tiles on it are a play (recorded as ``/play`` records one: the turn passes), except on the first
    table of a game when no rack the bot knows holds them: that is where the game starts. The same tiles
    laid out anew, or ``fix`` (a correction), only replace the table. ``show_here`` False: this chat gets
    no picture (the caller answers with one of its own), the group still does. ``rack_after``: the
    speaker's rack as they typed it with this table (see ``player_of``).
    """
    chat, user = speaker(update)
    old, new = table_tiles(state.table), table_tiles(sets)
    lost, placed = old - new, new - old
    if lost and not fix:
        raise RummikubError(lost_message(lost, state.rules))
    me = seat_of(state, user)
    if not fix and table_key(sets) == table_key(state.table):  # nothing to record, nothing to tell the group
        if show_here:
            await show_table(update, context, state, "No change: the table is already like that.")
        return state
    if placed and not fix and (state.table or player_of(state, me, placed, rack_after) is not None):
        return await record_play(update, context, state, tuple(sets), show_here=show_here, rack_after=rack_after)
    d = deps(context)
    # based_on: checked again under the game's lock, so a play or an undo made meanwhile is never overwritten
    based_on = None if fix else state.table
    state = await d.service.set_table(state.id, user.id, sets, with_rack=False, based_on=based_on)
    done = "corrected" if fix else "set"
    if show_here:
        await show_table(update, context, state, f"Table {done}: {replies.plural(len(state.table), 'set')}.")
    if in_group_game(state, chat):
        header = replies.table_header(state)
        picture = await d.off_loop(table_picture, state.table, state.rules, None, header)
        await post_to_game_chat(context, state, f"{name_of(user)} {done} the table.", picture)
    return state


@guarded
async def table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/table sets… replaces the table; /table alone shows it."""
    chat, user = speaker(update)
    state = await current_game(deps(context).service, chat, user)
    text = _args(update)
    if not text:
        await show_table(update, context, state, format_table(state.table) or "The table is empty.")
        return
    await set_table(update, context, state, text)


def new_table(state: GameState, sets: Sequence[TileSet]) -> tuple[TileSet, ...]:
    """What /play means: the whole new table when it holds every old tile, else sets put down.

    A set put down that holds whole sets of the table and more (``/play 1R 2R 3R 4R`` on ``1R 2R 3R``), or
    two or more of them (``1R 2R 3R 4R 5R 6R 7R`` on ``1R 2R 3R`` and ``5R 6R 7R``), is those sets grown or
    joined: it takes their place (the sets that leave it the fewest new tiles). Any other set is new: a set
    equal to one on the table is a second one (also when the sets typed are the table as it is, but not
    when they hold every tile on the table and more: then they are the new table). Other rearrangements
    need the whole table written.
    """
    old, given = table_tiles(state.table), table_tiles(sets)
    if state.table and not old - given and table_key(sets) != table_key(state.table):
        return tuple(sets)
    taken: dict[int, TileSet | None] = {}  # old set -> the set that took its place (None: joined into another)
    added = []
    for s in sets:
        inside = _grown_from(s, [i for i in range(len(state.table)) if i not in taken], state.table)
        if inside:
            taken.update({i: None for i in inside})
            taken[min(inside)] = s
        else:
            added.append(s)
    kept = (taken.get(i, old_set) for i, old_set in enumerate(state.table))
    return (*(s for s in kept if s is not None), *added)


#: How many sets of the table that fit in one set put down are weighed against each other (more is absurd).
_GROWN_CANDIDATES = 12


def _grown_from(put: TileSet, free: list[int], table: Sequence[TileSet]) -> list[int]:
    """The old sets ``put`` grew from or joined: the disjoint sets inside it that cover most of its tiles,
    when that is two or more sets, or one smaller than ``put``; else none (``put`` is a new set)."""
    room = Counter(put.tiles)
    fits = [i for i in free if not Counter(table[i].tiles) - room][:_GROWN_CANDIDATES]
    best: list[int] = []
    best_size = 0

    def search(at: int, chosen: list[int], left: Counter[Tile], size: int) -> None:
        nonlocal best, best_size
        if size > best_size:
            best, best_size = list(chosen), size
        for k in range(at, len(fits)):
            held = Counter(table[fits[k]].tiles)
            if not held - left:
                search(k + 1, [*chosen, fits[k]], left - held, size + sum(held.values()))

    search(0, [], room, 0)
    if len(best) >= 2 or (best and best_size < len(put.tiles)):
        return best
    return []


@guarded
async def play(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/play sets…: record what a player put down; the turn passes on."""
    chat, user = speaker(update)
    state = await current_game(deps(context).service, chat, user)
    seat_of(state, user)
    text = _args(update)
    if not text:
        raise RummikubError("write the sets put down, like /play 9R 10R 11R (or the whole new table)")
    if fix_word(text)[0]:
        raise RummikubError("/play records a play; to correct the table write /table fix and the whole table")
    try:
        sets = await read_table_for(context, text, state)
    except NotationError:
        raise  # a typo: the parser's message says which
    except RummikubError as why:
        if given_as_sets(text) or not state.table:
            raise
        raise RummikubError(  # /play 4R, meaning "onto 1R 2R 3R"
            f"{str(why).rstrip('.')}. To add tiles to a set on the table, write that set as it is now, like "
            "/play 1R 2R 3R 4R for 4R on 1R 2R 3R"
        ) from None
    await record_play(update, context, state, new_table(state, sets))


def player_of(
    state: GameState, me: PlayerState, placed: Counter[Tile], rack_after: Sequence[Tile] | None = None
) -> int | None:
    """Whose rack the tiles of a play came from, as far as the bot knows the racks.

    The player whose turn it is, when their rack holds them; else the speaker, when theirs does (people
    forget to /pass, so the turn may be behind). ``rack_after`` is the speaker's rack as they typed it with
    the new table: then only what left their rack is theirs. None: a rack the bot does not know (the play
    is recorded for the player whose turn it is, and no rack changes).
    """

    def holds(p: PlayerState) -> bool:
        if p.user_id == me.user_id and rack_after is not None:
            return not placed - (Counter(p.rack) - Counter(rack_after))
        return not placed - Counter(p.rack)

    if rack_after is not None and holds(me):  # the rack they typed says these tiles left it
        return me.user_id
    turn = state.turn_player
    if turn is not None and turn.active and turn.user_id != me.user_id and holds(turn):
        return turn.user_id
    return me.user_id if holds(me) else None


async def record_play(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    state: GameState,
    table_after: tuple[TileSet, ...],
    *,
    show_here: bool = True,
    rack_after: Sequence[Tile] | None = None,
) -> GameState:
    """A play that left ``table_after``, from the rack ``player_of`` names. The picture goes to this chat
    (unless ``show_here`` is False) and to the game's group. ``rack_after``: the speaker's rack as they typed
    it with the table; it is what they have left if the play was theirs (the caller stores it)."""
    chat, user = speaker(update)
    service = deps(context).service
    me = seat_of(state, user)
    placed = table_tiles(table_after) - table_tiles(state.table)
    player = player_of(state, me, placed, rack_after)
    played = await service.record_play(state.id, user.id, table_after, player=player, based_on=state.table)
    after = played.state
    what = f"{replies.tiles_text(played.placed, after.rules)} ({replies.plural(len(played.placed), 'tile')})"
    by = after.player(player) if player is not None else None
    left = rack_after if by is not None and by.user_id == user.id and rack_after is not None else None
    won = by is not None and not (left if left is not None else by.rack)
    if by is not None:
        said = f"{by.name} put down {what}." + (f" {replies.won_line(by.name)}" if won else "")
    else:  # from a rack the bot does not know: the turn's player put it down
        mover = state.turn_player
        by_whom = f" by {mover.name}" if mover is not None and mover.user_id != user.id else ""
        said = f"Recorded: {what} put down{by_whom}."
    caption = said if won else f"{said} {replies.turn_line(after)}".strip()  # a win ends the turns
    async with photo_coming(context, chat):
        picture = await deps(context).off_loop(play_picture, state.table, after.table, played.placed, after.rules)
    if show_here:
        await show(update, context, picture, caption)
    if in_group_game(after, chat):
        await post_to_game_chat(context, after, caption, picture)
    return after


@guarded
async def undo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, user = speaker(update)
    service = deps(context).service
    try:
        state = await current_game(service, chat, user, create=False)
    except NoGame:  # a game /end closed by mistake: its end may be undone
        state = await service.newest_game(chat.id)
    undone = await service.undo(state.id, user.id)
    after = undone.state
    who = after.player(undone.event.user_id) if undone.event.user_id is not None else None
    if who is not None:
        whose = f"{who.name}'s"
    elif undone.event.user_id == user.id:  # their joining: the seat is gone, the name is the speaker's
        whose = f"{name_of(user)}'s"
    else:
        whose = "the"
    text = f"Undone: {whose} {undone.event.kind.words}. {replies.turn_line(after)}".strip()
    if undone.event.kind in TABLE_EVENTS:
        await show_table(update, context, after, text)
        if in_group_game(after, chat):
            picture = await deps(context).off_loop(
                table_picture, after.table, after.rules, None, replies.table_header(after)
            )
            await post_to_game_chat(context, after, f"{name_of(user)}: {text}", picture)
    else:
        await say(update, context, text)


@guarded
async def status(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The table's picture; in a group the players, their tile counts and the turn; in private your rack."""
    chat, user = speaker(update)
    state = await current_game(deps(context).service, chat, user)
    lines = []
    if is_group(chat) or in_group_game(state, chat):
        lines.append(replies.players_text(state))
    if not is_group(chat):
        me = state.player(user.id)
        if me is not None and me.active:
            lines.append(replies.rack_text(me, state.rules))
            lines.append("Initial meld made." if me.melded else "Initial meld not made yet.")
    await show_table(update, context, state, "\n".join(lines)[: replies.CAPTION_LIMIT])


@guarded
async def meld(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, user = speaker(update)
    service = deps(context).service
    state = await current_game(service, chat, user)
    await service.mark_melded(state.id, user.id)
    await say(update, context, f"Noted: {name_of(user)} has made the initial meld; /solve now plays onto the table.")


@guarded
async def pass_turn(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, user = speaker(update)
    service = deps(context).service
    state = await current_game(service, chat, user)
    passed = state.turn_player
    after = await service.pass_turn(state.id, user.id)
    if passed is None or passed.user_id == user.id:
        said = f"{name_of(user)} passes."
    else:  # anyone may move the turn on: say whose turn was passed
        said = f"{name_of(user)} passed {passed.name}'s turn."
    text = f"{said} {replies.turn_line(after)}".strip()
    await say(update, context, text)
    if in_group_game(after, chat):
        await post_to_game_chat(context, after, text)


@guarded
async def fit_tile(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/fit 3R: the fewest puzzle actions that get one tile onto the table."""
    chat, user = speaker(update)
    d = deps(context)
    state = await current_game(d.service, chat, user)
    tiles = parse_tiles(_args(update), state.rules)
    if len(tiles) != 1:
        raise RummikubError("name one tile, like /fit 3R")
    tile = tiles[0]
    try:
        found = await d.off_loop(fit, state.table, tile, state.rules)
    except PuzzleLimitError:
        raise RummikubError(f"the table is too big to search every way to fit {tile}; try /solve") from None
    if found is None:
        await say(update, context, f"{tile} cannot be fitted onto this table by moving tiles.")
        return
    await say(update, context, found.describe()[:4000])
