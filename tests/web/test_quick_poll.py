"""The board's "nothing changed" poll is answered before Flask (web/serving/quick_poll.py): the same empty
204 with the same headers, only for a tablet whose poll the app itself answered a short while
ago, and every poll that is not the plainest one goes on to the poll route as before."""
from __future__ import annotations

import gzip
import threading
import time

import pytest
from _web_helpers import HTMX

from referee.table import handover
from referee.web.serving import compression, live, quick_poll

HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
           "Cross-Origin-Opener-Policy", "Vary")


@pytest.fixture
def route_off(app, client, table):
    """The tablet's first poll answered by the app (which vouches for it), then the poll route
    made to fail, so a later answer that reaches it shows as a 500."""
    assert client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX).status_code == 204

    def refuse(game_id):
        raise AssertionError("the poll route was reached")
    kept = app.view_functions["games.poll"]
    app.view_functions["games.poll"] = refuse
    app.config["PROPAGATE_EXCEPTIONS"] = False
    yield
    app.view_functions["games.poll"] = kept


def test_an_unchanged_board_is_answered_before_the_poll_route(client, table, route_off):
    r = client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX)
    assert r.status_code == 204 and r.get_data() == b""


def test_only_for_a_tablet_the_app_answered_lately(app, client, table, route_off, monkeypatch):
    """Another tablet (other cookies) has its first poll answered by the app; so does this one
    once the app's word is older than ``TRUST``."""
    stranger = app.test_client()
    stranger.set_cookie("session", "someone-else")
    assert stranger.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX).status_code == 500
    later = quick_poll.time.monotonic() + quick_poll.TRUST + 1
    monkeypatch.setattr(quick_poll.time, "monotonic", lambda: later)
    assert client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX).status_code == 500


@pytest.mark.parametrize("base", ["http://localhost", "http://10.0.0.5"])
def test_the_quick_answer_carries_the_headers_the_app_gives(app, client, table, base):
    client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX, base_url=base)  # vouched for
    route, reached = app.view_functions["games.poll"], []
    app.view_functions["games.poll"] = lambda game_id: reached.append(game_id) or route(game_id)
    quick = client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX, base_url=base)
    assert reached == []
    # The same poll through Flask alone (the middleware's inner app).
    inner = app.wsgi_app
    app.wsgi_app = inner.app
    try:
        flask = client.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX, base_url=base)
    finally:
        app.wsgi_app = inner
        app.view_functions["games.poll"] = route
    assert reached == [table.id]
    assert quick.status_code == flask.status_code == 204
    for name in HEADERS:
        assert quick.headers.get(name) == flask.headers.get(name), name
    assert ("Cross-Origin-Opener-Policy" in quick.headers) == (base == "http://localhost")
    assert "Set-Cookie" not in quick.headers


@pytest.mark.parametrize("ask", [
    "v={older}",           # the board moved on: what changed is drawn by the route
    "v={version}&p=x",     # the tablet shows a waiting roll
    "v={version}&v=1",     # two versions: not a poll the page sends
    "v=%C2%B2",            # not a version
    "v={version}&more=1",  # a field the poll does not send
])
def test_any_other_poll_goes_on_to_the_route(client, table, route_off, ask):
    game = table.game()
    query = ask.format(version=game.version, older=game.version - 1)
    # The route (made to fail here) or the input check before it answers; never the quick 204.
    assert client.get(f"/games/{table.id}/poll?{query}", headers=HTMX).status_code in (422, 500)


def test_no_quick_answer_without_htmx_or_for_a_history_restore_or_another_game(client, table, route_off):
    v = table.version
    assert client.get(f"/games/{table.id}/poll?v={v}").status_code == 500
    assert client.get(f"/games/{table.id}/poll?v={v}",
                      headers={**HTMX, "HX-History-Restore-Request": "true"}).status_code == 500
    assert client.get(f"/games/{table.id + 1}/poll?v={v}", headers=HTMX).status_code == 500


def test_a_roll_waiting_for_another_side_is_never_answered_quickly(app, client, table, db, route_off):
    game = table.game()
    db.add(handover.PendingRoll(game_id=game.id, version=game.version, action="shoot", actor="blue",
                                count=2, sides=6, purpose="saves", side="red"))
    db.commit()
    assert client.get(f"/games/{table.id}/poll?v={game.version}", headers=HTMX).status_code == 500


