"""Accounts: the first start's choice, registering, logging in and out (Flask-Login).

A server runs in one of two modes (``referee.table.accounts``):

- **this laptop only**: no login, one trusted table, what Referee always was; a list belongs
  to the name typed at the top of the lists page.
- **club server**: people register and log in with a name and a password; lists belong to
  the account; each game has an umpire, players and spectators (``referee.web.roles``).

Until the mode is chosen (the very first start), the table works as "this laptop only" and the
games page offers the choice at its top: keep it to this laptop, or create the first account of
a club server. ``REFEREE_MODE`` (``laptop`` or ``club``) in the environment, or ``MODE`` in the
app's config, decides it outright; the tests run in laptop mode unless they ask for a club.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import session as cookie
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user
from itsdangerous import BadSignature, URLSafeSerializer

from ..table import accounts, tap_answers
from ..table import roles as seats
from ..table.models import Account
from . import notices
from .db import session
from .redirects import safe_next
from .serving import refusals, throttle

bp = Blueprint("auth", __name__)
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Log in to do that: this Referee is a club server."

# Pages anyone may open before logging in on a club server, or before the mode is chosen.
OPEN = {"auth.setup", "auth.login", "auth.register", "static"}
# A game's posts open to every tablet seated at it, not only the umpire's: acting, undoing and
# redoing, typing a side's dice or cancelling an action waiting for them (the table service checks
# the seat's right to each), and the odds or a form's folded lists, which change nothing.
# ``web/roles.py`` lets these through its seat gate.
SEATED_POSTS = {"games.perform", "games.undo", "games.redo", "games.odds", "games.choices",
                "dice_handover.type_dice", "dice_handover.cancel"}
# On a club server, posts that need no account: joining a game by its code and acting in it
# (the seat is the permission there), logging in and out.
OPEN_POSTS = {"auth.login", "auth.register", "auth.logout", "auth.setup", "roles.join", "roles.make_codes",
              *SEATED_POSTS}
# Wrong passwords within a quarter of an hour (``web/serving/throttle.py``): ten for one name from one
# address (or from a tablet that name signed in on before), thirty for any names from one address.
LOGIN_TRIES, LOGIN_WINDOW = 10, 15 * 60
ADDRESS_TRIES = 30
# The signed cookie that tells a tablet an account signed in on before (``throttle``), for a year.
KNOWN, KNOWN_AGE = "referee_known", 365 * 24 * 60 * 60
# The session's key for this tablet's token: the seats it holds (``referee.table.roles``).
TABLET = "tablet"


class User(UserMixin):
    """The signed-in account; its id for Flask-Login (in the session and remember-me cookies) is
    the token of its sign-in row, never the account's number, so signing out revokes it."""

    def __init__(self, account: Account, token: str):
        self.id = account.id
        self.name = account.name
        self.is_admin = account.is_admin
        self.token = token

    def get_id(self) -> str:
        return self.token


@login_manager.user_loader
def _load_user(token: str):
    if not isinstance(token, str) or not token.isascii() or len(token) > 64:
        return None
    account = accounts.signed_in(session(), token)
    return User(account, token) if account is not None else None


# --- this tablet's session identity ---------------------------------------------------------------

def tablet() -> str:
    """This tablet's token, made on first need and kept in its session cookie."""
    token = cookie.get(TABLET)
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(16)
        cookie[TABLET] = token
        cookie.permanent = True
    return token


def renew_identity(account_id: int | None = None) -> None:
    """A fresh tablet token and CSRF token (signing in, taking a seat): the seats the old token
    held move to the new one (and to ``account_id``), so a copy of the cookie from before, set on
    this tablet by someone else or taken from it, opens nothing from now on."""
    old = cookie.get(TABLET)
    new = secrets.token_urlsafe(16)
    if isinstance(old, str) and old:
        seats.move_seats(session(), old, new, account_id)
    cookie[TABLET] = new
    cookie.permanent = True
    cookie.pop("csrf_token", None)  # Flask-WTF makes a new one for the next form
    g.pop("csrf_token", None)


def seat_identity() -> None:
    """Taking a seat: a fresh tablet token, in the seat's own transaction (the caller commits). The
    seats the old token held move to it (and to the signed-in account), so a copy of the cookie
    from before the seat was taken opens none of them. The CSRF token and the sign-in stay as they
    were: this tablet's other open pages go on working, and the same form sent again with the
    cookies from before (its answer lost on the way) is answered with its first result, the new
    token handed to it again (``taps.once``, kept by ``tap_answers.hand_over``)."""
    if g.get("seat_identity_renewed"):  # a day's games, all taken by one tap: renewed once
        return
    g.seat_identity_renewed = True
    old = cookie.get(TABLET)
    new = secrets.token_urlsafe(16)
    if isinstance(old, str) and old:
        seats.move_seats(session(), old, new, account_id(), commit=False)
    tap_answers.hand_over(session(), cookie_digest(), new)
    cookie[TABLET] = new
    cookie.permanent = True


