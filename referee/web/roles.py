"""Roles at the table on a club server: the umpire's seats page with a join code and a QR code
for each side and for spectators, joining by code, and who this tablet is at each game.

The tablet is known by a random token in its signed session cookie (``tablet``); its seats are
rows in the database, so they survive a restart of the server. Whoever starts a game takes the
umpire's seat. On a "this laptop only" table nobody is checked: every tablet is the umpire, as
Referee always was. The permission itself is checked by the table service
(``referee.table.roles``), on the one path every change takes.
"""
from __future__ import annotations

import secrets
import time
from collections import defaultdict, deque

import segno
from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from flask import session as cookie
from flask_login import current_user
from markupsafe import Markup

from ..table import roles
from ..table.models import Game
from ..table.service import TableError
from . import auth
from .db import asked_game_id, game_or_404, session

bp = Blueprint("roles", __name__)
# Twenty wrong join codes from one address within ten minutes stop it trying for the rest of them:
# a code of 8 characters from 31 kinds cannot be found by trying.
JOIN_TRIES, JOIN_WINDOW = 20, 10 * 60
# Posts about a game any seated tablet may send (``auth.SEATED_POSTS``, which a club server also
# lets through without an account): the table service then checks the role itself, or nothing
# changes. Every other post about a game is the umpire's.
SEATED_POSTS = auth.SEATED_POSTS


def tablet() -> str:
    """This tablet's token, made on first need and kept in its session cookie."""
    token = cookie.get("tablet")
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(16)
        cookie["tablet"] = token
        cookie.permanent = True
    return token


def seat(game: Game):
    return roles.seat_of(session(), game.id, cookie.get("tablet"), auth.account_id())


def actor_for(game: Game) -> roles.Actor | None:
    """Who this tablet is at the game, for the table service; None on a laptop table (anything goes)."""
    if not auth.club():
        return None
    found = seat(game)
    return roles.Actor(found.role if found is not None else "")


def made_umpire(game: Game) -> None:
    """Whoever starts a game is its umpire."""
    roles.take_seat(session(), game, roles.UMPIRE, tablet(), auth.account_id())


def visible_games(games: list[Game]) -> list[Game]:
    """The games this tablet may open: all on a laptop table, the ones it has a seat at on a club's."""
    if not auth.club():
        return games
    seated = roles.games_seated(session(), cookie.get("tablet"), auth.account_id())
    if getattr(current_user, "is_admin", False):  # and the games nobody is umpire of yet (see _adopt)
        seated = set(seated) | {g.id for g in games if not roles.has_umpire(session(), g.id)}
    return [g for g in games if g.id in seated]


def _gate():
    """On a club server, a game's pages are for the tablets with a seat at it."""
    game_id = asked_game_id()
    if game_id is None or not auth.club() or request.blueprint == "roles":
        return None
    game = game_or_404(game_id)
    mine = seat(game) or _adopt(game)
    if mine is None:
        return render_template("roles/join.html", game=game, message="This tablet has not joined this game yet: "
                               "type the code the umpire's tablet shows for your side, or for spectators.",
                               code=""), 403
    if request.method == "POST" and request.endpoint not in SEATED_POSTS and mine.role != roles.UMPIRE:
        abort(403, "Only the umpire can do that to the game (archive it, delete it, and the like).")
    return None


def _adopt(game: Game):
    """A game nobody is umpire of (started before this became a club server, or the seeded demo)
    is taken by the club's first account when it opens it."""
    if not getattr(current_user, "is_admin", False) or roles.has_umpire(session(), game.id):
        return None
    return roles.take_seat(session(), game, roles.UMPIRE, tablet(), auth.account_id())


