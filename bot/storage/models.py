"""The tables: games, their players (with their scores), their history, private-chat ties, the questions asked
with buttons, the inbox of updates (deliveries, claims), Telegram's flood budget (paces), and each chat's
language; the advice said once a game, and the language a group is spoken to before it chose one.

Tiles, sets and rules are JSON in canonical notation (see ``codec``), and only
portable SQL types and constraints are used, so the same models (and the
migrations made from them) run on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
RUNNING_ONLY = text("status = 'running'")
WAITING_ONLY = text("handled_at IS NULL")


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out; SQLite would otherwise hand back naive ones."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; use datetime.now(UTC)")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime, dict[str, Any]: JSON, list[Any]: JSON}


class Game(Base):
    """One game in one chat. ``version`` is SQLAlchemy's optimistic lock: a lost update raises."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]]
    table_sets: Mapped[list[Any]]
    turn_user_id: Mapped[int | None] = mapped_column(BigInteger)
    invite: Mapped[str] = mapped_column(String(32), unique=True)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    #: The group's name when the game began, so a private reply about it can say which group it is
    title: Mapped[str | None] = mapped_column(String(128))
    #: each set's number, beside ``table_sets`` (a set keeps its number until it is broken up)
    table_numbers: Mapped[list[Any]]
    #: the play that may still grow in the same turn: its player, the table its turn began from, an opening?
    adding: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: turns passed in a row on an empty pool
    passes: Mapped[int] = mapped_column(Integer)
    #: how the game came to its end (out, blocked, stopped), while the racks are told and once scored
    finish: Mapped[str | None] = mapped_column(String(8))
    winner_user_id: Mapped[int | None] = mapped_column(BigInteger)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan", lazy="raise"
    )

    # We bump ``version`` ourselves on every change (players' rows included), and
    # SQLAlchemy adds "WHERE version = <the one we read>" to the UPDATE.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}  # noqa: RUF012
    __table_args__ = (
        CheckConstraint("status IN ('running', 'ended')", name="status"),
        Index("ix_games_chat_id", "chat_id"),
        # One running game per chat, enforced by the database itself.
        Index(
            "uq_games_running_chat",
            "chat_id",
            unique=True,
            sqlite_where=RUNNING_ONLY,
            postgresql_where=RUNNING_ONLY,
        ),
    )


