"""The rows a campaign is kept in: the campaign (its state document, versioned like a game's), its
players, their rosters with every version kept, the campaign log, and the games it started.

Kept apart from :mod:`referee.table.campaigns` (the campaign's write path) so that the game's
write path can follow a campaign's links between its tables (:mod:`referee.table.campaign_links`)
without importing the campaign's write path, which imports the game's."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from .models import now


class Campaign(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    kind: str = Field(index=True)  # "oilandiron" | "hundred_days"
    version: int = 0
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: int = 0
    owner: str = ""
    created: datetime = Field(default_factory=now)
    updated: datetime = Field(default_factory=now)


class CampaignPlayer(SQLModel, table=True):
    __tablename__ = "campaignplayer"
    __table_args__ = (UniqueConstraint("campaign_id", "key"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    key: str  # "p1" / "p2", or "french" / "coalition"
    name: str


class Roster(SQLModel, table=True):
    """A player's standing squadron or army: kept apart from any game's list."""

    __table_args__ = (UniqueConstraint("campaign_id", "key"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    key: str
    name: str
    latest: int = 0


class RosterVersion(SQLModel, table=True):
    """One state of a roster, written with the campaign step that made it; never changed."""

    __tablename__ = "rosterversion"
    __table_args__ = (UniqueConstraint("roster_id", "number"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    roster_id: int = Field(foreign_key="roster.id", index=True)
    number: int
    content: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    note: str = ""
    log_seq: int = 0
    created: datetime = Field(default_factory=now)


class CampaignLogEntry(SQLModel, table=True):
    """A campaign step as it happened, who made it, its dice and rule; undone, never deleted."""

    __tablename__ = "campaignlogentry"
    __table_args__ = (UniqueConstraint("campaign_id", "seq"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    seq: int
    action: str
    label: str = ""
    who: str = ""
    override: bool = False
    facts: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    dice: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    dice_source: str = "app"
    result: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    changes: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    undone: bool = False
    discarded: bool = False
    version_after: int = 0
    created: datetime = Field(default_factory=now)


class CampaignGame(SQLModel, table=True):
    """A game a campaign started, with the roster versions it started from."""

    __tablename__ = "campaigngame"

    id: Optional[int] = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    game_id: int = Field(foreign_key="game.id", unique=True)
    step: str  # the engagement's number or the battle's key
    roster_versions: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
