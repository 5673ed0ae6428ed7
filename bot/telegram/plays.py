"""Recording a play at the table: whose play it was, where its tiles came from, an opening below the meld.

A play typed (``/play``, a shared table with new tiles, a photo's new tiles) becomes a ``PlayDraft``; each thing
the bot cannot know is asked with buttons, in this order, and each answer moves the same draft on: whose play
it was (on someone else's turn: the player who played last may still add to their play, ``bot.game.turns``),
where a typed tile came from when several readings fit (``bot.game.reading``, one question at a time), and
whether to record a first play below the meld anyway (a house rule, asked where the group sees it). What a
play means is decided by the game core alone; this module asks and tells. What the group reads never depends
on anyone's rack: a play read for someone else is read as if their rack were unknown, and a rack that does
not match the play is told to its owner alone, in private.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from telegram import Chat, InlineKeyboardMarkup, Message, Update, User

from bot.game import GameState, Played
from bot.game.codec import decode_table, decode_tiles, encode_table
from bot.game.errors import NotAnOpening, NotYourTurn
from bot.game.plays import play_turn_check
from bot.game.reading import Rack, Reading, next_question, read_play
from bot.game.trace import Trace
from bot.storage.service import Question
from bot.telegram import coach, notices
from bot.telegram.asking import ask
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.games import in_group_game, name_of
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.runtime.deps import Deps
from bot.telegram.runtime.work import play_picture
from bot.telegram.sending import label, language_there, photo_coming, post_to_game_chat
from bot.telegram.words import replies
from bot.telegram.words.language import _, current, speaking, spoken
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.solution import Solution
from solver.solve import arrange
from solver.text import N_
from solver.tiles import Tile

log = logging.getLogger(__name__)

PLAY = "play"


@dataclass
class PlayDraft:
    """A play on its way to the record, as plain JSON-able values (it waits in the database for a tap).

    ``chunks``: the play as typed (each chunk's tiles; the whole new table's sets are chunks too), read
    against ``based_on``, the table as it was; ``answers``: the options chosen so far for the questions that
    tell its readings apart; ``recorder``: who typed it; ``player``: whose play it is (None: not asked yet);
    ``rack_after``: the recorder's rack as they typed it with the table (set with the play, as theirs).
    """

    chunks: list[list[str]]
    based_on: list[list[str]]
    recorder: int
    answers: list[int] = field(default_factory=list)
    player: int | None = None
    out_of_turn: bool = False
    waived: bool = False
    rack_after: list[str] | None = None

    @classmethod
    def of(
        cls, state: GameState, recorder: int, chunks: list[list[Tile]], rack_after: list[Tile] | None = None
    ) -> PlayDraft:
        return cls(
            chunks=[[str(t) for t in chunk] for chunk in chunks],
            based_on=encode_table(state.table),
            recorder=recorder,
            rack_after=[str(t) for t in rack_after] if rack_after is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayDraft:
        names = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in names})


async def advance(
    context: BotContext,
    chat: Chat,
    user: User,
    state: GameState,
    draft: PlayDraft,
    *,
    reply_to: Message | None = None,
    answering: str | None = None,
) -> Played | None:
    """Take the draft as far as it goes: ask the next question, or record the play and show it.

    Returns the play once recorded, None while a question waits. ``answering``: the question whose answer
    brought the draft here (it is taken in the same transaction as the play, or dropped before the next
    question is asked).
    """
    d = context.deps
    if draft.player is None:
        try:
            play_turn_check(state, draft.recorder)  # the game core says whether this is someone else's turn
        except NotYourTurn as why:
            await _ask_whose(context, chat, user, state, draft, why.turn, answering, reply_to)
            return None
        draft = replace(draft, player=draft.recorder)
    assert draft.player is not None
    readings = await _readings(d, state, draft)
    if len(readings) > 1:
        question = next_question(readings)
        if question is not None:
            await _asked(context, answering)
            options = [spoken(option.said) for option in question.options]
            await ask(
                context, chat, state, user.id, PLAY, spoken(question.asked), options,
                {"draft": draft.to_json(), "step": "where"},
                may_answer=sorted({draft.recorder, draft.player}), reply_to=reply_to,
            )  # fmt: skip
            return None
    reading = readings[0]
    try:
        played = await d.service.record_play(
            state.id,
            draft.recorder,
            reading.table,
            player=draft.player,
            trace=Trace(reading.kept_from, reading.origins),
            based_on=decode_table(draft.based_on, state.rules),
            out_of_turn=draft.out_of_turn,
            opening_waived=draft.waived,
            rack_after=decode_tiles(draft.rack_after) if draft.rack_after is not None else None,
            answering=answering,
        )
    except NotYourTurn:  # the turn moved while the question waited: ask again
        await _asked(context, answering)
        return await advance(context, chat, user, state, replace(draft, player=None), reply_to=reply_to)
    except NotAnOpening as why:
        await _asked(context, answering)
        await _ask_house_rule(context, chat, user, state, draft, why, reply_to)
        return None
    await announce(context, chat, user, state, played, reply_to=reply_to)
    return played


async def _readings(d: Deps, state: GameState, draft: PlayDraft) -> list[Reading]:
    """The readings of the draft left after its answers so far (``bot.game.reading``). The player's stored rack
    narrows them only when the player typed the play: read for someone else, their rack counts as unknown (the
    questions must not tell the recorder what another rack holds)."""
    assert draft.player is not None
    p = state.player(draft.player)
    assert p is not None
    if draft.player == draft.recorder and draft.rack_after is None:
        rack = Rack(Counter(p.rack), p.rack_size)
    else:
        rack = Rack.unknown(p.rack_size)
    before = decode_table(draft.based_on, state.rules)
    chunks = [decode_tiles(chunk) for chunk in draft.chunks]
    arranging = functools.partial(arrange, time_limit=d.settings.solver_time_limit)
    readings = await d.off_loop(read_play, before, chunks, state.rules, arranging, rack)
    for option in draft.answers:
        question = next_question(readings)
        if question is None or not 0 <= option < len(question.options):
            raise RummikubError(N_("This button is from an earlier question; send the play again"))
        readings = [readings[i] for i in question.options[option].readings]
    return readings


async def _ask_whose(
    context: BotContext,
    chat: Chat,
    user: User,
    state: GameState,
    draft: PlayDraft,
    turn_id: int,
    answering: str | None,
    reply_to: Message | None,
) -> None:
    await _asked(context, answering)
    turn, me = state.player(turn_id), state.player(draft.recorder)
    assert turn is not None and me is not None
    await ask(
        context, chat, state, user.id, PLAY,
        _("It is {name}'s turn. Whose play is this?").format(name=turn.name),
        [
            _("{name}'s").format(name=turn.name),
            _("Mine ({me}): {name}'s turn is passed over").format(me=me.name, name=turn.name),
        ],
        {"draft": draft.to_json(), "step": "whose", "turn": turn.user_id},
        may_answer=[draft.recorder, turn.user_id], reply_to=reply_to,
    )  # fmt: skip


async def _ask_house_rule(
    context: BotContext,
    chat: Chat,
    user: User,
    state: GameState,
    draft: PlayDraft,
    why: NotAnOpening,
    reply_to: Message | None,
) -> None:
    """A first play that is no opening: recorded anyway only by a choice everyone at the table sees, so in a
    group's game the question is asked in the group."""
    assert draft.player is not None
    p = state.player(draft.player)
    where = chat
    if state.is_group and not is_group(chat):
        where, reply_to = Chat(state.chat_id, Chat.SUPERGROUP), None
    code = await language_there(context, where.id) if where is not chat else current()
    with speaking(code):
        who = p.name if p is not None else _("this player")
        question = _(
            "{name} has not made the initial meld yet, and this play is no opening: {why}. "
            "Record it anyway, as a house rule?"
        )
        await ask(
            context, where, state, user.id, PLAY,
            question.format(name=who, why=spoken(why)),
            [_("Record it anyway (house rule)")],
            {"draft": replace(draft, waived=True).to_json(), "step": "opening"},
            may_answer=sorted({draft.recorder, draft.player}), reply_to=reply_to,
        )  # fmt: skip
    if where is not chat:
        text = _("Not an opening ({why}): I asked the group whether to record it anyway.").format(why=spoken(why))
        await context.bot.send_message(chat.id, label(context, chat) + text)


