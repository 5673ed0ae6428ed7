"""The shared table: /table, /play, /undo, /status, /meld, /fit.

A change to a group's table is shown in the group with its picture, also when
it was made from a player's private chat tied to that group.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from telegram import Update, User

from bot.game import EventKind, GameState, Undone
from bot.game.errors import NoGame
from bot.game.undoing import owner
from bot.storage.service import Question
from bot.telegram import coach
from bot.telegram import parsing as typed
from bot.telegram.asking import ask
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, in_group_game, name_of, seat_of
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.parsing import command_text, fix_word
from bot.telegram.plays import PlayDraft, advance
from bot.telegram.runtime.work import table_picture
from bot.telegram.sending import label, post_to_game_chat, say
from bot.telegram.table_steps import receive_table, show_table
from bot.telegram.words import replies
from bot.telegram.words.language import _, spoken
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.fit import fit
from solver.notation import format_table
from solver.puzzle_search import PuzzleLimitError
from solver.text import N_

TABLE_EVENTS = {EventKind.TABLE_SET, EventKind.PLAY_RECORDED, EventKind.SUGGESTION_APPLIED}


def _args(update: Update) -> str:
    assert update.message is not None and update.message.text is not None
    return command_text(update.message.text)


@guarded
async def table(update: Update, context: BotContext) -> None:
    """/table sets… replaces the table; /table alone shows it."""
    chat, user = context.where, context.who
    state = await current_game(context, chat, user)
    text = _args(update)
    if not text:
        await show_table(update, context, state, format_table(state.table) or replies.empty_table(state.rules))
        return
    await receive_table(update, context, state, text)


@guarded
async def play(update: Update, context: BotContext) -> None:
    """/play sets…: record a play (the speaker's, unless they say it was the player whose turn it is)."""
    chat, user = context.where, context.who
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
    chat, user = context.where, context.who
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
    _chat, user = context.where, context.who
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
    chat = context.where
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
    chat, user = context.where, context.who
    state = await current_game(context, chat, user)
    lines = []
    if is_group(chat) or in_group_game(state, chat):
        lines.append(replies.players_text(state))
    if not is_group(chat):
        me = state.player(user.id)
        if me is not None and me.active:
            lines.append(replies.rack_text(me, state.rules))
            lines.append(_("Initial meld made.") if me.melded else _("Initial meld not made yet."))
    await show_table(update, context, state, "\n".join(lines)[:CAPTION_LIMIT])


@guarded
async def meld(update: Update, context: BotContext) -> None:
    """/meld: the initial meld was made outside the bot, in a game of one's own (a group's game records it)."""
    chat, user = context.where, context.who
    service = context.service
    state = await current_game(context, chat, user)
    await service.mark_melded(state.id, user.id)
    await say(update, context, _("Noted: you have made your initial meld; /solve now plays onto the table."))


@guarded
async def fit_tile(update: Update, context: BotContext) -> None:
    """/fit 3R: the fewest puzzle actions that get one tile onto the table."""
    chat, user = context.where, context.who
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