def test_the_route_still_answers_what_it_answered(client, table):
    """Through the whole app: an older version gets what changed, no such game a 404, a browser
    asking without htmx the board page (or an empty answer when it shows the current version)."""
    game = table.game()
    assert client.get(f"/games/{table.id}/poll?v={game.version - 1}", headers=HTMX).status_code == 200
    assert client.get(f"/games/{table.id + 1}/poll?v=1", headers=HTMX).status_code == 404
    assert client.get(f"/games/{table.id}/poll?v={game.version - 1}").status_code == 302
    assert client.get(f"/games/{table.id}/poll?v={game.version}").status_code == 204


def test_what_changed_is_handed_out_quickly_once_the_app_has_worked_it_out(app, client, table, monkeypatch):
    """After a change, the first tablet to ask is answered by the app; another tablet showing the
    same version gets the very same bytes and headers before Flask, gzipped if it takes gzip."""
    seen = table.version
    other = app.test_client()
    for t in (client, other):  # both tablets show the board, and the app answered a poll of each
        assert t.get(f"/games/{table.id}").status_code == 200
        assert t.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).status_code == 204
    unit = next(iter(table.state["units"]))
    r = client.post(f"/games/{table.id}/act/adjust_unit", headers=HTMX,
                    data={"version": seen, "unit": unit, "field": "casualties", "value": "1"})
    assert r.status_code == 200
    gz = {**HTMX, "Accept-Encoding": "gzip"}
    packed = []
    for where in (live, compression):  # the answer is gzipped once, for the app and the quick path
        monkeypatch.setattr(where, "pack", lambda data, _pack=compression.pack: packed.append(1) or _pack(data))
    first = client.get(f"/games/{table.id}/poll?v={seen}", headers=gz)  # worked out by the app
    route, reached = app.view_functions["games.poll"], []
    app.view_functions["games.poll"] = lambda game_id: reached.append(game_id) or route(game_id)
    try:
        quick = other.get(f"/games/{table.id}/poll?v={seen}", headers=gz)
        plain = other.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)
    finally:
        app.view_functions["games.poll"] = route
    assert reached == []
    assert len(packed) == 1
    assert first.status_code == quick.status_code == plain.status_code == 200
    assert quick.get_data() == first.get_data() and quick.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(quick.get_data()) == plain.get_data()
    for name in (*HEADERS, "Content-Type", "Content-Encoding"):
        assert quick.headers.get(name) == first.headers.get(name), name
    assert f'data-version="{table.version}"' in plain.get_data(as_text=True)


def test_what_changed_is_worked_out_before_flask_when_both_versions_are_drawn(app, client, table):
    """A tablet asking after a change the app has drawn, from a version it has drawn too, is
    answered before Flask even when no tablet has asked for that pair of versions yet: the
    answer is worked out from the two drawings there, the very text the poll route would send."""
    seen = table.version
    other = app.test_client()
    assert other.get(f"/games/{table.id}").status_code == 200  # draws the version it shows
    assert other.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).status_code == 204
    unit = next(iter(table.state["units"]))
    r = client.post(f"/games/{table.id}/act/adjust_unit", headers=HTMX,
                    data={"version": seen, "unit": unit, "field": "casualties", "value": "1"})
    assert r.status_code == 200
    assert client.get(f"/games/{table.id}").status_code == 200  # the new version drawn, no answer worked out
    kept = app.extensions[live.DRAWINGS]
    old, new = kept.get(table.id, seen), kept.get(table.id, table.version)
    assert old is not None and new is not None and new.answers == {}
    route, reached = app.view_functions["games.poll"], []
    app.view_functions["games.poll"] = lambda game_id: reached.append(game_id) or route(game_id)
    try:
        quick = other.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)
    finally:
        app.view_functions["games.poll"] = route
    assert reached == []
    assert quick.status_code == 200
    body = quick.get_data(as_text=True)
    assert body == live.with_version(live.changes(old, new), new.version)
    assert f'id="unit-{unit}"' in body and 'hx-swap-oob="true"' in body
    assert f'data-version="{table.version}"' in body
    assert len(body) < len(new.units) / 4  # what changed, not the board


