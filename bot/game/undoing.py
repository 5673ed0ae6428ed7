"""Which change an undo takes back.

``/undo`` takes back your own last change: one you made, or a play recorded as yours. Someone else's change
is taken back only when it is public (the table, the turn, a seat, the end; never a rack, which only its
owner sees) and it is the latest one: then the chat asks first, and it needs that player's tap or the
asker's confirmation. The reply always names whose change it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.game import errors
from bot.game.history import Diff
from bot.game.knowledge import reconcile
from bot.game.racks import check_room
from bot.game.state import EventKind, EventRecord, GameState
from bot.game.tiles import check_tiles, table_tiles
from solver.text import N_, say

#: The joining that seated a game's creator as the game began: part of starting the game, not a change
#: /undo takes back (in a private chat there is no /join, and undoing it locked the player out).
SEAT_WITH_GAME = "with_game"
#: Changes only their owner may take back: what they say is private.
PRIVATE_KINDS = frozenset({EventKind.RACK_SET, EventKind.TILES_NAMED})


def owner(event: EventRecord) -> int | None:
    """Whose change it is: the player a play was recorded for, else who made it."""
    player = event.detail.get("player")
    if event.kind in (EventKind.PLAY_RECORDED, EventKind.SUGGESTION_APPLIED) and isinstance(player, int):
        return player
    return event.user_id


def is_mine(event: EventRecord, user_id: int) -> bool:
    return event.user_id == user_id or owner(event) == user_id


@dataclass(frozen=True, slots=True)
class UndoChoice:
    """Your own last change (``mine``), and a later public change of someone else (``theirs``), if any."""

    mine: EventRecord | None
    theirs: EventRecord | None


def undo_choice(history: Sequence[EventRecord], user_id: int) -> UndoChoice:
    """What ``/undo`` by ``user_id`` may take back, from the game's history (oldest first, undone flagged)."""
    live = [e for e in history if _undoable(e)]
    mine = next((e for e in reversed(live) if is_mine(e, user_id)), None)
    latest_public = next((e for e in reversed(live) if e.kind not in PRIVATE_KINDS), None)
    later = latest_public is not None and (mine is None or latest_public.id > mine.id)
    theirs = latest_public if later and latest_public is not None and not is_mine(latest_public, user_id) else None
    return UndoChoice(mine, theirs)


def check_may_undo(event: EventRecord, user_id: int, *, confirmed: bool) -> None:
    """Taking back ``event`` is allowed for ``user_id``: their own, or someone else's public change confirmed."""
    if not _undoable(event):
        raise errors.NothingToUndo(N_("that change cannot be undone (it was undone already)"))
    if is_mine(event, user_id):
        return
    if event.kind in PRIVATE_KINDS:
        raise errors.NothingToUndo(N_("only its owner can undo a change to a rack"))
    if not confirmed:
        raise errors.NothingToUndo(N_("undoing someone else's change needs a confirmation"))


def _undoable(e: EventRecord) -> bool:
    return e.kind.undoable and not e.undone and not e.detail.get(SEAT_WITH_GAME)


def check_after_undo(state: GameState, back: Diff) -> tuple[GameState, tuple[int, ...]]:
    """An undo out of order must not conjure tiles: the table it brings back fits the deck alone, the racks'
    counts fit beside it, and a rack it gives back is the newest word about its tiles (``knowledge``: older
    racks of others give them up; a rack given back that the table cannot hold is refused).

    Returns the game and the players whose racks gave up tiles (each is told in private).
    """
    table = list(table_tiles(state.table).elements())
    if "table" in back.get("game", {}):
        check_tiles(state.rules, say("after this undo, the table"), table)
    check_room(state)
    restored = set(back.get("added", {})) | {uid for uid, fields in back.get("players", {}).items() if "rack" in fields}
    try:
        return reconcile(state, keep=[int(uid) for uid in restored])
    except errors.TooManyTiles:  # which tiles would tell the rack
        raise errors.TooManyTiles(
            N_(
                "after this undo, the table and a rack would hold more tiles than the deck has; "
                "undo the later changes first"
            )
        ) from None
