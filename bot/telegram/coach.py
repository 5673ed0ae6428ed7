"""The coach's state between taps (issue 24), kept in the database as the shown suggestions are
(``bot.telegram.suggestions``), so any bot process answers the next tap the same way:

- a hint: the one answer its levels are read from (the new table, whether it is an opening, whether it was
  proven best) and the position's fingerprint, one per player and game: every level of a hint comes from it,
  and level 4 shows it and keeps it as the shown suggestion, so "I played this" records that very play;
- the player's plays in a game, each as its turn began (``bot.coach.grade.TurnRecord``: the rack and the table
  then, the tiles laid, whether it was the opening), noted when a play is recorded: "How did I do?" grades one,
  the review all of them.

Also the hold-back sentence under a best play (``bot.selfplay.advice``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.coach.grade import TurnRecord, turn_just_played
from bot.game import GameState, PlayerState
from bot.game.codec import decode_table, decode_tiles, encode_table, encode_tiles
from bot.game.errors import AlreadyAnswered
from bot.game.plays import opening_due
from bot.selfplay.advice import hold_back, view_of
from bot.storage.service import Question
from bot.telegram import suggestions
from bot.telegram.runtime.deps import Deps
from bot.telegram.words.coach import HOLD_BACK
from bot.telegram.words.language import _, spoken
from solver.solution import Objective, Solution
from solver.tiles import Tile

log = logging.getLogger(__name__)

#: the kinds of the ``choices`` rows the coach keeps
HINT = "hint"
TURNS = "turns"
#: the most plays kept for a player's review (a game has far fewer turns)
MOST_TURNS = 200


def _token(prefix: str, game_id: int, user_id: int) -> str:
    return prefix + hashlib.sha256(f"{prefix}:{game_id}:{user_id}".encode()).hexdigest()[:23]


# --- hints ---------------------------------------------------------------------------------------------


def hint_token(game_id: int, user_id: int) -> str:
    return _token("h", game_id, user_id)


async def keep_hint(d: Deps, state: GameState, me: PlayerState, solution: Solution, level: int) -> str:
    """Keep the answer a hint is read from (replacing the player's last one); the token its buttons carry."""
    token = hint_token(state.id, me.user_id)
    stamp = suggestions.fingerprint(state, me, Objective.TILES)
    payload = {**suggestions.payload(solution, stamp), "optimal": solution.optimal, "level": level}
    await d.service.remember(token, state.id, me.user_id, HINT, payload)
    return token


async def kept_hint(d: Deps, token: str) -> Question | None:
    try:
        return await d.service.question(token)
    except AlreadyAnswered:
        return None


def hinted(kept: Question, state: GameState, me: PlayerState) -> Solution | None:
    """The answer a kept hint reads from, when the position is still the one it was solved for (else None)."""
    if kept.kind != HINT or kept.payload.get("stamp") != suggestions.fingerprint(state, me, Objective.TILES):
        return None
    found = suggestions.rebuilt(kept.payload, state, me, Objective.TILES)
    if found is None:
        return None
    return replace(found, optimal=bool(kept.payload.get("optimal", True)))


async def note_level(d: Deps, kept: Question, level: int) -> None:
    """The level the player has reached (a /hint typed again gives the next one)."""
    if level > int(kept.payload.get("level", 0)):
        await d.service.amend_question(kept.token, {**kept.payload, "level": level})


# --- the plays a player made -------------------------------------------------------------------------------


def turns_token(game_id: int, user_id: int) -> str:
    return _token("w", game_id, user_id)


def _encoded(record: TurnRecord, numbers: tuple[int, ...] | None) -> dict[str, Any]:
    return {
        "rack": encode_tiles(record.rack),
        "table": encode_table(record.table),
        "placed": encode_tiles(record.placed),
        "opening": record.opening,
        "numbers": list(numbers) if numbers is not None else None,
    }


def decoded(entry: dict[str, Any], state: GameState, turn: int) -> TurnRecord:
    rules = state.rules
    return TurnRecord(
        rack=decode_tiles(entry["rack"]),
        table=decode_table(entry["table"], rules),
        placed=decode_tiles(entry["placed"]),
        rules=rules,
        opening=bool(entry["opening"]),
        turn=turn,
    )


def numbers_of(entry: dict[str, Any]) -> list[int] | None:
    found = entry.get("numbers")
    return [int(n) for n in found] if isinstance(found, list) else None


async def note_play(
    d: Deps, before: GameState, after: GameState, user_id: int, placed: Sequence[Tile], *, added: bool
) -> int | None:
    """Keep the turn ``user_id`` just played (as it began) for "How did I do?" and the review; its index among
    their plays, or None when the bot cannot tell the turn (a rack it did not know whole). A play that adds to
    the same turn replaces that turn's entry: the turn is graded whole."""
    record = turn_just_played(after, user_id) or _turn_from(before, user_id, placed, added=added)
    if record is None:
        return None
    token = turns_token(after.id, user_id)
    kept = await kept_turns(d, token)
    entries: list[dict[str, Any]] = list(kept.payload.get("turns", [])) if kept is not None else []
    # the game's numbers of the table the turn began with, when that is the table before this play
    numbers = tuple(before.numbers) if tuple(before.table) == tuple(record.table) else None
    if added and entries:
        entries[-1] = _encoded(record, numbers)
    elif len(entries) < MOST_TURNS:
        entries.append(_encoded(record, numbers))
    else:
        return None
    await d.service.remember(token, after.id, user_id, TURNS, {"turns": entries})
    return len(entries) - 1


def _turn_from(before: GameState, user_id: int, placed: Sequence[Tile], *, added: bool) -> TurnRecord | None:
    """The turn from the game before the play, when the game after it no longer tells (a play that ended the
    game): the play was the whole turn, and the rack then was known."""
    p = before.player(user_id)
    if added or not placed or p is None or not p.rack_known:
        return None
    order = before.rules.tile_key
    return TurnRecord(
        rack=tuple(sorted(p.rack, key=order)),
        table=tuple(before.table),
        placed=tuple(sorted(placed, key=order)),
        rules=before.rules,
        opening=opening_due(before, user_id),
    )


async def forget_last_play(d: Deps, game_id: int, user_id: int) -> None:
    """An undo took back the player's last play: its turn leaves "How did I do?" and the review (a turn
    partly taken back is dropped whole: better no grade than one of a play that is not on the table)."""
    token = turns_token(game_id, user_id)
    kept = await kept_turns(d, token)
    if kept is None:
        return
    entries: list[dict[str, Any]] = list(kept.payload.get("turns", []))
    if entries:
        await d.service.remember(token, game_id, user_id, TURNS, {"turns": entries[:-1]})


async def kept_turns(d: Deps, token: str) -> Question | None:
    try:
        found = await d.service.question(token)
    except AlreadyAnswered:
        return None
    return found if found.kind == TURNS else None


# --- holding back ------------------------------------------------------------------------------------------


def hold_back_line(state: GameState, me: PlayerState, best: Solution) -> str:
    """Under the best play (most tiles), the hold-back advice's one sentence when it differs from the play
    (else nothing)."""
    if best.objective is not Objective.TILES or not best.has_play:
        return ""
    try:
        advice = hold_back(view_of(state, me.user_id), best)
    except (ValueError, StopIteration) as why:  # a rack or seat the advice cannot read: no advice
        log.info("no hold-back advice: %s", why)
        return ""
    if advice is None:
        return ""
    return _(HOLD_BACK).format(advice=spoken(advice.text))
