"""Callback data: the one place that packs what a button carries and parses (and checks) what comes back.

Telegram gives a button at most 64 bytes of data, and anyone can send any data: everything read back here is
validated before a handler sees it, and a button is only good in the kind of chat it was made for (a button
meant for a private chat does nothing in a group, where it could show a rack). A parse that fails gives
None, and the handler answers that the button is stale; nothing is changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from bot.telegram.chats import PRIVATE, SHARED, ChatKind

#: Telegram's limit on a button's data
LIMIT = 64


def _fits(data: str) -> str:
    assert len(data.encode()) <= LIMIT, data
    return data


# --- questions asked with buttons (``asking``): q:<token>:<g|p>:<option or x> ----------------------------

_ANSWER = re.compile(r"^q:([A-Za-z0-9_-]{8,24}):([gp]):(\d{1,2}|x)$")
ANSWER_PATTERN = r"^q:"


@dataclass(frozen=True, slots=True)
class Answer:
    """A tap on a question's button: the question's token, the option (None: Cancel), where it was asked."""

    token: str
    option: int | None
    where: ChatKind


def answer(token: str, option: int | None, where: ChatKind) -> str:
    """The data of a question's button (``option`` None: Cancel)."""
    return _fits(f"q:{token}:{'p' if where is PRIVATE else 'g'}:{'x' if option is None else option}")


def parse_answer(data: str, tapped_in: ChatKind) -> Answer | None:
    m = _ANSWER.match(data)
    if m is None:
        return None
    where = PRIVATE if m.group(2) == "p" else SHARED
    if where is not tapped_in:
        return None
    option = None if m.group(3) == "x" else int(m.group(3))
    return Answer(m.group(1), option, where)


# --- a suggestion's buttons (private): p:<game>:<t|p>:<fingerprint> and o:<game>:<t|p> ---------------

_PLAYED = re.compile(r"^p:(\d{1,19}):([tp]):([0-9a-f]{12})$")
_OTHER = re.compile(r"^o:(\d{1,19}):([tp])$")
_MELDED = re.compile(r"^m:(\d{1,19}):([tp])$")
PLAYED_PATTERN = r"^p:"
OTHER_PATTERN = r"^o:"
MELDED_PATTERN = r"^m:"


@dataclass(frozen=True, slots=True)
class Suggested:
    """A suggestion's button: its game, the objective's code (``t`` tiles, ``p`` points), and for "I played
    this" the fingerprint of the position it was solved for."""

    game_id: int
    objective: str
    stamp: str = ""


def played_this(game_id: int, objective: str, stamp: str) -> str:
    return _fits(f"p:{game_id}:{objective}:{stamp}")


def other_objective(game_id: int, objective: str) -> str:
    return _fits(f"o:{game_id}:{objective}")


def melded_instead(game_id: int, objective: str) -> str:
    """ "I have melded": an opening was shown, and playing onto the table would put down more."""
    return _fits(f"m:{game_id}:{objective}")


def parse_melded_instead(data: str, tapped_in: ChatKind) -> Suggested | None:
    m = _MELDED.match(data)
    if m is None or tapped_in is not PRIVATE:
        return None
    return Suggested(int(m.group(1)), m.group(2))


def parse_played_this(data: str, tapped_in: ChatKind) -> Suggested | None:
    m = _PLAYED.match(data)
    if m is None or tapped_in is not PRIVATE:
        return None
    return Suggested(int(m.group(1)), m.group(2), m.group(3))


def parse_other_objective(data: str, tapped_in: ChatKind) -> Suggested | None:
    m = _OTHER.match(data)
    if m is None or tapped_in is not PRIVATE:
        return None
    return Suggested(int(m.group(1)), m.group(2))


# --- the group's Join (shared) and the greeting's example (private) ----------------------------------

JOIN = "j"
EXAMPLE = "x"
JOIN_PATTERN = r"^j$"
EXAMPLE_PATTERN = r"^x$"


def is_join(data: str, tapped_in: ChatKind) -> bool:
    return data == JOIN and tapped_in is SHARED


def is_example(data: str, tapped_in: ChatKind) -> bool:
    return data == EXAMPLE and tapped_in is PRIVATE


# --- /games (private): g:<game> -------------------------------------------------------------------------

_SWITCH = re.compile(r"^g:(\d{1,19})$")
SWITCH_PATTERN = r"^g:"


