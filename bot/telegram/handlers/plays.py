"""Recording a play at the table: where loose tiles go, whose play it was, an opening below the meld.

A play typed (``/play``, a shared table with new tiles) becomes a ``PlayDraft``; each thing the bot cannot
know is asked with buttons, in this order, and each answer moves the same draft on: which way loose tiles
go (when there are several), whose play it was (on someone else's turn), and whether to record a first play
below the meld anyway (a house rule). What a play means is decided by the game core alone; this module
asks and tells. What the group reads never depends on anyone's rack: a rack that does not match the play is
told to its owner alone, in private.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.error import TelegramError

from bot.game import GameState, Played
from bot.game.codec import decode_table, decode_tiles, encode_table
from bot.game.errors import NotAnOpening, NotYourTurn
from bot.game.placing import Placement
from bot.game.plays import turn_check
from bot.storage.service import Question
from bot.telegram.asking import ask
from bot.telegram.context import BotContext
from bot.telegram.games import in_group_game, name_of, speaker
from bot.telegram.runtime.deps import deps
from bot.telegram.runtime.work import play_picture
from bot.telegram.sending import label, language_there, photo_coming, post_to_game_chat
from bot.telegram.words import replies
from bot.telegram.words import rules as rule_words
from bot.telegram.words.language import _, current, speaking, spoken
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.notation import format_tiles
from solver.solution import Solution
from solver.text import N_

log = logging.getLogger(__name__)

PLAY = "play"


@dataclass
class PlayDraft:
    """A play on its way to the record, as plain JSON-able values (it waits in the database for a tap).

    ``tables``: the readings of the play, each a whole new table (one when settled) and ``wheres`` how each
    places loose tiles; ``based_on``: the table they were read against; ``recorder``: who typed it;
    ``player``: whose play it is (None: not asked yet); ``rack_after``: the recorder's rack as they typed it
    with the table (stored once the play is recorded as theirs).
    """

    tables: list[list[list[str]]]
    based_on: list[list[str]]
    recorder: int
    wheres: list[str] = field(default_factory=list)
    player: int | None = None
    out_of_turn: bool = False
    waived: bool = False
    rack_after: list[str] | None = None

    @classmethod
    def of(
        cls, state: GameState, recorder: int, placements: list[Placement], rack_after: list[str] | None
    ) -> PlayDraft:
        return cls(
            tables=[encode_table(p.table) for p in placements],
            wheres=[", ".join(spoken(where) for where in p.said()) for p in placements],
            based_on=encode_table(state.table),
            recorder=recorder,
            rack_after=rack_after,
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
    d = deps(context)
    if len(draft.tables) > 1:
        await _asked(context, answering)
        await ask(
            context, chat, state, user.id, PLAY, _("Where do these tiles go?"),
            [w or _("as written") for w in draft.wheres],
            {"draft": draft.to_json(), "step": "where"},
            may_answer=[draft.recorder], reply_to=reply_to,
        )  # fmt: skip
        return None
    if draft.player is None:
        try:
            turn_check(state, draft.recorder)  # the game core says whether this is someone else's turn
        except NotYourTurn as why:
            turn, me = state.player(why.turn), state.player(draft.recorder)
            assert turn is not None and me is not None
            await _asked(context, answering)
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
            return None
        draft = replace(draft, player=draft.recorder)
    assert draft.player is not None
    table = decode_table(draft.tables[0], state.rules)
    try:
        played = await d.service.record_play(
            state.id,
            draft.recorder,
            table,
            player=draft.player,
            based_on=decode_table(draft.based_on, state.rules),
            out_of_turn=draft.out_of_turn,
            opening_waived=draft.waived,
            answering=answering,
        )
    except NotYourTurn:  # the turn moved while the question waited: ask again
        await _asked(context, answering)
        return await advance(context, chat, user, state, replace(draft, player=None), reply_to=reply_to)
    except NotAnOpening as why:
        await _asked(context, answering)
        p = state.player(draft.player)
        who = p.name if p is not None else _("this player")
        question = _(
            "{name} has not made the initial meld yet, and this play is no opening: {why}. "
            "Record it anyway, as a house rule?"
        )
        await ask(
            context, chat, state, user.id, PLAY,
            question.format(name=who, why=spoken(why)),
            [_("Record it anyway (house rule)")],
            {"draft": replace(draft, waived=True).to_json(), "step": "opening"},
            may_answer=[draft.recorder, draft.player], reply_to=reply_to,
        )  # fmt: skip
        return None
    if draft.rack_after is not None and played.by == draft.recorder:
        rack = decode_tiles(draft.rack_after)
        after = await d.service.set_rack(state.id, draft.recorder, rack)
        me = after.player(draft.recorder)
        won = me is not None and not me.rack
        played = replace(played, state=after, rack_short=(), rack_stale=False, won=won)
    await announce(context, chat, user, state, played, reply_to=reply_to)
    return played


async def _asked(context: BotContext, answering: str | None) -> None:
    """The question that brought the draft here is answered (and gone) before the next one is asked."""
    if answering is not None:
        await deps(context).service.drop_question(answering)


async def announce(
    context: BotContext,
    chat: Chat,
    user: User,
    before: GameState,
    played: Played,
    *,
    reply_to: Message | None = None,
) -> None:
    """The new table's picture, the play highlighted: here, and in the game's group when said elsewhere. The
    caption reads the same whatever anyone's rack holds; a rack that did not match is told to its owner."""
    d = deps(context)
    after = played.state
    here = current()
    async with photo_coming(context, chat):
        picture, play = await d.off_loop(
            play_picture, before.table, after.table, after.rules, wording=picture_wording()
        )
    caption = play_caption(after, played, play, recorder=user)
    here = (label(context, chat) + caption)[: replies.CAPTION_LIMIT]
    if reply_to is not None:
        await reply_to.reply_photo(picture, caption=here, do_quote=True)
    else:
        await context.bot.send_photo(chat.id, picture, caption=here)
    if in_group_game(after, chat):

        async def group_picture() -> bytes:  # drawn again only for a group that speaks another language
            if current() == here:
                return picture
            drawn, _play = await d.off_loop(
                play_picture, before.table, after.table, after.rules, wording=picture_wording()
            )
            return drawn

        await post_to_game_chat(context, after, lambda: play_caption(after, played, play, recorder=user), group_picture)
    if played.rack_stale:
        await tell_rack_mismatch(context, after, played)