def cookie_digest() -> str:
    """Which session a request came with: a digest of its tablet and CSRF tokens (the cookie a
    form's page was drawn with), never the tokens themselves."""
    raw = f"{cookie.get(TABLET) or ''}|{cookie.get('csrf_token') or ''}"
    return hmac.new(current_app.secret_key.encode() if isinstance(current_app.secret_key, str)
                    else current_app.secret_key, raw.encode(), hashlib.sha256).hexdigest()


def handed_again(handed_from: str, handed_to: str) -> None:
    """The same seat-taking tap sent again from the session it first came from: that session is
    handed the tablet token the first answer set (it never arrived)."""
    if handed_to and hmac.compare_digest(handed_from, cookie_digest()):
        cookie[TABLET] = handed_to
        cookie.permanent = True


# How long a server process trusts the mode it last read while it is not "club": a table turned
# into a club server by another worker process is seen as one within this many seconds (this
# process's own change is seen at once). A club server never turns back, so "club" is kept.
MODE_FRESH = 2.0


def mode() -> str | None:
    """"laptop", "club", or None while the first start's choice is still to be made. Read from the
    database at most every ``MODE_FRESH`` seconds per process, not on every poll."""
    if "referee_mode" not in g:
        g.referee_mode = current_app.config.get("MODE") or _stored_mode()
    return g.referee_mode


def _stored_mode() -> str | None:
    kept = current_app.extensions.get("referee.mode")
    now = time.monotonic()
    if kept is not None and (kept[0] == accounts.CLUB or now - kept[1] < MODE_FRESH):
        return kept[0]
    found = accounts.get_mode(session())
    current_app.extensions["referee.mode"] = (found, now)
    return found


def _mode_chosen(chosen: str) -> None:
    """This process has just stored the mode: trust it at once."""
    current_app.extensions["referee.mode"] = (chosen, time.monotonic())
    g.referee_mode = chosen


def club() -> bool:
    return mode() == accounts.CLUB


def owner_name() -> str:
    """Whose lists these are: the logged-in account on a club server, else the typed name."""
    if club():
        return current_user.name if current_user.is_authenticated else ""
    return cookie.get("owner", "")


def account_id() -> int | None:
    return current_user.id if club() and current_user.is_authenticated else None


def _gate():
    """Before every request: on a club server, changing anything but a game needs a login."""
    endpoint = request.endpoint or ""
    if endpoint in OPEN or request.blueprint == "reference":  # the rules reference is for everyone
        return None
    if mode() == accounts.CLUB and not current_user.is_authenticated and request.method != "GET" \
            and endpoint not in OPEN_POSTS:
        abort(403, "Log in first: on a club server your lists and games belong to your account.")
    return None


def _log_in(account: Account):
    """Sign ``account`` in on this tablet: a new sign-in row, a fresh tablet and CSRF token."""
    if getattr(current_user, "is_authenticated", False):
        accounts.sign_out(session(), current_user.token)  # another account's session ends here
    renew_identity(account.id)
    login_user(User(account, accounts.sign_in(session(), account)), remember=True)
    cookie.permanent = True