def switch(game_id: int) -> str:
    """The data of a /games button: tie this private chat to that game (only ever good in a private chat)."""
    return _fits(f"g:{game_id}")


def parse_switch(data: str, tapped_in: ChatKind) -> int | None:
    m = _SWITCH.match(data)
    return int(m.group(1)) if m is not None and tapped_in is PRIVATE else None


# --- the group's greeting (shared): New game -------------------------------------------------------------

NEW_GAME = "n"
NEW_GAME_PATTERN = r"^n$"


def is_new_game(data: str, tapped_in: ChatKind) -> bool:
    return data == NEW_GAME and tapped_in is SHARED


# --- the tile keyboard (private): t:<token>:<key> ----------------------------------------------------------
# A key is a tile (``3R``, ``J``), ``del`` (⌫) or ``ok`` (Done); the tiles so far wait in the question
# ``token`` names, in the database, so any process can take the next tap.

_KEY = re.compile(r"^t:([A-Za-z0-9_-]{8,24}):([1-9][0-9]?[RBKO]|J|del|ok)$")
KEY_PATTERN = r"^t:"
DELETE = "del"
DONE = "ok"


@dataclass(frozen=True, slots=True)
class Key:
    """A tap on the tile keyboard: its question's token and the key (a tile's name, ``del`` or ``ok``)."""

    token: str
    key: str


def key(token: str, name: str) -> str:
    return _fits(f"t:{token}:{name}")


def parse_key(data: str, tapped_in: ChatKind) -> Key | None:
    m = _KEY.match(data)
    if m is None or tapped_in is not PRIVATE:
        return None
    return Key(m.group(1), m.group(2))


# --- /language (any chat): l:<code> ------------------------------------------------------------------------

_LANGUAGE = re.compile(r"^l:([a-z]{2})$")
LANGUAGE_PATTERN = r"^l:"


def language(code: str) -> str:
    return _fits(f"l:{code}")


def parse_language(data: str, known: Iterable[str]) -> str | None:
    """The language a /language button chooses, if the bot speaks it."""
    m = _LANGUAGE.match(data)
    return m.group(1) if m is not None and m.group(1) in known else None


# --- a group game's turn and end (shared): d:<game>:<turn> I drew, r:<game> my rack left, s:<game> same
# players, c:<game> the scores ---------------------------------------------------------------------------

_GAME_BUTTON = re.compile(r"^([rsc]):(\d{1,19})$")
RACK_LEFT = "r"
SAME_PLAYERS = "s"
SCORES = "c"
GAME_BUTTON_PATTERN = r"^[rsc]:\d"
DREW_PATTERN = r"^d:\d"
_DREW = re.compile(r"^d:(\d{1,19}):(\d{1,19})$")


@dataclass(frozen=True, slots=True)
class Drew:
    """A group's "I drew a tile": its game, and whose turn it was when the button was made."""

    game_id: int
    turn: int


def drew(game_id: int, turn: int) -> str:
    return _fits(f"d:{game_id}:{turn}")


def parse_drew(data: str, tapped_in: ChatKind) -> Drew | None:
    m = _DREW.match(data)
    if m is None or tapped_in is not SHARED:
        return None
    return Drew(int(m.group(1)), int(m.group(2)))


@dataclass(frozen=True, slots=True)
class GameButton:
    """A group game's button: what it does (``RACK_LEFT``, ``SAME_PLAYERS``, ``SCORES``) and its game."""

    action: str
    game_id: int


def game_button(action: str, game_id: int) -> str:
    assert action in (RACK_LEFT, SAME_PLAYERS, SCORES), action
    return _fits(f"{action}:{game_id}")


def parse_game_button(data: str, tapped_in: ChatKind) -> GameButton | None:
    """A group game's button, good only in a group (``SCORES`` anywhere)."""
    m = _GAME_BUTTON.match(data)
    if m is None or (tapped_in is not SHARED and m.group(1) != SCORES):
        return None
    return GameButton(m.group(1), int(m.group(2)))


# --- shortcuts: go:<name> ----------------------------------------------------------------------------------
# A command as a button (the next steps offered beside "I didn't understand", /rack's Change, /help's
# topics): only the names below, each good in the kind of chat it is offered in.

_GO = re.compile(r"^go:([a-z_]{1,20})$")
GO_PATTERN = r"^go:"
#: the commands a shortcut sends, as if typed (private, shared)
GO_PRIVATE = frozenset({"solve", "status", "help", "keys", "hint", "unseen"})
GO_SHARED = frozenset({"status", "help", "new"})
#: /help's topics (anywhere)
TOPICS = ("tiles", "group", "photos", "rules", "commands")


