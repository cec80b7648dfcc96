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

import os
import time
from collections import defaultdict, deque

from flask import Blueprint, Flask, abort, current_app, g, redirect, render_template, request, url_for
from flask import session as cookie
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user

from ..table import accounts
from ..table.models import Account
from ..table.service import TableError
from .db import session
from .redirects import safe_next

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
OPEN_POSTS = {"auth.login", "auth.register", "auth.logout", "auth.setup", "roles.join", *SEATED_POSTS}
# Ten wrong passwords for one name (or from one address) within a quarter of an hour lock it
# for the rest of that quarter.
LOGIN_TRIES, LOGIN_WINDOW = 10, 15 * 60


class User(UserMixin):
    def __init__(self, account: Account):
        self.id = account.id
        self.name = account.name
        self.is_admin = account.is_admin


@login_manager.user_loader
def _load_user(user_id: str):
    if not user_id.isascii() or not user_id.isdigit() or len(user_id) > 10:
        return None
    account = session().get(Account, int(user_id))
    return User(account) if account is not None and account.password_hash else None


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
    if mode() == accounts.CLUB and request.method == "POST" and "campaign_id" in (request.view_args or {}):
        _campaign_owner_only(request.view_args["campaign_id"])
    return None


def _campaign_owner_only(campaign_id: int) -> None:
    """On a club server a campaign is changed by the account that made it (or the first account)."""
    from ..table import campaigns
    try:
        found = campaigns.get_campaign(session(), campaign_id)
    except TableError:
        return  # the route answers "no such campaign"
    if found.owner and found.owner != current_user.name and not current_user.is_admin:
        abort(403, f"“{found.name}” is {found.owner}'s campaign: only {found.owner} can change it.")


def _failures() -> dict[str, deque]:
    """Recent wrong passwords by name and by address (kept in memory by each server process)."""
    return current_app.extensions.setdefault("referee.login_failures", defaultdict(deque))


def _too_many(keys: list[str]) -> bool:
    now = time.monotonic()
    for key in keys:
        tries = _failures()[key]
        while tries and now - tries[0] > LOGIN_WINDOW:
            tries.popleft()
        if len(tries) >= LOGIN_TRIES:
            return True
    return False


def _failed(keys: list[str]) -> None:
    for key in keys:
        _failures()[key].append(time.monotonic())


def _log_in(account: Account) -> None:
    login_user(User(account), remember=True)
    cookie.permanent = True


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
    try:
        if choice == accounts.LAPTOP:
            accounts.set_mode(session(), accounts.LAPTOP)
            _mode_chosen(accounts.LAPTOP)
            return redirect(url_for("games.index"), 303)
        if choice != accounts.CLUB:
            raise accounts.BadInput("Choose “this laptop only” or “a club server”.")
        account = accounts.register(session(), request.form.get("name", ""), request.form.get("password", ""),
                                    request.form.get("again", ""), admin=True)
    except TableError as e:
        return render_template("auth/setup.html", message=e.message, form=request.form), e.status
    accounts.set_mode(session(), accounts.CLUB)
    _mode_chosen(accounts.CLUB)
    _log_in(account)
    return redirect(url_for("auth.account"), 303)


# --- logging in and out ---------------------------------------------------------------------------

@bp.route("/login", methods=["GET", "POST"])
def login():
    if not club():
        return redirect(url_for("games.index"))
    nxt = safe_next(request.values.get("next"), url_for("games.index"))
    if request.method == "GET":
        return render_template("auth/login.html", message="", next=nxt, name="")
    name = request.form.get("name", "")[:80]
    keys = [f"name:{' '.join(name.split()).lower()}", f"addr:{request.remote_addr}"]
    if _too_many(keys):
        return render_template("auth/login.html", next=nxt, name=name,
                               message="Too many wrong passwords: wait a quarter of an hour and try again."), 429
    try:
        account = accounts.authenticate(session(), name, request.form.get("password", ""))
    except TableError as e:
        _failed(keys)
        return render_template("auth/login.html", message=e.message, next=nxt, name=name), 422
    _log_in(account)
    return redirect(nxt, 303)


@bp.route("/register", methods=["GET", "POST"])
def register():
    if not club():
        return redirect(url_for("games.index"))
    if request.method == "GET":
        return render_template("auth/register.html", message="", name="")
    name = request.form.get("name", "")[:80]
    try:
        account = accounts.register(session(), name, request.form.get("password", ""), request.form.get("again", ""))
    except TableError as e:
        return render_template("auth/register.html", message=e.message, name=name), e.status
    _log_in(account)
    return redirect(url_for("games.index"), 303)


@bp.post("/logout")
def logout():
    logout_user()
    return redirect(url_for("auth.login") if club() else url_for("games.index"), 303)


@bp.get("/account")
def account():
    if not club():
        return redirect(url_for("auth.setup"))
    waiting = accounts.without_password(session()) if getattr(current_user, "is_admin", False) else []
    return render_template("auth/account.html", waiting=waiting, message=request.args.get("message", "")[:200])


@bp.post("/account/<int:account_id>/password")
def give_password(account_id: int):
    """The first account gives an account made from a list owner's name its first password."""
    if not club() or not current_user.is_authenticated:
        abort(403, "Only the club's first account, logged in, can give a password.")
    try:
        admin = accounts.get(session(), current_user.id)
        done = accounts.give_password(session(), admin, account_id, request.form.get("password", ""))
    except TableError as e:
        return render_template("message.html", message=e.message, back_url=url_for("auth.account"),
                               back_label="Back to the account page"), e.status
    return redirect(url_for("auth.account", message=f"“{done.name}” can log in now."), 303)


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
