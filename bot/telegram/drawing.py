"""Telling a turn without a play: a draw (or a pass on an empty pool), and saying it where it belongs.

A draw ends the turn (``bot.game.turns``). In the group it is told in one tap or ``/draw``: the group reads
"Anna drew a tile. Ben to play.", never the tile, and Anna is asked in private which tile it was (the tile
keyboard). In private, ``/draw 7K`` tells the draw and its tile at once, or names a tile drawn in the group.
A draw on someone else's turn is asked about first, as a play is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from telegram import Chat, Message, Update, User

from bot.game import GameState
from bot.game.errors import NotYourTurn
from bot.game.turns import Drawn
from bot.storage.service import Question
from bot.telegram import notices
from bot.telegram.asking import ask
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.games import in_group_game
from bot.telegram.keys import keyboard_question
from bot.telegram.sending import label, language_there, post_to_game_chat
from bot.telegram.words import keyboard, replies
from bot.telegram.words.language import _, n_, speaking
from solver.errors import RummikubError
from solver.notation import parse_tiles
from solver.text import N_
from solver.tiles import Tile

log = logging.getLogger(__name__)

#: The questions' kind in the ``choices`` table: whose draw it was
DRAW = "draw"


async def record_draw(
    context: BotContext,
    chat: Chat,
    user: User,
    state: GameState,
    tiles: Sequence[Tile],
    *,
    player: int | None = None,
    out_of_turn: bool = False,
    passing: bool = False,
    answering: str | None = None,
    reply_to: Message | None = None,
) -> None:
    """Tell the game a draw (or a pass) and say it: here, in the group, and to the drawer in private."""
    service = context.service
    drawer = player if player is not None else user.id
    try:
        if passing:
            drawn = await service.pass_turn(
                state.id, user.id, player=drawer, out_of_turn=out_of_turn, answering=answering
            )
        else:
            drawn = await service.draw(
                state.id, user.id, tiles, player=drawer, out_of_turn=out_of_turn, answering=answering
            )
    except NotYourTurn as why:
        await _ask_whose(context, chat, user, state, tiles, why.turn, passing, answering, reply_to)
        return
    await _tell(context, chat, user, drawer, drawn, reply_to)


async def _ask_whose(
    context: BotContext,
    chat: Chat,
    user: User,
    state: GameState,
    tiles: Sequence[Tile],
    turn_id: int,
    passing: bool,
    answering: str | None,
    reply_to: Message | None,
) -> None:
    """A draw told on someone else's turn: whose it was (in the group), or record it anyway (in private)."""
    if answering is not None:
        await context.service.drop_question(answering)
    turn, me = state.player(turn_id), state.player(user.id)
    assert turn is not None and me is not None
    payload: dict[str, Any] = {"tiles": [str(t) for t in tiles], "turn": turn.user_id, "passing": passing}
    if is_group(chat):
        question = _("It is {name}'s turn. Who drew?") if not passing else _("It is {name}'s turn. Who passes?")
        options = [
            _("{name}").format(name=turn.name),
            _("Me ({me}): {name}'s turn is passed over").format(me=me.name, name=turn.name),
        ]
        may = [user.id, turn.user_id]
    else:
        question = _("It is {name}'s turn. Record your draw anyway? {name}'s turn is passed over.")
        options = [_("Yes, I drew")]
        payload["mine"] = True
        may = [user.id]
    await ask(
        context, chat, state, user.id, DRAW, question.format(name=turn.name), options, payload,
        may_answer=may, reply_to=reply_to,
    )  # fmt: skip


