"""The referee: whole games of 2 to 4 simulated players, played through the real ``python -m bot``.

The bot runs as its own process (``python -m bot``, polling the loopback fake Bot API, on a SQLite file),
and families of simulated players play complete games with it, each in its own group, as people would: a
real shuffled deck, each rack sent privately; turns taken by typed plays (the whole new table, the sets that
changed, the tiles laid off, rearrangements that reuse table tiles, ``/play`` or ``/table``, in the group or
in private), by "I played this" under ``/solve``, by a play sent in two messages, by plays another player
records for the one whose turn it is, by draws (``/draw`` in the group and the tile named on the private
keyboard or typed, the group's button, ``/draw 7K`` in private, a draw another player tells), passes on an
empty pool; now and then a player plays or draws out of turn and says it was theirs, takes a play or a draw
back with ``/undo`` (or another player's ``/undo`` is confirmed) and makes it again, taps a stale "I played
this" or an earlier turn's "I drew a tile", looks at ``/status``, or fixes the table wrongly and another puts
it right. Every question the bot asks is answered with the truth. A game goes on until someone goes out (an
undo of the winning play, now and then, and it is made again), or the pool is empty and every player passes
(a slow family holds back until it is), or a player stops it with ``/end``; then the others tell their racks
(the button, ``/left`` typed, the tile keyboard; the last one, now and then, taken back and told again) and
the game ends in the box's scores; some families play a second game ("New game, same players"), the totals
adding up.

The referee knows the truth (``Truth``: every rack, the pool, the table, whose turn it is) and works out by
itself what the bot must hold after each message. After EVERY message it reads the game back with the code
``python -m bot game CHAT --json`` uses (``bot.storage.overview`` and ``bot.cli_game.as_json``, read-only)
and compares: the table (as a multiset of sets), whose turn it is, the pool, who may still add to a play,
passes, the finish and the winner, each player's rack size, known rack, unnamed tiles, meld, declared rack
and score, and the chat's totals. Set numbers must be stable: a set a play does not touch keeps its number
(new sets take numbers above the table's; an undo brings the numbers back). What the bot wrote must agree
too: every "Ben to play. 52 tiles in the pool.", every "Your rack (…)" in a private chat, every /status line,
the final score lines. At the end of every game the real ``python -m bot game CHAT --json`` runs as a
subprocess and must print what the read in-process gives. Any difference fails with a report: the seed (and
how to replay it), the message, the differences, the truth, the bot's view and the last messages.

The referee chooses what a player types from the ways people type a play, and checks with the bot's own
reading rules (``bot.game.reading.read_play``, on the same inputs the bot has) which of them read back as
the play that was made; a form that cannot is counted (``Stats.unreadable``, with examples) and another is
used, the whole new table last. Questions ("Where did 4R come from?") are answered with the option that
keeps the true play, tiles coming from where they truly came from.

The bot process is ``python -m bot`` with two of Telegram's limits off, as the in-process tests run it
(``tests.bot_support.running_bot``): the pacing of its messages (20 a minute in a group) and the skipping of
a sender past 20 messages in 30 seconds. A simulated family plays far faster than either allows.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.cli_game import as_json
from bot.game.codec import decode_table
from bot.game.reading import Question, Rack, Reading, next_question, read_play
from bot.game.state import GameState
from bot.storage.database import Database, open_database
from bot.storage.models import AskedQuestion, Claim, Delivery
from bot.storage.overview import overview
from bot.telegram import suggestions
from solver import STANDARD
from solver.errors import RummikubError
from solver.notation import format_set, parse_set, parse_table_chunks
from solver.sets import SetError, TileSet, make_set, tiles_of
from solver.solution import Objective, Solution
from solver.solve import arrange, solve
from solver.tiles import JOKER, Tile
from tests.bot_support import ROOT, fake_api
from tests.fake_bot_api import Call, Chat, FakeBotApi, User, private
from tests.storage_support import migrated

RULES = STANDARD
#: What a joker left on a rack costs when a game is scored, by the box (independent of the bot's rules).
JOKER_PENALTY = 30
#: The bot's time limit for a solve and for laying loose tiles out (set for the process below): the referee
#: reads plays with the same, so its readings are the bot's.
BOT_SOLVER_SECONDS = 5.0
#: The referee's own solve of the true position: long enough never to give up on a position.
REFEREE_SOLVE_SECONDS = 20.0
#: How long the bot may take over one message (a solve, a picture) on a loaded machine.
HANDLING_SECONDS = 120.0
#: A game this long has gone wrong (with the solver's plays, 2 to 4 players finish in far fewer turns).
MOST_TURNS = 400
NAMES = ("Anna", "Ben", "Clara", "Noa")
#: The tile keyboard's keys, as the family sees them.
COLOUR_KEYS = {"R": "🔴", "B": "🔵", "K": "⚫", "O": "🟠"}
JOKER_KEY = "🃏 Joker"
DONE_KEY = "✅ Done"
PLAYED_THIS = "✅ I played this"
RACK_AS_YOU_HAVE_IT = "📋 My rack as you have it"
SAME_PLAYERS = "🔁 New game, same players"
JOIN = "🙋 Join"

#: How often a family does each thing (per turn, or per play / draw / pass, as named).
HOLD_BACK = 0.04  # a player who could play draws (or passes) instead
#: A slow family holds back this often while the pool has tiles, and then (a pass) this often: the pool runs
#: out, and the game may end with nobody able to play on
SLOW_HOLD_BACK = 0.85
SLOW_PASS = 0.7
SLOW_FAMILIES = 0.25
UNDO = 0.07  # a typed play or a draw is taken back with /undo and made again
UNDONE_BY_ANOTHER = 0.3  # of those, another player asks for the undo (and it is confirmed)
OUT_OF_TURN = 0.03  # per turn: another player plays or draws on someone else's turn, as their own
NAME_FIRST = 0.8  # a player with a tile not yet named names it before their own turn
LOOK = 0.03  # per turn: /status
RETELL = 0.02  # per turn: a player sends their whole rack again
TYPO = 0.04  # per typed play: first typed with a tile that does not exist (refused), then right
DOUBLE_TAP = 0.1  # a button that changes the game tapped twice at once (two players, or a finger twice)
STALE_DREW = 0.02  # per turn: "I drew a tile" tapped under an earlier turn's post
STOPPED = 0.1  # per game: a player stops the game with /end after some turns
UNDO_THE_SCORE = 0.2  # per game: the last rack told (which scored the game) is taken back and told again
CORRECTION = 0.03  # per turn: a wrong /table fix, put right by /table fix with the truth
MOST_CORRECTIONS = 2  # per game
NAME_LATER = 0.35  # a tile drawn in the group is named later, not at once
PLAY_KINDS = {"typed": 6, "I played this": 2, "in two messages": 2, "recorded by another": 2}
DRAW_KINDS = {"/draw in the group": 3, "the group's button": 3, "/draw in private": 2, "told by another": 2}
PASS_KINDS = {"/pass in the group": 1, "the group's button": 1, "/draw in the group": 1, "/pass in private": 1}

# The bot process: ``python -m bot`` itself, with Telegram's flood limits off (see the module's docstring).
LAUNCHER = """
import os, signal, sys, threading
from bot.telegram import app
from bot.telegram.runtime import dispatch, pacing

class Unpaced(pacing.SharedPace):
    def __init__(self, limits=pacing.NONE, db=None):
        super().__init__(limits, db)

app.SharedPace = Unpaced
dispatch.FLOOD_MOST = dispatch.FLOOD_MOST_TAPS = 10**9

def orphaned():  # the referee's end of the pipe closes when it goes, however it goes: stop too
    sys.stdin.read()
    os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=orphaned, daemon=True).start()
from bot.__main__ import main
sys.exit(main([]))
"""


#: A turn line ("Ben to play. 52 tiles in the pool.") and a rack line ("Your rack (3 tiles): 6K 13K 7O").
TURN_LINE = re.compile(r"(\w+) to play\. (?:(\d+) tiles? in the pool|The pool is empty)")
RACK_LINE = re.compile(r"Your rack \(\d+ tiles?\): ([^\n]*)")
#: What the group reads of a play, a draw, a pass, and of turns passed over.
PLAY_LINE = re.compile(r"(\w+) (?:put down (.+?)|adds (.+?) to their play) \((\d+) tiles?, (-?\d+) points?\)\.")
DRAW_LINE = re.compile(r"(\w+) drew (?:a tile|\d+ tiles)\.")
PASS_LINE = re.compile(r"(\w+) passes \(the pool is empty\)\.")
SKIP_LINE = re.compile(r"Turn passed over: ([^.]+)\.")
#: A line of /status: "2. Ben: 14 tiles, no meld yet ← to play"
STATUS_LINE = re.compile(r"^(\d+)\. (\w+): (\d+) tiles?(, no meld yet)?( ← to play)?$", re.MULTILINE)


class RefereeError(AssertionError):
    """The bot's game is not the game played (or the bot did not take a message as it should)."""


# --- tiles and sets --------------------------------------------------------------------------------------


def canon(s: TileSet) -> str:
    """A set as the bot would lay it out from its tiles (jokers of a run where they were given)."""
    return format_set(make_set(list(s.tiles), RULES))


def canon_text(text: str) -> str:
    return canon(parse_set(text, RULES))


def without(tiles: Iterable[Tile], gone: Counter[Tile]) -> list[Tile]:
    """``tiles`` less ``gone`` (each copy once), in their order."""
    left = Counter(gone)
    out = []
    for t in tiles:
        if left[t] > 0:
            left[t] -= 1
        else:
            out.append(t)
    return out


def box_value(tiles: Iterable[Tile]) -> int:
    """What a rack costs at the end, by the box: each tile its number, a joker 30."""
    return sum(JOKER_PENALTY if t.is_joker else t.number for t in tiles)


