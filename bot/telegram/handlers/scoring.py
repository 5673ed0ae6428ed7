"""The end of a game: /left (the tiles left on your rack), its one-tap button, /scores and its button, and a new
game with the same players (``bot.telegram.ending`` says it where it belongs)."""

from __future__ import annotations

from telegram import Update

from bot.game import GameState
from bot.game.errors import NoGame
from bot.telegram import callbacks
from bot.telegram import parsing as typed
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.ending import tell_left
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.keys import open_keyboard
from bot.telegram.parsing import command_text
from bot.telegram.runtime.work import scores_picture
from bot.telegram.sending import photo_coming, show
from bot.telegram.tapping import tap
from bot.telegram.words import keyboard, replies, scores
from bot.telegram.words import rules as rule_words
from bot.telegram.words.language import _
from solver.errors import RummikubError
from solver.text import N_

#: what ``/left`` takes for a rack with no tile left
NONE_WORDS = frozenset({"none", "0", "-", "—", "nothing", "empty"})


@guarded
async def left(update: Update, context: BotContext) -> None:
    """/left 7R 8K J: the tiles left on your rack at the end of the game (/left none: no tile)."""
    chat, user = context.where, context.who
    state = await _game(context, update)
    seat_of(state, user)
    assert update.message is not None and update.message.text is not None
    text = command_text(update.message.text)
    if not text:
        if is_group(chat):
            raise RummikubError(N_("send the tiles left on your rack after /left, like /left 7R 8K J"))
        await open_keyboard(update, context, state, keyboard.LEFT)
        return
    tiles = [] if text.strip().lower() in NONE_WORDS else typed.tiles(text, state.rules)
    await tell_left(context, chat, user, state, tiles, reply_to=update.message)


async def _game(context: BotContext, update: Update) -> GameState:
    """The game this chat's messages go to, or the chat's newest (a game just scored is shown, not started)."""
    chat, user = context.where, context.who
    try:
        return await current_game(context, chat, user, create=False)
    except NoGame:
        state = context.game = await context.service.newest_game(chat.id)
        return state


@guarded
async def game_button(update: Update, context: BotContext) -> None:
    """The end's buttons in a group: my rack as you have it, the scores, a new game with the same players."""
    tapping = tap(update, context, callbacks.parse_game_button)
    query, chat, user, tapped = tapping.query, tapping.chat, tapping.user, tapping.data
    service = context.service
    state = context.game = await service.game(tapped.game_id)
    if tapped.action == callbacks.RACK_LEFT:
        me = seat_of(state, user)
        if not me.rack_known:
            raise RummikubError(N_("I don't know your whole rack: send /left and your tiles, like /left 7R 8K J"))
        await query.answer()
        await tell_left(context, chat, user, state, me.rack)
    elif tapped.action == callbacks.SCORES:
        await query.answer()
        await send_scores(update, context, state)
    else:
        await query.answer()
        await same_players(update, context, state)


@guarded
async def scores_command(update: Update, context: BotContext) -> None:
    """/scores: this game's score (or the racks told so far), the chat's totals and games won, as a picture."""
    await send_scores(update, context, await _game(context, update))


async def send_scores(update: Update, context: BotContext, state: GameState) -> None:
    chat = context.where
    d = context.deps
    totals = await d.service.chat_totals(state.chat_id)
    sheet = scores.sheet(state, totals)
    text = scores.text(state, totals)
    async with photo_coming(context, chat):
        picture = await d.off_loop(scores_picture, sheet)
    await show(update, context, picture, text)


async def same_players(update: Update, context: BotContext, state: GameState) -> None:
    """A new game in the group with the players of ``state`` (which has ended), the first seat passing on."""
    chat, user = context.where, context.who
    if state.running:
        raise RummikubError(N_("this game is still on; /end closes it first"))
    players = sorted(state.active_players, key=lambda p: p.seat)
    seated = [(p.user_id, p.name) for p in players[1:] + players[:1]]
    service = context.service
    game = await service.new_game(chat.id, user.id, state.rules, seated=seated, title=chat.title)
    for uid, _name in seated:
        await service.follow_to(uid, game)  # each private chat tied to the last game follows to this one
    names = ", ".join(name for _uid, name in seated)
    text = "\n".join(
        [
            rule_words.new_game(game.rules),
            _("Players: {names}.").format(names=names) + " " + replies.turn_line(game),
            _("Tap My rack to set your rack in private."),
        ]
    )
    markup = replies.group_buttons(context.bot.username, game.invite, join=True)
    await context.bot.send_message(chat.id, text, reply_markup=markup)
