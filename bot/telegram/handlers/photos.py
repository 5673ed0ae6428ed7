"""Photos of tiles: read off the event loop, answered with the tiles and buttons, stored only on a tap.

In a private chat a photo (or a picture sent as a file) of a rack or of the table is answered with what was
read and the buttons That's my rack, That's the table, Tiles I drew. The reading waits in the database as a
question (``asking``), not in memory, so a restart or another process still takes the tap. A tap stores what
typing the tiles would (``/rack``, ``/draw``, ``/table``: the same service calls and the same table path),
and answers the question in the same transaction: a second tap stores nothing.

In a group with a game, a player's photo is read as the table (no caption needed) and compared with the table
as recorded: the same sets and new tiles are offered as the play of the player whose turn it is ("Alice played
10R 11R 12R?"), a table that lost tiles only as a correction, a first table as the table to start from. A photo
in a group without a game, or one in which nothing is read, is answered only when it was for the bot
(captioned ``/table``, or replying to the bot): a family chat has photos of its own.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import Any

from telegram import Message, Update
from telegram.error import TelegramError

from bot.game import GameState
from bot.game.codec import decode_table, decode_tiles, encode_table, encode_tiles
from bot.game.errors import NoGame
from bot.game.tiles import table_key, table_tiles
from bot.storage.service import Question
from bot.telegram import notices
from bot.telegram.answering import answer_with_best_play
from bot.telegram.asking import ask
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.drawing import record_draw
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.parsing import FIX_WORD
from bot.telegram.plays import PlayDraft, advance
from bot.telegram.runtime.deps import Deps
from bot.telegram.sending import say
from bot.telegram.table_steps import receive_table
from bot.telegram.what_tiles import DRAWN, FIX, PHOTO, PLAYED, RACK, TABLE
from bot.telegram.words import photos as words
from bot.telegram.words import replies, texts
from bot.telegram.words.language import _
from solver.errors import RummikubError
from solver.notation import format_table, parse_table
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solve import arrange
from solver.text import N_
from vision import PhotoReading, enough, read_photo  # (imported with the bot: an import on the loop would stall it)

log = logging.getLogger(__name__)

LABELS = {RACK: words.RACK, TABLE: words.TABLE, DRAWN: words.DRAWN, FIX: words.FIX}
#: the Bot API lets a bot fetch files of at most 20 MB
FETCH_LIMIT_MB = 20
_TABLE_CAPTION = re.compile(r"^/table(?:@(\w+))?(?:\s+(.*))?$", re.IGNORECASE | re.DOTALL)


@guarded
async def photo(update: Update, context: BotContext) -> None:
    """A photo or a file: in private always read; in a group, a player's photo while a game runs (or one for the
    bot), as the table."""
    chat, user = context.where, context.who
    message = update.message
    assert message is not None
    fix = False
    addressed = True
    if is_group(chat):
        caption = _table_caption(message, context.bot.username)
        addressed = caption is not None or _replies_to_bot(message, context.bot.id)
        fix = caption is not None and caption.strip().lower() == FIX_WORD
        another_bots = (message.caption or "").startswith("/") and caption is None
        if another_bots or (not addressed and not await _a_players_photo(context, chat.id, user.id)):
            return  # a family photo, or a command for another bot: not the bot's business
    file_id = _file_of(message)
    if file_id is None:
        if not addressed:
            return
        raise RummikubError(words.NOT_A_PICTURE)
    state = await _game(context, update)
    if is_group(chat):
        assert state is not None, "a group's game is found or NoGame is raised"
        seat_of(state, user)  # only a player may propose the table
    reading = await _read(context, file_id, state, as_table=is_group(chat))
    if not reading.tiles:
        if addressed:
            await say(update, context, _(words.NO_TILES_GROUP if is_group(chat) else words.NO_TILES), quote=True)
        return
    if state is None:  # a private chat's own game starts on first use, as with typed tiles
        state = await current_game(context, chat, user)
    if is_group(chat) and state.table and not fix:
        await _after_a_turn(update, context, state, reading)
        return
    await _propose(update, context, state, reading, fix=fix)


async def _a_players_photo(context: BotContext, chat_id: int, user_id: int) -> bool:
    """A photo in a group is read unasked only from a player of the group's running game."""
    state = await context.service.find_active_game(chat_id)
    if state is None or not state.playing:
        return False
    p = state.player(user_id)
    return p is not None and p.active