def play_caption(after: GameState, played: Played, play: Solution, *, recorder: User) -> str:
    """What everyone reads of a play: who, what, the points, whose turns were passed over, who is next."""
    by = after.player(played.by)
    name = by.name if by is not None else _("A player")
    tiles, points = len(played.placed), play.points_placed
    figures = replies.tiles_and_points(tiles, points)
    lines = [
        _("{name} put down {tiles} ({figures}).").format(name=name, tiles=replies.placed_text(play), figures=figures)
    ]
    if recorder.id != played.by:
        lines.append(_("Recorded by {name}.").format(name=name_of(recorder)))
    passed = [p.name for uid in played.skipped if (p := after.player(uid)) is not None]
    if passed:
        lines.append(_("Turn passed over: {names}.").format(names=", ".join(passed)))
    lines.append(replies.won_line(name) if played.won else replies.turn_line(after))
    return " ".join(line for line in lines if line)[: replies.CAPTION_LIMIT]


async def tell_rack_mismatch(context: BotContext, state: GameState, played: Played) -> None:
    """Tell the player alone, in private, that their stored rack does not match the play recorded for them."""
    p = state.player(played.by)
    if p is None:
        return
    lacked = format_tiles(played.rack_short, state.rules)
    with speaking(await language_there(context, p.user_id)):
        where = replies.game_name(state)
        why = (
            _("it did not hold {tiles}").format(tiles=lacked)
            if lacked
            else _("it no longer fits the deck with the table")
        )
        text = where + _(
            "Your play of {tiles} is recorded, but your rack as I have it does not match: {why}. "
            "Send your rack again: /rack {example}"
        ).format(
            tiles=replies.tiles_text(played.placed, state.rules), why=why, example=rule_words.example_tiles(state.rules)
        )
    try:
        await context.bot.send_message(p.user_id, text)
    except TelegramError as why_not:  # they never opened a private chat with the bot: nothing to tell them in
        log.info("could not tell player %s about their rack: %s", p.user_id, why_not)


async def play_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    """A tap on a question about a play: the draft moves on with the answer."""
    chat, user = speaker(update)
    state = await deps(context).service.game(question.game_id)
    draft = PlayDraft.from_json(question.payload["draft"])
    step = question.payload.get("step")
    if step == "where" and 0 <= option < len(draft.tables):
        draft = replace(draft, tables=[draft.tables[option]], wheres=[draft.wheres[option]])
    elif step == "whose" and option in (0, 1):
        turn = int(question.payload["turn"])
        draft = replace(draft, player=turn) if option == 0 else replace(draft, player=draft.recorder, out_of_turn=True)
    elif not (step == "opening" and option == 0):
        raise RummikubError(N_("This button is from an earlier question; send the play again"))
    await advance(context, chat, user, state, draft, answering=question.token)
