"""A lost answer on a write that takes a seat, on a club server (issue 46, 1 and 2).

The model is the faithful one: the first answer, and the cookies it set, never reach the tablet
(a Wi-Fi drop, or the server killed after the commit); the tablet sends the same form again with
the same one-time token and the cookies it still holds. That is a second browser given the first
one's cookies from before the tap (``_before``): the first browser, which got the answer, is
thrown away. The re-sent tap is answered with the first result, nothing is done twice, and the
tablet holds the seat the first one took."""
from __future__ import annotations

import io
import logging
import re

import pytest
from _security_helpers import db, fingerprint, log_in, make_app, seed
from sqlmodel import func, select

from referee.table import records, roles
from referee.table.lists import ArmyList
from referee.table.models import Game, JoinCode, Seat

COOKIES = ("session", "remember_token")


def _before(app, client):
    """The cookies ``client`` holds now, in a browser of their own: what the tablet still has
    when the answer to its next tap is lost on the way."""
    other = app.test_client()
    for name in COOKIES:
        found = client.get_cookie(name)
        if found is not None:
            other.set_cookie(name, found.value)
    return other


def _lost(app, client, path: str, form: dict):
    """Post ``form`` with its one-time token; its answer (and the cookies it set) is lost. The
    same form sent again from the cookies from before: that answer, and that browser."""
    again = _before(app, client)
    first = client.post(path, data=form)
    assert first.status_code == 303, first.get_data(as_text=True)[:400]
    second = again.post(path, data=form)
    return first, second, again


def _code(app, game_id: int, role: str) -> str:
    with db(app) as s:
        return s.exec(select(JoinCode).where(JoinCode.game_id == game_id, JoinCode.role == role)).one().code


def _count(app, row) -> int:
    with db(app) as s:
        return s.exec(select(func.count()).select_from(row)).one()


def _umpires(app, game_id: int) -> list[Seat]:
    with db(app) as s:
        return roles.umpire_seats(s, game_id)


def test_a_hand_over_sent_again_after_its_answer_was_lost_shows_its_first_result(club_app):
    bob = log_in(club_app.test_client(), "Bob")
    assert bob.post("/join", data={"code": _code(club_app, 1, "umpire"), "confirm": "umpire"}).status_code == 303
    fresh = club_app.test_client()  # a tablet with no account takes the umpire's seat from Bob
    fresh.get(f"/join/{_code(club_app, 1, 'umpire')}")
    form = {"code": _code(club_app, 1, "umpire"), "confirm": "umpire", "token": "handOverToken1"}
    first, second, tablet = _lost(club_app, fresh, "/join", form)
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    # The tablet that sent it again holds the umpire's seat; Bob watches; the game has one umpire.
    assert tablet.get("/games/1").status_code == 200
    umpires = _umpires(club_app, 1)
    assert len(umpires) == 1 and umpires[0].account_id is None
    with db(club_app) as s:
        assert roles.seat_of(s, 1, None, 2) is None or roles.seat_of(s, 1, None, 2).role == roles.SPECTATOR
    untouched = fingerprint(club_app)
    assert tablet.post("/join", data=form).status_code == 303  # and again: still the first result
    assert fingerprint(club_app) == untouched
    assert "Hand the umpire's role" in tablet.get("/games/1/seats").get_data(as_text=True)  # its own umpire code


def test_a_copy_of_the_cookie_from_before_a_seat_opens_nothing_without_the_taps_token(club_app):
    fresh = club_app.test_client()
    fresh.post("/join", data={"code": _code(club_app, 2, "spectator")})
    copy = _before(club_app, fresh)
    assert fresh.post("/join", data={"code": _code(club_app, 1, "blue"), "token": "blueSeatToken1"}).status_code == 303
    assert copy.get("/games/1").status_code == 403 and copy.get("/games/2").status_code == 403
    # Another token from the old cookie is a new join with a code that still works: not the first's seat.
    assert copy.post("/join", data={"code": "WRONGCODE", "token": "otherToken22"}).status_code == 404
    assert copy.get("/games/1").status_code == 403