async def _after_a_turn(update: Update, context: BotContext, state: GameState, reading: PhotoReading) -> None:
    """A group's photo of the table compared with the table as recorded: the same sets with new tiles are offered
    as the play of the player whose turn it is (or as a correction); a table that lost tiles only as a correction;
    the same tiles laid anew as the table."""
    chat, user = context.where, context.who
    d = context.deps
    sets = await _photo_sets(d, reading, state.rules)
    if sets is None:
        await _propose(update, context, state, reading, fix=False)
        return
    shown, recorded = table_tiles(sets), table_tiles(state.table)
    new, lost = shown - recorded, recorded - shown
    payload: dict[str, Any] = {
        "tiles": encode_tiles(reading.tiles),
        "sets": encode_table(sets),
        "loose": [],
        "turn": state.turn,
    }
    players = [p.user_id for p in state.active_players]
    turn = state.turn_player
    if not new and not lost:
        if table_key(sets) == table_key(state.table):
            await say(update, context, _("That is the table as I have it."), quote=True)
            return
        options = [TABLE]
        text = _("The same tiles, laid out anew: {table}. Set the table so?").format(table=format_table(sets))
    elif new and not lost and turn is not None and state.playing:
        placed = replies.tiles_text(sorted(new.elements(), key=state.rules.tile_key), state.rules)
        options = [PLAYED, FIX]
        text = _("{name} played {tiles}?").format(name=turn.name, tiles=placed)
    else:
        missing = replies.tiles_text(sorted(lost.elements(), key=state.rules.tile_key), state.rules)
        options = [FIX]
        text = _("This photo shows a table without {tiles} of the table as I have it. Correct the table to it?").format(
            tiles=missing
        )
    labels = [
        _("Yes, {name} played it").format(name=turn.name) if o == PLAYED and turn is not None else _(LABELS[o])
        for o in options
    ]
    payload["options"] = options
    await ask(
        context, chat, state, user.id, PHOTO, text, labels, payload, may_answer=players, reply_to=update.message,
        cancel=words.NEITHER,
    )  # fmt: skip


async def _photo_sets(d: Deps, reading: PhotoReading, rules: Rules) -> list[TileSet] | None:
    """The photo's table as sets (tiles lying apart laid out in sets of their own), or None when it does not
    make a table."""
    payload = {
        "tiles": encode_tiles(reading.tiles),
        "sets": None if reading.sets is None else encode_table(reading.sets),
        "loose": encode_tiles(reading.loose),
    }
    try:
        return parse_table(await table_text(d, payload, rules), rules) if reading.sets is not None else None
    except RummikubError:
        return None


def _table_caption(message: Message, bot_username: str | None) -> str | None:
    """What follows ``/table`` in the caption (empty when nothing does), or None when it is not ``/table``
    for this bot."""
    m = _TABLE_CAPTION.match((message.caption or "").strip())
    if m is None:
        return None
    addressee = m.group(1)
    if addressee is not None and addressee.lower() != (bot_username or "").lower():
        return None
    return m.group(2) or ""


def _replies_to_bot(message: Message, bot_id: int) -> bool:
    quoted = message.reply_to_message
    return quoted is not None and quoted.from_user is not None and quoted.from_user.id == bot_id


def _file_of(message: Message) -> str | None:
    """The file to fetch: of a photo's sizes the one that is enough; a file only when it may be a picture.
    Too large to fetch is said, not tried."""
    size: int | None
    if message.photo:
        chosen = message.photo[enough([(p.width, p.height) for p in message.photo])]
        file_id, size = chosen.file_id, chosen.file_size
    elif message.document is not None:
        document = message.document
        if document.mime_type is not None and not document.mime_type.startswith("image/"):
            return None
        file_id, size = document.file_id, document.file_size
    else:
        return None
    if size is not None and size > FETCH_LIMIT_MB * 1024 * 1024:
        raise RummikubError(words.TOO_LARGE, size=f"{size / 1024 / 1024:.0f}", limit=FETCH_LIMIT_MB)
    return file_id


async def _game(context: BotContext, update: Update) -> GameState | None:
    """The game the photo is for. In private none is started yet (a photo that is not read starts nothing);
    in a group there must be one (``NoGame`` says how to start it)."""
    chat, user = context.where, context.who
    if is_group(chat):
        return await current_game(context, chat, user)
    try:
        return await current_game(context, chat, user, create=False)
    except NoGame:
        return None


