"""Starting, joining and ending games; the greeting, the help and the rules; deep-link starts."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.game import GameState
from bot.game.codec import decode_rules, encode_rules
from bot.game.ending import in_progress, stops
from bot.game.errors import NoGame
from bot.storage.service import Question
from bot.telegram import callbacks
from bot.telegram.asking import ask
from bot.telegram.chats import is_group, kind_of
from bot.telegram.context import BotContext
from bot.telegram.ending import say_everywhere
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, name_of, seat_of
from bot.telegram.links import is_payload
from bot.telegram.parsing import command_text, parse_rules
from bot.telegram.sending import say
from bot.telegram.starting import as_the_chat, start_new
from bot.telegram.tapping import tap
from bot.telegram.words import replies, texts
from bot.telegram.words import rules as rule_words
from bot.telegram.words.help import help_buttons, help_text
from bot.telegram.words.language import _, n_
from solver.errors import RummikubError
from solver.text import N_


@guarded
async def start(update: Update, context: BotContext) -> None:
    """/start, and /start <invite> from a group's "My rack" button."""
    chat = context.where
    payload = " ".join(context.args or [])
    if is_group(chat):
        await say(update, context, _(texts.START_GROUP))
        return
    if payload:
        await tie_by_link(update, context, payload)
        return
    example = InlineKeyboardMarkup([[InlineKeyboardButton(_("▶️ Try the example"), callback_data=callbacks.EXAMPLE)]])
    start_text = _(texts.START).format(rack=texts.EXAMPLE_RACK, table=texts.EXAMPLE_TABLE)
    await say(update, context, start_text, example)


async def tie_by_link(update: Update, context: BotContext, payload: str) -> None:
    _chat, user = context.where, context.who
    if not is_payload(payload):
        raise RummikubError(N_("this link is not one of mine; tap My rack in your group again"))
    service = context.service
    state = await service.tie_by_invite(user.id, payload)
    me = seat_of(state, user)
    players = len(state.active_players)
    at = n_(
        "You're at the table of {group} ({n} player). Your rack stays here, only you see it. "
        "/games switches between your games.",
        "You're at the table of {group} ({n} players). Your rack stays here, only you see it. "
        "/games switches between your games.",
        players,
    )
    lines = [at.format(group=state.title or _("your group"), n=players)]
    if me.rack:
        lines.append(replies.rack_text(me, state.rules))
        lines.append(_("/solve for your best play."))
    else:
        lines.append(rule_words.send_rack(state.rules))
    await say(update, context, "\n".join(lines))


@guarded
async def help_command(update: Update, context: BotContext) -> None:
    chat = context.where
    await say(update, context, help_text(group=is_group(chat)), help_buttons())


NEW = "new"
END = "end"


@guarded
async def new(update: Update, context: BotContext) -> None:
    """/new [meld=25 jokers=1 ...]: a group game everyone joins, or a fresh private game. A game in progress
    is closed only after a tap on the question this asks."""
    chat, user = context.where, context.who
    assert update.message is not None and update.message.text is not None
    rules = parse_rules(command_text(update.message.text))
    service = context.service
    running = await service.find_active_game(chat.id)
    if running is not None and in_progress(running):
        await ask(
            context, chat, running, user.id, NEW,
            _("A game is in progress here. End it (with the points left on each rack) and start a new one?"),
            [_("End it and start anew ({rules})").format(rules=rule_words.rules_short(rules))],
            {"rules": encode_rules(rules)},
            may_answer=[user.id], reply_to=update.message,
        )  # fmt: skip
        return
    await start_new(update, context, rules, replace=running is not None)


async def new_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    await start_new(update, context, decode_rules(question.payload["rules"]), replace=True, answering=question.token)


#: What the group reads when an admin who writes as the group ("Remain anonymous") asks for a seat.
ANONYMOUS = N_(
    "you are writing as the group (an anonymous admin), so I cannot tell you from the other admins; "
    "tap Join, or turn off Remain anonymous in your admin rights, to take a seat"
)


async def _join(update: Update, context: BotContext) -> GameState:
    chat, user = context.where, context.who
    if not is_group(chat):
        raise RummikubError(N_("join a game in its group; here you play on your own (just send your rack)"))
    if as_the_chat(update):
        raise RummikubError(ANONYMOUS)
    service = context.service
    state = await service.active_game(chat.id)
    state = await service.join(state.id, user.id, name_of(user))
    await service.follow_to(user.id, state)  # a private chat tied to this group's last game follows
    return state


@guarded
async def join(update: Update, context: BotContext) -> None:
    _chat, user = context.where, context.who
    state = await _join(update, context)
    await say(update, context, _joined(state, name_of(user)), replies.rack_button(context.bot.username, state.invite))