def test_the_first_account_can_always_take_a_games_umpire_seat_and_it_is_logged(club_app, caplog):
    bob = log_in(club_app.test_client(), "Bob")
    assert bob.post("/join", data={"code": _code(club_app, 1, "umpire"), "confirm": "umpire"}).status_code == 303
    ann = log_in(club_app.test_client(), "Ann")  # the club's first account
    page = ann.get("/games/1")
    assert page.status_code == 403 and "Take the umpire's seat" in page.get_data(as_text=True)
    untouched = fingerprint(club_app)
    assert bob.post("/games/1/umpire", data={"token": "bobTakesIt1"}).status_code == 403  # not Bob's to take
    assert fingerprint(club_app) == untouched
    with caplog.at_level(logging.WARNING):
        r = ann.post("/games/1/umpire", data={"token": "annTakesIt1"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/games/1")
    assert "took the umpire's seat of game 1" in caplog.text and "Ann" in caplog.text
    assert [s.account_id for s in _umpires(club_app, 1)] == [1]
    assert ann.get("/games/1").status_code == 200
    assert ann.post("/games/1/act/adjust_unit", data={"unit": "11th-leger", "field": "casualties", "value": "1",
                                                       "version": 1}).status_code == 303
    assert bob.get("/games/1").status_code == 200  # Bob watches now
    assert bob.post("/games/1/archive").status_code == 403
    # Every game is on the first account's list, so it can reach any of them.
    assert 'href="/games/2"' in ann.get("/").get_data(as_text=True)


def test_starting_a_game_sent_again_after_its_answer_was_lost_shows_the_first_game(club_app):
    ann = log_in(club_app.test_client(), "Ann")
    games = _count(club_app, Game)
    first, second, tablet = _lost(club_app, ann, "/games/new", {"scenario": "demo", "token": "newGameToken1"})
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    assert _count(club_app, Game) == games + 1
    assert tablet.get(first.headers["Location"]).status_code == 200
    assert "Log out" in tablet.get("/account").get_data(as_text=True)  # still signed in


def test_starting_from_lists_sent_again_after_its_answer_was_lost_shows_the_first_game(club_app):
    ann = log_in(club_app.test_client(), "Ann")
    ids = seed_ids(club_app)
    games = _count(club_app, Game)
    form = {"first": ids["ridge"], "second": ids["corps"], "name": "Again", "token": "listStartToken1"}
    first, second, tablet = _lost(club_app, ann, "/lists/start?system=blackpowder", form)
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    assert _count(club_app, Game) == games + 1
    assert tablet.get(first.headers["Location"]).status_code == 200


def test_a_campaign_day_sent_again_after_its_answer_was_lost_shows_the_first_day(club_app):
    ann = log_in(club_app.test_client(), "Ann")
    r = ann.post("/campaigns/new", data={"kind": "hundred_days", "name": "Event", "french": "Nap",
                                        "coalition": "Wel", "token": "newCampaign1"})
    cid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    page = ann.get(f"/campaigns/{cid}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    games = _count(club_app, Game)
    first, second, tablet = _lost(club_app, ann, f"/campaigns/{cid}/start-day",
                                  {"version": version, "token": "dayStartToken1"})
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    assert _count(club_app, Game) == games + 2
    for game_id in (games + 1, games + 2):  # the day's two battles
        assert tablet.get(f"/games/{game_id}").status_code == 200


def test_a_join_sent_again_after_its_answer_was_lost_shows_the_seat(club_app):
    bob = log_in(club_app.test_client(), "Bob")
    first, second, tablet = _lost(club_app, bob, "/join", {"code": _code(club_app, 2, "p1"), "token": "joinP1Token1"})
    assert second.status_code == 303 and second.headers["Location"] == "/games/2"
    assert tablet.get("/games/2").status_code == 200
    assert "Log out" in tablet.get("/account").get_data(as_text=True)


def seed_ids(app) -> dict:
    """Ann's two lists the seeded table holds (``seed``): the British ridge, then the French corps."""
    with db(app) as s:
        ridge, corps = s.exec(select(ArmyList.id).where(ArmyList.owner == "Ann").order_by(ArmyList.id)).all()[:2]
    return {"ridge": ridge, "corps": corps}


@pytest.fixture
def csrf_app(database_url):
    app = make_app(database_url, MODE="club", WTF_CSRF_ENABLED=True)
    seed(app)
    return app


def _csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def test_taking_a_seat_leaves_the_tablets_other_pages_working(csrf_app):
    ann = csrf_app.test_client()
    ann.post("/login", data={"name": "Ann", "password": "correct horse battery",
                             "csrf_token": _csrf(ann.get("/login"))})
    other_page = _csrf(ann.get("/account"))  # a page left open on the same tablet
    r = ann.post("/games/new", data={"scenario": "demo", "csrf_token": _csrf(ann.get("/games/new"))})
    assert r.status_code == 303
    joined = ann.post("/join", data={"code": _code(csrf_app, 2, "p1"), "csrf_token": other_page})
    assert joined.status_code == 303, joined.get_data(as_text=True)[:300]
    r = ann.post(f"{r.headers['Location']}/act/adjust_unit", data={
        "unit": "11th-leger", "field": "casualties", "value": "1", "version": 1, "csrf_token": other_page})
    assert r.status_code == 303, r.get_data(as_text=True)[:300]


def test_a_game_and_its_umpires_seat_land_together_or_not_at_all(club_app, monkeypatch):
    ann = log_in(club_app.test_client(), "Ann")
    games = _count(club_app, Game)

    def crash(*_a, **_k):
        raise RuntimeError("the server stops between the game and its seat")
    monkeypatch.setattr(roles, "join_codes", crash)
    assert ann.post("/games/new", data={"scenario": "demo", "token": "crashedStart1"}).status_code == 500
    assert _count(club_app, Game) == games and _count(club_app, Seat) == 0


def _game_file(app, game_id: int) -> bytes:
    with db(app) as s:
        return records.export_game(s, game_id).encode()


def test_an_import_sent_again_makes_one_game_and_its_importer_is_its_umpire(club_app):
    """Issue 46, 4: Bob, not the first account, imports a game file; the answer is lost."""
    bob = log_in(club_app.test_client(), "Bob")
    raw = _game_file(club_app, 1)
    games = _count(club_app, Game)

    def form():
        return {"file": (io.BytesIO(raw), "demo.json"), "token": "importOnce01"}
    again = _before(club_app, bob)
    first = bob.post("/games/import", data=form(), content_type="multipart/form-data")
    assert first.status_code == 303, first.get_data(as_text=True)[:300]
    second = again.post("/games/import", data=form(), content_type="multipart/form-data")
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    assert _count(club_app, Game) == games + 1
    report = again.get(first.headers["Location"])
    assert report.status_code == 200, report.get_data(as_text=True)[:300]
    assert [s.account_id for s in _umpires(club_app, games + 1)] == [2]  # Bob's