def test_a_tablet_asking_while_the_change_is_being_drawn_waits_for_that_drawing_before_flask(
        app, client, table, monkeypatch):
    """The first tablet to ask after a change has it drawn through the app; another asking while
    that drawing is under way waits for it before Flask and is sent the same answer from it."""
    seen = table.version
    other = app.test_client()
    for t in (client, other):
        assert t.get(f"/games/{table.id}").status_code == 200
        assert t.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX).status_code == 204
    unit = next(iter(table.state["units"]))
    r = client.post(f"/games/{table.id}/act/adjust_unit", headers=HTMX,
                    data={"version": seen, "unit": unit, "field": "casualties", "value": "1"})
    assert r.status_code == 200
    kept = app.extensions[live.DRAWINGS]
    assert kept.get(table.id, table.version) is None
    monkeypatch.setattr(live, "prepared", lambda html, _prepared=live.prepared: time.sleep(0.4) or _prepared(html))
    route, reached = app.view_functions["games.poll"], []
    app.view_functions["games.poll"] = lambda game_id: reached.append(game_id) or route(game_id)
    answers = {}
    first = threading.Thread(target=lambda: answers.setdefault(
        "first", client.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)))
    try:
        first.start()
        deadline = time.monotonic() + 5
        while (table.id, table.version) not in kept.drawing and time.monotonic() < deadline:
            time.sleep(0.005)
        assert (table.id, table.version) in kept.drawing, "the first poll never began drawing"
        answers["second"] = other.get(f"/games/{table.id}/poll?v={seen}", headers=HTMX)
        first.join(10)
    finally:
        app.view_functions["games.poll"] = route
    assert reached == [table.id]
    assert answers["first"].status_code == answers["second"].status_code == 200
    assert answers["second"].get_data() == answers["first"].get_data()
    assert f'data-version="{table.version}"' in answers["second"].get_data(as_text=True)


def test_a_new_tablet_opening_the_board_has_its_first_poll_answered_quickly(app, table):
    """A tablet with no cookie yet opens the board (the app sets its session cookie there); its
    first poll, carrying that cookie, is answered before Flask. Another tablet is not."""
    tablet = app.test_client()
    page = tablet.get(f"/games/{table.id}")
    assert page.status_code == 200
    route, reached = app.view_functions["games.poll"], []
    app.view_functions["games.poll"] = lambda game_id: reached.append(game_id) or route(game_id)
    try:
        assert tablet.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX).status_code == 204
        assert reached == []
        stranger = app.test_client()
        stranger.set_cookie("session", "someone-else")
        assert stranger.get(f"/games/{table.id}/poll?v={table.version}", headers=HTMX).status_code == 204
        assert reached == [table.id]
    finally:
        app.view_functions["games.poll"] = route


def test_the_session_a_tablet_is_known_by(app):
    quick = app.extensions["referee.quick_poll"]
    assert quick.session_of("session=abc; other=1") == ("abc", "")
    assert quick.session_of("other=1; remember_token=r; session=abc") == ("abc", "r")
    assert quick.session_of("", ['session=new; HttpOnly; Path=/; SameSite=Lax']) == ("new", "")
    assert quick.session_of("session=old", ['session=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/']) == ("", "")
    assert quick.session_of("session=abc") != quick.session_of("session=abd")
    # A Cookie header read once is remembered; one too long to remember is read every time, the same way.
    long = "session=abc; filler=" + "x" * quick_poll.REMEMBER_UP_TO
    assert quick.session_of(long) == ("abc", "")
    assert quick.session_of("session=abc; other=1") == ("abc", "")
    assert quick_poll._remembered_cookies.cache_info().hits >= 1


def test_the_quick_look_asks_the_database_driver_itself(app, client, table, route_off):
    """The quick 204 reads the version through the driver, not through SQLAlchemy's statement
    machinery (which the engine's ``before_cursor_execute`` event sees); a stale tablet is still
    told what changed, and a game that is not there still goes on to the app."""
    from sqlalchemy import event

    engine = app.extensions["referee.engine"]
    game_id, version = table.id, table.version  # read before listening: the fixture's row may reload
    seen = []

    def note(conn, cursor, statement, *rest):
        seen.append(statement)
    event.listen(engine, "before_cursor_execute", note)
    try:
        r = client.get(f"/games/{game_id}/poll?v={version}", headers=HTMX)
        assert r.status_code == 204 and seen == []
    finally:
        event.remove(engine, "before_cursor_execute", note)
    look = app.extensions["referee.quick_poll"].look
    assert look(game_id) == (version, None)
    assert look(game_id + 1000) is None
