"""Errors that say what they are: a rules refusal is a 422 with its message; any other exception
is a bug, logged with its traceback and answered with a plain 500 page; a page that is not there
or a method a page does not take gets a plain page of its own. Nothing changes the game."""
from __future__ import annotations

import dataclasses
import logging

import pytest
from _web_helpers import HTMX, text
from flask import abort

from referee.core.errors import RuleError
from referee.table import service

ADJUST = {"unit": "82nd-ligne", "field": "casualties", "value": "2"}


def post(client, table, action, data, headers=None):
    return client.post(f"/games/{table.id}/act/{action}", data={"version": str(table.version), **data},
                       headers=headers or {})


def resolve_raising(monkeypatch, exc: Exception):
    """Every action resolves by raising ``exc``, as a faulty engine would."""
    parse = service.parse_facts

    def resolve(state, facts, dice):
        raise exc

    def parse_with_faulty_resolve(system, action, raw):
        spec, facts = parse(system, action, raw)
        return dataclasses.replace(spec, resolve=resolve), facts

    monkeypatch.setattr(service, "parse_facts", parse_with_faulty_resolve)


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_an_engine_bug_is_a_logged_500_that_changes_nothing(client, table, monkeypatch, caplog, headers):
    resolve_raising(monkeypatch, KeyError("casualties_max"))
    before = table.version
    with caplog.at_level(logging.ERROR):
        r = post(client, table, "adjust_unit", ADJUST, headers)
    assert r.status_code == 500
    body = r.get_data(as_text=True)
    assert "Something went wrong in Referee" in text(r) and "not a rule of the game" in text(r)
    # The umpire is never shown the traceback, nor the fault dressed up as a rules refusal.
    assert "Traceback" not in body and "casualties_max" not in body and "KeyError" not in body
    [record] = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert record.exc_info and record.exc_info[0] is KeyError
    assert f"/games/{table.id}/act/adjust_unit" in record.getMessage()
    assert table.version == before and table.log() == []
    assert table.unit("82nd-ligne")["casualties"] == 0
    if headers:
        # htmx swaps the page over the whole screen, whichever small part had asked.
        assert r.headers["HX-Retarget"] == "body" and r.headers["HX-Reswap"] == "innerHTML"
        assert "<html" not in body
    else:
        assert "<html" in body


def test_a_bare_value_error_from_an_engine_is_a_bug_not_a_refusal(client, table, monkeypatch, caplog):
    resolve_raising(monkeypatch, ValueError("too many values to unpack"))
    r = post(client, table, "adjust_unit", ADJUST, HTMX)
    assert r.status_code == 500 and "too many values" not in r.get_data(as_text=True)
    assert any(rec.exc_info and rec.exc_info[0] is ValueError for rec in caplog.records)


def test_a_rules_refusal_is_a_422_with_its_message_and_changes_nothing(client, table, monkeypatch, caplog):
    resolve_raising(monkeypatch, RuleError("A unit in march column cannot shoot."))
    before = table.version
    r = post(client, table, "adjust_unit", ADJUST, HTMX)
    assert r.status_code == 422
    assert "A unit in march column cannot shoot." in text(r)
    assert 'id="panel"' in r.get_data(as_text=True)  # the form comes back with the message
    assert table.version == before and table.log() == []
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_a_missing_page_is_a_plain_404_saying_what_is_missing(client, game_id):
    r = client.get("/games/999")
    assert r.status_code == 404
    assert "There is no game number 999." in text(r)
    assert "Back to the games" in text(r)
    r = client.get("/no/such/page")
    assert r.status_code == 404 and "There is no such page here." in text(r)


def test_an_htmx_request_for_a_missing_game_gets_the_page_swapped_in(client):
    r = client.get("/games/999/poll?v=1", headers=HTMX)
    assert r.status_code == 404 and r.headers["HX-Retarget"] == "body"
    assert "There is no game number 999." in text(r)


def test_a_method_a_page_does_not_take_is_a_plain_405(client, game_id):
    r = client.get(f"/games/{game_id}/undo")
    assert r.status_code == 405
    assert "cannot be used that way" in text(r)
    assert "POST" in r.headers["Allow"]


def test_a_bad_request_is_a_plain_400(app):
    app.add_url_rule("/test-bad-request", "bad_request", lambda: abort(400))
    r = app.test_client().get("/test-bad-request")
    assert r.status_code == 400 and "could not be read" in text(r)


def test_a_history_restore_of_a_missing_page_gets_the_whole_page(client):
    r = client.get("/games/999", headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert r.status_code == 404 and "<html" in r.get_data(as_text=True)
    assert "HX-Retarget" not in r.headers