def _qr(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG (made here, nothing fetched from elsewhere)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff")
    return Markup(svg)  # noqa: S704 - segno's own SVG markup, no user text in it but the code's URL


def join_url(code: str) -> str:
    """The address a tablet opens to join: this server as the umpire reached it, except that an
    umpire on the server machine itself (127.0.0.1) gets the machine's address on the network, so
    the QR code works on the other tablets."""
    url = url_for("roles.join_page", code=code, _external=True)
    host = request.host.rsplit(":", 1)[0].strip("[]")
    if host in ("127.0.0.1", "localhost", "::1"):
        from .serve import lan_addresses
        found = lan_addresses()
        if found:
            url = url.replace(request.host, request.host.replace(host, found[0], 1), 1)
    return url


def pretty(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


@bp.get("/games/<int:game_id>/seats")
def seats(game_id: int):
    """The umpire's page: a code and a QR code for each side and for spectators, and the code
    that hands the umpire's role to another tablet. Others see which seat they hold."""
    game = game_or_404(game_id)
    if not auth.club():
        return render_template("roles/seats.html", game=game, laptop=True, rows=[], mine=roles.UMPIRE)
    mine = seat(game)
    if mine is None:
        return render_template("roles/join.html", game=game, code="",
                               message="This tablet has not joined this game yet."), 403
    rows = []
    if mine.role == roles.UMPIRE:
        for role, code in roles.join_codes(session(), game).items():
            url = join_url(code)
            name = "Spectators" if role == roles.SPECTATOR else roles.role_name(game.state, role)
            rows.append({"role": role, "name": name, "code": pretty(code),
                         "url": url, "qr": _qr(url)})
    return render_template("roles/seats.html", game=game, laptop=False, rows=rows, mine=mine.role,
                           mine_name=roles.role_name(game.state, mine.role),
                           join_address=join_url("").removesuffix("/"))


@bp.get("/join")
@bp.get("/join/<code>")
def join_page(code: str = ""):
    """Where a QR code leads: the game and the seat the code gives, and a button to take it."""
    code = request.args.get("code", code)[:40]
    found = None
    if code:
        try:
            row = roles.by_code(session(), code)
            game = game_or_404(row.game_id)
            found = {"game": game, "role": row.role, "name": roles.role_name(game.state, row.role)}
        except TableError as e:
            return render_template("roles/join.html", game=None, code=code, message=e.message), e.status
    return render_template("roles/join.html", game=None, code=code, found=found, message="")


@bp.post("/join")
def join():
    key = f"addr:{request.remote_addr}"
    now = time.monotonic()
    tries = current_app.extensions.setdefault("referee.join_failures", defaultdict(deque))[key]
    while tries and now - tries[0] > JOIN_WINDOW:
        tries.popleft()
    code = request.form.get("code", "")[:40]
    if len(tries) >= JOIN_TRIES:
        return render_template("roles/join.html", game=None, code=code,
                               message="Too many wrong codes from this tablet: wait ten minutes."), 429
    try:
        row = roles.by_code(session(), code)
        game = game_or_404(row.game_id)
        if row.role == roles.UMPIRE and request.form.get("confirm") != "umpire":
            found = {"game": game, "role": row.role, "name": roles.role_name(game.state, row.role)}
            return render_template("roles/join.html", game=None, code=code, found=found,
                                   message="This code makes this tablet the umpire: tick the box to confirm."), 422
        roles.take_seat(session(), game, row.role, tablet(), auth.account_id())
    except TableError as e:
        tries.append(now)
        return render_template("roles/join.html", game=None, code=code, message=e.message), e.status
    return redirect(url_for("games.game_page", game_id=game.id), 303)


def tablet_seat(game: Game) -> dict:
    """Who this tablet is at ``game``, for its own page: the role ("umpire", a side's key,
    "spectator", "" not joined) and the words the bar shows. On a laptop table every tablet is
    the umpire, and the bar says nothing of it."""
    if not auth.club():
        return {"role": roles.UMPIRE, "name": ""}
    found = seat(game)
    if found is None:
        return {"role": "", "name": "Not joined"}
    if found.role == roles.UMPIRE:
        return {"role": found.role, "name": "Umpire"}
    if found.role == roles.SPECTATOR:
        return {"role": found.role, "name": "Watching"}
    return {"role": found.role, "name": roles.role_name(game.state, found.role)}


def offered_to_seat(game: Game, spec) -> bool:
    """Whether this tablet's seat is offered the action ``spec`` at all: the umpire every one; a
    side's player those that name their own units, Rigs or side (the table service then checks
    which); nobody else any."""
    role = tablet_seat(game)["role"]
    if role == roles.UMPIRE:
        return True
    if role not in roles.sides(game.state) or spec.name.startswith("adjust_"):
        return False
    for name, field in spec.facts.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        if (extra.get("ref") in ("unit", "rig") and field.is_required()) or name in ("side", "player"):
            return True
    return False


def css_string(text: str) -> str:
    """``text`` as a CSS string, for a custom property the stylesheet shows (``content: var()``);
    the template escapes it again for the HTML attribute it sits in."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def init_app(app: Flask) -> None:
    app.jinja_env.globals["tablet_seat"] = tablet_seat
    app.jinja_env.globals["offered_to_seat"] = offered_to_seat
    app.add_template_filter(css_string, "css_string")
    app.before_request(_gate)
    app.register_blueprint(bp)