def words(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


def sets_text(sets: Iterable[Sequence[Tile]]) -> str:
    return " | ".join(words(s) for s in sets)


def full_deck() -> list[Tile]:
    return [t for t in RULES.tiles() for _ in range(RULES.copies)] + [JOKER] * RULES.jokers


def opening_value(began: Sequence[TileSet], after: Sequence[TileSet]) -> int | None:
    """An initial meld's worth: every set of the table as the turn began still there, the new sets' value (a
    joker as the tile it stands for); None when the table's sets were changed."""
    old = Counter(canon(s) for s in began)
    value = 0
    for s in after:
        if old[canon(s)] > 0:
            old[canon(s)] -= 1
        else:
            value += s.value
    return None if +old else value


# --- the truth -------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """A player at the real table: their whole rack, and what they have told the bot of it."""

    user: User
    rack: list[Tile] = field(default_factory=list)
    #: the player has sent their rack (the bot knows it, but for tiles drawn and not yet named)
    told: bool = False
    #: tiles drawn in the group, not yet named in private
    unnamed: list[Tile] = field(default_factory=list)
    melded: bool = False
    declared: bool = False
    score: int | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.first_name

    def known(self) -> list[Tile]:
        """The tiles the bot should know are on this rack."""
        return without(self.rack, Counter(self.unnamed)) if self.told else []


@dataclass
class Truth:
    """The game at the real table, kept by the referee alone."""

    pool: list[Tile]
    seats: list[Seat]
    table: list[TileSet] = field(default_factory=list)
    turn: int | None = None
    adding: int | None = None
    #: the table as the adding player's turn began, and whether that turn is their initial meld
    began: list[TileSet] = field(default_factory=list)
    opening: bool = False
    passes: int = 0
    finish: str | None = None
    winner: int | None = None
    ended: bool = False
    #: a wrong correction the bot holds until it is put right (the real table is ``table``)
    shown: list[TileSet] | None = None
    #: the group's scored games summed per player: name, points, games, games won
    totals: dict[int, tuple[str, int, int, int]] = field(default_factory=dict)

    def seat(self, user_id: int) -> Seat:
        return next(s for s in self.seats if s.id == user_id)

    def after(self, user_id: int) -> int:
        ids = [s.id for s in self.seats]
        return ids[(ids.index(user_id) + 1) % len(ids)]

    def copy(self) -> Truth:
        return copy.deepcopy(self)

    def restore(self, other: Truth) -> None:
        self.__dict__.update(copy.deepcopy(other).__dict__)

    def sit(self, user: User) -> Seat:
        """A player sits down and takes a rack off the pool."""
        seat = Seat(user, [self.pool.pop() for _ in range(RULES.deal)])
        self.seats.append(seat)
        if self.turn is None:
            self.turn = user.id
        return seat

    def tell(self, user_id: int) -> None:
        seat = self.seat(user_id)
        seat.told, seat.unnamed = True, []

    def legal(self, user_id: int, after: Sequence[TileSet]) -> Counter[Tile]:
        """The tiles ``user_id`` puts down to leave ``after``; a play the rules do not allow is the referee's
        own mistake (or, for a play the bot suggested, the bot's), said as such."""
        seat = self.seat(user_id)
        for s in after:
            try:
                make_set(list(s.tiles), RULES)
            except SetError as why:
                raise RefereeError(f"not a set: {s} ({why})") from None
        old, new = tiles_of(self.table), tiles_of(after)
        if old - new:
            raise RefereeError(f"the play takes {words((old - new).elements())} off the table")
        placed = new - old
        if not placed:
            raise RefereeError("the play puts no tile down")
        if placed - Counter(seat.rack):
            raise RefereeError(f"{seat.name}'s rack lacks {words((placed - Counter(seat.rack)).elements())}")
        adding = self.adding == user_id
        opening = self.opening if adding else not seat.melded
        if opening:
            worth = opening_value(self.began if adding else self.table, after)
            if worth is None or worth < RULES.initial_meld:
                raise RefereeError(f"not an initial meld: worth {worth}")
        return placed

    def play(self, user_id: int, after: Sequence[TileSet]) -> Counter[Tile]:
        placed = self.legal(user_id, after)
        seat = self.seat(user_id)
        from_unnamed = placed - Counter(seat.known()) if seat.told else Counter()
        seat.rack = without(seat.rack, placed)
        seat.unnamed = without(seat.unnamed, from_unnamed)
        if self.adding != user_id:
            self.began, self.opening = list(self.table), not seat.melded
            self.turn, self.adding = self.after(user_id), user_id
        seat.melded = True
        self.table = list(after)
        self.passes = 0
        if not seat.rack:
            self.finish, self.winner, self.turn, self.adding = "out", user_id, None, None
        return placed

    def draw(self, user_id: int, *, named: bool) -> Tile:
        seat = self.seat(user_id)
        tile = self.pool.pop()
        seat.rack.append(tile)
        if not named:
            seat.unnamed.append(tile)
        self.turn, self.adding, self.passes = self.after(user_id), None, 0
        return tile

    def name(self, user_id: int) -> None:
        self.seat(user_id).unnamed = []

    def pass_turn(self, user_id: int) -> None:
        assert not self.pool
        self.turn, self.adding, self.passes = self.after(user_id), None, self.passes + 1
        if self.passes >= len(self.seats):
            self.finish, self.turn = "blocked", None

    def stop(self) -> None:
        """/end: no more turns; the racks are told and the lowest wins, as when nobody can play on."""
        self.finish, self.turn, self.adding = "stopped", None, None

    def waiting(self) -> list[Seat]:
        """Who must still tell their rack for the score."""
        return [s for s in self.seats if s.id != self.winner and not s.declared] if self.finish else []

    def declare(self, user_id: int) -> None:
        seat = self.seat(user_id)
        seat.declared, seat.told, seat.unnamed = True, True, []
        if not self.waiting():
            self.score()

    def score(self) -> None:
        """By the box: each loser minus their rack's value, the winner (who went out, or the lowest rack when
        nobody could play on; a tie goes to fewer tiles, then to the earlier seat) the sum."""
        if self.finish == "out":
            winner = self.seat(self.winner or 0)
        else:
            winner = min(self.seats, key=lambda s: (box_value(s.rack), len(s.rack), self.seats.index(s)))
        losers = [s for s in self.seats if s is not winner]
        for s in losers:
            s.score = -box_value(s.rack)
        winner.score = sum(box_value(s.rack) for s in losers)
        self.winner, self.ended, self.turn, self.adding = winner.id, True, None, None
        for s in self.seats:
            _name, points, games, won = self.totals.get(s.id, (s.name, 0, 0, 0))
            self.totals[s.id] = (s.name, points + (s.score or 0), games + 1, won + (s is winner))

    def check(self) -> None:
        """The referee's own bookkeeping: every tile of the deck is in exactly one place."""
        held = Counter(self.pool) + tiles_of(self.table)
        for s in self.seats:
            held.update(s.rack)
        assert held == Counter(full_deck()), "the referee lost track of the tiles"

    def expected(self) -> dict[str, Any]:
        """What ``python -m bot game CHAT --json`` must show (as ``normal`` puts it)."""
        table = self.shown if self.shown is not None else self.table
        on_table = sum(len(s) for s in table)
        return {
            "status": "ended" if self.ended else "open",
            "table": sorted(canon(s) for s in table),
            "turn": self.turn,
            "pool": RULES.deck_size() - on_table - sum(len(s.rack) for s in self.seats),
            "adding": self.adding,
            "passes": self.passes,
            "finish": self.finish,
            "winner": self.winner if self.finish == "out" or self.ended else None,
            "players": [
                {
                    "user_id": s.id,
                    "name": s.name,
                    "rack": sorted(str(t) for t in s.known()),
                    "rack_size": len(s.rack),
                    "unnamed": len(s.unnamed),
                    "melded": s.melded,
                    "declared": s.declared,
                    "score": s.score,
                }
                for s in self.seats
            ],
            "totals": {str(uid): list(total) for uid, total in self.totals.items()},
        }


def normal(view: dict[str, Any]) -> dict[str, Any]:
    """The bot's view (``as_json``) in the truth's terms: sets canonical and in any order, racks sorted."""
    return {
        "status": view["status"],
        "table": sorted(canon_text(s) for s in view["table"]),
        "turn": view["turn"],
        "pool": view["pool"],
        "adding": view["adding"],
        "passes": view["passes"],
        "finish": view["finish"],
        "winner": view["winner"],
        "players": [
            {
                "user_id": p["user_id"],
                "name": p["name"],
                "rack": sorted(p["rack"]),
                "rack_size": p["rack_size"],
                "unnamed": p["unnamed"],
                "melded": p["melded"],
                "declared": p["declared"],
                "score": p["score"],
            }
            for p in view["players"]
        ],
        "totals": {str(t["user_id"]): [t["name"], t["points"], t["games"], t["won"]] for t in view["totals"]},
    }


def differences(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key, want in expected.items():
        have = got.get(key)
        if key == "players" and isinstance(have, list) and len(have) == len(want):
            for w, h in zip(want, have, strict=True):
                out.extend(
                    f"{w['name']}'s {k}: expected {w[k]!r}, the bot has {h.get(k)!r}" for k in w if w[k] != h.get(k)
                )
        elif key == "table" and want != have:
            missing: list[str] = list((Counter(want) - Counter(have)).elements())
            extra: list[str] = list((Counter(have) - Counter(want)).elements())
            out.append(f"table: the bot lacks {missing}, and has besides {extra}")
        elif want != have:
            out.append(f"{key}: expected {want!r}, the bot has {have!r}")
    return out


def kept_sets(before: Sequence[TileSet], after: Sequence[TileSet]) -> Counter[str]:
    """The sets a move leaves untouched (each, how many copies), which must keep their numbers. A set that a
    changed or new set holds whole could as well have been continued by it (a play may grow a set and lay an
    identical one beside it): no number is asked of those."""
    old, new = Counter(canon(s) for s in before), Counter(canon(s) for s in after)
    made = [Counter(s.tiles) for s in after if (new - old)[canon(s)] > 0]
    kept: Counter[str] = Counter()
    for s in before:
        key = canon(s)
        if kept[key] >= min(old[key], new[key]):
            continue
        if any(not Counter(s.tiles) - m for m in made):
            continue
        kept[key] += 1
    return kept


# --- the bot, its fake Telegram, and reading its game back ------------------------------------------------


def play_points(after: Sequence[TileSet], placed: Counter[Tile]) -> tuple[int, int]:
    """What a play's tiles count, where they lie: each number tile its number, each joker from the rack a tile
    it stands for. Jokers are alike, so which of the table's jokers is the rack's is the bot's tracing: the
    least and the most that makes (a joker counts 1 to the highest tile a joker of the new table stands for)."""
    numbers = sum(t.number for t in placed.elements() if not t.is_joker)
    jokers = placed[JOKER]
    stand = sorted(
        (f.number for s in after for t, f in zip(s.tiles, s.stands_for, strict=True) if t.is_joker), reverse=True
    )
    return numbers + jokers, numbers + sum(stand[:jokers])


def grows(old: TileSet, new: TileSet, placed: Counter[Tile]) -> bool:
    """``new`` is ``old`` with some of ``placed`` added."""
    return not Counter(old.tiles) - Counter(new.tiles) and not (Counter(new.tiles) - Counter(old.tiles)) - placed


def where(chat: Chat | int) -> str:
    chat_id = chat.id if isinstance(chat, Chat) else chat
    return "group" if chat_id < 0 else f"private {chat_id}"


def said(call: Call) -> str:
    """One line of the transcript for a call the bot made."""
    text = call.text.replace("\n", " / ")
    if len(text) > 300:
        text = text[:300] + "…"
    buttons = [b["text"] for b in call.buttons]
    more = f" {buttons}" if buttons else ""
    if call.method == "answerCallbackQuery":
        return f"bot answers the tap: {text}" if text else ""
    if call.method in ("sendMessage", "sendPhoto", "editMessageText"):
        kind = {"sendPhoto": "picture: ", "editMessageText": "edit: "}.get(call.method, "")
        chat = call.params.get("chat_id")
        return f"bot → {where(int(chat)) if isinstance(chat, int) else chat}: {kind}{text}{more}"
    return ""


@dataclass
class Watch:
    """One family's share of the bot's traffic (families may play at once): its chats, the taps it made, and
    the transcript of what was said."""

    chats: set[int]
    transcript: list[str] = field(default_factory=list)

    def note(self, line: str) -> None:
        if line:
            self.transcript.append(line)

    def sees(self, call: Call, query: str | None) -> bool:
        if call.method == "answerCallbackQuery":
            return query is not None and call.params.get("callback_query_id") == query
        return call.chat_id in self.chats


@dataclass
class Arena:
    """The running bot process, its fake Telegram and its database: messages in, the game read back."""

    fake: FakeBotApi
    url: str
    db: Database
    folder: Path
    log: Path
    process: subprocess.Popen[bytes]
    messages: int = 0
    _log_seen: int = 0
    _queries: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _groups: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def new_group(self, title: str) -> Chat:
        return Chat(-1_000_000_000 - next(self._groups), "group", title)

    def new_users(self, count: int, game: int) -> list[User]:
        return [User(1_000_000 + 10 * game + i, NAMES[i]) for i in range(count)]

    async def send(self, watch: Watch, user: User, text: str, chat: Chat) -> list[Call]:
        mark = self.fake.mark()
        watch.note(f"{user.first_name} → {where(chat)}: {text}")
        return await self._settle(watch, self.fake.send(user, text, chat), mark)

    async def press(self, watch: Watch, user: User, call: Call, label: str) -> list[Call]:
        """``user`` taps the button labelled exactly ``label`` under ``call``."""
        found = [b for b in call.buttons if b["text"] == label]
        if not found:
            raise RefereeError(f"no button {label!r} under {call.text[:80]!r}: {[b['text'] for b in call.buttons]}")
        message = self.fake.messages[(int(call.params["chat_id"]), call.message_id)]
        query = {
            "id": f"referee{next(self._queries)}",
            "from": user.to_json(),
            "message": message,
            "chat_instance": f"ci{message['chat']['id']}",
            "data": found[0]["callback_data"],
        }
        mark = self.fake.mark()
        watch.note(f"{user.first_name} taps {label!r} in {where(int(call.params['chat_id']))}")
        return await self._settle(watch, self.fake.offer({"callback_query": query}), mark, str(query["id"]))

    async def press_twice(self, watch: Watch, users: tuple[User, User], call: Call, label: str) -> list[Call]:
        """Two taps on the same button at once (two players, or one finger twice), the second sent before the
        first is handled."""
        found = [b for b in call.buttons if b["text"] == label]
        if not found:
            raise RefereeError(f"no button {label!r} under {call.text[:80]!r}: {[b['text'] for b in call.buttons]}")
        message = self.fake.messages[(int(call.params["chat_id"]), call.message_id)]
        mark = self.fake.mark()
        offered = []
        for user in users:
            query = {
                "id": f"referee{next(self._queries)}",
                "from": user.to_json(),
                "message": message,
                "chat_instance": f"ci{message['chat']['id']}",
                "data": found[0]["callback_data"],
            }
            watch.note(f"{user.first_name} taps {label!r} in {where(int(call.params['chat_id']))} (a double tap)")
            offered.append((self.fake.offer({"callback_query": query}), str(query["id"])))
        calls: list[Call] = []
        for update_id, query_id in offered:
            calls += await self._settle(watch, update_id, mark, query_id)
        return calls

    async def follow(self, watch: Watch, user: User, call: Call, label: str) -> list[Call]:
        """``user`` opens a deep-link button: /start in their private chat."""
        mark = self.fake.mark()
        watch.note(f"{user.first_name} opens {label!r}")
        return await self._settle(watch, self.fake.follow(user, call, label), mark)

    async def _settle(self, watch: Watch, update_id: int, mark: int, query: str | None = None) -> list[Call]:
        """Wait until the bot has handled the update, all of it (its change stored, every answer sent and the
        chat let go); the calls it made meanwhile in the family's chats (and its answer to the tap)."""
        self.messages += 1
        deadline = time.monotonic() + HANDLING_SECONDS
        while True:
            outcome = await self._outcome(update_id)
            if outcome is not None:
                break
            if self.process.poll() is not None:
                raise RefereeError(f"the bot process ended (status {self.process.returncode}):\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise RefereeError(f"the bot did not finish update {update_id} in {HANDLING_SECONDS:.0f} s")
            await asyncio.sleep(0.01)
        calls = [c for c in self.fake.calls[mark:] if watch.sees(c, query)]
        for c in calls:
            watch.note("    " + said(c))
        if outcome != "done":
            raise RefereeError(f"the bot's inbox says {outcome!r} for update {update_id}")
        problems = self.log_problems()
        if problems:
            raise RefereeError("the bot logged an error:\n" + problems)
        return calls

    async def _outcome(self, update_id: int) -> str | None:
        rows = await self.db.rows(select(Delivery.outcome, Delivery.chat_id).where(Delivery.update_id == update_id))
        if not rows or rows[0].outcome is None:
            return None
        claimed = await self.db.rows(select(Claim.chat_id).where(Claim.chat_id == rows[0].chat_id))
        return None if claimed else str(rows[0].outcome)

    def log_problems(self) -> str:
        with open(self.log, encoding="utf-8", errors="replace") as f:
            f.seek(self._log_seen)
            new = f.read()
            self._log_seen = f.tell()
        bad = [line for line in new.splitlines() if " ERROR " in line or "Traceback" in line or " CRITICAL " in line]
        return new[-4000:] if bad else ""

    def log_tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]

    async def view(self, chat_id: int) -> tuple[GameState, dict[str, Any]]:
        """The chat's game as ``python -m bot game CHAT --json`` reads it (the same code, read-only)."""
        found = await overview(self.db, chat_id)
        if found is None:
            raise RefereeError(f"chat {chat_id} has no game")
        return found.state, as_json(found)

    def cli(self, chat_id: int) -> dict[str, Any]:
        """The real ``python -m bot game CHAT --json``, as an operator runs it."""
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-m", "bot", "game", str(chat_id), "--json", "--url", self.url],
            cwd=self.folder,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RefereeError(f"python -m bot game {chat_id} --json failed: {done.stderr}")
        found: dict[str, Any] = json.loads(done.stdout)
        return found

    async def shown_suggestion(self, game_id: int, user_id: int) -> list[TileSet] | None:
        """The table the bot's last /solve answer showed this player (kept for its "I played this")."""
        token = suggestions.token(game_id, user_id, Objective.TILES)
        rows = await self.db.rows(select(AskedQuestion.payload).where(AskedQuestion.token == token))
        if not rows:
            return None
        return list(decode_table(rows[0][0]["table"], RULES))


def start_bot(fake: FakeBotApi, url: str, log: Path) -> subprocess.Popen[bytes]:
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "DATABASE_URL": url,
        "LOG_LEVEL": "INFO",
        "SOLVER_TIME_LIMIT": str(BOT_SOLVER_SECONDS),
    }
    command = [sys.executable, "-c", LAUNCHER]
    with open(log, "ab") as out:
        return subprocess.Popen(command, cwd=log.parent, env=environment, stdin=subprocess.PIPE, stdout=out, stderr=out)


@asynccontextmanager
async def arena(folder: Path) -> AsyncIterator[Arena]:
    """A fresh database, the fake Telegram and ``python -m bot`` polling it; at the end the bot stops cleanly,
    broke no rule of the Bot API and logged no error."""
    url = await migrated(folder)
    log = folder / "bot.log"
    async with fake_api() as fake:
        process = start_bot(fake, url, log)
        db = open_database(url)
        place = Arena(fake, url, db, folder, log, process)
        try:
            yield place
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(process.wait, 60)
            except subprocess.TimeoutExpired:
                process.kill()
                await asyncio.to_thread(process.wait, 10)
            await db.dispose()
            if process.stdin is not None:
                process.stdin.close()
        assert not fake.violations, fake.violations
        assert process.returncode == 0, place.log_tail()
        assert "Traceback" not in log.read_text(encoding="utf-8", errors="replace"), place.log_tail()


# --- the family ------------------------------------------------------------------------------------------


@dataclass
class GameRecord:
    seed: int
    players: int
    game: int
    turns: int = 0
    finish: str = ""
    winner: str = ""
    scores: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    messages: int = 0
    actions: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        scores = ", ".join(f"{name} {score:+d}" for name, score in self.scores.items())
        return (
            f"seed {self.seed}, game {self.game}: {self.players} players, {self.turns} turns, {self.messages} "
            f"messages, {self.seconds:.0f} s: {self.finish}, {self.winner} wins ({scores})"
        )


@dataclass
class Stats:
    """What the referee's families did, over every game they played."""

    games: list[GameRecord] = field(default_factory=list)
    actions: Counter[str] = field(default_factory=Counter)
    #: a form of typing a play that the bot's reading rules do not read as the play made
    unreadable: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    #: where the time went: waiting for the bot, reading the game back, the referee's solves and readings
    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))

    def summary(self) -> str:
        lines = [g.line() for g in self.games]
        lines.append("actions: " + ", ".join(f"{k} {n}" for k, n in sorted(self.actions.items())))
        lines.append("seconds: " + ", ".join(f"{k} {n:.0f}" for k, n in sorted(self.seconds.items())))
        if self.unreadable:
            lines.append("forms not read as the play: " + ", ".join(f"{k} {n}" for k, n in self.unreadable.items()))
        return "\n".join(lines)


