"""On a club server a game's pages, its poll included, are for the tablets seated at it: the quick
"nothing changed" answer (web/serving/quick_poll.py) never reaches a tablet the app has not let through."""
from __future__ import annotations

from _security_helpers import db, log_in, make_app

from referee.table import service

HX = {"HX-Request": "true"}


def test_a_tablet_without_a_seat_is_never_answered_quickly(club_app):
    with db(club_app) as s:
        game = service.get_game(s, 1)
    poll = f"/games/{game.id}/poll?v={game.version}"
    umpire = log_in(club_app.test_client(), "Ann")  # the club's first account takes the unclaimed game
    assert umpire.get(f"/games/{game.id}").status_code == 200
    assert umpire.get(poll, headers=HX).status_code == 204
    assert umpire.get(poll, headers=HX).status_code == 204
    stranger = log_in(club_app.test_client(), "Bob")
    for _ in range(3):
        r = stranger.get(poll, headers=HX)
        assert r.status_code == 403 and "has not joined this game" in r.get_data(as_text=True)
    nobody = club_app.test_client()
    assert nobody.get(poll, headers=HX).status_code == 403


def test_a_tablet_shown_the_board_has_its_first_poll_answered_quickly_and_only_then(club_app):
    """Opening the board is the app letting the tablet through: its very first poll is quick.
    A tablet refused the board is not vouched for by asking."""
    with db(club_app) as s:
        game = service.get_game(s, 1)
    poll = f"/games/{game.id}/poll?v={game.version}"
    umpire = log_in(club_app.test_client(), "Ann")
    assert umpire.get(f"/games/{game.id}").status_code == 200
    stranger = log_in(club_app.test_client(), "Bob")
    assert stranger.get(f"/games/{game.id}").status_code == 403
    route, reached = club_app.view_functions["games.poll"], []
    club_app.view_functions["games.poll"] = lambda game_id: reached.append(game_id) or route(game_id)
    try:
        assert umpire.get(poll, headers=HX).status_code == 204
        assert reached == []  # answered before Flask
        r = stranger.get(poll, headers=HX)  # the app's gate refuses it, as before
        assert r.status_code == 403 and "has not joined this game" in r.get_data(as_text=True)
    finally:
        club_app.view_functions["games.poll"] = route


def test_signing_out_ends_the_quick_answer_at_once_in_every_server_process(club_app):
    """Issue 46, 6: a copy of the cookies from before signing out was answered 204 (and once the
    game's changes) for up to 30 s. Signed out through another process on the same database."""
    with db(club_app) as s:
        game = service.get_game(s, 1)
    poll = f"/games/{game.id}/poll?v={game.version}"
    ann = log_in(club_app.test_client(), "Ann")
    assert ann.get(f"/games/{game.id}").status_code == 200
    copy = club_app.test_client()
    for name in ("session", "remember_token"):
        found = ann.get_cookie(name)
        if found is not None:
            copy.set_cookie(name, found.value)
    assert copy.get(poll, headers=HX).status_code == 204  # vouched for, answered quickly
    other_process = make_app(club_app.config["DATABASE_URL"], MODE="club").test_client()
    for name in ("session", "remember_token"):
        found = ann.get_cookie(name)
        if found is not None:
            other_process.set_cookie(name, found.value)
    assert other_process.post("/logout").status_code == 303
    for _ in range(3):
        r = copy.get(poll, headers=HX)
        assert r.status_code == 403, r.status_code
