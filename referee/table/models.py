"""The tables: games (with their state document) and the game log.

Relational rows for what people browse (games, log entries); the game's state itself is one
JSON document that engines read and write in one go.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Optional

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


def now() -> datetime:
    return datetime.now(timezone.utc)


class Game(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    system: str = Field(index=True)  # "blackpowder" | "oilandiron"
    version: int = 0  # bumped by every change; tablets send the one they show
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
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

    __table_args__ = (UniqueConstraint("game_id", "seq"),)

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
    created: datetime = Field(default_factory=now)
