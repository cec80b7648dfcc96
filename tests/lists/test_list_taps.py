"""Every write to a list sent twice with one token (its answer lost on the way, or a double tap): the
second is led where the first was, told it was already recorded, and nothing changes again (one
list, one version, one game). A refused write takes its token back: sent again, it is tried again."""
from __future__ import annotations

import re
from datetime import timedelta
from io import BytesIO

import pytest
from sqlmodel import select
from test_routes import EXAMPLES, form_of, import_example, rows
from werkzeug.datastructures import MultiDict

from referee import create_app
from referee.lists import export_text
from referee.table import tap_answers
from referee.table.db import session as db_session
from referee.table.lists import ArmyList, ArmyListVersion
from referee.table.models import Game
from referee.table.tap_answers import TapAnswer


@pytest.fixture
def app(database_url):
    return create_app({"TESTING": True, "SECRET_KEY": "tests", "WTF_CSRF_ENABLED": False, "SEED_DEMO": False,
                       "DATABASE_URL": database_url})


@pytest.fixture
def client(app):
    c = app.test_client()
    c.post("/lists/owner", data={"owner": "Ann"})
    return c


def state(app) -> tuple:
    """What a list write can change: the lists (name, newest version, code, public), every version, the games."""
    lists = sorted((r.id, r.name, r.latest, r.share_code, r.public) for r in rows(app, ArmyList))
    return lists, len(rows(app, ArmyListVersion)), len(rows(app, Game))


def twice(client, app, url, data, token, **kw):
    """The same write sent twice with one token: the same answer, and the second changes nothing."""
    first = client.post(url, data=data() | {"token": token}, **kw)
    assert first.status_code == 303, first.get_data(as_text=True)[:400]
    after = state(app)
    again = client.post(url, data=data() | {"token": token}, **kw)
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert state(app) == after
    return first


def test_every_write_to_a_list_sent_again_with_its_token_is_done_once(client, app):
    url = import_example(client, "example-british-ridge").headers["Location"]
    b = import_example(client, "example-french-corps").headers["Location"].rsplit("/", 1)[1]
    a = url.rsplit("/", 1)[1]
    before = state(app)
    upload = lambda: {"file": (BytesIO(export_text(EXAMPLES["example-british-ridge"]).encode()), "list.json")}  # noqa: E731
    imported = twice(client, app, "/lists/import", upload, "importOnceToken", content_type="multipart/form-data")
    assert state(app)[0] != before[0] and len(state(app)[0]) == 3
    twice(client, app, "/lists/examples/example-french-corps", dict, "exampleOnceToken")
    twice(client, app, url + "/rename", lambda: {"name": "Grand Battery"}, "renameOnceToken")
    twice(client, app, url + "/duplicate", lambda: {"name": "Copy once"}, "duplicateOnceToken")
    twice(client, app, url + "/share", dict, "shareOnceToken")
    twice(client, app, url + "/public", lambda: {"public": "1"}, "publicOnceToken")
    started = twice(client, app, "/lists/start", lambda: {"system": "blackpowder", "first": a, "second": b,
                                                          "name": "Ridge"}, "startOnceToken")
    assert started.headers["Location"].startswith("/games/") and len(rows(app, Game)) == 1
    twice(client, app, imported.headers["Location"] + "/delete", dict, "deleteOnceToken")
    # Each write made one row of its own, and the page it leads to says a tap sent again was already recorded.
    assert len(rows(app, TapAnswer)) == 8
    client.post(url + "/rename", data={"name": "Once more", "token": "renameOnceToken"})
    assert "already recorded" in client.get(url).get_data(as_text=True)
    assert [r.name for r in rows(app, ArmyList) if str(r.id) == a] == ["Grand Battery"]