def go(name: str) -> str:
    assert name in GO_PRIVATE | GO_SHARED or name.removeprefix("topic_") in TOPICS, name
    return _fits(f"go:{name}")


def parse_go(data: str, tapped_in: ChatKind) -> str | None:
    """The shortcut's name, when it is good where it was tapped."""
    m = _GO.match(data)
    if m is None:
        return None
    name = m.group(1)
    if name.removeprefix("topic_") in TOPICS:
        return name
    return name if name in (GO_PRIVATE if tapped_in is PRIVATE else GO_SHARED) else None


# --- the coach (issue 24; its answers go to the player's private chat) -------------------------------------
# h:<token>:<level> the next level of a hint (the answer it reads waits under ``token``, in the database);
# u:<game> the tiles unseen and the outs; w:<token>:<k>:<p|g> how the player's k-th play went (their plays
# wait under ``token``; g: under the group's post, answered in private); v:<game>:<p|g> the game's review (g:
# under the group's last post, sent in private); y:<game>:<t|p>:<fingerprint> a simpler play under the answer.

_HINT = re.compile(r"^h:([A-Za-z0-9_-]{8,24}):([1-4])$")
_UNSEEN = re.compile(r"^u:(\d{1,19})$")
_HOW = re.compile(r"^w:([A-Za-z0-9_-]{8,24}):(\d{1,4}):([pg])$")
_REVIEW = re.compile(r"^v:(\d{1,19}):([pg])$")
_SIMPLER = re.compile(r"^y:(\d{1,19}):([tp]):([0-9a-f]{12})$")
HINT_PATTERN = r"^h:"
UNSEEN_PATTERN = r"^u:"
HOW_PATTERN = r"^w:"
REVIEW_PATTERN = r"^v:"
SIMPLER_PATTERN = r"^y:"


@dataclass(frozen=True, slots=True)
class Hinted:
    """A hint's button: the token its answer is kept under, and the level it asks for."""

    token: str
    level: int


def hint(token: str, level: int) -> str:
    return _fits(f"h:{token}:{level}")


def parse_hint(data: str, tapped_in: ChatKind) -> Hinted | None:
    m = _HINT.match(data)
    if m is None or tapped_in is not PRIVATE:
        return None
    return Hinted(m.group(1), int(m.group(2)))


def unseen(game_id: int) -> str:
    return _fits(f"u:{game_id}")


def parse_unseen(data: str, tapped_in: ChatKind) -> int | None:
    m = _UNSEEN.match(data)
    return int(m.group(1)) if m is not None and tapped_in is PRIVATE else None


@dataclass(frozen=True, slots=True)
class HowDid:
    """A "How did I do?" button: the token the player's plays are kept under, and which of them."""

    token: str
    index: int


def how_did(token: str, index: int, where: ChatKind = PRIVATE) -> str:
    return _fits(f"w:{token}:{index}:{'p' if where is PRIVATE else 'g'}")


def parse_how_did(data: str, tapped_in: ChatKind) -> HowDid | None:
    """The button, when tapped in the kind of chat it was posted in (the answer always goes to the player's
    private chat)."""
    m = _HOW.match(data)
    if m is None or (PRIVATE if m.group(3) == "p" else SHARED) is not tapped_in:
        return None
    return HowDid(m.group(1), int(m.group(2)))


def review(game_id: int, where: ChatKind = PRIVATE) -> str:
    return _fits(f"v:{game_id}:{'p' if where is PRIVATE else 'g'}")


def parse_review(data: str, tapped_in: ChatKind) -> int | None:
    """The game, when tapped in the kind of chat the button was posted in (the review always goes to the
    player's private chat)."""
    m = _REVIEW.match(data)
    if m is None or (PRIVATE if m.group(2) == "p" else SHARED) is not tapped_in:
        return None
    return int(m.group(1))


def simpler(game_id: int, objective: str, stamp: str) -> str:
    return _fits(f"y:{game_id}:{objective}:{stamp}")


def parse_simpler(data: str, tapped_in: ChatKind) -> Suggested | None:
    m = _SIMPLER.match(data)
    if m is None or tapped_in is not PRIVATE:
        return None
    return Suggested(int(m.group(1)), m.group(2), m.group(3))