async def draw_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    """A tap on "who drew?": the draw goes to the one named, the turns before them passed over."""
    chat, user = context.where, context.who
    state = await context.service.game(question.game_id)
    payload = question.payload
    tiles = parse_tiles(" ".join(payload.get("tiles", [])), state.rules)
    passing = bool(payload.get("passing"))
    if payload.get("mine") and option == 0:
        player, out_of_turn = question.user_id, True
    elif option == 0:
        player, out_of_turn, tiles = int(payload["turn"]), False, []
    elif option == 1:
        player, out_of_turn = question.user_id, True
    else:
        raise RummikubError(N_("This button is from an earlier question; tell the draw again"))
    await record_draw(
        context, chat, user, state, tiles, player=player, out_of_turn=out_of_turn, passing=passing,
        answering=question.token,
    )  # fmt: skip


async def _tell(
    context: BotContext, chat: Chat, user: User, drawer_id: int, drawn: Drawn, reply_to: Message | None
) -> None:
    """The answer to a draw: the drawer's rack in private, the draw (never its tile) in the group."""
    after = drawn.state
    drawer = after.player(drawer_id)
    assert drawer is not None
    await notices.racks_trimmed(context, after, drawn.trimmed)
    if drawn.named_only:  # tiles drawn in the group, named now in private: no turn, nothing for the group
        text = _("Noted: you drew {tiles}.").format(tiles=replies.tiles_text(drawn.named, after.rules))
        rack = replies.rack_text(drawer, after.rules)
        await context.bot.send_message(chat.id, label(context, chat) + f"{text}\n{rack}")
        return

    def said(head: str | None = None, reader: int | None = None) -> str:
        """The draw as everyone reads it (``head``: the first line, said otherwise to the drawer; ``reader``:
        whose own chat it is said in)."""
        if head is None:
            head = replies.passed_text(drawer.name) if drawn.passed else replies.drew_text(drawer.name, drawn.count)
        passed = [p.name for uid in drawn.skipped if (p := after.player(uid)) is not None]
        lines = [head]
        if passed:
            lines.append(_("Turn passed over: {names}.").format(names=", ".join(passed)))
        lines.append(replies.turn_line(after) if after.playing else replies.finish_text(after, reader))
        return " ".join(line for line in lines if line)

    def buttons() -> Any:
        return replies.turn_buttons(after) if after.playing else replies.end_buttons(after)

    if is_group(chat):
        if reply_to is not None:
            await reply_to.reply_text(said(), reply_markup=buttons(), do_quote=True)
        else:
            await context.bot.send_message(chat.id, said(), reply_markup=buttons())
        if drawn.count > len(drawn.named):  # counted here: the drawer names the tile in private
            await ask_for_drawn_tile(context, after, drawer.user_id)
        return
    # in the drawer's private chat: said to them, in the second person
    if drawn.passed:
        lines = [_("You pass (the pool is empty).")]
    elif drawn.named:
        lines = [_("You drew {tiles}.").format(tiles=replies.tiles_text(drawn.named, after.rules))]
        lines.append(replies.rack_text(drawer, after.rules))
    else:
        lines = [n_("You drew a tile.", "You drew {n} tiles.", drawn.count).format(n=drawn.count)]
    lines.append(said("", drawer_id))
    await context.bot.send_message(chat.id, label(context, chat) + "\n".join(line for line in lines if line))
    if in_group_game(after, chat):
        await post_to_game_chat(context, after, said, markup=buttons)


async def ask_for_drawn_tile(context: BotContext, state: GameState, user_id: int) -> None:
    """In the drawer's private chat: which tile they drew, on the tile keyboard (or typed: /draw 7K)."""
    p = state.player(user_id)
    if p is None:
        return
    with speaking(await language_there(context, user_id)):
        try:
            token = await keyboard_question(context, state, user_id, user_id, keyboard.DRAW)
        except RummikubError:  # a variant with too many tiles for buttons: typed only
            token = None
        head = replies.game_name(state) + _("You drew a tile: which one? Tap it, or type /draw 7K.")
        body = keyboard.text(keyboard.DRAW, [], state.rules, head)
        markup = keyboard.markup(token, state.rules) if token is not None else None
    if not await notices.tell(context, state, user_id, body, markup):
        log.info("player %s drew in the group but has no private chat to name the tile in", user_id)
