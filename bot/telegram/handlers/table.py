"""The shared table: /table, /play, /undo, /status, /meld, /fit.

A change to a group's table is shown in the group with its picture, also when
it was made from a player's private chat tied to that group.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Any

from telegram import Chat, Message, Update, User

from bot.game import EventKind, GameState, Undone
from bot.game.errors import NoGame
from bot.game.table import check_kept, is_play, same_table
from bot.game.tiles import table_tiles
from bot.game.undoing import owner
from bot.storage.service import Question
from bot.telegram import coach, notices
from bot.telegram import parsing as typed
from bot.telegram.asking import ask
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, in_group_game, name_of, seat_of, speaker
from bot.telegram.handlers.solving import send_answer
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.parsing import command_text, fix_word
from bot.telegram.plays import PlayDraft, advance
from bot.telegram.runtime.work import table_picture
from bot.telegram.sending import label, photo_coming, post_to_game_chat, say, show
from bot.telegram.words import replies
from bot.telegram.words.language import _, n_, spoken
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.fit import fit
from solver.notation import format_table
from solver.puzzle_search import PuzzleLimitError
from solver.sets import TileSet
from solver.solution import Objective
from solver.table import given_as_sets, read_table
from solver.text import N_
from solver.tiles import Tile

TABLE_EVENTS = {EventKind.TABLE_SET, EventKind.PLAY_RECORDED, EventKind.SUGGESTION_APPLIED}


def _args(update: Update) -> str:
    assert update.message is not None and update.message.text is not None
    return command_text(update.message.text)


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
    chat, user = speaker(update)
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
    chat, user = speaker(update)
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
    chat, user = speaker(update)
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


@guarded
async def table(update: Update, context: BotContext) -> None:
    """/table sets… replaces the table; /table alone shows it."""
    chat, user = speaker(update)
    state = await current_game(context, chat, user)
    text = _args(update)
    if not text:
        await show_table(update, context, state, format_table(state.table) or replies.empty_table(state.rules))
        return
    await receive_table(update, context, state, text)


@guarded
async def play(update: Update, context: BotContext) -> None:
    """/play sets…: record a play (the speaker's, unless they say it was the player whose turn it is)."""
    chat, user = speaker(update)
    state = await current_game(context, chat, user)
    seat_of(state, user)
    text = _args(update)
    if not text:
        raise RummikubError(WRITE_PLAY)
    if fix_word(text)[0]:
        raise RummikubError(N_("/play records a play; to correct the table write /table fix and the whole table"))
    chunks = typed.chunks(text, state.rules)
    if not chunks:
        raise RummikubError(WRITE_PLAY)
    await advance(context, chat, user, state, PlayDraft.of(state, user.id, chunks), reply_to=update.message)


UNDO = "undo"
WRITE_PLAY = N_("write the sets put down, like /play 9R 10R 11R (or the whole new table)")


@guarded
async def undo(update: Update, context: BotContext) -> None:
    """/undo: your own last change; someone else's later change only with their tap or your confirmation."""
    chat, user = speaker(update)
    service = context.service
    try:
        state = await current_game(context, chat, user, create=False)
    except NoGame:  # a game /end closed by mistake: its end may be undone
        state = await service.newest_game(chat.id)
    choice = await service.undo_choice(state.id, user.id)
    theirs = choice.theirs
    if theirs is None:
        await tell_undone(update, context, await service.undo(state.id, user.id), user)
        return
    other = owner(theirs)
    name, change = _name(state, other), _(theirs.kind.words)
    labels = [(_("Undo {name}'s {change}") if name else _("Undo the {change}")).format(name=name, change=change)]
    options: list[dict[str, Any]] = [{"event": theirs.id, "confirmed": True, "only": [user.id, other]}]
    if choice.mine is not None:
        labels.append(_("Undo my {change} instead").format(change=_(choice.mine.kind.words)))
        options.append({"event": choice.mine.id, "confirmed": False, "only": [user.id]})
    if name:
        text = _("The last change is {name}'s {change}, not yours. Undo it? {name} can tap, or you confirm.")
    else:
        text = _("The last change is the {change}, not yours. Undo it? They can tap, or you confirm.")
    text = text.format(name=name, change=change)
    may = [user.id] + ([other] if other is not None else [])
    await ask(context, chat, state, user.id, UNDO, text, labels, {"options": options, "asker": user.id},
              may_answer=may, reply_to=update.message)  # fmt: skip


async def undo_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    """A tap on the undo question: the change it names is taken back, said by the one who asked."""
    _chat, user = speaker(update)
    options = question.payload["options"]
    if not 0 <= option < len(options):
        raise RummikubError(N_("This button is from an earlier question; send /undo again"))
    chosen = options[option]
    if user.id not in chosen["only"]:
        raise RummikubError(N_("Only the player who asked, or whose change it is, can answer this"))
    undone = await context.service.undo(
        question.game_id,
        int(question.payload["asker"]),
        event_id=int(chosen["event"]),
        confirmed=bool(chosen["confirmed"]),
        answering=question.token,
    )
    await tell_undone(update, context, undone, user)


def _name(state: GameState, user_id: int | None) -> str:
    """The player's name, or empty when they no longer sit at the table."""
    p = state.player(user_id) if user_id is not None else None
    return p.name if p is not None else ""


async def tell_undone(update: Update, context: BotContext, undone: Undone, user: User) -> None:
    """Say what was taken back, naming whose change it was; a table change is shown (and told to the group)."""
    chat, _user = speaker(update)
    after = undone.state
    by = owner(undone.event)
    who = after.player(by) if by is not None else None
    # their joining undone: the seat is gone, the name is the speaker's
    name = who.name if who is not None else name_of(user) if by == user.id else ""

    def said() -> str:
        change = _(undone.event.kind.words)
        done = _("Undone: {name}'s {change}.") if name else _("Undone: the {change}.")
        return f"{done.format(name=name, change=change)} {replies.turn_line(after)}".strip()

    text = said()
    if undone.event.kind in (EventKind.PLAY_RECORDED, EventKind.SUGGESTION_APPLIED) and by is not None:
        await coach.forget_last_play(context.deps, after.id, by)
    if undone.event.kind in TABLE_EVENTS:
        await show_table(update, context, after, text)
        if in_group_game(after, chat):

            def picture() -> Awaitable[bytes]:
                header, words = replies.table_header(after), picture_wording()
                return context.deps.off_loop(
                    table_picture, after.table, after.rules, None, header, labels=after.numbers, wording=words
                )

            await post_to_game_chat(context, after, lambda: f"{name_of(user)}: {said()}", picture)
    else:
        await context.bot.send_message(chat.id, label(context, chat) + text)


@guarded
async def status(update: Update, context: BotContext) -> None:
    """The table's picture; in a group the players, their tile counts and the turn; in private your rack."""
    chat, user = speaker(update)
    state = await current_game(context, chat, user)
    lines = []
    if is_group(chat) or in_group_game(state, chat):
        lines.append(replies.players_text(state))
    if not is_group(chat):
        me = state.player(user.id)
        if me is not None and me.active:
            lines.append(replies.rack_text(me, state.rules))
            lines.append(_("Initial meld made.") if me.melded else _("Initial meld not made yet."))
    await show_table(update, context, state, "\n".join(lines)[: CAPTION_LIMIT])


@guarded
async def meld(update: Update, context: BotContext) -> None:
    """/meld: the initial meld was made outside the bot, in a game of one's own (a group's game records it)."""
    chat, user = speaker(update)
    service = context.service
    state = await current_game(context, chat, user)
    await service.mark_melded(state.id, user.id)
    await say(update, context, _("Noted: you have made your initial meld; /solve now plays onto the table."))


@guarded
async def fit_tile(update: Update, context: BotContext) -> None:
    """/fit 3R: the fewest puzzle actions that get one tile onto the table."""
    chat, user = speaker(update)
    d = context.deps
    state = await current_game(context, chat, user)
    tiles = typed.tiles(_args(update), state.rules)
    if len(tiles) != 1:
        raise RummikubError(N_("name one tile, like /fit 3R"))
    tile = tiles[0]
    try:
        found = await d.off_loop(fit, state.table, tile, state.rules)
    except PuzzleLimitError:
        raise RummikubError(
            N_("the table is too big to search every way to fit {tile}; try /solve"), tile=tile
        ) from None
    if found is None:
        await say(update, context, _("{tile} cannot be fitted onto this table by moving tiles.").format(tile=tile))
        return
    await say(update, context, "\n".join(spoken(line) for line in found.texts())[:4000])