@guarded
async def join_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    if not callbacks.is_join(query.data, kind_of(context.where)):
        raise RummikubError(texts.STALE_BUTTON)
    _chat, user = context.where, context.who
    state = await _join(update, context)
    await query.answer(_("You're in!"))
    chat = context.where
    await context.bot.send_message(
        chat.id, _joined(state, name_of(user)), reply_markup=replies.rack_button(context.bot.username, state.invite)
    )


def _joined(state: GameState, name: str) -> str:
    names = ", ".join(p.name for p in state.active_players)
    joined = _("{name} joined. Players: {names}.").format(name=name, names=names)
    first = f"{joined} {replies.turn_line(state)}".rstrip()  # no turn line alone
    return first + "\n" + _("Tap My rack to set your rack in private.")


@guarded
async def rules_command(update: Update, context: BotContext) -> None:
    chat, user = context.where, context.who
    state = await current_game(context, chat, user)
    other = _("Other rules: /new meld=25 jokers=1 (a new game)")
    await say(update, context, f"{rule_words.rules_text(state.rules)}\n{other}")


@guarded
async def end(update: Update, context: BotContext) -> None:
    """/end: stop a game in progress (the racks are then told, and the lowest wins), or close a game that waits
    for its racks (those not told get no score); always after a tap on the question it asks."""
    chat, user = context.where, context.who
    try:
        state = await current_game(context, chat, user, create=False)
    except NoGame:
        raise NoGame(N_("no game is running here")) from None
    if state.active_players:  # a game nobody sits at (started by an anonymous admin) anyone may end
        seat_of(state, user)
    if stops(state):
        question = _(
            "Stop the game now? Then each of you tells me the tiles left on your rack, and the lowest rack wins."
        )
        option = _("Stop the game")
    elif state.finish is not None:
        question = _("Close the game now? Racks not told yet get no score.")
        option = _("Close the game")
    elif in_progress(state):
        question = _("End the game now? (/undo can reopen it.)")
        option = _("End the game")
    else:
        await close(update, context, state)
        return
    await ask(
        context, chat, state, user.id, END, question, [option], {},
        may_answer=[user.id], reply_to=update.message,
    )  # fmt: skip


async def end_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    state = await context.service.game(question.game_id)
    await close(update, context, state, answering=question.token)


async def close(update: Update, context: BotContext, state: GameState, *, answering: str | None = None) -> None:
    """Stop or close the game (``bot.game.ending``) and say how it stands: the racks it waits for, or its score."""
    chat, user = context.where, context.who
    after = await context.service.end_game(state.id, user.id, answering=answering)

    def said() -> str:
        return replies.finish_text(after) if after.running else replies.scored_text(after)

    await say_everywhere(context, chat, after, said)


@guarded
async def games(update: Update, context: BotContext) -> None:
    """/games: the games you play (each group's table and your own), with buttons to switch this chat."""
    chat, user = context.where, context.who
    if is_group(chat):
        raise RummikubError(N_("/games lists your games in our private chat"))
    current = await current_game(context, chat, user)
    context.game = None  # this answer names every game itself
    seated = await context.service.seated_games(user.id)
    lines, rows = [_("Your games:")], []
    for g in seated:
        name = _game_title(g, chat.id)
        here = " " + _("← this chat") if g.id == current.id else ""
        players = len(g.active_players)
        players_text = n_("{game}: {n} player", "{game}: {n} players", players).format(game=name, n=players)
        lines.append(f"• {players_text}{here}")
        if g.id != current.id:
            switch = _("Switch to {game}").format(game=name)[:60]
            rows.append([InlineKeyboardButton(switch, callback_data=callbacks.switch(g.id))])
    await say(update, context, "\n".join(lines), InlineKeyboardMarkup(rows) if rows else None)


def _game_title(state: GameState, private_chat: int) -> str:
    return _("your own game") if state.chat_id == private_chat else (state.title or _("a group's game"))


@guarded
async def switch_game(update: Update, context: BotContext) -> None:
    """A /games button: this private chat now answers for that game (until the next switch, or its end)."""
    tapping = tap(update, context, callbacks.parse_switch, stale=N_("This button works only in our private chat"))
    query, chat, user, game_id = tapping.query, tapping.chat, tapping.user, tapping.data
    state = await context.service.tie(user.id, game_id)
    await query.answer()
    name = _game_title(state, chat.id)
    me = seat_of(state, user)
    rack = replies.rack_text(me, state.rules) if me.rack else rule_words.send_rack(state.rules)
    await context.bot.send_message(chat.id, _("This chat is now at {game}.").format(game=name) + f"\n{rack}")