class Player(Base):
    """A user's seat in a game; ``rack`` is private to that user. A chat's ended games' ``score`` columns are
    its running totals."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(128))
    seat: Mapped[int] = mapped_column(Integer)
    rack: Mapped[list[Any]]
    melded: Mapped[bool] = mapped_column(Boolean)
    tiles_played: Mapped[int] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean)
    joined_at: Mapped[datetime]
    #: the tiles on the rack at the table (``rack`` holds those the bot knows)
    rack_size: Mapped[int] = mapped_column(Integer)
    #: tiles drawn in the group and not yet named in private
    unnamed: Mapped[int] = mapped_column(Integer)
    #: the rack was told for the final score
    declared: Mapped[bool] = mapped_column(Boolean)
    #: the points the game gave this player, once scored
    score: Mapped[int | None] = mapped_column(Integer)

    game: Mapped[Game] = relationship(back_populates="players", lazy="raise")

    __table_args__ = (UniqueConstraint("game_id", "user_id", name="uq_players_game_user"),)


class Event(Base):
    """Append-only history. ``diff`` holds each changed value before and after, which is what undo needs.

    An undo is itself an event pointing at the one it took back (``undoes_id``);
    no row is ever updated or deleted.
    """

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    at: Mapped[datetime]
    detail: Mapped[dict[str, Any]]
    diff: Mapped[dict[str, Any]]
    undoes_id: Mapped[int | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))

    __table_args__ = (
        Index("ix_events_game_id_id", "game_id", "id"),
        Index("ix_events_undoes_id", "undoes_id"),
    )


class Tie(Base):
    """A private chat (its user) tied to a group game, so private commands act on that game.

    The table and its time column keep their first names (``links``, ``linked_at``): renaming them would take a
    migration on every database for no change in what they hold."""

    __tablename__ = "links"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    tied_at: Mapped[datetime] = mapped_column("linked_at")

    __table_args__ = (Index("ix_links_game_id", "game_id"),)


class AskedQuestion(Base):
    """A question the bot asked with buttons (where loose tiles go, whose play it was, record anyway?).

    Kept in the database, not in memory, so any bot process can take the answer; it is deleted in the same
    transaction as the change it makes, so a second tap (or a second process) finds it gone. The table keeps
    its first name (``choices``): renaming it would take a migration for no change in what it holds.
    """

    __tablename__ = "choices"

    token: Mapped[str] = mapped_column(String(24), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]

    __table_args__ = (Index("ix_choices_game_id", "game_id"),)


class Delivery(Base):
    """An update Telegram delivered, kept before it is confirmed to Telegram (``getUpdates``' offset, or the
    webhook's 200), so a crash can never lose it.

    ``handled_at`` is set in the same transaction as the change the update made (``bot.storage.inbox``):
    after a crash an update is either applied, or still to be handled. Handled rows stay a day, so an update
    Telegram sends twice is recognised, and a chat's recent count tells a flood.
    """

    __tablename__ = "deliveries"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    #: the chat whose order it keeps (the private chat, the group; the user for an update without a chat)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    payload: Mapped[dict[str, Any]]
    received_at: Mapped[datetime]
    handled_at: Mapped[datetime | None]
    #: how it ended: done, skipped (a flood), slowed (a flood, told to slow down), failed (gave up)
    outcome: Mapped[str | None] = mapped_column(String(8))
    #: how many times handling it began: an update that kills the process every time is given up
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: message, button (a tap) or other: a flood is counted per kind (taps on a tile keyboard come fast)
    kind: Mapped[str] = mapped_column(String(8))

    __table_args__ = (
        Index("ix_deliveries_chat_id_update_id", "chat_id", "update_id"),
        Index("ix_deliveries_received_at", "received_at"),
        # the updates still to handle, by chat, in order: what the dispatcher looks up for every update
        Index(
            "ix_deliveries_waiting",
            "chat_id",
            "update_id",
            sqlite_where=WAITING_ONLY,
            postgresql_where=WAITING_ONLY,
        ),
    )


class Claim(Base):
    """Which bot process handles a chat's updates now, and until when (renewed while it lives).

    Updates of one chat are handled in order by one process at a time; a process that dies leaves its
    claims to run out, and another process (or itself, restarted) takes them over.
    """

    __tablename__ = "claims"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    owner: Mapped[str] = mapped_column(String(40))
    until: Mapped[float] = mapped_column(Float)


class Pace(Base):
    """Telegram's flood limits for the bot as a whole: when the next message to ``key`` may go
    (the theoretical arrival time of a generic cell rate algorithm), shared by every process."""

    __tablename__ = "paces"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    due: Mapped[float] = mapped_column(Float)


class Language(Base):
    """The language a chat chose with /language (a private chat's id is its user's): the bot speaks it there,
    and to that user in a group that chose none, whatever their Telegram app's language is."""

    __tablename__ = "languages"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    code: Mapped[str] = mapped_column(String(8))


class Tip(Base):
    """A piece of advice said to a player in a game ("/draw 7B tells me the tile"): said once a game, not at
    every turn."""

    __tablename__ = "tips"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    tip: Mapped[str] = mapped_column(String(16), primary_key=True)


class GroupLanguage(Base):
    """The language a group that chose none is spoken to in: the first one heard there (a member's own
    choice, else their app's), so it does not flip message by message; ``asked`` once a member's differed and
    the group was asked to choose."""

    __tablename__ = "group_languages"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    first: Mapped[str] = mapped_column(String(8))
    asked: Mapped[bool] = mapped_column(Boolean, default=False)