@dataclass(frozen=True)
class Said:
    """What the group must read of the change a message makes: who, what (``put down``, ``adds``, ``drew``,
    ``passes``), for a play its tiles and its points (``points``: the least and the most they may be), and whose
    turns were passed over."""

    who: str
    what: str
    tiles: tuple[str, ...] = ()
    points: tuple[int, int] = (0, 0)
    passed_over: tuple[str, ...] = ()

    def problems(self, calls: list[Call], group: int) -> list[str]:
        lines = [c.text for c in calls if c.chat_id == group and c.method in ("sendMessage", "sendPhoto")]
        told: list[tuple[object, ...]]
        want: tuple[object, ...]
        if self.what in ("put down", "adds"):
            low, high = self.points
            told = [play_line(m, low, high) for text in lines for m in PLAY_LINE.finditer(text)]
            want = (self.who, self.what, sorted(self.tiles), len(self.tiles), f"{low}..{high} points")
        else:
            pattern = DRAW_LINE if self.what == "drew" else PASS_LINE
            told = [(m.group(1), self.what) for text in lines for m in pattern.finditer(text)]
            want = (self.who, self.what)
        problems = [] if told and all(t == want for t in told) else [f"the group read {told}, not {want}"]
        skipped = [tuple(m.group(1).split(", ")) for text in lines for m in SKIP_LINE.finditer(text)]
        if skipped != ([self.passed_over] if self.passed_over else []):
            problems.append(f"the group read turns passed over {skipped}, not {list(self.passed_over)}")
        return problems


