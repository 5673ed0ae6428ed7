"""The values the game service hands out: plain frozen data, no database rows.

Callers (the bot, tests) never see SQLAlchemy objects, so a session closing or
a row changing can never reach into state a handler is still reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any

from solver.rules import Rules
from solver.sets import TileSet
from solver.text import N_, Text
from solver.tiles import Tile


class GameStatus(Enum):
    RUNNING = "running"
    ENDED = "ended"


class EventKind(Enum):
    """What an event in a game's history did."""

    GAME_STARTED = "game_started"
    PLAYER_JOINED = "player_joined"
    PLAYER_LEFT = "player_left"
    RACK_SET = "rack_set"
    TILES_DRAWN = "tiles_drawn"
    TABLE_SET = "table_set"
    PLAY_RECORDED = "play_recorded"
    SUGGESTION_APPLIED = "suggestion_applied"
    MELD_MARKED = "meld_marked"
    TURN_PASSED = "turn_passed"
    GAME_ENDED = "game_ended"
    CHAT_MOVED = "chat_moved"
    UNDONE = "undone"

    @property
    def undoable(self) -> bool:
        return self not in _NOT_UNDOABLE

    @property
    def table_change(self) -> bool:
        """Changes to the shared table (plays, "I played this" too): anyone at the table may undo them."""
        return self in (EventKind.TABLE_SET, EventKind.PLAY_RECORDED, EventKind.SUGGESTION_APPLIED)

    @property
    def words(self) -> str:
        """How a reply names the change ("undone: Alice's play"): English, marked for the catalogues (the chat
        translates it; ``text`` is the same as a ``Text``, for a value of the engine's words)."""
        return _WORDS[self]

    @property
    def text(self) -> Text:
        return Text(_WORDS[self])


_NOT_UNDOABLE = frozenset({EventKind.GAME_STARTED, EventKind.CHAT_MOVED, EventKind.UNDONE})
_WORDS = {
    EventKind.GAME_STARTED: N_("new game"),
    EventKind.PLAYER_JOINED: N_("joining"),
    EventKind.PLAYER_LEFT: N_("leaving"),
    EventKind.RACK_SET: N_("rack"),
    EventKind.TILES_DRAWN: N_("draw"),
    EventKind.TABLE_SET: N_("table"),
    EventKind.PLAY_RECORDED: N_("play"),
    EventKind.SUGGESTION_APPLIED: N_("play"),
    EventKind.MELD_MARKED: N_("initial meld"),
    EventKind.TURN_PASSED: N_("pass"),
    EventKind.GAME_ENDED: N_("end of the game"),
    EventKind.CHAT_MOVED: N_("chat move"),
    EventKind.UNDONE: N_("undo"),
}


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A user in a game. ``rack`` is private: show it only in that user's chat."""

    user_id: int
    name: str
    seat: int
    rack: tuple[Tile, ...]
    melded: bool
    tiles_played: int
    active: bool

    @property
    def rack_known(self) -> bool:
        """Whether the bot knows this rack: it holds tiles, or it was emptied by plays (not never set)."""
        return bool(self.rack) or self.tiles_played > 0


@dataclass(frozen=True, slots=True)
class GameState:
    """A game as it stands: the table, the players by seat, whose turn it is.

    ``players`` includes those who left (``active`` false) so their history
    still reads; ``turn`` is the user id of the player to move, None without
    players. ``invite`` is the deep-link payload that links a private chat to
    this game. ``version`` grows with every change.
    """

    id: int
    chat_id: int
    status: GameStatus
    rules: Rules
    table: tuple[TileSet, ...]
    players: tuple[PlayerState, ...]
    turn: int | None
    invite: str
    version: int
    created_at: datetime
    ended_at: datetime | None
    #: The group's name (None for a private game), so a private reply about the game can say which group
    title: str | None = None

    @property
    def running(self) -> bool:
        return self.status is GameStatus.RUNNING

    @property
    def active_players(self) -> tuple[PlayerState, ...]:
        return tuple(p for p in self.players if p.active)

    def player(self, user_id: int) -> PlayerState | None:
        """The user's seat in this game, active or not."""
        return next((p for p in self.players if p.user_id == user_id), None)

    @property
    def turn_player(self) -> PlayerState | None:
        return None if self.turn is None else self.player(self.turn)


@dataclass(frozen=True, slots=True)
class Played:
    """A play that went onto the table: the game after it, the tiles new to the table and whose play it was.

    ``rack_short``: tiles of the play that the player's stored rack did not hold (the play is the table's
    truth; only that player is told). ``rack_stale``: the stored rack no longer fits the table (tiles short,
    or more copies than the deck holds). ``skipped``: players whose turn the play passed over (a play out of
    turn, recorded as such). ``won``: the player's known rack is now empty.
    """

    state: GameState
    placed: tuple[Tile, ...]
    by: int
    rack_short: tuple[Tile, ...] = ()
    rack_stale: bool = False
    skipped: tuple[int, ...] = ()
    won: bool = False


@dataclass(frozen=True, slots=True)
class PlayerScore:
    user_id: int
    name: str
    tiles_left: int
    points_left: int
    #: False for a rack the bot never knew (plays recorded for it, no rack set): it has no score
    rack_known: bool = True


@dataclass(frozen=True, slots=True)
class GameResult:
    """An ended game with the points left on each rack, fewest first."""

    state: GameState
    scores: tuple[PlayerScore, ...]


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One entry of a game's history (``detail`` is for people; undo uses the stored diff)."""

    id: int
    game_id: int
    kind: EventKind
    user_id: int | None
    at: datetime
    detail: Mapping[str, Any] = field(default_factory=dict)
    undone: bool = False
    undoes: int | None = None


@dataclass(frozen=True, slots=True)
class Undone:
    """What an undo took back, and the game after it."""

    event: EventRecord
    state: GameState
