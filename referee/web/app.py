"""The app factory: configuration, the database, CSRF protection, htmx, the error pages and the
blueprints. Only the entry points (``referee.create_app``, ``python -m referee``) import this
module; the blueprints take the request's database session from ``referee.web.db``."""
from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx

from .. import migrations
from ..core.words import counted
from ..data import new_battle_from_scenario
from ..systems import BLACK_POWDER
from ..table import db, service, startup
from ..table.games import has_games
from . import (
    auth,
    battles,
    campaign_way_back,
    campaigns,
    chips,
    dice_handover,
    engagements,
    foe,
    games,
    lists,
    records,
    reference,
    request_lock,
    roles,
    taps,
)
from .db import close_session
from .pictures import PICTURES
from .serving import (
    compression,
    error_pages,
    input_limits,
    live,
    page_forms,
    quick_poll,
    refusals,
    security,
    static_files,
)
from .serving import config as referee_config

ROOT = Path(__file__).resolve().parents[2]
csrf = CSRFProtect()
htmx = Htmx()


def create_app(test_config: dict | None = None) -> Flask:
    instance = Path(ROOT / "instance")
    app = Flask("referee", instance_path=str(instance), root_path=str(ROOT / "referee"),
                template_folder=str(ROOT / "templates"))
    settings = dict(test_config or {})
    if test_config is not None:
        # Tests run as one trusted table ("this laptop only") unless they ask for a club server.
        settings.setdefault("MODE", "laptop")
    if "SECRET_KEY" not in settings or "DATABASE_URL" not in settings:
        app.config.from_mapping(referee_config.from_environment(instance))
    else:
        app.config.from_mapping(WTF_CSRF_TIME_LIMIT=referee_config.CSRF_TIME_LIMIT, SEED_DEMO=True)
    app.config.from_mapping(settings)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["chips"] = chips.chips  # a pick list's chips, each drawn once (web/chips.py)
    app.jinja_env.globals.update(PICTURES)  # the pictures drawn as SVG (web/pictures/)
    # A board's parts written at one byte per character (web/serving/live.py, ``one_byte``).
    app.add_template_filter(live.one_byte_filter, "one_byte")
    app.add_template_filter(counted, "counted")  # {{ n|counted("unit") }}: "1 unit", "3 units"

    url = app.config["DATABASE_URL"]
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = db.make_engine(url)
    # One server at a time brings the schema up to date and seeds the demo (table/startup.py).
    with startup.exclusive(engine):
        migrations.upgrade(engine)
        if app.config.get("SEED_DEMO"):
            seed_demo(engine)
    app.extensions["referee.engine"] = engine

    # Headers, cookie flags, the body size limit and the secret key's check; ids and numbers
    # that could not be meant, refused before any route reads them (before the blueprints, whose
    # <int:...> rules use its converter).
    security.init_app(app)
    input_limits.init_app(app)
    csrf.init_app(app)
    # A request that may change a game waits for the game's write lock before it reads the game.
    request_lock.init_app(app)
    taps.init_app(app)  # write_token(): a drawn form's one-time token (web/taps.py)
    # Pages, fragments, scripts and style sheets go out compressed to a client that accepts it;
    # static files carry a content hash in their address and are cached for a year.
    Compress(app)
    compression.init_app(app)  # htmx's small fragments: gzip's fastest level (web/serving/compression.py)
    static_files.init_app(app)
    htmx.init_app(app)  # request.htmx: whether htmx sent the request, and its headers
    security.limit_bodies(app)  # a game file imported may be larger than any other body
    app.teardown_appcontext(close_session)
    error_pages.register(app)
    refusals.init_app(app)  # a refusal the tablet shows as a message: no red console line (serving/refusals.py)
    page_forms.init_app(app)  # a page's own form sent by htmx: the whole page, redirects followed (serving/page_forms.py)

    # The games, the army lists, and the rules reference (/rules).
    for blueprint in (games.bp, battles.bp, engagements.bp, lists.bp, reference.bp):
        app.register_blueprint(blueprint)
    # Campaigns (/campaigns) and the record each finished game keeps (report, file, archive).
    for blueprint in (campaigns.bp, campaign_way_back.bp, records.bp, dice_handover.bp, foe.bp):
        app.register_blueprint(blueprint)
    # Accounts on a club server (or "this laptop only"), and the roles at each game's table.
    auth.init_app(app)
    roles.init_app(app)
    # The board's "nothing changed" poll answered before Flask: the last thing put round the app.
    quick_poll.init_app(app)
    return app


def seed_demo(engine) -> None:
    """A fresh table has the demo battle ready, so the first tap plays."""
    with db.session(engine) as s:
        if has_games(s):
            return
        doc = new_battle_from_scenario("demo")
        service.create_game(s, doc.get("name", "Demo"), BLACK_POWDER, doc)
