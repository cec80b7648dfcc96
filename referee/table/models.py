"""The tables: games (with their state document), the game log, accounts and the seats at a
game's table (who may act for which side).

Relational rows for what people browse (games, log entries); the game's state itself is one
JSON document that engines read and write in one go.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Optional

from sqlalchemy import JSON, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from .state_column import StateDocument


def now() -> datetime:
    return datetime.now(timezone.utc)


class Game(SQLModel, table=True):
    # A deleted game's number is never given again (migration 0012): a link to it must not lead to
    # a later game.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    system: str = Field(index=True)  # "blackpowder" | "oilandiron"
    version: int = 0  # bumped by every change; tablets send the one they show
    # Decoded once per version and shared, never changed in place (state_column.py).
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(StateDocument, nullable=False))
    dice_mode: str = "app"  # "app": the app rolls (seeded); "typed": players type their dice
    seed: int = 0
    owner: str = ""
    created: datetime = Field(default_factory=now)
    updated: datetime = Field(default_factory=now)


class LogEntry(SQLModel, table=True):
    """One action as it happened: what was asked, the facts, the dice, the result, the changes.

    Undo never deletes: it marks the entry ``undone``; a new action after an undo marks the
    undone entries ``discarded`` (no longer redoable).
    """

    # The undone entries of a game found without reading its whole log (redo, and ending redo).
    # The token of a tap found again when the tap is sent again (``service.perform``).
    __table_args__ = (UniqueConstraint("game_id", "seq"), Index("ix_logentry_game_undone", "game_id", "undone", "discarded"),
                      Index("ix_logentry_game_token", "game_id", "token"))

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    action: str
    label: str = ""
    facts: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    dice: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    dice_source: str = "app"  # app | typed | manual
    result: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    changes: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    undone: bool = False
    discarded: bool = False
    version_after: int = 0
    actor: str = ""  # who acted: "umpire", a side ("blue", "p1"), or "" (the one tablet of a laptop game)
    # The one-time token of the tap that made it: the same tap sent again is answered with this
    # entry, never resolved (and rolled) a second time. None: a tap that carried none.
    token: Optional[str] = None
    # The game's version made by the undo or redo that last took this entry back or put it back
    # (0: never): with ``version_after``, what changed since the version a tablet shows.
    stepped: int = 0
    # The token of that undo or redo: the same tap again is answered with this entry, not a second step.
    step_token: Optional[str] = None
    created: datetime = Field(default_factory=now)


class Account(SQLModel, table=True):
    """A person on a club server. Lists belong to an account. ``password_hash`` is empty for an
    account made from a list's owner name (before accounts, or on a "this laptop only" table):
    nobody can log in to it until the club's first account gives it a password."""

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    password_hash: Optional[str] = None
    is_admin: bool = False
    created: datetime = Field(default_factory=now)


class ServerSetting(SQLModel, table=True):
    """Choices made once for the whole server, such as ``mode`` ("laptop" or "club")."""

    __tablename__ = "serversetting"

    key: str = Field(primary_key=True)
    value: str


class Seat(SQLModel, table=True):
    """Who holds a role at a game's table: "umpire", a side ("blue", "red", "p1", "p2") or
    "spectator". A seat belongs to a tablet (a random token kept in its signed session cookie)
    and, when someone is logged in, to their account too."""

    __table_args__ = (UniqueConstraint("game_id", "tablet"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    role: str
    tablet: str = Field(index=True)
    account_id: Optional[int] = Field(default=None, foreign_key="account.id", index=True)
    created: datetime = Field(default_factory=now)


class JoinCode(SQLModel, table=True):
    """The short code (and QR code) the umpire shows for each role of a game."""

    __tablename__ = "joincode"
    __table_args__ = (UniqueConstraint("game_id", "role"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    role: str
    code: str = Field(unique=True, index=True)


class SignIn(SQLModel, table=True):
    """One signed-in session of an account on one tablet: the session and remember-me cookies
    carry only its random ``token``, so signing out (the row deleted) ends that session on the
    server, whatever copies of its cookies are still about."""

    __tablename__ = "signin"

    id: Optional[int] = Field(default=None, primary_key=True)
    token: str = Field(unique=True, index=True)
    account_id: int = Field(foreign_key="account.id", index=True)
    created: datetime = Field(default_factory=now)
