"""Issue 35, 7: a form of too many fields is refused before it is parsed, join links and QR codes
never carry a forged Host, and the seats page writes nothing."""
from __future__ import annotations

import re

from _security_helpers import db, fingerprint, log_in
from sqlmodel import select

from referee.table import service
from referee.table.models import JoinCode
from referee.web.serving import input_limits
from referee.web.serving.lan import lan_addresses


def test_a_form_of_too_many_fields_is_refused_with_a_413(laptop_app):
    c = laptop_app.test_client()
    body = "&".join(f"f{i}=" for i in range(100_000))
    before = fingerprint(laptop_app)
    for path in ("/lists/check/blackpowder", "/lists/owner", "/games/1/act/next_phase"):
        r = c.post(path, data=body, content_type="application/x-www-form-urlencoded")
        assert r.status_code == 413 and "fields" in r.get_data(as_text=True), path
    assert c.get("/rules?" + body).status_code == 413
    assert fingerprint(laptop_app) == before
    # A form of a few hundred fields, as the builders send, is read as before.
    many = "&".join(f"brigades.{i}.name=B{i}" for i in range(input_limits.MAX_FIELDS // 20))
    assert c.post("/lists/check/blackpowder", data=many, content_type="application/x-www-form-urlencoded") \
        .status_code == 200


def _umpire_of_new_game(app):
    umpire = log_in(app.test_client(), "Ann")
    r = umpire.post("/games/new", data={"scenario": "demo"})
    return umpire, int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))


def test_join_links_never_carry_a_forged_host(club_app):
    umpire, game_id = _umpire_of_new_game(club_app)
    for name in ("session", "remember_token"):  # the tablet's cookies, sent whatever Host says
        umpire.set_cookie(name, umpire.get_cookie(name).value, domain="evil.example")
    r = umpire.get(f"/games/{game_id}/seats", headers={"Host": "evil.example:8080"})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "evil.example" not in page
    with db(club_app) as s:
        code = s.exec(select(JoinCode).where(JoinCode.game_id == game_id, JoinCode.role == "blue")).one().code
    assert f"/join/{code}" in page
    found = lan_addresses()
    if found:
        assert f"http://{found[0]}/join/{code}" in page
    club_app.config["REFEREE_ADDRESS"] = "https://referee.club.example/"
    page = umpire.get(f"/games/{game_id}/seats", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"https://referee.club.example/join/{code}" in page and "evil.example" not in page.replace(
        "referee.club.example", "")


def test_the_seats_page_only_reads(club_app):
    """The join codes come with the game; a game without them (seeded here) gets them on a post."""
    umpire, game_id = _umpire_of_new_game(club_app)
    with db(club_app) as s:
        assert s.exec(select(JoinCode).where(JoinCode.game_id == game_id)).all()
        game = service.create_game(s, "Old game", "blackpowder", service.get_game(s, 1).state)
        from referee.table import roles
        roles.take_seat(s, game, roles.UMPIRE, "some-tablet", 1)
        old_id = game.id
    before = fingerprint(club_app)
    assert umpire.get(f"/games/{game_id}/seats").status_code == 200
    page = umpire.get(f"/games/{old_id}/seats").get_data(as_text=True)
    assert "Make the join codes" in page
    assert fingerprint(club_app) == before
    assert umpire.post(f"/games/{old_id}/seats").status_code == 303
    with db(club_app) as s:
        assert len(s.exec(select(JoinCode).where(JoinCode.game_id == old_id)).all()) == 4
    assert "Make the join codes" not in umpire.get(f"/games/{old_id}/seats").get_data(as_text=True)
    # Only the umpire makes them.
    bob = log_in(club_app.test_client(), "Bob")
    assert bob.post(f"/games/{old_id}/seats").status_code == 403
