"""Reading one game's row. Its state document is the one this process already holds for the
version read, when it holds it (``state_column``), so a 300-unit battle is not decoded again.
Listing the games reads only what the list shows, never a state document."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import inspect as sa_inspect
from sqlalchemy import select as core_select
from sqlalchemy.orm import defer
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from . import state_column
from .errors import NotFound
from .models import Game


def get_game(session: Session, game_id: int) -> Game:
    """The game, its state document the one this process already holds for the version read
    (``state_column.kept_version``): a Waterloo day's 200 kB is then not fetched again, which on
    PostgreSQL (its text kept apart, in pieces) costs more than the rest of the read."""
    game = session.get(Game, game_id, options=[defer(Game.state)])
    if game is None:
        raise NotFound(f"There is no game number {game_id}.")
    if "state" in sa_inspect(game).unloaded:
        key = ("game", game.id, game.version, game.updated)
        doc = state_column.kept_version(key)
        if doc is None:
            row = session.exec(select(Game.version, Game.updated, Game.state).where(Game.id == game_id)).first()
            if row is None:
                raise NotFound(f"There is no game number {game_id}.")
            version, updated, doc = row
            set_committed_value(game, "version", version)
            set_committed_value(game, "updated", updated)
            state_column.keep_version(("game", game_id, version, updated), doc)
        set_committed_value(game, "state", doc)
    return game


def has_games(session: Session) -> bool:
    """Whether the table holds any game at all."""
    return session.exec(select(Game.id).limit(1)).first() is not None


@dataclass(frozen=True)
class GameRow:
    """What the list of games shows of one game: its name and game, how far it has got, whether it
    has ended. The few facts of its document are picked out by the database."""

    id: int
    name: str
    system: str
    turn: int | None
    round: int | None
    ended: bool
    updated: datetime


_T = Game.__table__
_ROWS = (core_select(_T.c.id, _T.c.name, _T.c.system, _T.c.state["turn"].as_integer(),
                     _T.c.state["round"].as_integer(), _T.c.state["ended"].as_boolean(), _T.c.updated)
         .order_by(_T.c.updated.desc()))


def game_rows(session: Session) -> list[GameRow]:
    """Every game as the list of games shows it, the most recently changed first: one query that
    leaves each game's state document (up to 200 kB) in the database."""
    return [GameRow(i, name, system, turn, rnd, bool(ended), updated)
            for i, name, system, turn, rnd, ended, updated in session.connection().execute(_ROWS)]
