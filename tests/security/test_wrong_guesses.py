"""Wrong guesses are limited without locking anyone out: passwords per address and per address and
name (never per name alone, and a tablet the account signed in on before is counted for itself),
join codes per address whichever way they are tried; each refusal says how long to wait."""
from __future__ import annotations

from _security_helpers import PASSWORD, db, log_in
from sqlmodel import select

from referee.table.models import JoinCode
from referee.web import auth, roles


def _from(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _login(client, name, password):
    return client.post("/login", data={"name": name, "password": password})


def test_a_stranger_cannot_lock_the_owner_out(club_app):
    """Issue 35, 3: wrong passwords for Bob from another address leave Bob's own tablet alone."""
    stranger = _from(club_app, "10.0.0.66")
    for _ in range(auth.LOGIN_TRIES):
        assert _login(stranger, "Bob", "not his password").status_code == 422
    assert _login(_from(club_app, "10.0.0.7"), "Bob", PASSWORD).status_code == 303
    r = _login(stranger, "Bob", "still not his")
    assert r.status_code == 429 and "try again in 15 minutes" in r.get_data(as_text=True)


def test_the_owners_own_tablet_is_not_locked_out_even_from_the_guessers_address(club_app):
    """Behind one router (or a proxy) every tablet has the same address: the tablet Bob signed in
    on before still takes his right password."""
    bobs = _from(club_app, "10.0.0.1")
    log_in(bobs, "Bob")
    bobs.post("/logout")
    guesser = _from(club_app, "10.0.0.1")
    for i in range(auth.ADDRESS_TRIES):
        assert _login(guesser, ("Bob", "Ann", "Cleo")[i % 3], "a wrong guess").status_code == 422
    assert _login(guesser, "Bob", PASSWORD).status_code == 429
    assert _login(bobs, "Bob", PASSWORD).status_code == 303
    # The mark is Bob's: it does not free another name from the address's limit.
    bobs.post("/logout")
    assert _login(bobs, "Ann", PASSWORD).status_code == 429


def test_one_address_trying_many_names_is_limited(club_app):
    guesser = _from(club_app, "10.0.0.9")
    for i in range(auth.ADDRESS_TRIES):
        assert _login(guesser, f"Name {i}", "a wrong guess").status_code == 422
    r = _login(guesser, "Ann", PASSWORD)
    assert r.status_code == 429 and "try again in" in r.get_data(as_text=True)


def test_join_codes_in_the_address_are_limited_as_typed_ones_are(club_app):
    """Issue 35, 5: GET /join/<code> counts as a try, and shares the limit with POST /join."""
    c = club_app.test_client()
    for _ in range(roles.JOIN_TRIES // 2):
        assert c.get("/join/WRONGCOD").status_code == 404
    for _ in range(roles.JOIN_TRIES - roles.JOIN_TRIES // 2):
        assert c.post("/join", data={"code": "WRONGCOD"}).status_code == 404
    with db(club_app) as s:
        code = s.exec(select(JoinCode).where(JoinCode.game_id == 1, JoinCode.role == "blue")).one().code
    r = c.get(f"/join/{code}")
    assert r.status_code == 429 and "try again in 10 minutes" in r.get_data(as_text=True)
    assert c.get(f"/join?code={code}").status_code == 429
    assert c.post("/join", data={"code": code}).status_code == 429
    # Another address is not held back.
    assert _from(club_app, "10.0.0.5").get(f"/join/{code}").status_code == 200
