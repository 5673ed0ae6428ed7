"""Plain messages: ``rack:``/``table:`` lines (set them and solve at once), bare tiles (ask what they are).

Both are read completely before anything is stored, so a mistake anywhere in
the message changes nothing. In a group only ``rack:``/``table:`` messages
are read (a family chat is mostly not about tiles): a rack is answered with
the private-chat button, a table is set for everyone.
"""

from __future__ import annotations

from telegram import Update

from bot.game.table import is_play
from bot.telegram import didyoumean, notices
from bot.telegram import parsing as typed
from bot.telegram.answering import send_answer, start_solving
from bot.telegram.asked import answer_question, not_understood
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, in_group_game, seat_of
from bot.telegram.intents import intent_of
from bot.telegram.parsing import MISSPELT_LABEL, fix_word, misspelt_keyword, parse_position
from bot.telegram.privacy import private_only
from bot.telegram.sending import say
from bot.telegram.table_steps import change_shared_table, read_table_for, receive_table, show_table
from bot.telegram.what_tiles import ask_what_tiles
from bot.telegram.words import rules as rule_words
from bot.telegram.words import texts
from bot.telegram.words.language import _
from solver.errors import RummikubError
from solver.notation import NotationError
from solver.rules_text import OptionError
from solver.sets import TileSet
from solver.solution import Objective
from solver.text import N_


@guarded
async def plain_text(update: Update, context: BotContext) -> None:
    chat, user = context.where, context.who
    message = update.message
    assert message is not None and message.text is not None
    text = message.text
    position = parse_position(text, context.bot.username, group=is_group(chat))
    if is_group(chat):
        if position is None:
            if typed.names_bot(text, context.bot.username):  # "@rummi_bot whose turn?"
                said = typed.without_mention(text, context.bot.username)
                intent = intent_of(said)
                if intent is not None:
                    await answer_question(update, context, intent)
                else:
                    await not_understood(update, context, await current_game(context, chat, user))
            return
        if position.rack is not None:
            await private_only(update, context)
            return
        assert position.table is not None
        state = await current_game(context, chat, user)
        await receive_table(update, context, state, position.table)
        return
    if position is not None:
        await rack_and_table(update, context, position.rack, position.table)
        return
    state = await current_game(context, chat, user)
    try:
        tiles = typed.tiles(text, state.rules)
    except NotationError:
        if any(ch.isdigit() for ch in text):
            meant = misspelt_keyword(text)
            first = text.split()[0]
            if meant is not None and ":" in first:  # "rakc: 3R 4R"
                raise OptionError(MISSPELT_LABEL, word=first, meant=meant) from None
            if meant is not None:  # "rack 3R 4R" without the colon
                colon = N_("start the line with {word}: and a colon, like {word}: 3R 4R 5R")
                raise OptionError(colon, word=meant) from None
            raise  # it looks like tiles with a mistake: say which
        intent = intent_of(text)
        if intent is not None:
            await answer_question(update, context, intent)
        elif not await didyoumean.offer(update, context, _(texts.NOT_UNDERSTOOD)):
            await not_understood(update, context, state)
        return
    if not tiles:
        await not_understood(update, context, state)
        return
    await ask_what_tiles(update, context, state, tiles)


async def rack_and_table(update: Update, context: BotContext, rack_text: str | None, table_text: str | None) -> None:
    """Set the rack and/or the table, then solve. Everything is read and checked before anything is stored,
    and what is stored is committed before the answer says anything about it."""
    chat, user = context.where, context.who
    d = context.deps
    state = await current_game(context, chat, user)
    me = seat_of(state, user)
    rack = typed.tiles(rack_text, state.rules) if rack_text is not None else None
    if rack is not None and not rack and table_text is None:  # "rack:" alone: a question, not an empty rack
        ask = _("Send your rack after rack:, like rack: {tiles}")
        await say(update, context, ask.format(tiles=rule_words.example_tiles(state.rules)))
        return
    table: list[TileSet] | None = None
    fix = False
    if table_text is not None:
        fix, table_text = fix_word(table_text)
        if fix and not table_text:
            raise RummikubError(N_("write the whole table after fix, like table: fix 6R 7R 8R | 7K 7O 7R"))
        table = await read_table_for(context, table_text, state)
    shared = table is not None and in_group_game(state, chat)
    changed_table = False
    if shared:
        assert table is not None
        if is_play(state, table, fix=fix):  # the speaker's play, recorded (or asked about) and shown as such
            await change_shared_table(update, context, state, table, fix=fix, show_here=False, rack_after=rack)
            return
        after = await change_shared_table(update, context, state, table, fix=fix, show_here=False)
        assert after is not None, "only a play asks a question"
        state, changed_table = after, after.version != state.version  # the same sets in any order: no change
        table = None
    # The position is stored (committed) first: an answer never shows a position a crash could lose.
    changed = await d.service.set_position(state.id, user.id, rack=rack, table=table)
    state = changed.state
    await notices.racks_trimmed(context, state, changed.trimmed)
    me = seat_of(state, user)
    if not me.rack:  # nothing to solve with yet: show what came, ask for the rack
        done = _("The group's table is updated.") if changed_table else _("Table set.") if table is not None else ""
        done = f"{done} " if done else ""
        ask = _("Now send your rack: rack: {tiles}").format(tiles=rule_words.example_tiles(state.rules))
        await show_table(update, context, state, done + ask)
        return
    await send_answer(update, context, state, me, Objective.TILES, start_solving(d, state, me, Objective.TILES))


@guarded
async def unknown_command(update: Update, context: BotContext) -> None:
    chat = context.where
    message = update.message
    assert message is not None and message.text is not None
    command = message.text.split()[0]
    name, _at, addressee = command.partition("@")
    ours = addressee.lower() == (context.bot.username or "").lower()
    if is_group(chat) and not ours:
        return  # in a group, a command without our name may be another bot's
    if addressee and not ours:  # in private: /solve@otherbot is not a command we lack
        other = _("{command} is for another bot; here write {name} alone, or see /help.")
        await say(update, context, other.format(command=command, name=name))
        return
    await say(update, context, _(texts.UNKNOWN_COMMAND).format(command=name))


@guarded
async def not_text(update: Update, context: BotContext) -> None:
    """A sticker, a voice note, a video… in private: what the bot can read instead."""
    message = update.message
    if message is None or message.new_chat_members or message.left_chat_member or message.pinned_message:
        return  # a service message is nobody's question
    await say(update, context, _(texts.NOT_TEXT))
