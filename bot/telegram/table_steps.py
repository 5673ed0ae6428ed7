"""The table in the chat: read from a message, shown, set (``receive_table``) and changed for everyone who
shares it (``change_shared_table``); the steps the table's, the messages' and the photos' handlers share."""

from __future__ import annotations

from collections.abc import Awaitable, Sequence

from telegram import Chat, Message, Update

from bot.game import GameState
from bot.game.table import check_kept, is_play, same_table
from bot.game.tiles import table_tiles
from bot.telegram import notices
from bot.telegram import parsing as typed
from bot.telegram.answering import send_answer
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.games import in_group_game, name_of, seat_of
from bot.telegram.parsing import fix_word
from bot.telegram.plays import PlayDraft, advance
from bot.telegram.runtime.work import table_picture
from bot.telegram.sending import photo_coming, post_to_game_chat, show
from bot.telegram.words import replies
from bot.telegram.words.language import _, n_
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.sets import TileSet
from solver.solution import Objective
from solver.table import given_as_sets, read_table
from solver.text import N_
from solver.tiles import Tile


async def read_table_for(context: BotContext, text: str, state: GameState) -> list[TileSet]:
    """The table a message gives: sets as typed are parsed here and now; loose tiles go to the solver.

    Parsing is quick and pure Python; in a thread it only waited for the GIL, behind the handlers of
    every other message that came at the same time.
    """
    if given_as_sets(text):
        return typed.table(text, state.rules)
    d = context.deps
    return await d.off_loop(read_table, text, state.rules, time_limit=d.settings.solver_time_limit)


async def show_table(update: Update, context: BotContext, state: GameState, caption: str) -> None:
    """The table's picture in this chat: with the viewer's rack below in private, never in a group."""
    chat, user = context.where, context.who
    rack: Sequence[Tile] | None = None
    if not is_group(chat):
        me = state.player(user.id)
        rack = me.rack if me is not None and me.active else None
    async with photo_coming(context, chat):
        header = replies.table_header(state)
        words = picture_wording()
        picture = await context.deps.off_loop(
            table_picture, state.table, state.rules, rack, header, labels=state.numbers, wording=words
        )
    await show(update, context, picture, caption)


def shares_table(state: GameState, chat: Chat) -> bool:
    """A table others play on too: a group's game, here in the group or from a private chat tied to it."""
    return is_group(chat) or in_group_game(state, chat)


async def receive_table(
    update: Update,
    context: BotContext,
    state: GameState,
    text: str,
    *,
    answering: str | None = None,
    then_solve: bool = False,
) -> GameState | None:
    """The table is now ``text`` (/table, a ``table:`` line, tiles tapped as the table, a photo's reading).

    On a player's own table it is a correction, anything goes. A shared table keeps every tile that lies
    on it (``change_shared_table``), unless the text starts with ``fix``. ``answering``: the question whose
    tap brought the table here, answered in the same transaction as the change (so a second tap finds it
    gone), or dropped when nothing changes. ``then_solve``: on a player's own table, with their rack known,
    the answer is their best play (which shows the table) rather than the table alone.
    """
    chat, user = context.where, context.who
    fix, text = fix_word(text)
    if not text:
        raise RummikubError(N_("write the whole table after /table fix, like /table fix 6R 7R 8R | 7K 7O 7R"))
    sets = await read_table_for(context, text, state)
    if shares_table(state, chat):
        return await change_shared_table(update, context, state, sets, fix=fix, answering=answering)
    changed = await context.service.set_table(state.id, user.id, sets, answering=answering)
    state = changed.state
    me = state.player(user.id)
    if then_solve and me is not None and me.rack and not me.unnamed and state.playing:
        await send_answer(update, context, state, me, Objective.TILES)
        return state
    sets_now = len(state.table)
    await show_table(
        update, context, state, n_("Table set: {n} set.", "Table set: {n} sets.", sets_now).format(n=sets_now)
    )
    return state


async def change_shared_table(
    update: Update,
    context: BotContext,
    state: GameState,
    sets: Sequence[TileSet],
    *,
    fix: bool = False,
    show_here: bool = True,
    rack_after: Sequence[Tile] | None = None,
    answering: str | None = None,
    reply_to: Message | None = None,
) -> GameState | None:
    """A new shared table: every old tile still there, in valid sets, and the group sees it.

    New tiles on it are a play by the one who typed it (``bot.telegram.plays``: on someone else's turn, or below the
    meld, the bot asks first, and None is returned while it does). The first table of a game is where the
    game starts, not a play. The same tiles laid out anew only replace the table; ``fix`` is a correction,
    which changes no rack and no turn. ``show_here`` False: this chat gets no picture of a table set (the
    caller answers), the group still does. ``rack_after``: the speaker's rack as typed with this table.
    ``answering``: see ``receive_table``.
    """
    chat, user = context.where, context.who
    if not fix:  # the core's rule: every tile on the table stays there (checked again under the game's lock)
        check_kept(state, sets)
    placed = table_tiles(sets) - table_tiles(state.table)
    seat_of(state, user)
    if not fix and same_table(state, sets):  # nothing to record, nothing to tell the group
        if answering is not None:
            await context.service.drop_question(answering)
        if show_here:
            await show_table(update, context, state, _("No change: the table is already like that."))
        return state
    if is_play(state, sets, fix=fix):
        rack = list(rack_after) if rack_after is not None else None  # an empty rack typed is a rack: none left
        draft = PlayDraft.of(state, user.id, [list(s.tiles) for s in sets], rack)
        reply = (reply_to or update.message) if show_here else None
        played = await advance(context, chat, user, state, draft, reply_to=reply, answering=answering)
        return None if played is None else played.state
    d = context.deps
    # based_on: checked again under the game's lock, so a play or an undo made meanwhile is never overwritten
    based_on = None if fix else state.table
    changed = await d.service.set_table(
        state.id, user.id, sets, with_rack=False, based_on=based_on, answering=answering
    )
    state = changed.state
    await notices.racks_trimmed(context, state, changed.trimmed)

    def said() -> str:
        sets_now = len(state.table)
        if fix:
            done = n_("Table corrected: {n} set.", "Table corrected: {n} sets.", sets_now)
            more = " " + _("A correction is not a play: no rack and no turn changed.")
        else:
            done = n_("Table set: {n} set.", "Table set: {n} sets.", sets_now)
            more = " " + _("(The table a game starts from is not a play: /play records a play.)") if placed else ""
        return done.format(n=sets_now) + more

    if show_here:
        await show_table(update, context, state, said())
    if in_group_game(state, chat):

        def picture() -> Awaitable[bytes]:
            header, words = replies.table_header(state), picture_wording()
            numbers = state.numbers
            return d.off_loop(table_picture, state.table, state.rules, None, header, labels=numbers, wording=words)

        await post_to_game_chat(context, state, lambda: f"{name_of(user)}: {said()}", picture)
    return state
