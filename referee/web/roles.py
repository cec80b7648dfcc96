"""Roles at the table on a club server: the umpire's seats page with a join code and a QR code
for each side and for spectators, joining by code, and who this tablet is at each game.

The tablet is known by a random token in its signed session cookie (``tablet``); its seats are
rows in the database, so they survive a restart of the server. Whoever starts a game takes the
umpire's seat. On a "this laptop only" table nobody is checked: every tablet is the umpire, as
Referee always was. The permission itself is checked by the table service
(``referee.table.roles``), on the one path every change takes.
"""
from __future__ import annotations

import ipaddress
import os
import socket
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from flask import session as cookie
from flask_login import current_user
from markupsafe import Markup

from ..table import roles
from ..table.models import Game
from ..table.service import TableError
from . import auth
from .auth import tablet
from .db import asked_game_id, game_or_404, session
from .serving import refusals, throttle
from .serving.lan import lan_addresses
from .taps import once

bp = Blueprint("roles", __name__)
# Twenty wrong join codes from one address within ten minutes stop it trying for the rest of them:
# a code of 8 characters from 31 kinds cannot be found by trying.
JOIN_TRIES, JOIN_WINDOW = 20, 10 * 60
# Posts about a game any seated tablet may send (``auth.SEATED_POSTS``, which a club server also
# lets through without an account): the table service then checks the role itself, or nothing
# changes. Every other post about a game is the umpire's.
SEATED_POSTS = auth.SEATED_POSTS


def seat(game: Game):
    return roles.seat_of(session(), game.id, cookie.get(auth.TABLET), auth.account_id())


def actor_for(game: Game) -> roles.Actor | None:
    """Who this tablet is at the game, for the table service; None on a laptop table (anything goes)."""
    if not auth.club():
        return None
    found = seat(game)
    return roles.Actor(found.role if found is not None else "")


def made_umpire(game: Game) -> None:
    """Whoever starts a game is its umpire: the seat and the join codes are committed here, in one
    transaction with the game when the caller left it uncommitted (``create_game(commit=False)``),
    so no game is ever left without its umpire. On a club server the tablet's token is renewed as
    it takes the seat (``auth.seat_identity``), which belongs to the account that started the game."""
    if auth.club():
        auth.seat_identity()
    roles.take_seat(session(), game, roles.UMPIRE, tablet(), auth.account_id(), commit=False)
    roles.join_codes(session(), game, commit=False)  # made with the game, so the seats page only reads them
    session().commit()


def visible_games(games: list[Game]) -> list[Game]:
    """The games this tablet may open: all on a laptop table, the ones it has a seat at on a club's."""
    if not auth.club():
        return games
    if getattr(current_user, "is_admin", False):  # every game: the first account may take any umpire's seat
        return games
    seated = roles.games_seated(session(), cookie.get(auth.TABLET), auth.account_id())
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
                               code="", take_over=_first_account()), 403
    if request.method == "POST" and request.endpoint not in SEATED_POSTS and mine.role != roles.UMPIRE:
        abort(403, "Only the umpire can do that to the game (archive it, delete it, and the like).")
    return None


def _adopt(game: Game):
    """A game nobody is umpire of (started before this became a club server, or the seeded demo)
    is taken by the club's first account when it opens it."""
    if not getattr(current_user, "is_admin", False) or roles.has_umpire(session(), game.id):
        return None
    seat = roles.take_seat(session(), game, roles.UMPIRE, tablet(), auth.account_id())
    roles.join_codes(session(), game)
    return seat


def _first_account() -> bool:
    return auth.club() and getattr(current_user, "is_admin", False)


