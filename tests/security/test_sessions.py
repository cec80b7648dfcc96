"""A session's identity on a club server: signing in and signing out each start a fresh one
(tablet token and CSRF token), taking a seat a fresh tablet token, a seat taken while signed in belongs to the account, and
signing out ends the session on the server, whatever copies of its cookies are still about."""
from __future__ import annotations

import re

from _security_helpers import PASSWORD, db, fingerprint, log_in
from sqlmodel import select

from referee.table import service
from referee.table.models import JoinCode


def _cookie(client, name="session"):
    found = client.get_cookie(name)
    return found.value if found is not None else None


def _decoded(app, client) -> dict:
    return app.session_interface.get_signing_serializer(app).loads(_cookie(client))


def _copy(app, client, names=("session",)):
    """Another browser given this one's cookies (a shared tablet, or set on open Wi-Fi)."""
    other = app.test_client()
    for name in names:
        value = _cookie(client, name)
        if value is not None:
            other.set_cookie(name, value)
    return other


def _code(app, game_id: int, role: str) -> str:
    with db(app) as s:
        return s.exec(select(JoinCode).where(JoinCode.game_id == game_id, JoinCode.role == role)).one().code


def _version(app, game_id: int) -> int:
    with db(app) as s:
        return service.get_game(s, game_id).version


def _start_game(client) -> int:
    r = client.post("/games/new", data={"scenario": "demo"})
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    return int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))


def _adjust(client, app, game_id):
    return client.post(f"/games/{game_id}/act/adjust_unit",
                       data={"unit": "11th-leger", "field": "casualties", "value": "2",
                             "version": _version(app, game_id)})


def test_signing_in_on_a_planted_cookie_hands_the_planter_nothing(club_app):
    """Issue 35, 1: a spectator's cookie given to another browser, which signs in and starts a game."""
    planter = club_app.test_client()
    assert planter.post("/join", data={"code": _code(club_app, 1, "spectator")}).status_code == 303
    planter.get("/games/1")  # a page with a form: the session now holds a CSRF token too
    before = _decoded(club_app, planter)
    victim = log_in(_copy(club_app, planter), "Ann")
    victim.get("/")
    after = _decoded(club_app, victim)
    assert after["tablet"] != before["tablet"]
    assert after.get("csrf_token") != before.get("csrf_token")
    game_id = _start_game(victim)
    untouched = fingerprint(club_app)
    r = _adjust(planter, club_app, game_id)
    assert r.status_code == 403 and fingerprint(club_app) == untouched
    # The victim keeps the spectator's seat the planted cookie held; the planter lost it.
    assert victim.get("/games/1").status_code == 200
    assert planter.get("/games/1").status_code == 403
    assert _adjust(victim, club_app, game_id).status_code == 303


def test_taking_a_seat_renews_the_tablet_and_keeps_its_csrf_token(club_app):
    """The tablet token is renewed (a copy from before holds nothing); the CSRF token is kept, so
    the tablet's other open pages go on working (issue 46, 2)."""
    tablet = club_app.test_client()
    assert tablet.post("/join", data={"code": _code(club_app, 2, "spectator")}).status_code == 303
    tablet.get("/games/2")
    first = _decoded(club_app, tablet)
    copy = _copy(club_app, tablet)
    assert tablet.post("/join", data={"code": _code(club_app, 1, "blue")}).status_code == 303
    tablet.get("/games/1")
    second = _decoded(club_app, tablet)
    assert second["tablet"] != first["tablet"] and second["csrf_token"] == first["csrf_token"]
    # The cookie from before the seat holds nothing, neither the new seat nor the earlier one.
    assert copy.get("/games/1").status_code == 403 and copy.get("/games/2").status_code == 403
    assert tablet.get("/games/2").status_code == 200


def test_a_seat_taken_signed_in_is_the_accounts_not_the_cookies(club_app):
    bob = log_in(club_app.test_client(), "Bob")
    assert bob.post("/join", data={"code": _code(club_app, 2, "p1")}).status_code == 303
    copy = _copy(club_app, bob)  # the session cookie, taken while Bob is signed in...
    assert copy.get("/games/2").status_code == 200  # ...is still signed in (a stolen cookie is a key)
    bob.post("/logout")
    assert copy.get("/games/2").status_code == 403  # until the account signs out


def test_signing_out_ends_the_session_on_the_server(club_app):
    """Issue 35, 2: after signing out, neither the tablet nor a copy of its cookies acts or opens
    the account."""
    ann = log_in(club_app.test_client(), "Ann")
    game_id = _start_game(ann)
    session_copy = _copy(club_app, ann, ("session",))
    remember_copy = _copy(club_app, ann, ("remember_token",))
    assert remember_copy.get("/account").get_data(as_text=True).count("Log out") == 1  # it works before
    r = ann.post("/logout", follow_redirects=True)
    assert "You are signed out" in r.get_data(as_text=True)
    untouched = fingerprint(club_app)
    for client in (ann, session_copy, remember_copy):
        assert _adjust(client, club_app, game_id).status_code == 403
        page = client.get("/account").get_data(as_text=True)
        assert "Not logged in" in page and "Log out" not in page
    assert fingerprint(club_app) == untouched
    # Signing in again takes the umpire's seat up again.
    log_in(ann, "Ann")
    assert _adjust(ann, club_app, game_id).status_code == 303


def test_signing_in_as_another_account_ends_the_first_ones_session(club_app):
    tablet = log_in(club_app.test_client(), "Ann")
    copy = _copy(club_app, tablet, ("session", "remember_token"))
    log_in(tablet, "Bob")
    assert "Not logged in" in _copy(club_app, copy, ("remember_token",)).get("/account").get_data(as_text=True)
    assert "Bob" in tablet.get("/account").get_data(as_text=True)
    assert PASSWORD  # the shared password of the seeded accounts


def test_a_password_is_reset_at_the_server_and_every_session_ends(club_app, monkeypatch, tmp_path):
    from referee.web.reset_password import reset_password
    bob = log_in(club_app.test_client(), "Bob")
    monkeypatch.setenv("DATABASE_URL", club_app.config["DATABASE_URL"])
    monkeypatch.setenv("SECRET_KEY", "tests")
    typed = iter(["a new password", "a new password"])
    assert reset_password(["Bob"], ask=lambda _prompt: next(typed)) == 0
    assert "Not logged in" in bob.get("/account").get_data(as_text=True)
    assert bob.post("/login", data={"name": "Bob", "password": PASSWORD}).status_code == 422
    assert bob.post("/login", data={"name": "Bob", "password": "a new password"}).status_code == 303
    typed = iter(["short", "short"])
    assert reset_password(["Bob"], ask=lambda _prompt: next(typed)) == 1
    typed = iter(["a new password", "another one"])
    assert reset_password(["Bob"], ask=lambda _prompt: next(typed)) == 1
    typed = iter(["a new password", "a new password"])
    assert reset_password(["Nobody"], ask=lambda _prompt: next(typed)) == 1
