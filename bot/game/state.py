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

from bot.game.trace import Trace
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
    TILES_NAMED = "tiles_named"
    RACK_DECLARED = "rack_declared"
    GAME_STOPPED = "game_stopped"
    GAME_ENDED = "game_ended"
    CHAT_MOVED = "chat_moved"
    UNDONE = "undone"

    @property
    def undoable(self) -> bool:
        return self not in _NOT_UNDOABLE

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
    EventKind.TILES_NAMED: N_("drawn tile"),
    EventKind.RACK_DECLARED: N_("rack at the end"),
    EventKind.GAME_STOPPED: N_("stop of the game"),
    EventKind.GAME_ENDED: N_("end of the game"),
    EventKind.CHAT_MOVED: N_("chat move"),
    EventKind.UNDONE: N_("undo"),
}


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A user in a game. ``rack`` is private: show it only in that user's chat.

    ``rack`` holds the tiles the bot knows are on the rack; ``rack_size`` counts the tiles on the rack at
    the real table (public: everyone sees how many tiles a player holds). The two differ while the player
    has not told the bot their rack, or not yet named a tile drawn in the group (``unnamed`` of those).
    ``declared``: the rack was told for the final score; ``score``: the points this game gave the player,
    once it is scored.
    """

    user_id: int
    name: str
    seat: int
    rack: tuple[Tile, ...]
    melded: bool
    tiles_played: int
    active: bool
    #: None: as many as ``rack`` holds (a rack the bot knows whole)
    rack_size: int = None  # type: ignore[assignment]
    unnamed: int = 0
    declared: bool = False
    score: int | None = None

    def __post_init__(self) -> None:
        if self.rack_size is None:
            object.__setattr__(self, "rack_size", len(self.rack))

    @property
    def rack_known(self) -> bool:
        """Whether the bot knows every tile on this rack."""
        return len(self.rack) == self.rack_size

    @property
    def unknown(self) -> int:
        """Tiles on the rack the bot does not know."""
        return self.rack_size - len(self.rack)


@dataclass(frozen=True, slots=True)
class Adding:
    """The play that may still grow: ``player`` played last and nobody has acted since, so what they put
    down next is part of the same turn. ``before``: the table when their turn began; ``opening``: the turn
    is their initial meld (all of it must be one)."""

    player: int
    before: tuple[TileSet, ...]
    opening: bool


class Finish(Enum):
    """How a game came to its end: a player went out, nobody could play on an empty pool, or the players
    stopped it (/end). Until the racks are told and scored, the game waits for them."""

    OUT = "out"
    BLOCKED = "blocked"
    STOPPED = "stopped"


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
    #: Each set's number, beside ``table``: a set keeps its number from turn to turn until it is broken up
    numbers: tuple[int, ...] = ()
    adding: Adding | None = None
    #: turns passed in a row on an empty pool; a round of them ends the game
    passes: int = 0
    finish: Finish | None = None
    #: who went out, or (a blocked or stopped game, once scored) whose rack was lowest
    winner: int | None = None

    def __post_init__(self) -> None:
        if len(self.numbers) != len(self.table):
            object.__setattr__(self, "numbers", tuple(range(1, len(self.table) + 1)))

    @property
    def running(self) -> bool:
        return self.status is GameStatus.RUNNING

    @property
    def playing(self) -> bool:
        """Running and not yet finished: turns are taken (once finished, only the racks are told)."""
        return self.running and self.finish is None

    @property
    def is_group(self) -> bool:
        """A group's game (a private game's chat is its player's own)."""
        return self.chat_id < 0

    @property
    def pool(self) -> int:
        """Tiles still face down: the deck less the table and every seated player's rack."""
        on_table = sum(len(s) for s in self.table)
        return self.rules.deck_size() - on_table - sum(p.rack_size for p in self.active_players)

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

    ``rack_short``: tiles of the play that the player's stored rack did not hold (recorded by someone else:
    the rack is forgotten, and only that player is told). ``trimmed``: other players whose stored racks held
    tiles the table now shows (the newest word wins; each is told in private to send their rack again).
    ``skipped``: players whose turn the play passed over (a play out of turn, recorded as such). ``added``:
    the play adds to the player's play of the same turn. ``won``: the play emptied the player's rack.
    ``trace``: where each tile of the new table came from (for the picture), when the play said so.
    """

    state: GameState
    placed: tuple[Tile, ...]
    by: int
    rack_short: tuple[Tile, ...] = ()
    trimmed: tuple[int, ...] = ()
    skipped: tuple[int, ...] = ()
    added: bool = False
    won: bool = False
    trace: Trace | None = None


@dataclass(frozen=True, slots=True)
class Changed:
    """A change and the players whose older stored racks gave up tiles to it (``bot.game.knowledge``), each
    to be told in private to send their rack again."""

    state: GameState
    trimmed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's line of a scored game: the rack left, its value (a joker at the rules' joker value), and
    the score by the box (the winner the sum of the others' racks, each other player minus their own)."""

    user_id: int
    name: str
    tiles_left: int
    points_left: int
    score: int
    won: bool


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
