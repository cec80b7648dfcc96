"""A form's ``next`` may only send the tablet to a path on this site."""
from __future__ import annotations

import pytest

from referee.web.redirects import safe_next

HOME = "/home"


@pytest.mark.parametrize("target", [
    "/games/3?entry=2", "/lists/", "/lists/7/view#brigade-2", "/games/3/act/order?units=a&units=b",
])
def test_a_path_on_this_site_is_kept(target):
    assert safe_next(target, HOME) == target


@pytest.mark.parametrize("target", [
    None, "", "games/3",                      # not a path from the site's root
    "//evil.example/", "///evil.example/",    # another host, scheme-relative
    "/\\evil.example/", "\\\\evil.example",  # browsers read a backslash as a slash
    "/\t/evil.example/", "/\n/evil.example", "/\r//evil.example", "/\x00/x", "/ /evil.example",
    "/%09/evil.example/", "/%2F/evil.example/", "/%5Cevil.example/", "/%0a/evil.example",
    "https://evil.example/", "javascript:alert(1)", "http:/evil.example",
])
def test_anything_that_could_leave_the_site_falls_back(target):
    assert safe_next(target, HOME) == HOME


@pytest.mark.parametrize("target", ["/\t/evil.example/", "/%09/evil.example/", "/\\evil.example", "//evil.example"])
def test_the_owner_form_does_not_redirect_off_site(client, target):
    r = client.post("/lists/owner", data={"owner": "Anna", "next": target})
    assert r.status_code == 303
    assert r.headers["Location"] == "/lists/"
    r = client.post(f"/lists/owner?next={target}", data={"owner": "Anna"})
    assert r.headers["Location"] == "/lists/"


def test_the_owner_form_goes_back_where_it_was_asked(client):
    r = client.post("/lists/owner", data={"owner": "Anna", "next": "/lists/?who=all"})
    assert r.status_code == 303 and r.headers["Location"] == "/lists/?who=all"


def test_a_write_without_javascript_goes_to_a_same_site_next_only(client, game_id):
    form = {"version": "1", "unit": "82nd-ligne", "field": "casualties", "value": "1",
            "next": "/\t/evil.example/"}
    r = client.post(f"/games/{game_id}/act/adjust_unit", data=form)
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{game_id}?entry=1"
