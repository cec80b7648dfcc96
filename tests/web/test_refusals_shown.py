"""A refusal the tablet shows as a message (the rules say no, another tablet was first) is answered
200 to the tablet's htmx, its true status in ``X-Refused``, so the browser logs no red error for
an ordinary answer (web/serving/refusals.py); every other client still gets the status itself."""
from __future__ import annotations

from _web_helpers import HTMX, text
from flask import render_template

from referee.core.dice import DiceNeeded
from referee.table.errors import BadInput, NeedDice
from referee.web.serving import refusals

SHOWN = {**HTMX, "X-Refusal-Shown": "1"}


def _refused_charge(client, table, headers):
    # A charge naming a unit the battle does not have: the rules refuse it, nothing changes.
    form = {"version": str(table.version), "chargers": "no-such-unit", "target": "no-such-unit"}
    return client.post(f"/games/{table.id}/act/charge", data=form, headers=headers)


def test_a_rules_refusal_reaches_the_tablet_as_a_message_without_an_error_status(client, table):
    before = table.version
    answer = _refused_charge(client, table, SHOWN)
    assert answer.status_code == 200
    assert answer.headers["X-Refused"] == "422"
    assert 'role="alert"' in answer.get_data(as_text=True)
    assert table.version == before


def test_other_clients_still_get_the_status(client, table):
    assert _refused_charge(client, table, HTMX).status_code == 422
    assert "X-Refused" not in _refused_charge(client, table, HTMX).headers


def test_a_stale_tap_is_a_message_too(client, table):
    answer = client.post(f"/games/{table.id}/act/next_phase", data={"version": "0"}, headers=SHOWN)
    assert answer.status_code == 200 and answer.headers["X-Refused"] == "409"
    assert "tap again" in text(answer).lower() or "changed" in text(answer).lower()


def test_a_real_fault_keeps_its_status(client, table):
    answer = client.get(f"/games/{table.id}/act/no_such_action", headers=SHOWN)
    assert answer.status_code == 404 and "X-Refused" not in answer.headers


def test_the_board_asks_for_it(client, table):
    assert '"X-Refusal-Shown": "1"' in client.get(f"/games/{table.id}").get_data(as_text=True)


# --- the one handler that draws a refusal (web/serving/refusals.py) ------------------------------

def _routes(app):
    """Three routes of the test's own: one that says how its refusal is drawn, one that says
    nothing, and one that lets a question (dice to type) escape."""
    def drawn_own_way():
        refusals.redraw(lambda e: (render_template("message.html", message=f"Own page: {e.message}"), e.status))
        raise BadInput("That cannot be used.")

    def said_nothing():
        raise BadInput("That cannot be used either.")

    def question():
        raise NeedDice(DiceNeeded(count=2, sides=6, purpose="a test roll", used=0), [])

    for rule, view in (("/test-refused/own", drawn_own_way), ("/test-refused/plain", said_nothing),
                       ("/test-refused/question", question)):
        app.add_url_rule(rule, view.__name__, view)


def test_a_route_draws_its_own_refusal_and_one_that_says_nothing_gets_the_message_page(app):
    _routes(app)
    client = app.test_client()
    own = client.get("/test-refused/own")
    assert own.status_code == 422 and "Own page: That cannot be used." in text(own)
    plain = client.get("/test-refused/plain")
    assert plain.status_code == 422 and "That cannot be used either." in text(plain)
    # The route's drawing is this request's alone: the next request's refusal is drawn plainly.
    assert "Own page" not in text(plain)
    assert client.get("/test-refused/plain", headers=SHOWN).headers["X-Refused"] == "422"


def test_a_question_that_escapes_its_route_is_a_fault_not_a_refusal(app):
    _routes(app)
    answer = app.test_client().get("/test-refused/question")
    assert answer.status_code == 500 and "a test roll" not in text(answer)
