"""The last server errors a client could cause (issue 35, 6): deleting a saved list, a form key of
thousands of nested parts, and a weapon's perk sent in pieces without its name."""
from __future__ import annotations

from _security_helpers import db, fingerprint
from sqlalchemy import text
from sqlmodel import select

from referee.table import lists as saved
from referee.table.models import Game, LogEntry


def _owner(app):
    client = app.test_client()
    client.post("/lists/owner", data={"owner": "Ann"})
    return client


def _games(app):
    with db(app) as s:
        return [tuple(r) for r in s.exec(select(Game.id, Game.version, Game.updated, Game.name)).all()], \
            len(s.exec(select(LogEntry)).all())


def test_a_copied_example_list_is_deleted(laptop_app):
    c = _owner(laptop_app)
    r = c.post("/lists/examples/example-french-corps")
    list_id = int(r.headers["Location"].rsplit("/", 1)[-1])
    assert c.post(f"/lists/{list_id}/delete").status_code == 303
    with db(laptop_app) as s:
        assert s.get(saved.ArmyList, list_id) is None
        assert not s.exec(select(saved.ArmyListVersion).where(saved.ArmyListVersion.list_id == list_id)).all()
    assert c.get(f"/lists/{list_id}").status_code == 404


def test_a_list_games_were_started_from_is_deleted_without_touching_them(laptop_app):
    with db(laptop_app) as s:
        ridge = s.exec(select(saved.ArmyList).where(saved.ArmyList.name == "Example: Wellington's ridge")).one().id
        used = saved.games_of_list(s, ridge)
    assert used
    games = _games(laptop_app)
    c = _owner(laptop_app)
    assert c.post(f"/lists/{ridge}/delete").status_code == 303
    assert _games(laptop_app) == games
    game_id = used[0][0].id
    assert c.get(f"/games/{game_id}").status_code == 200
    with db(laptop_app) as s:  # the foreign keys still hold
        assert not s.exec(text("PRAGMA foreign_key_check")).all()


def test_someone_elses_list_is_not_deleted(laptop_app):
    with db(laptop_app) as s:
        bobs = s.exec(select(saved.ArmyList).where(saved.ArmyList.owner == "Bob")).one().id
    before = fingerprint(laptop_app)
    assert _owner(laptop_app).post(f"/lists/{bobs}/delete").status_code == 403
    assert fingerprint(laptop_app) == before


def test_a_form_key_of_thousands_of_parts_is_left_out(laptop_app):
    c = _owner(laptop_app)
    deep = "a." * 3000 + "b"
    assert c.post("/lists/check/blackpowder", data={deep: "x"}).status_code == 200
    assert c.post("/lists/new/blackpowder", data={deep: "x", "name": "Deep"}).status_code == 200
    r = c.post("/lists/examples/example-french-corps")
    list_id = int(r.headers["Location"].rsplit("/", 1)[-1])
    assert c.post(f"/lists/{list_id}/edit", data={deep: "x"}).status_code == 200


def test_a_perk_without_its_name_is_a_problem_not_an_error(laptop_app):
    c = _owner(laptop_app)
    for data in ({"cards.weapons.0.name": "Gun", "cards.weapons.0.perks.0.x": "3"},
                 {"cards.weapons.0.name": "Gun", "cards.weapons.0.perks.0": "3"},
                 {"cards.weapons.0.name": "Gun", "cards.weapons.0.perks.name": "melee"}):
        assert c.post("/lists/new/oilandiron", data=data).status_code < 500, data
        assert c.post("/lists/check/oilandiron", data=data).status_code < 500, data
