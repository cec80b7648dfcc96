"""Handing the dice over: a side's player types only that side's dice.

In "We roll" mode a seated side's player types the dice of their own action. When the engine
asks for dice that another side rolls (a target's saves, a testing unit's break test, the other
side's attacks in a combat round, an Of Oil and Iron target's hit location), nothing is applied:
the game gets one pending roll holding the action, its facts, the dice typed so far (with who typed
each), who acted and what is needed (how many, which die, what for, whose). The owning side's
tablet, or the umpire's, types them (``typed_dice.type_dice``); the action then resolves again with every
die so far, and any further dice are asked for the same way, whoever owns them. When it lands it
is logged once, as the acting side's action. The acting side or the umpire may cancel it
(:func:`cancel`); a game that moved on (any other change) cancels it too.

The umpire and the one trusted tablet of a "this laptop only" table type every die, as before.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from sqlalchemy import JSON, Column, delete
from sqlmodel import Field, Session, SQLModel, select

from ..core.dice import DiceNeeded
from .errors import NotFound, TableError
from .games import get_game
from .models import Game, now

UMPIRE = "umpire"


class PendingRoll(SQLModel, table=True):
    """Dice one side must type before another side's action can land (at most one per game)."""

    __tablename__ = "pendingroll"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", unique=True)
    version: int  # the game's version when asked: any change to the game cancels the roll
    action: str
    facts: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # The dice typed so far, in order, each with who typed it: [[4, "blue"], [2, "red"], [6, null]].
    typed: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    actor: str  # the side whose action it is; the entry is logged as theirs
    count: int
    sides: int
    purpose: str
    side: str  # whose dice are asked for now
    created: datetime = Field(default_factory=now)

    @property
    def values(self) -> list[int]:
        return [int(v) for v, _ in self.typed]

    @property
    def typists(self) -> list[str | None]:
        return [who for _, who in self.typed]

    @property
    def step(self) -> str:
        """Changes with every die typed: a tablet knows whether the prompt it shows is current."""
        return f"{self.id}-{len(self.typed)}"


class NotYourDice(TableError):
    """A side typed dice another side rolls; nothing was changed."""

    status = 403


class HandedOver(TableError):
    """The action waits for another side's dice: nothing applied yet (``pending`` says what)."""

    status = 200

    def __init__(self, pending: PendingRoll, message: str):
        super().__init__(message)
        self.pending = pending


class RollCancelled(TableError):
    status = 409


def side_keys(state: dict) -> set[str]:
    return set(state.get("sides") or state.get("players") or {})


def side_name(state: dict, key: str | None) -> str:
    found = (state.get("sides") or state.get("players") or {}).get(key or "") or {}
    return str(found.get("name") or key or "the acting side")


def waiting_message(state: dict, pending: PendingRoll) -> str:
    return (f"Waiting for {side_name(state, pending.side)} to roll {pending.count} D{pending.sides} "
            f"— {pending.purpose}")


def prompt(state: dict, pending: PendingRoll) -> str:
    return f"{side_name(state, pending.side)}: roll {pending.count} D{pending.sides} — {pending.purpose}"


def hand_over(session: Session, game: Game, action: str, facts: dict, values: list[int],
              typists: list[str | None], needed: DiceNeeded, actor: str) -> HandedOver:
    """Record (or move on) the game's pending roll; nothing of the action is applied."""
    row = session.exec(select(PendingRoll).where(PendingRoll.game_id == game.id)).first()
    if row is None:
        row = PendingRoll(game_id=game.id, version=game.version, action=action, facts={}, actor=actor,
                          count=0, sides=6, purpose="", side="")
    row.version, row.action, row.facts, row.actor = game.version, action, dict(facts), actor
    row.typed = [[int(v), who] for v, who in zip(values, typists)]
    row.count, row.sides, row.purpose = needed.count, needed.sides, needed.purpose
    row.side = needed.side or actor
    row.created = now()
    session.add(row)
    session.commit()
    session.refresh(row)
    return HandedOver(row, waiting_message(game.state, row))


def drop(session: Session, game_id: int) -> None:
    """Forget the game's pending roll (in the caller's transaction)."""
    session.execute(delete(PendingRoll).where(PendingRoll.game_id == game_id))


def current(session: Session, game: Game) -> PendingRoll | None:
    """The game's pending roll, if the game is still at the version it was asked at (a stale one
    is dropped: the game moved on, so the action it held is cancelled)."""
    row = session.exec(select(PendingRoll).where(PendingRoll.game_id == game.id)).first()
    if row is not None and row.version != game.version:
        drop(session, game.id)
        session.commit()
        return None
    return row


def role_of(actor) -> str | None:
    """None: the umpire, or the one trusted tablet (actor None), who may type any die."""
    if actor is None or actor.role == UMPIRE:
        return None
    return actor.role


def waiting(session: Session, game_id: int) -> tuple:
    """The game and the roll waiting in it for dice, or NotFound."""
    game = get_game(session, game_id)
    row = session.exec(select(PendingRoll).where(PendingRoll.game_id == game.id)).first()
    if row is None:
        raise NotFound("No dice are waiting to be typed in this game.")
    return game, row


def cancel(session: Session, game_id: int, actor=None) -> None:
    """The acting side (or the umpire) takes the action back before the dice are typed."""
    game, row = waiting(session, game_id)
    role = role_of(actor)
    if role is not None and role != row.actor:
        raise NotYourDice(f"Only {side_name(game.state, row.actor)}, whose action it is, or the umpire "
                          "can cancel it.")
    drop(session, game.id)
    session.commit()