async def _asked(context: BotContext, answering: str | None) -> None:
    """The question that brought the draft here is answered (and gone) before the next one is asked."""
    if answering is not None:
        await context.service.drop_question(answering)


async def announce(
    context: BotContext,
    chat: Chat,
    user: User,
    before: GameState,
    played: Played,
    *,
    reply_to: Message | None = None,
) -> None:
    """The new table's picture, the play highlighted and the sets under their numbers: here, and in the game's
    group when said elsewhere. The caption reads the same whatever anyone's rack holds; a rack that did not
    match is told to its owner, in private."""
    d = context.deps
    after = played.state
    here = current()  # the picture's words are in this language
    async with photo_coming(context, chat):
        drawn, play = await _picture(d, before, played)
    reader = None if is_group(chat) else user.id
    caption = label(context, chat) + play_caption(after, played, play, recorder=user, reader=reader)
    caption = caption[:CAPTION_LIMIT]
    markup = _buttons(after)
    index = await coach.note_play(d, before, after, played.by, played.placed, added=played.added)
    if reader is not None and reader == played.by:  # the player's own chat: how did they do, and at the end a review
        markup = coach_rows(markup, after, played.by, index)
    elif is_group(chat) and index is not None:  # the group's post: the player may ask, answered in private
        how = replies.how_did_row(coach.turns_token(after.id, played.by), index, shared=True)
        markup = replies.with_rows(markup, how)
    if reply_to is not None:
        await reply_to.reply_photo(drawn, caption=caption, do_quote=True, reply_markup=markup)
    else:
        await context.bot.send_photo(chat.id, drawn, caption=caption, reply_markup=markup)
    if in_group_game(after, chat):
        await post_play(context, before, played, recorder=user, drawn=(here, drawn, play))
    await notices.racks_trimmed(context, after, played.trimmed)
    if played.rack_short:
        await notices.rack_mismatch(context, after, played.by, played.placed, played.rack_short)


