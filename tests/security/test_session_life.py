"""A tablet's session from its first visit to signing out, on a club server: anonymous, joined as
a spectator, signed in, seated as Blue's player, signed out. At every stage, the cookies of each
stage before signing in (as a copy of them would be used from another browser) open nothing the
later stage holds: no game page, no account, no action. A seat taken signed in is the account's,
so the cookies of the same sign-in hold it (a copy of a signed-in cookie is the account's key
until it signs out: ``test_sessions``); taking a seat keeps the sign-in, so the same form sent
again after its answer was lost is answered, not signed out (issue 46, 2)."""
from __future__ import annotations

from _security_helpers import db, fingerprint, log_in
from sqlmodel import select

from referee.table import service
from referee.table.models import JoinCode

BLUE_UNIT = "11th-leger"  # Blue's, in the seeded battle (game 1)
NAMES = ("session", "remember_token")


def _snapshot(client) -> dict:
    return {n: c.value for n in NAMES if (c := client.get_cookie(n)) is not None}


def _as(app, cookies: dict):
    client = app.test_client()
    for name, value in cookies.items():
        client.set_cookie(name, value)
    return client


def _code(app, role):
    with db(app) as s:
        return s.exec(select(JoinCode).where(JoinCode.game_id == 1, JoinCode.role == role)).one().code


def _break_test(app, client):
    with db(app) as s:
        version = service.get_game(s, 1).version
    return client.post("/games/1/act/break_test", data={"unit": BLUE_UNIT, "version": version})


def _undo_last(app):
    with db(app) as s:
        game = service.get_game(s, 1)
        service.undo(s, game.id, game.version)


def _opens(app, cookies) -> dict:
    """What a browser holding ``cookies`` can do: see game 1, be Bob, act for Blue (undone after)."""
    client = _as(app, cookies)
    before = fingerprint(app)
    acted = _break_test(app, client).status_code
    if acted < 400:
        _undo_last(app)
    else:
        assert fingerprint(app) == before, "a refused action changed the database"
    return {"game": client.get("/games/1").status_code == 200,
            "bob": "Log out" in client.get("/account").get_data(as_text=True),
            "blue": acted < 400}


def test_no_token_from_an_earlier_stage_opens_anything_at_a_later_one(club_app):
    tablet = club_app.test_client()
    stages: list[tuple[str, dict]] = []
    tablet.get("/")
    stages.append(("anonymous", _snapshot(tablet)))
    assert tablet.post("/join", data={"code": _code(club_app, "spectator")}).status_code == 303
    stages.append(("joined", _snapshot(tablet)))
    log_in(tablet, "Bob")
    stages.append(("signed in", _snapshot(tablet)))
    assert tablet.post("/join", data={"code": _code(club_app, "blue")}).status_code == 303
    stages.append(("seated", _snapshot(tablet)))

    # Each stage holds what it should, from its own cookies...
    holds = {"anonymous": {"game": False, "bob": False, "blue": False},
             "joined": {"game": True, "bob": False, "blue": False},
             "signed in": {"game": True, "bob": True, "blue": False},
             "seated": {"game": True, "bob": True, "blue": True}}
    assert _opens(club_app, stages[-1][1]) == holds["seated"]
    # ...and the cookies of every stage before signing in open none of it any more; the same
    # sign-in's cookies from before the seat hold the account, and so its seat.
    for name, cookies in stages[:2]:
        assert _opens(club_app, cookies) == holds["anonymous"], name
    assert _opens(club_app, stages[2][1]) == holds["seated"]

    tablet.post("/logout")
    stages.append(("signed out", _snapshot(tablet)))
    for name, cookies in stages:
        assert _opens(club_app, cookies) == holds["anonymous"], name
    assert _opens(club_app, _snapshot(tablet)) == holds["anonymous"]
    # Bob signing in again, on this tablet, takes up his seat: it is the account's.
    log_in(tablet, "Bob")
    assert _opens(club_app, _snapshot(tablet)) == holds["seated"]
