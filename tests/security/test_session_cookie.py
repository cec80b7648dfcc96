"""The session cookie goes out when it changes, and once a day of use, not with every answer: a
club tablet keeps its login and its seat for a month after its last day at the table."""
from __future__ import annotations

from datetime import date, timedelta

from _security_helpers import log_in

from referee.web.serving import security


def _cookie(r) -> str:
    return next((v for v in r.headers.getlist("Set-Cookie") if v.startswith("session=")), "")


def test_the_cookie_is_sent_again_only_when_it_changes_or_a_new_day_begins(club_app, monkeypatch):
    client = log_in(club_app.test_client(), "Ann")  # a kept (month-long) session
    paths = ("/", "/games/1", "/lists/", "/games/1/log")
    for path in paths:  # a first visit may change it (a form's token made, the game's seat taken)
        assert client.get(path).status_code == 200
    for path in paths:
        r = client.get(path)
        assert r.status_code == 200 and not _cookie(r), path

    class Tomorrow(date):
        @classmethod
        def today(cls):
            return date.today() + timedelta(days=1)

    monkeypatch.setattr(security, "date", Tomorrow)
    r = client.get("/")
    renewed = _cookie(r)
    assert renewed and "Expires=" in renewed
    assert not _cookie(client.get("/"))
    # Still logged in and seated after all that.
    assert client.get("/games/1").status_code == 200


def test_a_session_that_is_not_kept_is_never_renewed(laptop_app):
    client = laptop_app.test_client()
    for _ in range(3):
        r = client.get("/")
        assert r.status_code == 200 and "Expires=" not in _cookie(r)