async def _picture(d: Deps, before: GameState, played: Played) -> tuple[bytes, Solution]:
    """The recorded play's picture, from the one tracing the game kept of it, under the game's set numbers."""
    after = played.state
    return await d.off_loop(
        play_picture, before.table, after.table, after.rules, trace=played.trace, labels=after.numbers,
        wording=picture_wording(),
    )  # fmt: skip


async def post_play(
    context: BotContext,
    before: GameState,
    played: Played,
    *,
    recorder: User,
    drawn: tuple[str, bytes, Solution] | None = None,
) -> None:
    """The recorded play in its game's group (made from a private chat): picture and caption in the group's
    language, the turn's button under it. ``drawn``: the picture already drawn for the private chat (its
    language, the picture, the play), drawn again only when the group speaks another language."""
    after = played.state
    with speaking(await language_there(context, after.chat_id)):  # the picture's words too
        if drawn is not None and drawn[0] == current():
            _language, picture, play = drawn
        else:
            picture, play = await _picture(context.deps, before, played)
    await post_to_game_chat(
        context, after, lambda: play_caption(after, played, play, recorder=recorder), picture,
        markup=lambda: _buttons(after),
    )  # fmt: skip


def coach_rows(
    markup: InlineKeyboardMarkup | None, after: GameState, user_id: int, index: int | None
) -> InlineKeyboardMarkup | None:
    """Under a play's answer in the player's own chat: "How did I do?" (the play was kept as ``index``), and
    once the game is over, the review."""
    how = replies.how_did_row(coach.turns_token(after.id, user_id), index) if index is not None else []
    review = replies.review_row(after.id) if after.finish is not None or not after.running else []
    return replies.with_rows(markup, how, review)


def _buttons(after: GameState) -> InlineKeyboardMarkup | None:
    return replies.turn_buttons(after) if after.playing else replies.end_buttons(after)


def play_caption(after: GameState, played: Played, play: Solution, *, recorder: User, reader: int | None = None) -> str:
    """What everyone reads of a play: who, what, the points, whose turns were passed over, who is next (or that
    the game is over). ``reader``: whose own chat it is said in (they are "you")."""
    by = after.player(played.by)
    name = by.name if by is not None else _("A player")
    figures = replies.tiles_and_points(len(played.placed), play.points_placed)
    tiles = replies.placed_text(play)
    you = reader is not None and reader == played.by
    if played.added:
        line = (
            _("You add {tiles} to your play ({figures}).")
            if you
            else _("{name} adds {tiles} to their play ({figures}).")
        )
    else:
        line = _("You put down {tiles} ({figures}).") if you else _("{name} put down {tiles} ({figures}).")
    lines = [line.format(name=name, tiles=tiles, figures=figures)]
    if recorder.id != played.by:
        lines.append(_("Recorded by {name}.").format(name=name_of(recorder)))
    passed = [p.name for uid in played.skipped if (p := after.player(uid)) is not None]
    if passed:
        lines.append(_("Turn passed over: {names}.").format(names=", ".join(passed)))
    lines.append(replies.turn_line(after) if after.playing else replies.finish_text(after, reader))
    return " ".join(line for line in lines if line)[:CAPTION_LIMIT]


async def play_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    """A tap on a question about a play: the draft moves on with the answer."""
    chat, user = context.where, context.who
    state = await context.service.game(question.game_id)
    draft = PlayDraft.from_json(question.payload["draft"])
    step = question.payload.get("step")
    if step == "where":
        draft = replace(draft, answers=[*draft.answers, option])
    elif step == "whose" and option in (0, 1):
        turn = int(question.payload["turn"])
        draft = replace(draft, player=turn) if option == 0 else replace(draft, player=draft.recorder, out_of_turn=True)
    elif not (step == "opening" and option == 0):
        raise RummikubError(N_("This button is from an earlier question; send the play again"))
    await advance(context, chat, user, state, draft, answering=question.token)