def play_line(m: re.Match[str], low: int, high: int) -> tuple[object, ...]:
    """A play's line as (who, put down or adds, its tiles sorted, its count of tiles, its points: said as within
    ``low..high`` when they are)."""
    tiles = (m.group(2) or m.group(3)).replace("|", " ").split()
    points = int(m.group(5))
    said = f"{low}..{high} points" if low <= points <= high else f"{points} points"
    return (m.group(1), "put down" if m.group(2) else "adds", sorted(tiles), int(m.group(4)), said)


@dataclass(frozen=True)
class Typed:
    """A play as a player types it: the form, the message, and the answers to the bot's questions (each the
    question the bot will ask and the option to tap)."""

    form: str
    text: str
    answers: tuple[tuple[Question, int], ...]


#: The answers to the questions a typed play raises: each question and the option to tap.
Answers = tuple[tuple[Question, int], ...]
ARRANGE = functools.partial(arrange, time_limit=BOT_SOLVER_SECONDS)


def pick(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), list(weights.values()))[0]


class Family:
    """Simulated players at one group's table, with the referee's truth, playing games through the bot."""

    def __init__(self, place: Arena, seed: int, players: int, stats: Stats) -> None:
        if not 2 <= players <= len(NAMES):
            raise ValueError(f"2 to {len(NAMES)} players, not {players}")
        self.arena = place
        self.seed = seed
        self.rng = random.Random(seed)
        self.stats = stats
        self.group = place.new_group(f"Family {seed}")
        self.users = place.new_users(players, -self.group.id % 10_000_000)
        self.watch = Watch({self.group.id, *(u.id for u in self.users)})
        self.truth = Truth([], [])
        self.state: GameState | None = None
        self.games = 0
        self.corrections = 0
        #: the group's newest post with the "I drew a tile" button, and the turn it was made for
        self.turn_post: Call | None = None
        self.turn_post_for: int | None = None
        #: a post whose "I drew a tile" was made for an earlier turn (a tap on it draws nothing)
        self.old_turn_post: Call | None = None
        self.end_post: Call | None = None
        self.scored_post: Call | None = None
        self.first_post: Call | None = None
        #: each player's newest "You drew a tile: which one?" keyboard
        self.keyboards: dict[int, Call] = {}
        #: a /solve answer a player did not play (its "I played this" goes stale)
        self.shown: dict[int, Call] = {}
        self.record = GameRecord(seed, players, 0)
        self.slow = self.rng.random() < SLOW_FAMILIES
        self.stats.actions["family: slow" if self.slow else "family: eager"] += 1

    def did(self, action: str) -> None:
        self.stats.actions[action] += 1
        self.record.actions[action] += 1

    # --- messages, each checked against the truth ---

    async def say(
        self,
        user: User,
        text: str,
        chat: Chat,
        change: Callable[[], object] | None = None,
        *,
        kept: Counter[str] | None = None,
        said: Said | None = None,
    ) -> list[Call]:
        """``user`` sends ``text``; ``change`` is what it does to the truth (None: nothing), ``kept`` the sets it
        leaves where they are (their numbers must stay), ``said`` what the group must read of it. Then the
        check."""
        return await self._checked(lambda: self.arena.send(self.watch, user, text, chat), change, kept, said)

    async def press(
        self,
        user: User,
        call: Call,
        label: str,
        change: Callable[[], object] | None = None,
        *,
        kept: Counter[str] | None = None,
        said: Said | None = None,
    ) -> list[Call]:
        return await self._checked(lambda: self.arena.press(self.watch, user, call, label), change, kept, said)

    async def press_twice(
        self,
        users: tuple[User, User],
        call: Call,
        label: str,
        change: Callable[[], object] | None = None,
        *,
        kept: Counter[str] | None = None,
        said: Said | None = None,
    ) -> list[Call]:
        """Two taps at once on a button that changes the game: it changes once."""
        self.did("double taps")
        return await self._checked(lambda: self.arena.press_twice(self.watch, users, call, label), change, kept, said)

    async def tap(
        self,
        users: tuple[User, User],
        call: Call,
        label: str,
        change: Callable[[], object] | None = None,
        *,
        kept: Counter[str] | None = None,
        said: Said | None = None,
    ) -> list[Call]:
        """The first of ``users`` taps the button; now and then both tap it at once."""
        if self.rng.random() < DOUBLE_TAP:
            return await self.press_twice(users, call, label, change, kept=kept, said=said)
        return await self.press(users[0], call, label, change, kept=kept, said=said)

    async def follow(self, user: User, call: Call, label: str) -> list[Call]:
        return await self._checked(lambda: self.arena.follow(self.watch, user, call, label), None, None, None)

    async def _checked(
        self,
        message: Callable[[], Any],
        change: Callable[[], object] | None,
        kept: Counter[str] | None,
        said: Said | None,
    ) -> list[Call]:
        numbers_before = self.numbered()
        if change is not None:
            change()
            self.truth.check()
        started = time.monotonic()
        try:
            calls: list[Call] = await message()
        except RefereeError as why:  # the bot died, logged an error, or never finished: said with the game
            self.fail([str(why)], self.truth.expected(), {})
        checking = time.monotonic()
        self.stats.seconds["the bot"] += checking - started
        self.record.messages += 1
        self.remember_posts(calls)
        await self.check(calls, kept, numbers_before, said)
        self.stats.seconds["checks"] += time.monotonic() - checking
        return calls

    def numbered(self) -> list[tuple[str, int]]:
        """The table's sets with their numbers, as the bot showed them at the last check."""
        if self.state is None:
            return []
        return [(canon(s), n) for s, n in zip(self.state.table, self.state.numbers, strict=True)]

    async def check(
        self, calls: list[Call], kept: Counter[str] | None, before: list[tuple[str, int]], said: Said | None
    ) -> None:
        """The bot's game equals the truth; a play's untouched sets kept their numbers; the group read it."""
        state, view = await self.arena.view(self.group.id)
        expected = self.truth.expected()
        found = differences(expected, normal(view))
        sorry = [c.text for c in calls if "something went wrong" in c.text]
        found += [f"the bot said: {text}" for text in sorry]
        found += self.text_problems(calls, expected)
        if said is not None:
            found += said.problems(calls, self.group.id)
        numbers = list(view["set_numbers"])
        if len(set(numbers)) != len(numbers) or numbers != sorted(numbers):
            found.append(f"set numbers are not distinct and in order: {numbers}")
        if kept is not None and not found:
            found += self.numbering_problems(before, view, kept)
        if found:
            self.fail(found, expected, view)
        if (
            self.state is None
            or list(self.state.numbers) != numbers
            or self.numbered() != [(canon(s), n) for s, n in zip(state.table, state.numbers, strict=True)]
        ):
            self.watch.note(
                "    table now: " + " | ".join(f"{n}: {s}" for s, n in zip(view["table"], numbers, strict=True))
            )
        self.state = state
        if self.truth.shown is None:  # the table in the bot's order (and numbers): what the next play reads
            self.truth.table = list(state.table)

    def text_problems(self, calls: list[Call], expected: dict[str, Any]) -> list[str]:
        """What the bot wrote after the message agrees with the truth: whose turn it is and the pool in every
        turn line, and the rack in every "Your rack" line of a player's private chat."""
        problems = []
        turn = self.truth.seat(self.truth.turn).name if self.truth.turn is not None else None
        ids = {s.id: s for s in self.truth.seats}
        for c in calls:
            if c.method not in ("sendMessage", "sendPhoto", "editMessageText"):
                continue
            for m in TURN_LINE.finditer(c.text):
                pool = int(m.group(2)) if m.group(2) else 0
                if m.group(1) != turn or pool != expected["pool"]:
                    problems.append(f"the bot wrote {m.group(0)!r}: {turn} is to play, {expected['pool']} in the pool")
            seat = ids.get(c.chat_id or 0)
            if seat is None:
                continue
            for m in RACK_LINE.finditer(c.text):
                if sorted(m.group(1).split()) != sorted(str(t) for t in seat.known()):
                    problems.append(f"the bot wrote {seat.name} {m.group(0)!r}; the rack is {words(seat.known())}")
        for c in calls:  # /status: each player's tile count, their meld, whose turn it is
            if c.method not in ("sendMessage", "sendPhoto") or not STATUS_LINE.search(c.text):
                continue
            for m in STATUS_LINE.finditer(c.text):
                seat = next((s for s in self.truth.seats if s.name == m.group(2)), None)
                if seat is None:
                    problems.append(f"/status names {m.group(2)}, who is not at the table")
                    continue
                want = (self.truth.seats.index(seat) + 1, len(seat.rack), not seat.melded, seat.id == self.truth.turn)
                have = (int(m.group(1)), int(m.group(3)), bool(m.group(4)), bool(m.group(5)))
                if want != have:
                    problems.append(f"/status says {m.group(0)!r}: seat, tiles, no meld, to play should be {want}")
        return problems

    def numbering_problems(self, before: list[tuple[str, int]], view: dict[str, Any], kept: Counter[str]) -> list[str]:
        now = [(canon_text(s), n) for s, n in zip(view["table"], view["set_numbers"], strict=True)]
        problems = []
        for key, copies in kept.items():
            old = {n for s, n in before if s == key}
            new = {n for s, n in now if s == key}
            if len(old & new) < copies:
                problems.append(f"set {key} was not touched, but its number went from {sorted(old)} to {sorted(new)}")
        highest = max((n for _s, n in before), default=0)
        olds = {n for _s, n in before}
        fresh = [n for _s, n in now if n not in olds]
        if any(n <= highest for n in fresh):
            problems.append(f"new sets numbered {fresh}, not above the table's highest number, {highest}")
        return problems

    def fail(self, found: list[str], expected: dict[str, Any], view: dict[str, Any]) -> None:
        shown = {k: v for k, v in view.items() if k not in ("rules",)}
        players = len(self.users)
        report = [
            f"REFEREE: the bot's game is not the game played (seed {self.seed}, {players} players, "
            f"game {self.games} of the family, turn {self.record.turns})",
            f"replay: REFEREE_SEED={self.seed} REFEREE_PLAYERS={players} REFEREE_GAMES=1 "
            "python -m pytest tests/e2e/test_referee.py -k many",
            "differences:",
            *(f"  - {line}" for line in found),
            "the truth (what the bot should show): " + json.dumps(expected, ensure_ascii=False),
            "the true racks: "
            + "; ".join(f"{s.name}: {words(sorted(s.rack, key=RULES.tile_key))}" for s in self.truth.seats),
            "the bot's view: " + json.dumps(shown, ensure_ascii=False),
            "the last messages (the last one is the one checked):",
            *("  " + line for line in self.watch.transcript[-40:]),
        ]
        whole = self.arena.folder / f"referee-{self.seed}.txt"
        whole.write_text("\n".join([*report, "", "every message of the run:", *self.watch.transcript]) + "\n")
        report.append(f"(every message of the run: {whole})")
        raise RefereeError("\n".join(report))

    def remember_posts(self, calls: list[Call]) -> None:
        for c in calls:
            if c.method not in ("sendMessage", "sendPhoto"):
                continue
            labels = [b["text"] for b in c.buttons]
            if c.chat_id == self.group.id:
                if any("I drew a tile" in x or "I pass" in x for x in labels):
                    if self.turn_post is not None and self.turn_post_for != self.truth.turn:
                        self.old_turn_post = self.turn_post
                    self.turn_post, self.turn_post_for = c, self.truth.turn
                if RACK_AS_YOU_HAVE_IT in labels:
                    self.end_post = c
                if SAME_PLAYERS in labels:
                    self.scored_post = c
            elif c.chat_id is not None and c.chat_id > 0 and DONE_KEY in labels and "drew a tile" in c.text:
                self.keyboards[c.chat_id] = c

    def drew_button(self) -> tuple[Call, str] | None:
        """The group's "I drew a tile" (or "I pass") button made for the turn as it is (a button made for an
        earlier turn draws nothing), and its label; None when the group has none."""
        if self.turn_post is None or self.turn_post_for != self.truth.turn:
            return None
        label = next(b["text"] for b in self.turn_post.buttons if "I drew" in b["text"] or "I pass" in b["text"])
        return self.turn_post, label

    def expect_question(self, calls: list[Call], chat: Chat, needle: str) -> Call:
        """The question the bot just asked in ``chat`` (its text holding ``needle``)."""
        for c in reversed(calls):
            if c.chat_id == chat.id and c.buttons and needle in c.text:
                return c
        told = [said(c) for c in calls]
        self.fail([f"the bot did not ask {needle!r} in {where(chat)}; it said: {told}"], self.truth.expected(), {})
        raise AssertionError("unreachable")

    # --- a game from the deal to the score ---

    def deal(self) -> list[Tile]:
        deck = full_deck()
        self.rng.shuffle(deck)
        return deck

    async def play_games(self, count: int = 1) -> None:
        try:
            for number in range(count):
                started = time.monotonic()
                self.games += 1
                self.record = GameRecord(self.seed, len(self.users), self.games)
                if number == 0:
                    await self.first_game()
                else:
                    await self.same_players()
                await self.play_out()
                await self.tell_racks()
                await self.final_checks()
                self.record.seconds = time.monotonic() - started
                self.stats.games.append(self.record)
        finally:
            keep = os.environ.get("REFEREE_TRANSCRIPT")
            if keep:  # every message of the family's games, to read them through
                Path(f"{keep}-{self.seed}.txt").write_text("\n".join(self.watch.transcript) + "\n", encoding="utf-8")

    async def first_game(self) -> None:
        truth = self.truth = Truth(self.deal(), [])
        first, others = self.users[0], self.users[1:]
        calls = await self.say(first, "/new", self.group, lambda: truth.sit(first))
        post = next((c for c in calls if c.chat_id == self.group.id and c.buttons), None)
        if post is None:
            self.fail(["/new got no message with buttons in the group"], truth.expected(), {})
            return
        self.first_post = post
        for user in others:
            await self.press(user, post, JOIN, functools.partial(truth.sit, user))
        for user in self.rng.sample(self.users, len(self.users)):
            await self.follow(user, post, "My rack")
            await self.tell_rack(user)

    async def same_players(self) -> None:
        """The "New game, same players" button under the last game's score: the seats move on by one."""
        old = self.truth
        order = [s.user for s in old.seats[1:] + old.seats[:1]]
        truth = Truth(self.deal(), [], totals=dict(old.totals))

        def begin() -> None:
            self.truth = truth
            for user in order:
                truth.sit(user)

        assert self.scored_post is not None
        self.keyboards.clear()
        self.shown.clear()
        self.corrections = 0
        self.turn_post = self.end_post = self.old_turn_post = None
        await self.press(self.rng.choice(self.users), self.scored_post, SAME_PLAYERS, begin)
        for user in self.rng.sample(order, len(order)):
            await self.tell_rack(user)

    async def tell_rack(self, user: User) -> None:
        seat = self.truth.seat(user.id)
        rack = self.rng.sample(seat.rack, len(seat.rack))
        await self.say(user, f"/rack {words(rack)}", private(user), functools.partial(self.truth.tell, user.id))

    async def play_out(self) -> None:
        truth = self.truth
        stop_at = self.rng.randrange(10, 60) if self.rng.random() < STOPPED else None
        while truth.finish is None:
            self.record.turns += 1
            if self.record.turns > MOST_TURNS:
                self.fail([f"the game did not end in {MOST_TURNS} turns"], truth.expected(), {})
            if self.record.turns == stop_at:
                await self.stop()
                return
            await self.name_some()
            await self.maybe_correct()
            await self.one_turn()

    async def stop(self) -> None:
        """A player stops the game with /end (and confirms): the racks are told, the lowest wins."""
        self.did("/end: the game stopped")
        seat = self.rng.choice(self.truth.seats)
        calls = await self.say(seat.user, "/end", self.group)
        asked = self.expect_question(calls, self.group, "Stop the game now?")
        await self.press(seat.user, asked, asked.buttons[0]["text"], self.truth.stop)

    async def one_turn(self) -> None:
        truth = self.truth
        assert truth.turn is not None
        seat = truth.seat(truth.turn)
        others = [s for s in truth.seats if s is not seat and s.id != truth.adding]
        if others and truth.pool and self.rng.random() < OUT_OF_TURN:
            await self.out_of_turn(self.rng.choice(others))
            return
        if seat.unnamed and self.rng.random() < NAME_FIRST:  # mostly, a drawn tile is named before playing on
            await self.name_drawn(seat)
        if self.rng.random() < LOOK:
            await self.look(seat)
        if self.rng.random() < RETELL:  # a player sends their whole rack again (it names any tile drawn unnamed)
            teller = self.rng.choice(truth.seats)
            self.did("a rack told again")
            self.keyboards.pop(teller.id, None)
            await self.tell_rack(teller.user)
        stale = self.shown.pop(seat.id, None)
        if stale is not None and self.rng.random() < 0.5:
            await self.tap_stale(seat, stale)
        if self.old_turn_post is not None and truth.pool and self.rng.random() < STALE_DREW:
            await self.tap_old_drew(seat, self.old_turn_post)
        best = await self.best_play(seat)
        hold_back = (SLOW_HOLD_BACK if truth.pool else SLOW_PASS) if self.slow else HOLD_BACK
        if best is None or self.rng.random() < hold_back:
            if best is not None and not seat.unnamed and self.rng.random() < 0.3:
                await self.solve_and_keep(seat)  # asks for the best play, and draws all the same
            if truth.pool:
                await self.draw(seat)
            else:
                await self.pass_turn(seat)
        else:
            await self.play(seat, best)

    async def look(self, seat: Seat) -> None:
        """/status in the group or in private: read-only, and what it says is checked like every answer."""
        self.did("/status")
        chat = self.group if self.rng.random() < 0.5 else private(seat.user)
        await self.say(seat.user, "/status", chat)

    async def solve_and_keep(self, seat: Seat) -> None:
        """/solve, but the player does something else: the answer's "I played this" goes stale."""
        calls = await self.say(seat.user, "/solve", private(seat.user))
        answer = next((c for c in reversed(calls) if any(b["text"] == PLAYED_THIS for b in c.buttons)), None)
        if answer is not None:
            self.shown[seat.id] = answer

    async def tap_stale(self, seat: Seat, answer: Call) -> None:
        """An old "I played this", from before the table or the rack changed: refused as stale, nothing changes."""
        self.did("stale I played this")
        calls = await self.press(seat.user, answer, PLAYED_THIS)
        alerts = [c.text for c in calls if c.method == "answerCallbackQuery"]
        if not any("changed since this suggestion" in text for text in alerts):
            self.fail([f"a stale 'I played this' was answered {alerts}"], self.truth.expected(), {})

    async def tap_old_drew(self, seat: Seat, post: Call) -> None:
        """The "I drew a tile" under an earlier turn's post: nothing is drawn, and the tap is told so."""
        self.did("an earlier turn's I drew tapped")
        label = next(b["text"] for b in post.buttons if "I drew" in b["text"] or "I pass" in b["text"])
        calls = await self.press(seat.user, post, label)
        alerts = [c.text for c in calls if c.method == "answerCallbackQuery"]
        if not any("earlier turn" in text for text in alerts):
            self.fail([f"an earlier turn's 'I drew a tile' was answered {alerts}"], self.truth.expected(), {})

    async def out_of_turn(self, seat: Seat) -> None:
        """``seat`` plays, or draws, on someone else's turn and says it was theirs: the turns between are passed
        over."""
        if seat.unnamed:
            await self.name_drawn(seat)
        best = await self.best_play(seat)
        if best is not None and self.rng.random() < 0.6:
            self.did("out of turn, as mine: a play")
            chat = self.group if self.rng.random() < 0.7 else private(seat.user)
            await self.typed(seat, seat, list(best.table), chat=chat, whose="mine")
            return
        self.did("out of turn, as mine: a draw")
        truth = self.truth
        if self.rng.random() < 0.3:
            tile = truth.pool[-1]
            calls = await self.say(seat.user, f"/draw {tile}", private(seat.user))
            asked = self.expect_question(calls, private(seat.user), "Record your draw anyway?")
            said = Said(seat.name, "drew", passed_over=self.passed_over(seat, "mine"))
            drew = functools.partial(truth.draw, seat.id, named=True)
            await self.press(seat.user, asked, asked.buttons[0]["text"], drew, said=said)
            return
        self.keyboards.pop(seat.id, None)
        calls = await self.say(seat.user, "/draw", self.group)
        asked = self.expect_question(calls, self.group, "Who drew?")
        label = asked.buttons[1]["text"] if len(asked.buttons) > 1 else ""
        if not label.startswith(f"Me ({seat.name})"):
            self.fail([f"the second answer to 'Who drew?' is {label!r}"], truth.expected(), {})
        said = Said(seat.name, "drew", passed_over=self.passed_over(seat, "mine"))
        await self.press(seat.user, asked, label, functools.partial(truth.draw, seat.id, named=False), said=said)

    async def best_play(self, seat: Seat) -> Solution | None:
        started = time.monotonic()
        try:
            found = await asyncio.to_thread(
                solve,
                seat.rack,
                self.truth.table,
                RULES,
                objective=Objective.TILES,
                initial_meld=not seat.melded,
                time_limit=REFEREE_SOLVE_SECONDS,
            )
        except RummikubError:  # a table too big to solve: the family draws
            self.did("no solve (table too big)")
            return None
        finally:
            self.stats.seconds["solves"] += time.monotonic() - started
        return found if found.has_play else None

    # --- plays ---

    async def play(self, seat: Seat, best: Solution) -> None:
        truth = self.truth
        kind = pick(self.rng, PLAY_KINDS)
        middle = self.split(seat, best) if kind == "in two messages" else None
        if kind == "in two messages" and middle is None:
            kind = "typed"
        recorders = [s for s in truth.seats if s is not seat and s.id != truth.adding]
        if kind == "recorded by another" and not recorders:
            kind = "typed"
        if kind == "I played this" and not seat.unnamed:  # /solve wants the drawn tile named first
            if await self.played_this(seat, undo=self.rng.random() < UNDO):
                self.did("play: I played this")
                return
            kind = "typed"
        self.did(f"play: {kind}")
        if kind == "in two messages":
            assert middle is not None
            await self.typed(seat, seat, middle)
            await self.name_some()  # naming a tile is no turn: the play may still grow
            if self.rng.random() < 0.2:
                await self.look(self.rng.choice(truth.seats))
            await self.typed(seat, seat, list(best.table), undo=self.rng.random() < UNDO)
        elif kind == "recorded by another":
            recorder = self.rng.choice(recorders)
            chat = self.group if self.rng.random() < 0.75 else private(recorder.user)
            await self.typed(recorder, seat, list(best.table), chat=chat)
        else:
            await self.typed(seat, seat, list(best.table), undo=self.rng.random() < UNDO)

    def split(self, seat: Seat, best: Solution) -> list[TileSet] | None:
        """A first part of the play that is a play by itself (new sets from the rack, sets grown by rack tiles
        alone), leaving the rest for a second message; None when the play has no such part."""
        before = list(best.table_before)
        independent: list[tuple[int, int | None]] = []
        changes = 0
        for j, s in enumerate(best.table):
            came = {o.old_set for o in best.origins[j]}
            i = best.kept_from[j]
            if i is not None and came == {i} and len(s) == len(before[i]):
                continue  # untouched
            changes += 1
            if i is None and came == {None}:
                independent.append((j, None))
            elif i is not None and came == {i, None} and sum(o.old_set == i for o in best.origins[j]) == len(before[i]):
                independent.append((j, i))
        if not independent or changes < 2:
            return None
        count = self.rng.randint(1, min(len(independent), changes - 1))
        first = self.rng.sample(independent, count)
        middle = list(before)
        for j, i in first:
            if i is None:
                middle.append(best.table[j])
            else:
                middle[i] = best.table[j]
        if not seat.melded:
            worth = opening_value(before, middle)
            if worth is None or worth < RULES.initial_meld:
                return None
        return middle

    async def played_this(self, seat: Seat, *, undo: bool = False) -> bool:
        """/solve in private, and "I played this" under the answer: the family plays the picture (with ``undo``,
        takes it back with /undo, and solves and taps again)."""
        calls = await self.say(seat.user, "/solve", private(seat.user))
        answer = next((c for c in reversed(calls) if any(b["text"] == PLAYED_THIS for b in c.buttons)), None)
        if answer is None:  # the bot found no play (or the table is too big for it): the play is typed
            self.did("/solve without a play to tap")
            return False
        assert self.state is not None
        shown = await self.arena.shown_suggestion(self.state.id, seat.id)
        if shown is None:
            self.fail(
                ["the answer to /solve has 'I played this', but no play was kept for it"], self.truth.expected(), {}
            )
            return False
        try:
            self.truth.copy().legal(seat.id, shown)
        except RefereeError as why:
            self.fail([f"the bot suggested a play the rules do not allow: {why}"], self.truth.expected(), {})
        kept = kept_sets(self.truth.table, shown)
        before = self.truth.copy()
        said = self.said_play(seat, shown)
        play = functools.partial(self.truth.play, seat.id, shown)
        await self.tap((seat.user, seat.user), answer, PLAYED_THIS, play, kept=kept, said=said)
        if undo:
            self.did("undo and again")
            await self.undo(seat, before, "play")
            if not await self.played_this(self.truth.seat(seat.id)):
                self.fail(["after /undo, /solve no longer offers the play"], self.truth.expected(), {})
        return True

    async def typed(
        self,
        recorder: Seat,
        player: Seat,
        after: list[TileSet],
        *,
        chat: Chat | None = None,
        undo: bool = False,
        whose: str | None = None,
    ) -> None:
        """``recorder`` types ``player``'s play (leaving ``after``) in a form the bot reads as it was made, and
        answers its questions; with ``undo``, it is taken back with /undo and typed again. ``whose``: the bot
        asks whose play it is (someone else's turn), answered "mine" or "theirs" (the player's)."""
        if chat is None:
            chat = self.group if self.rng.random() < 0.7 else private(recorder.user)
        if whose is None and recorder is not player:
            whose = "theirs"
        typed = await self.choose_form(recorder, player, after)
        self.did(f"typed: {typed.form}")
        if self.rng.random() < TYPO:  # a tile mistyped first: refused, nothing changes; then typed right
            self.did("a play mistyped, then typed right")
            command, rest = typed.text.split(" ", 1)
            await self.say(recorder.user, f"{command} 14{rest.split()[0][-1]} {rest}", chat)
        before, numbers = self.truth.copy(), self.numbered()
        await self.send_play(recorder, player, chat, typed, after, whose)
        if undo:  # (a play that went out too: the game goes on again)
            self.did("undo and again" if self.truth.finish is None else "undo of going out, and again")
            await self.undo(player, before, "play")
            recorder, player = self.truth.seat(recorder.id), self.truth.seat(player.id)
            if self.numbered() != numbers:
                self.fail([f"after /undo the sets are numbered {self.numbered()}, not {numbers}"], {}, {})
            await self.send_play(recorder, player, chat, typed, after, whose)

    async def undo(self, seat: Seat, before: Truth, change: str) -> None:
        """``seat``'s last change is taken back: by /undo of their own, or another player's /undo confirmed."""
        truth = self.truth
        others = [s for s in truth.seats if s is not seat]
        undoer = self.rng.choice(others) if self.rng.random() < UNDONE_BY_ANOTHER else seat
        chat = self.group if self.rng.random() < 0.5 else private(undoer.user)
        back = functools.partial(truth.restore, before)
        if undoer is seat:
            await self.say(seat.user, "/undo", chat, back)
            return
        self.did("undo asked by another, confirmed")
        calls = await self.say(undoer.user, "/undo", chat)
        asked = self.expect_question(calls, chat, "not yours")
        label = f"Undo {seat.name}'s {change}"
        if asked.buttons[0]["text"] != label:
            self.fail([f"the undo question offers {asked.buttons[0]['text']!r}, not {label!r}"], truth.expected(), {})
        presser = seat if chat.id == self.group.id and self.rng.random() < 0.5 else undoer
        await self.press(presser.user, asked, label, back)

    async def send_play(
        self, recorder: Seat, player: Seat, chat: Chat, typed: Typed, after: list[TileSet], whose: str | None
    ) -> None:
        kept = kept_sets(self.truth.table, after)
        said = self.said_play(player, after, whose)
        steps = int(whose is not None) + len(typed.answers)

        def last(step: int) -> Callable[[], object] | None:
            return functools.partial(self.truth.play, player.id, after) if step == steps else None

        calls = await self.say(
            recorder.user,
            typed.text,
            chat,
            last(0),
            kept=kept if steps == 0 else None,
            said=said if steps == 0 else None,
        )
        step = 0
        if whose is not None:
            asked = self.expect_question(calls, chat, "Whose play is this?")
            assert self.truth.turn is not None
            turn = self.truth.seat(self.truth.turn).name
            index, label = (
                (0, f"{turn}'s") if whose == "theirs" else (1, f"Mine ({player.name}): {turn}'s turn is passed over")
            )
            if len(asked.buttons) <= index or asked.buttons[index]["text"] != label:
                self.fail([f"the answers to 'Whose play' lack {label!r}"], self.truth.expected(), {})
            step += 1
            presser = player if chat.id == self.group.id and self.rng.random() < 0.5 else recorder
            calls = await self.press(
                presser.user, asked, label, last(step), kept=kept if step == steps else None,
                said=said if step == steps else None,
            )  # fmt: skip
        for question, option in typed.answers:
            asked = self.expect_question(calls, chat, str(question.tile))
            if len(asked.buttons) != len(question.options) + 1:
                self.fail(
                    [f"the bot offers {[b['text'] for b in asked.buttons]}; the reading rules give "
                     f"{len(question.options)} options and Cancel"],
                    self.truth.expected(),
                    {},
                )  # fmt: skip
            step += 1
            presser = player if chat.id == self.group.id and self.rng.random() < 0.5 else recorder
            label = asked.buttons[option]["text"]
            self.did("questions answered")
            calls = await self.press(
                presser.user, asked, label, last(step), kept=kept if step == steps else None,
                said=said if step == steps else None,
            )  # fmt: skip

    def said_play(self, player: Seat, after: Sequence[TileSet], whose: str | None = None) -> Said:
        """What the group must read of ``player``'s play leaving ``after`` (a play out of turn said as the
        player's own passes over the turns before theirs)."""
        truth = self.truth
        placed = tiles_of(after) - tiles_of(truth.table)
        what = "adds" if truth.adding == player.id else "put down"
        tiles = tuple(str(t) for t in placed.elements())
        return Said(player.name, what, tiles, play_points(after, placed), self.passed_over(player, whose))

    def passed_over(self, seat: Seat, whose: str | None) -> tuple[str, ...]:
        """The players whose turns come before ``seat``'s, when ``seat`` acts out of turn as themselves."""
        truth = self.truth
        if whose != "mine" or truth.turn is None:
            return ()
        names, at = [], truth.turn
        while at != seat.id:
            names.append(truth.seat(at).name)
            at = truth.after(at)
        return tuple(names)

    def forms(self, before: Sequence[TileSet], after: Sequence[TileSet]) -> list[tuple[str, list[list[Tile]]]]:
        """The ways a player may type the play from ``before`` to ``after``."""
        shuffled = self.rng.sample(list(after), len(after))
        out: list[tuple[str, list[list[Tile]]]] = []
        old, new = Counter(canon(s) for s in before), Counter(canon(s) for s in after)
        gone, made = old - new, new - old
        changed: list[TileSet] = []
        for s in shuffled:
            if made[canon(s)] > 0:
                made[canon(s)] -= 1
                changed.append(s)
        removed: list[TileSet] = []
        for s in before:
            if gone[canon(s)] > 0:
                gone[canon(s)] -= 1
                removed.append(s)
        if before:
            out.append(("whole table", [list(s.tiles) for s in shuffled]))
        out.append(("sets changed", [list(s.tiles) for s in changed]))
        placed = tiles_of(after) - tiles_of(before)
        loose: list[Tile] = []
        sets: list[TileSet] = []
        for s in changed:  # a set that holds an old set whole, and rack tiles besides: those tiles laid off
            grown = next((o for o in removed if grows(o, s, placed)), None)
            if grown is None:
                sets.append(s)
                continue
            extra = Counter(s.tiles) - Counter(grown.tiles)
            removed.remove(grown)
            placed -= extra
            loose.extend(self.rng.sample(list(extra.elements()), extra.total()))
        if loose:
            name = "tiles laid off" if not sets else "sets changed and tiles laid off"
            chunks = [list(s.tiles) for s in sets]
            if self.rng.random() < 0.5:
                chunks.append(loose)
            else:
                chunks.extend([t] for t in loose)
            out.append((name, chunks))
        self.rng.shuffle(out)
        if self.rng.random() < 0.7:  # the whole table is mostly what a player types when nothing else reads
            out.sort(key=lambda form: form[0] == "whole table")
        return out

    async def choose_form(self, recorder: Seat, player: Seat, after: list[TileSet]) -> Typed:
        assert self.state is not None
        before = list(self.state.table)
        for form, chunks in self.forms(before, after):
            command = "/table " if form == "whole table" and self.rng.random() < 0.2 else "/play "
            text = command + sets_text(chunks)
            answers = await self.plan(recorder, player, before, after, text.split(" ", 1)[1])
            if answers is not None:
                return Typed(form, text, answers)
            self.stats.unreadable[form] += 1
            if len(self.stats.examples) < 40:
                self.stats.examples.append(
                    f"seed {self.seed}: {form}: table {sets_text(s.tiles for s in before)}; "
                    f"{'typed by the player' if recorder is player else 'recorded by another'}: {text}; "
                    f"the play: {sets_text(s.tiles for s in after)}"
                )
        self.fail(
            [f"no way of typing the play reads as it was made: {sets_text(s.tiles for s in after)}"],
            self.truth.expected(),
            {},
        )
        raise AssertionError("unreachable")

    async def plan(
        self, recorder: Seat, player: Seat, before: list[TileSet], after: list[TileSet], text: str
    ) -> tuple[tuple[Question, int], ...] | None:
        """The answers that lead the bot, reading ``text`` as it does, to the play made; None if none do."""
        assert self.state is not None
        p = self.state.player(player.id)
        assert p is not None
        rack = Rack(Counter(p.rack), p.rack_size) if recorder is player else Rack.unknown(p.rack_size)
        chunks = parse_table_chunks(text, RULES)
        started = time.monotonic()
        try:
            readings = await asyncio.to_thread(read_play, before, chunks, RULES, ARRANGE, rack)
        except RummikubError:
            return None
        finally:
            self.stats.seconds["readings"] += time.monotonic() - started
        table = sorted(canon(s) for s in after)
        placed = tiles_of(after) - tiles_of(before)
        kept = kept_sets(before, after)

        def true(r: Reading) -> bool:
            """The reading is the play made: its table, its tiles from the rack, and the sets it leaves alone
            left where they lay (an answer must not say a tile came from a set it did not come from)."""
            if sorted(canon(s) for s in r.table) != table or Counter(r.placed) != placed:
                return False
            left: Counter[str] = Counter()
            for j, s in enumerate(r.table):
                i = r.kept_from[j]
                if i is not None and canon(s) == canon(before[i]) and all(o.old_set == i for o in r.origins[j]):
                    left[canon(s)] += 1
            return not kept - left

        def search(left: list[Reading], answers: Answers) -> Answers | None:
            question = next_question(left) if len(left) > 1 else None
            if question is None:
                return answers if true(left[0]) else None
            for index, option in enumerate(question.options):
                kept = [left[i] for i in option.readings]
                if any(true(r) for r in kept):
                    found = search(kept, (*answers, (question, index)))
                    if found is not None:
                        return found
            return None

        return search(readings, ())

    # --- draws, passes, naming ---

    async def draw(self, seat: Seat) -> None:
        truth = self.truth
        kind = pick(self.rng, DRAW_KINDS)
        if kind == "the group's button" and self.drew_button() is None:
            kind = "/draw in the group"
        if kind == "/draw in private" and seat.unnamed:
            # /draw 7K in private, with a tile drawn earlier still unnamed, names that tile (the bot's choice):
            # a player who draws anew tells it in the group
            kind = "/draw in the group"
        self.did(f"draw: {kind}")
        before = truth.copy()
        if kind == "told by another":
            await self.draw_told_by_another(seat)
        else:
            await self.draw_by(seat, kind)
            if kind != "the group's button" and self.rng.random() < UNDO:
                self.did("undo and again")
                await self.undo(seat, before, "draw")
                seat = truth.seat(seat.id)  # (the truth was restored: its seats are new)
                await self.draw_by(seat, kind)
        if seat.unnamed and self.rng.random() > NAME_LATER:
            await self.name_drawn(seat)

    async def draw_by(self, seat: Seat, kind: str) -> None:
        truth = self.truth
        if kind == "/draw in private":
            tile = truth.pool[-1]
            drew = Said(seat.name, "drew")
            await self.say(
                seat.user, f"/draw {tile}", private(seat.user), lambda: truth.draw(seat.id, named=True), said=drew
            )
            return
        self.keyboards.pop(seat.id, None)
        change = functools.partial(truth.draw, seat.id, named=False)
        if kind == "the group's button":
            post, label = self.drew_button() or (None, "")
            assert post is not None
            await self.press(seat.user, post, label, change, said=Said(seat.name, "drew"))
        else:
            await self.say(seat.user, "/draw", self.group, change, said=Said(seat.name, "drew"))
        if seat.id not in self.keyboards:
            self.fail([f"{seat.name} drew in the group and was not asked in private which tile"], truth.expected(), {})

    async def draw_told_by_another(self, seat: Seat) -> None:
        """Another player tells the group that ``seat`` drew; ``seat`` names the tile in private later."""
        truth = self.truth
        teller = self.rng.choice([s for s in truth.seats if s is not seat])
        self.keyboards.pop(seat.id, None)
        button = self.drew_button()
        if button is not None and self.rng.random() < 0.5:
            calls = await self.press(teller.user, *button)
        else:
            calls = await self.say(teller.user, "/draw", self.group)
        asked = self.expect_question(calls, self.group, "Who drew?")
        presser, other = (teller, seat) if self.rng.random() < 0.5 else (seat, teller)
        drew = functools.partial(truth.draw, seat.id, named=False)
        await self.tap((presser.user, other.user), asked, seat.name, drew, said=Said(seat.name, "drew"))

    async def name_drawn(self, seat: Seat) -> None:
        """The player names the tiles they drew in the group: on the private keyboard, or /draw 7K typed."""
        truth = self.truth
        tiles = list(seat.unnamed)
        keyboard = self.keyboards.pop(seat.id, None)
        done = functools.partial(truth.name, seat.id)
        if keyboard is not None and len(tiles) == 1 and self.rng.random() < 0.6:
            self.did("named: the keyboard")
            await self.press(seat.user, keyboard, key(tiles[0]))
            await self.tap((seat.user, seat.user), keyboard, DONE_KEY, done)
        else:
            self.did("named: /draw typed")
            await self.say(seat.user, f"/draw {words(tiles)}", private(seat.user), done)

    async def name_some(self) -> None:
        """Players who drew in the group name their tiles in private, some now, some later."""
        for seat in self.truth.seats:
            if seat.unnamed and seat.id != self.truth.turn and self.rng.random() < 0.5:
                await self.name_drawn(seat)

    async def pass_turn(self, seat: Seat) -> None:
        truth = self.truth
        kind = pick(self.rng, PASS_KINDS)
        if kind == "the group's button" and self.drew_button() is None:
            kind = "/pass in the group"
        self.did(f"pass: {kind}")
        change = functools.partial(truth.pass_turn, seat.id)
        said = Said(seat.name, "passes")
        if kind == "the group's button":
            post, label = self.drew_button() or (None, "")
            assert post is not None
            await self.press(seat.user, post, label, change, said=said)
        elif kind == "/pass in private":
            await self.say(seat.user, "/pass", private(seat.user), change, said=said)
        else:
            await self.say(seat.user, kind.split(" ")[0], self.group, change, said=said)

    # --- a correction ---

    async def maybe_correct(self) -> None:
        """Now and then a player fixes the table wrongly (a set left out), and another puts it right."""
        truth = self.truth
        if len(truth.table) < 2 or self.corrections >= MOST_CORRECTIONS or self.rng.random() >= CORRECTION:
            return
        self.corrections += 1
        self.did("wrong /table fix, then the right one")
        wrong = list(truth.table)
        del wrong[self.rng.randrange(len(wrong))]
        fixer, righter = self.rng.choice(truth.seats), self.rng.choice(truth.seats)

        def wrongly() -> None:
            truth.shown, truth.adding = wrong, None

        def rightly() -> None:
            truth.shown = None

        chat = self.group if self.rng.random() < 0.6 else private(fixer.user)
        await self.say(fixer.user, f"/table fix {sets_text(s.tiles for s in wrong)}", chat, wrongly)
        table = self.rng.sample(truth.table, len(truth.table))
        await self.say(righter.user, f"/table fix {sets_text(s.tiles for s in table)}", self.group, rightly)

    # --- the end ---

    async def tell_racks(self) -> None:
        """Every player but the winner tells the tiles left on their rack; the last one scores the game."""
        truth = self.truth
        self.did(f"finish: {truth.finish}")
        for seat in self.rng.sample(truth.waiting(), len(truth.waiting())):
            before = truth.copy()
            await self.tell_left(seat)
            if truth.ended and self.rng.random() < UNDO_THE_SCORE:  # the last rack told, taken back, told again
                # in the group: a private chat lets go of a game once it is over ("back to your own game")
                self.did("undo of the score, and again")
                await self.say(seat.user, "/undo", self.group, functools.partial(truth.restore, before))
                await self.tell_left(truth.seat(seat.id))  # (the truth was restored: its seats are new)

    async def tell_left(self, seat: Seat) -> None:
        """``seat`` tells the tiles left on their rack: the group's button, /left typed, or the tile keyboard."""
        truth = self.truth
        kinds = {"/left in the group": 2, "/left in private": 2}
        if seat.told and not seat.unnamed and self.end_post is not None:
            kinds["the group's button"] = 3
        if len(seat.rack) <= 6:
            kinds["the tile keyboard"] = 1
        kind = pick(self.rng, kinds)
        self.did(f"rack told: {kind}")
        tell = functools.partial(truth.declare, seat.id)
        tiles = words(self.rng.sample(seat.rack, len(seat.rack))) or "none"
        if kind == "the group's button":
            assert self.end_post is not None
            await self.tap((seat.user, seat.user), self.end_post, RACK_AS_YOU_HAVE_IT, tell)
        elif kind == "/left in the group":
            await self.say(seat.user, f"/left {tiles}", self.group, tell)
        elif kind == "/left in private":
            await self.say(seat.user, f"/left {tiles}", private(seat.user), tell)
        else:
            calls = await self.say(seat.user, "/left", private(seat.user))
            keyboard = self.expect_question(calls, private(seat.user), "Tap the tiles left")
            for tile in self.rng.sample(seat.rack, len(seat.rack)):
                await self.press(seat.user, keyboard, key(tile))
            await self.press(seat.user, keyboard, DONE_KEY, tell)

    async def final_checks(self) -> None:
        """The game ended in the box's scores, the group read them, and the operator's command agrees."""
        truth = self.truth
        assert truth.ended and truth.winner is not None
        winner = truth.seat(truth.winner)
        self.record.finish = {"out": "went out", "blocked": "nobody could play on"}.get(truth.finish or "", "stopped")
        self.record.winner = winner.name
        self.record.scores = {s.name: s.score or 0 for s in truth.seats}
        post = self.scored_post
        if post is None or "Game over" not in post.text:
            self.fail(["the group was not told the score"], truth.expected(), {})
            return
        lines = post.text.splitlines()
        wanted = [f"Game over. {winner.name} wins."] + [
            f"{s.name}: {score_words(s.score or 0)}"
            for s in sorted(truth.seats, key=lambda s: (s is not winner, -(s.score or 0)))
        ]
        if lines[1 : 1 + len(wanted)] != wanted and lines[: len(wanted)] != wanted:
            self.fail([f"the group read {lines}, not {wanted}"], truth.expected(), {})
        _state, inside = await self.arena.view(self.group.id)
        outside = await asyncio.to_thread(self.arena.cli, self.group.id)
        if outside != inside:
            keys = sorted(k for k in set(inside) | set(outside) if inside.get(k) != outside.get(k))
            self.fail([f"python -m bot game --json differs from the read in-process in {keys}"], inside, outside)


