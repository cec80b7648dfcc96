"""Reading one game's row. Its state document is the one this process already holds for the
version read, when it holds it (``state_column``), so a 300-unit battle is not decoded again."""
from __future__ import annotations

from sqlalchemy import inspect as sa_inspect
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