def test_a_list_saved_from_its_builder_twice_is_saved_once(client, app):
    url = "/lists/new/blackpowder"
    fields = dict(form_of(client.get(url)))
    fields.update({"name": "Picton", "nation": "british", "general.name": "Wellington", "general.staff_rating": "9",
                   "brigades.0.name": "Kempt", "brigades.0.commander.name": "Kempt",
                   "brigades.0.commander.staff_rating": "7"})
    data = lambda: MultiDict([*fields.items(), ("op", "save")])  # noqa: E731
    first = client.post(url, data=MultiDict([*data().items(multi=True), ("token", "saveOnceToken")]))
    again = client.post(url, data=MultiDict([*data().items(multi=True), ("token", "saveOnceToken")]))
    assert first.status_code == again.status_code == 303 and first.headers["Location"] == again.headers["Location"]
    assert len(rows(app, ArmyList)) == 1 and len(rows(app, ArmyListVersion)) == 1
    edit = first.headers["Location"] + "/edit"
    fields = dict(form_of(client.get(edit)))
    fields["name"] = "Picton's men"
    for _ in range(2):
        client.post(edit, data=MultiDict([*fields.items(), ("op", "save"), ("token", "editOnceToken")]))
    assert len(rows(app, ArmyListVersion)) == 2


def test_a_refused_write_keeps_no_token_and_is_tried_again(client, app):
    url = import_example(client, "example-british-ridge").headers["Location"]
    r = client.post(url + "/rename", data={"name": "  ", "token": "refusedOnceToken"})
    assert r.status_code == 422
    with app.app_context():
        assert not rows(app, TapAnswer)
    client.post("/lists/owner", data={"owner": "Ben"})
    assert client.post(url + "/delete", data={"token": "notMineToken"}).status_code == 403
    client.post("/lists/owner", data={"owner": "Ann"})
    assert client.post(url + "/delete", data={"token": "notMineToken"}).status_code == 303
    assert rows(app, ArmyList) == []  # the second try, by the owner, was done


def test_without_javascript_a_lists_forms_carry_the_token_they_were_drawn_with(client, app):
    url = import_example(client, "example-british-ridge").headers["Location"]
    page = client.get(url).get_data(as_text=True)
    form = page[page.index('action="' + url + '/duplicate"'):]
    token = re.search(r'name="token" value="([A-Za-z]{20})"', form[:form.index("</form>")]).group(1)
    # The form posted twice as drawn (the browser's Back after a lost answer, then the same tap): one copy.
    for _ in range(2):
        assert client.post(url + "/duplicate", data={"name": "Copy", "token": token}).status_code == 303
    assert sorted(r.name for r in rows(app, ArmyList)) == ["Copy", EXAMPLES["example-british-ridge"].name]


def test_the_answers_of_old_taps_are_let_go_and_a_sweep_comes_by_itself(client, app, monkeypatch):
    """A tap's answer is asked for again within moments; after two days it is let go, and the
    sweep runs by itself as answers are recorded, so the table does not grow all season."""
    monkeypatch.setattr(tap_answers, "SWEEP_EVERY", 2)
    monkeypatch.setattr(tap_answers, "_answers_since_sweep", 0)
    url = import_example(client, "example-british-ridge").headers["Location"]
    assert client.post(url + "/rename", data={"name": "Old", "token": "firstRenameToken"}).status_code == 303
    with db_session(app.extensions["referee.engine"]) as s:
        [old] = [t for t in s.exec(select(TapAnswer)).all() if t.token == "firstRenameToken"]
        old.created = tap_answers.now() - timedelta(days=3)
        s.add(old)
        s.commit()
        assert tap_answers.let_go_of_old_answers(s, at=old.created + timedelta(days=1)) == 0
    assert client.post(url + "/rename", data={"name": "New", "token": "secondRenameToken"}).status_code == 303
    assert "firstRenameToken" not in [t.token for t in rows(app, TapAnswer)]
    assert "secondRenameToken" in [t.token for t in rows(app, TapAnswer)]