@bp.post("/games/<int:game_id>/umpire")
@once()
def take_umpire(game_id: int):
    """The club's first account takes a game's umpire seat without its code, whoever held it (a
    tablet lost or flat, a hand-over whose answer never came back): no game is ever left without
    an umpire. The umpire until now watches from then on, and the server's log says who took it."""
    game = game_or_404(game_id)
    if not _first_account():
        abort(403, "Only the club's first account, signed in, takes a game's umpire seat without its code.")
    before = [s.tablet[:6] for s in roles.umpire_seats(session(), game.id)]
    auth.seat_identity()
    roles.take_seat(session(), game, roles.UMPIRE, tablet(), auth.account_id())
    current_app.logger.warning("The club's first account (%s) took the umpire's seat of game %s (“%s”) "
                               "from tablet(s) %s.", current_user.name, game.id, game.name,
                               ", ".join(before) or "none")
    return redirect(url_for("games.game_page", game_id=game.id), 303)


def _qr(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG (made here, nothing fetched from elsewhere)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff")
    return Markup(svg)  # noqa: S704 - segno's own SVG markup, no user text in it but the code's URL


def _loopback(name: str) -> bool:
    try:
        return name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def server_address() -> str:
    """This server as the other tablets reach it: ``REFEREE_ADDRESS`` when set (behind a proxy,
    or a name the club prefers); else the address the request came to, when its name is verifiably
    this machine's (its host name or one of its network addresses); else this machine's network
    address. A forged Host header is never written into a link or a QR code. An umpire on the
    server machine itself (127.0.0.1) gets the machine's network address, so the codes work on
    the other tablets."""
    configured = current_app.config.get("REFEREE_ADDRESS") or os.environ.get("REFEREE_ADDRESS", "")
    if configured.strip():
        return configured.strip().rstrip("/")
    parts = urlsplit(f"//{request.host}") if request.host.isascii() else urlsplit("//")
    try:
        name, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        name, port = "", None
    own = {socket.gethostname().lower(), f"{socket.gethostname().lower()}.local"}
    found = lan_addresses()
    if name and (name in own or name in found):
        return f"{request.scheme}://{request.host}"
    if not _loopback(name):  # not this machine's name: the port the server listens on
        port = request.environ.get("SERVER_PORT")
    host = found[0] if found else "127.0.0.1"
    default = {"http": "80", "https": "443"}.get(request.scheme)
    return f"{request.scheme}://{host}" + (f":{port}" if port and str(port) != default else "")


def unreachable() -> str:
    """What the seats page says when the other tablets cannot reach this server (it listens on
    this machine alone, ``HOST=127.0.0.1``, and no ``REFEREE_ADDRESS`` names a way in), or ""."""
    host = str(current_app.config.get("HOST") or os.environ.get("HOST", "0.0.0.0")).strip()
    configured = current_app.config.get("REFEREE_ADDRESS") or os.environ.get("REFEREE_ADDRESS", "")
    if not _loopback(host.strip("[]")) or configured.strip():
        return ""
    return (f"This server listens only on this machine (HOST={host}): no other tablet can open the "
            "addresses and codes below. Start it again without HOST (or with HOST=0.0.0.0) so the "
            "tablets on the Wi-Fi reach it; behind a proxy on this machine, set REFEREE_ADDRESS to the "
            "address the tablets open instead.")


def join_url(code: str) -> str:
    """The address a tablet opens to join with ``code``."""
    return server_address() + url_for("roles.join_page", code=code)


def pretty(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


@bp.get("/games/<int:game_id>/seats")
def seats(game_id: int):
    """The umpire's page: a code and a QR code for each side and for spectators, and the code
    that hands the umpire's role to another tablet. Others see which seat they hold. It only
    reads: a game started before codes were made with it offers a button to make them."""
    game = game_or_404(game_id)
    if not auth.club():
        return render_template("roles/seats.html", game=game, laptop=True, rows=[], mine=roles.UMPIRE)
    mine = seat(game)
    if mine is None:
        return render_template("roles/join.html", game=game, code="",
                               message="This tablet has not joined this game yet."), 403
    rows, missing = [], False
    if mine.role == roles.UMPIRE:
        codes = roles.codes_of(session(), game)
        missing = any(role not in codes for role in roles.roles_of(game))
        for role in roles.roles_of(game):
            if role not in codes:
                continue
            url = join_url(codes[role])
            name = "Spectators" if role == roles.SPECTATOR else roles.role_name(game.state, role)
            rows.append({"role": role, "name": name, "code": pretty(codes[role]), "url": url, "qr": _qr(url)})
    return render_template("roles/seats.html", game=game, laptop=False, rows=rows, mine=mine.role,
                           mine_name=roles.role_name(game.state, mine.role), missing=missing,
                           join_address=server_address() + url_for("roles.join_page"), unreachable=unreachable())


@bp.post("/games/<int:game_id>/seats")
def make_codes(game_id: int):
    """The umpire makes the join codes a game started before they came with it lacks."""
    game = game_or_404(game_id)
    if not auth.club():
        return redirect(url_for("roles.seats", game_id=game.id), 303)
    mine = seat(game)
    if mine is None or mine.role != roles.UMPIRE:
        abort(403, "Only the umpire makes a game's join codes.")
    roles.join_codes(session(), game)
    return redirect(url_for("roles.seats", game_id=game.id), 303)


def _wrong_codes_wait() -> float:
    return throttle.wait("codes", {_join_key(): JOIN_TRIES}, JOIN_WINDOW)


def _join_key() -> str:
    return f"addr:{request.remote_addr or '?'}"


def _wrong_code(code: str):
    """How a refused code is answered: it counts as a wrong one from this tablet, and the join
    page says why."""
    def draw(e: TableError):
        throttle.failed("codes", [_join_key()], JOIN_WINDOW)
        return render_template("roles/join.html", game=None, code=code, message=e.message), e.status
    return draw


def _too_many(code: str):
    wait = _wrong_codes_wait()
    return render_template("roles/join.html", game=None, code=code,
                           message=f"Too many wrong codes from this tablet: try again in {throttle.in_words(wait)}."), 429


@bp.get("/join")
@bp.get("/join/<code>")
def join_page(code: str = ""):
    """Where a QR code leads: the game and the seat the code gives, and a button to take it. A
    code tried here counts as one typed: wrong ones are limited the same way."""
    code = request.args.get("code", code)[:40]
    found = None
    if code:
        if _wrong_codes_wait():
            return _too_many(code)
        refusals.redraw(_wrong_code(code))
        row = roles.by_code(session(), code)
        game = game_or_404(row.game_id)
        found = {"game": game, "role": row.role, "name": roles.role_name(game.state, row.role)}
    return render_template("roles/join.html", game=None, code=code, found=found, message="")


@bp.post("/join")
@once()
def join():
    """Taking a seat by its code. The tablet's session identity is renewed with it (``auth``):
    a cookie copied before the seat was taken does not hold it."""
    code = request.form.get("code", "")[:40]
    if _wrong_codes_wait():
        return _too_many(code)
    refusals.redraw(_wrong_code(code))
    row = roles.by_code(session(), code)
    game = game_or_404(row.game_id)
    if row.role not in roles.roles_of(game):
        raise roles.NotFound("That code's seat is no longer part of this game: ask the umpire for a new one.")
    if row.role == roles.UMPIRE and request.form.get("confirm") != "umpire":
        found = {"game": game, "role": row.role, "name": roles.role_name(game.state, row.role)}
        return render_template("roles/join.html", game=None, code=code, found=found,
                               message="This code makes this tablet the umpire: tick the box to confirm."), 422
    auth.seat_identity()
    roles.take_seat(session(), game, row.role, tablet(), auth.account_id())
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
    return roles.names_its_actor(spec)


def seat_side(game: Game) -> str:
    """The side this tablet plays at ``game`` (a seated player's), or "" (the umpire, a laptop table)."""
    role = tablet_seat(game)["role"]
    return role if role in roles.sides(game.state) else ""


def form_refusal(game: Game, action: str) -> str | None:
    """Why this tablet may not even be shown the form of ``action`` (a seated player asking for
    Next phase, a correction or the settings), or None: refused when asked for, not once filled in."""
    return roles.never_allowed(game, action, actor_for(game))


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
