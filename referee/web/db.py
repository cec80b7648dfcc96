"""The request's database session and the game a URL names: what every blueprint needs from the
database, in a module of its own so the blueprints never import the app factory."""
from __future__ import annotations

from flask import abort, current_app, g, request

from ..table import db, service
from ..table.models import Game


def session():
    """The request's database session, opened on first use and closed when the request ends."""
    if "db" not in g:
        g.db = db.session(current_app.extensions["referee.engine"])
    return g.db


def close_session(_exc=None) -> None:
    """Registered as the app's teardown: the session of a finished request is closed."""
    s = g.pop("db", None)
    if s is not None:
        s.close()


def asked_game_id() -> int | None:
    """The game this request's address names (its ``<int:game_id>``), or None."""
    return (request.view_args or {}).get("game_id")


def game_or_404(game_id: int, system: str | None = None) -> Game:
    """The game asked for, or a 404 page; with ``system``, only a game of that system."""
    try:
        game = service.get_game(session(), game_id)
    except service.NotFound as e:
        abort(404, e.message)
    if system is not None and game.system != system:
        abort(404)
    return game
