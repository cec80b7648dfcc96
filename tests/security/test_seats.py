"""Seats at a club game: handing the umpire's role to another tablet, join codes as typed, wrong
codes limited, seats kept in the database, and a laptop table that checks nobody."""
from __future__ import annotations

import re

from _security_helpers import db, fingerprint, log_in
from sqlmodel import select

from referee.table import roles, service
from referee.table.models import JoinCode, Seat
from referee.web import roles as web_roles


def _start(app):
    umpire = log_in(app.test_client(), "Ann")
    r = umpire.post("/games/new", data={"scenario": "demo"})
    game_id = int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))
    with db(app) as s:
        codes = roles.join_codes(s, service.get_game(s, game_id))
    return umpire, game_id, codes


def _version(app, game_id):
    with db(app) as s:
        return service.get_game(s, game_id).version


def test_the_umpire_hands_the_role_to_another_tablet(club_app):
    umpire, game_id, codes = _start(club_app)
    other = club_app.test_client()
    # Not without saying so: the code alone asks the tablet to confirm, and seats it as nothing.
    asked = other.post("/join", data={"code": codes["umpire"]})
    assert asked.status_code == 422 and "tick the box to confirm" in asked.get_data(as_text=True)
    assert other.get(f"/games/{game_id}").status_code == 403
    assert other.post("/join", data={"code": codes["umpire"], "confirm": "umpire"}).status_code == 303
    # The new umpire may correct; the old one is a spectator now.
    r = other.post(f"/games/{game_id}/act/adjust_unit",
                   data={"version": _version(club_app, game_id), "unit": "11th-leger", "field": "casualties",
                         "value": "1"})
    assert r.status_code == 303
    before = fingerprint(club_app)
    r = umpire.post(f"/games/{game_id}/act/next_phase", data={"version": _version(club_app, game_id)})
    assert r.status_code == 403 and fingerprint(club_app) == before
    assert "Spectators watch" in r.get_data(as_text=True)
    # The code that was used is spent: a third tablet cannot take the role with it.
    third = club_app.test_client()
    assert third.post("/join", data={"code": codes["umpire"], "confirm": "umpire"}).status_code == 404
    with db(club_app) as s:
        assert s.exec(select(JoinCode).where(JoinCode.game_id == game_id, JoinCode.role == "umpire")).one().code \
            != codes["umpire"]


def test_a_code_is_forgiving_of_case_spaces_and_dashes(club_app):
    _umpire, game_id, codes = _start(club_app)
    c = club_app.test_client()
    code = codes["red"]
    assert c.post("/join", data={"code": f"  {code[:4].lower()} - {code[4:]} "}).status_code == 303
    with db(club_app) as s:
        assert [seat.role for seat in s.exec(select(Seat).where(Seat.game_id == game_id)).all()].count("red") == 1


def test_the_qr_link_shows_what_the_code_gives_and_joins_only_on_a_post(club_app):
    _umpire, game_id, codes = _start(club_app)
    c = club_app.test_client()
    before = fingerprint(club_app)
    page = c.get(f"/join/{codes['blue']}").get_data(as_text=True)
    assert "as <strong>French</strong>" in page and fingerprint(club_app) == before
    assert c.get(f"/games/{game_id}").status_code == 403


def test_wrong_codes_are_limited(club_app):
    c = club_app.test_client()
    for _ in range(web_roles.JOIN_TRIES):
        assert c.post("/join", data={"code": "WRONGCOD"}).status_code == 404
    _umpire, _game_id, codes = _start(club_app)
    assert c.post("/join", data={"code": codes["blue"]}).status_code == 429


def test_a_seat_belongs_to_the_account_too(club_app):
    """The umpire logging in on a second tablet finds the game and the umpire's seat there."""
    _umpire, game_id, _codes = _start(club_app)
    second = log_in(club_app.test_client(), "Ann")
    assert second.get(f"/games/{game_id}").status_code == 200
    assert f'href="/games/{game_id}"' in second.get("/").get_data(as_text=True)
    assert second.post(f"/games/{game_id}/act/next_phase",
                       data={"version": _version(club_app, game_id)}).status_code == 303


def test_a_laptop_table_checks_nobody(laptop_app):
    c = laptop_app.test_client()
    for action, data in (("next_phase", {}), ("adjust_unit", {"unit": "1-7th-musketeers", "field": "casualties",
                                                                "value": "1"})):
        r = c.post(f"/games/1/act/{action}", data={"version": _version(laptop_app, 1), **data})
        assert r.status_code == 303, action
    assert c.post("/games/1/undo", data={"version": _version(laptop_app, 1)}).status_code == 303
    assert "this laptop only" in c.get("/games/1/seats").get_data(as_text=True)


def test_a_game_with_no_umpire_is_taken_by_the_first_account_only(club_app):
    """Games started before the table became a club server (here: seeded) have no seats."""
    bob = log_in(club_app.test_client(), "Bob")
    assert bob.get("/games/1").status_code == 403
    assert 'href="/games/1"' not in bob.get("/").get_data(as_text=True)
    ann = log_in(club_app.test_client(), "Ann")
    assert 'href="/games/1"' in ann.get("/").get_data(as_text=True)
    assert ann.get("/games/1").status_code == 200
    with db(club_app) as s:
        assert roles.has_umpire(s, 1)
    assert bob.get("/games/1").status_code == 403