def key(tile: Tile) -> str:
    """A tile's key on the tile keyboard."""
    if tile.is_joker:
        return JOKER_KEY
    assert tile.colour is not None
    return f"{COLOUR_KEYS[tile.colour.letter]}{tile.number}"


def score_words(score: int) -> str:
    return f"+{score}" if score > 0 else f"\u2212{-score}" if score < 0 else "0"


async def family_games(place: Arena, seed: int, players: int, games: int, stats: Stats) -> None:
    """A family of ``players`` (their choices from ``seed``) plays ``games`` games in a row at its group's table
    ("New game, same players" between them), against the bot of ``place``."""
    await Family(place, seed, players, stats).play_games(games)


async def families(
    place: Arena,
    games: Sequence[tuple[int, int, int]],
    stats: Stats,
    *,
    at_once: int = 1,
    keep_going: bool = False,
) -> list[str]:
    """Each ``(seed, players, games in a row)`` a family at its own table, ``at_once`` of them playing at the same
    time against the one bot. Returns the failures' reports (with ``keep_going``; else the first is raised)."""
    gate = asyncio.Semaphore(at_once)
    failures: list[str] = []

    async def one(seed: int, players: int, count: int) -> None:
        async with gate:
            try:
                await family_games(place, seed, players, count, stats)
            except RefereeError as why:
                if not keep_going:
                    raise
                failures.append(str(why))
                print(f"\nseed {seed} FAILED:\n{why}\n", flush=True)

    await asyncio.gather(*(one(*game) for game in games))
    return failures


__all__ = ["Arena", "Family", "RefereeError", "Stats", "Truth", "arena", "families", "family_games"]
