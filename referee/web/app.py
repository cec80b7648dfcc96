"""The app factory: configuration, the database, CSRF protection and the blueprints."""
from __future__ import annotations

from pathlib import Path

from flask import Flask, g, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlmodel import select

from .. import config as referee_config
from .. import migrations
from ..table import db, service
from ..table.models import Game

ROOT = Path(__file__).resolve().parents[2]
csrf = CSRFProtect()


def create_app(test_config: dict | None = None) -> Flask:
    instance = Path(ROOT / "instance")
    app = Flask("referee", instance_path=str(instance), root_path=str(ROOT / "referee"),
                template_folder=str(ROOT / "templates"))
    settings = dict(test_config or {})
    if "SECRET_KEY" not in settings or "DATABASE_URL" not in settings:
        app.config.from_mapping(referee_config.from_environment(instance))
    else:
        app.config.from_mapping(WTF_CSRF_TIME_LIMIT=referee_config.CSRF_TIME_LIMIT, SEED_DEMO=True)
    app.config.from_mapping(settings)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    url = app.config["DATABASE_URL"]
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = db.make_engine(url)
    migrations.upgrade(engine)
    app.extensions["referee.engine"] = engine
    if app.config.get("SEED_DEMO"):
        seed_demo(engine)

    csrf.init_app(app)
    app.teardown_appcontext(_close_session)
    app.errorhandler(CSRFError)(_csrf_error)

    from . import battles, engagements, games
    app.register_blueprint(games.bp)
    app.register_blueprint(battles.bp)
    app.register_blueprint(engagements.bp)
    from . import lists; app.register_blueprint(lists.bp)  # noqa: E702
    return app


def session():
    """The request's database session, opened on first use and closed when the request ends."""
    if "db" not in g:
        from flask import current_app
        g.db = db.session(current_app.extensions["referee.engine"])
    return g.db


def game_or_404(game_id: int, system: str | None = None) -> Game:
    """The game asked for, or a 404 page; with ``system``, only a game of that system."""
    from flask import abort

    try:
        game = service.get_game(session(), game_id)
    except service.NotFound as e:
        abort(404, e.message)
    if system is not None and game.system != system:
        abort(404)
    return game


def _close_session(_exc):
    s = g.pop("db", None)
    if s is not None:
        s.close()


def seed_demo(engine) -> None:
    """A fresh table has the demo battle ready, so the first tap plays."""
    from ..data.scenarios import new_battle_from_scenario
    with db.session(engine) as s:
        if s.exec(select(Game.id).limit(1)).first() is not None:
            return
        doc = new_battle_from_scenario("demo")
        service.create_game(s, doc.get("name", "Demo"), "blackpowder", doc)


def _csrf_error(err: CSRFError):
    message = ("This page is too old to change the game (its security token ran out or is missing). "
               "Reload the page and tap again.")
    if request.headers.get("HX-Request"):
        return render_template("_message_panel.html", message=message), 400
    return render_template("message.html", message=message), 400