def _known(response, account: Account):
    """The response, with the cookie that tells this tablet ``account`` signed in on it."""
    seal = URLSafeSerializer(current_app.secret_key, salt=KNOWN)
    response.set_cookie(KNOWN, seal.dumps({"a": account.id, "n": secrets.token_urlsafe(9)}), max_age=KNOWN_AGE,
                        httponly=True, samesite="Lax", secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    return response


def _known_here(name: str) -> str | None:
    """This tablet's mark, when the account named ``name`` signed in on it before."""
    try:
        data = URLSafeSerializer(current_app.secret_key, salt=KNOWN).loads(request.cookies.get(KNOWN, ""))
        account = session().get(Account, int(data["a"]))
        mark = str(data["n"])
    except (BadSignature, KeyError, TypeError, ValueError, OverflowError):
        return None
    return mark if account is not None and account.name == " ".join(name.split()) else None


# --- the first start ----------------------------------------------------------------------------

@bp.route("/setup", methods=["GET", "POST"])
def setup():
    """The first start: "this laptop only", or a club server with its first account. On a laptop
    table it stays open, to turn the table into a club server later."""
    if mode() == accounts.CLUB:
        abort(404)
    if request.method == "GET":
        return render_template("auth/setup.html", message="", form={})
    choice = request.form.get("mode", "")
    refusals.redraw(lambda e: (render_template("auth/setup.html", message=e.message, form=request.form), e.status))
    if choice == accounts.LAPTOP:
        accounts.set_mode(session(), accounts.LAPTOP)
        _mode_chosen(accounts.LAPTOP)
        return redirect(url_for("games.index"), 303)
    if choice != accounts.CLUB:
        raise accounts.BadInput("Choose “this laptop only” or “a club server”.")
    account = accounts.register(session(), request.form.get("name", ""), request.form.get("password", ""),
                                request.form.get("again", ""), admin=True)
    accounts.set_mode(session(), accounts.CLUB)
    _mode_chosen(accounts.CLUB)
    _log_in(account)
    return _known(redirect(url_for("auth.account"), 303), account)


# --- logging in and out ---------------------------------------------------------------------------

@bp.route("/login", methods=["GET", "POST"])
def login():
    if not club():
        return redirect(url_for("games.index"))
    nxt = safe_next(request.values.get("next"), url_for("games.index"))
    if request.method == "GET":
        return render_template("auth/login.html", message=notices.said(), next=nxt, name="")
    name = request.form.get("name", "")[:80]
    mark = _known_here(name)
    if mark is not None:  # the owner's own tablet: counted for it alone
        limits = {f"known:{mark}": LOGIN_TRIES}
    else:
        address = request.remote_addr or "?"
        limits = {f"addr:{address}": ADDRESS_TRIES,
                  f"addr:{address} name:{' '.join(name.split()).lower()}": LOGIN_TRIES}
    waiting = throttle.wait("passwords", limits, LOGIN_WINDOW)
    if waiting:
        return render_template("auth/login.html", next=nxt, name=name,
                               message="Too many wrong passwords from this tablet: try again in "
                                       f"{throttle.in_words(waiting)}."), 429

    def wrong(e):  # a refused sign-in counts against this tablet (or this name), then says why
        throttle.failed("passwords", limits, LOGIN_WINDOW)
        return render_template("auth/login.html", message=e.message, next=nxt, name=name), 422
    refusals.redraw(wrong)
    account = accounts.authenticate(session(), name, request.form.get("password", ""))
    _log_in(account)
    return _known(redirect(nxt, 303), account)


@bp.route("/register", methods=["GET", "POST"])
def register():
    if not club():
        return redirect(url_for("games.index"))
    if request.method == "GET":
        return render_template("auth/register.html", message="", name="")
    name = request.form.get("name", "")[:80]
    # A club server started as one (``REFEREE_MODE=club``) has no first-start page: its first account
    # is made here, and is the club's first account, as the first-start page makes it (it sees and
    # takes the demo battle nobody is umpire of yet, and gives list owners their passwords).
    first = not accounts.has_accounts(session())
    refusals.redraw(lambda e: (render_template("auth/register.html", message=e.message, name=name), e.status))
    account = accounts.register(session(), name, request.form.get("password", ""), request.form.get("again", ""),
                                admin=first)
    _log_in(account)
    return _known(redirect(url_for("games.index"), 303), account)


@bp.post("/logout")
def logout():
    """Signing out ends the session on the server: its sign-in row goes (so neither a copy of its
    session cookie nor its remember-me cookie opens the account again), and the tablet starts
    afresh with no seat: the seats taken while signed in belong to the account."""
    was = getattr(current_user, "is_authenticated", False)
    if was:
        accounts.sign_out(session(), current_user.token)
        cookie.clear()
    logout_user()  # after the clearing: it marks the remember-me cookie to be deleted
    if was:
        notices.say("You are signed out. This tablet holds none of your seats now; "
              "sign in again to take them up.")
    return redirect(url_for("auth.login") if club() else url_for("games.index"), 303)


@bp.get("/account")
def account():
    if not club():
        return redirect(url_for("auth.setup"))
    waiting = accounts.without_password(session()) if getattr(current_user, "is_admin", False) else []
    return render_template("auth/account.html", waiting=waiting, message=notices.said())


@bp.post("/account/<int:account_id>/password")
def give_password(account_id: int):
    """The first account gives an account made from a list owner's name its first password."""
    if not club() or not current_user.is_authenticated:
        abort(403, "Only the club's first account, logged in, can give a password.")
    refusals.redraw(lambda e: (render_template("auth/account.html", message=e.message,
                                               waiting=accounts.without_password(session())), e.status))
    admin = accounts.get(session(), current_user.id)
    done = accounts.give_password(session(), admin, account_id, request.form.get("password", ""))
    notices.say(f"“{done.name}” can log in now.")
    return redirect(url_for("auth.account"), 303)


def init_app(app: Flask) -> None:
    if not app.config.get("MODE"):
        app.config["MODE"] = os.environ.get("REFEREE_MODE") or None
    if app.config["MODE"] not in (None, *accounts.MODES):
        raise SystemExit(f"REFEREE_MODE must be “laptop” or “club”, not {app.config['MODE']!r}.")
    login_manager.init_app(app)
    app.jinja_env.globals["club_server"] = club  # for macros imported without the context
    app.before_request(_gate)
    app.register_blueprint(bp)

    @app.context_processor
    def _who():
        return {"club_mode": club(), "current_user": current_user, "first_start": mode() is None}
