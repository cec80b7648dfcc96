"""A club server's first start: the demo battle is there for its first account however the club
mode was chosen, and the seats page says when the tablets cannot reach this server."""
from __future__ import annotations

import re

import pytest
from _apps import make_app
from _security_helpers import PASSWORD

ACCOUNT = {"name": "Ann", "password": PASSWORD, "again": PASSWORD}


@pytest.mark.parametrize("how", ["first-start page", "REFEREE_MODE=club"])
def test_the_first_account_finds_the_demo_battle(database_url, how):
    app = make_app(database_url, SEED_DEMO=True, MODE="club" if how == "REFEREE_MODE=club" else None)
    first = app.test_client()
    if how == "first-start page":
        assert first.post("/setup", data={"mode": "club", **ACCOUNT}).status_code == 303
    else:
        assert first.post("/register", data=ACCOUNT).status_code == 303
    page = first.get("/").get_data(as_text=True)
    assert "Saint-Amand" in page
    demo = re.search(r'href="/games/(\d+)"', page).group(1)
    assert first.get(f"/games/{demo}").status_code == 200  # and it is the umpire's: the seats page
    assert "This tablet is" in first.get(f"/games/{demo}/seats").get_data(as_text=True)
    # The next to register is a player, not the club's first account: no game of others on their list.
    second = app.test_client()
    assert second.post("/register", data={**ACCOUNT, "name": "Bob"}).status_code == 303
    assert "Saint-Amand" not in second.get("/").get_data(as_text=True)


def _seats_page(database_url, **config) -> str:
    app = make_app(database_url, SEED_DEMO=True, MODE="club", **config)
    umpire = app.test_client()
    umpire.post("/register", data=ACCOUNT)
    demo = re.search(r'href="/games/(\d+)"', umpire.get("/").get_data(as_text=True)).group(1)
    umpire.get(f"/games/{demo}")
    return umpire.get(f"/games/{demo}/seats").get_data(as_text=True)


def test_the_seats_page_says_when_the_server_listens_on_this_machine_alone(database_url):
    page = _seats_page(database_url, HOST="127.0.0.1")
    assert "listens only on this machine (HOST=127.0.0.1)" in page and "REFEREE_ADDRESS" in page


@pytest.mark.parametrize("config", [{"HOST": "0.0.0.0"}, {"HOST": "127.0.0.1", "REFEREE_ADDRESS": "https://club.example"}])
def test_no_warning_when_the_tablets_can_reach_it(database_url, config):
    page = _seats_page(database_url, **config)
    assert "listens only on this machine" not in page and "seat-code" in page
