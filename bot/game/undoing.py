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
from bot.game.state import EventKind, EventRecord
from solver.text import N_

#: The joining that seated a game's creator as the game began: part of starting the game, not a change
#: /undo takes back (in a private chat there is no /join, and undoing it locked the player out).
SEAT_WITH_GAME = "with_game"
#: Changes only their owner may take back: what they say is private.
PRIVATE_KINDS = frozenset({EventKind.RACK_SET, EventKind.TILES_DRAWN})


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