async def _read(context: BotContext, file_id: str, state: GameState | None, *, as_table: bool) -> PhotoReading:
    """Fetch the file and read it in the worker pool (the reading is CPU work, never on the event loop);
    ``as_table``: read it as a table (else the reader tells a rack from a table)."""
    try:
        file = await context.bot.get_file(file_id)
        data = bytes(await file.download_as_bytearray())
    except TelegramError as why:
        log.info("fetching a photo failed: %s", why)
        raise RummikubError(words.FETCH_FAILED) from None
    rules = state.rules if state is not None else STANDARD
    try:
        return await context.deps.solving(read_photo, data, rules, "table" if as_table else None)
    except RummikubError as why:  # PhotoError: not a picture, too large, damaged
        raise RummikubError(words.UNREADABLE, why=why.text) from None


async def _propose(update: Update, context: BotContext, state: GameState, reading: PhotoReading, *, fix: bool) -> None:
    """Show the reading with its buttons; the reading waits in the database for the tap."""
    chat, user = context.where, context.who
    group = is_group(chat)
    options = [TABLE] if group else [RACK, TABLE, DRAWN]
    copy_as = "/table" if group else ("table:" if reading.sets is not None else "")
    text = words.reading_text(
        reading.tiles, reading.sets, reading.loose, reading.uncertain, reading.corrections, state.rules,
        copy_as=copy_as, ask=_(words.GROUP_ASK if group else words.PRIVATE_ASK),
    )  # fmt: skip
    payload: dict[str, Any] = {
        "tiles": encode_tiles(reading.tiles),
        "sets": None if reading.sets is None else encode_table(reading.sets),
        "loose": encode_tiles(reading.loose),
        "options": options,
        "fix": fix,
    }
    players = [p.user_id for p in state.active_players] if group else [user.id]
    await ask(
        context, chat, state, user.id, PHOTO, text, [_(LABELS[o]) for o in options], payload,
        may_answer=players, reply_to=update.message, html=True,
    )  # fmt: skip


async def photo_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    """A tap on a reading: store the tiles as the rack, as tiles drawn, or as the table (once)."""
    _chat, user = context.where, context.who
    options = question.payload.get("options", [])
    if not 0 <= option < len(options):
        raise RummikubError(texts.STALE_BUTTON)
    state = context.game
    assert state is not None, "questions.answered found the question's game"
    d = context.deps
    what, token = options[option], question.token
    tiles = decode_tiles(question.payload["tiles"])
    if what == RACK:
        changed = await d.service.set_rack(state.id, user.id, tiles, answering=token)
        me = seat_of(changed.state, user)
        await say(update, context, replies.rack_text(me, state.rules))
        await notices.racks_trimmed(context, changed.state, changed.trimmed)
        await answer_with_best_play(update, context, changed.state, me)
    elif what == DRAWN:
        chat = context.where
        await record_draw(context, chat, user, state, tiles, answering=token)
    elif what == TABLE:
        text = await table_text(d, question.payload, state.rules)
        fix = f"{FIX_WORD} " if question.payload.get("fix") else ""
        await receive_table(update, context, state, fix + text, answering=token, then_solve=True)
    elif what == FIX:
        text = await table_text(d, question.payload, state.rules)
        await receive_table(update, context, state, f"{FIX_WORD} {text}", answering=token)
    elif what == PLAYED:
        chat = context.where
        sets = decode_table(question.payload["sets"], state.rules)
        turn = question.payload.get("turn")
        draft = PlayDraft.of(state, user.id, [list(s.tiles) for s in sets])
        draft = replace(draft, player=int(turn) if turn is not None else user.id)
        await advance(context, chat, user, state, draft, answering=token)
    else:
        raise RummikubError(texts.STALE_BUTTON)


async def table_text(d: Deps, payload: dict[str, Any], rules: Rules) -> str:
    """The table as one would type it: a table photo's sets as they lie (tiles lying apart laid out in sets
    of their own), or a rack photo's tiles as a loose list, which the table's reader lays out."""
    tiles = decode_tiles(payload["tiles"])
    if not payload.get("sets"):
        return " ".join(str(t) for t in tiles)
    sets = list(decode_table(payload["sets"], rules))
    loose = decode_tiles(payload.get("loose", []))
    if loose:
        try:
            sets += await d.off_loop(arrange, loose, rules, time_limit=d.settings.solver_time_limit)
        except RummikubError:
            apart = replies.tiles_text(loose, rules)
            apart_text = N_(
                "the tiles lying apart ({apart}) make no set; send the table as you see it, "
                "like table: 6R 7R 8R | 7K 7O 7R"
            )
            raise RummikubError(apart_text, apart=apart) from None
    return format_table(sets)
