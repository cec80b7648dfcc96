"""Accounts on a club server, the first start's choice, lists that belong to an account and are
read only through their owner, their share code or their public flag, and the migration that
gives the lists saved before accounts an account each without losing one."""
from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa
from _security_helpers import PASSWORD, db, fingerprint, log_in, make_app, seed
from sqlmodel import select

from referee import migrations
from referee.lists import export_text
from referee.table import accounts
from referee.table.lists import ArmyList
from referee.table.models import Account
from referee.web import auth

# --- the first start --------------------------------------------------------------------------------

def test_the_first_start_offers_the_choice_and_works_as_one_table_meanwhile(database_url):
    app = make_app(database_url, MODE=None, SEED_DEMO=True)
    c = app.test_client()
    home = c.get("/").get_data(as_text=True)
    assert "How will this Referee be used?" in home and "create the first account" in home
    assert c.get("/games/1").status_code == 200  # nothing blocks a table that has not chosen yet
    assert c.post("/setup", data={"mode": "laptop"}).status_code == 303
    assert "How will this Referee be used?" not in c.get("/").get_data(as_text=True)


def test_the_first_start_can_make_a_club_server_with_its_first_account(database_url):
    app = make_app(database_url, MODE=None, SEED_DEMO=True)
    c = app.test_client()
    r = c.post("/setup", data={"mode": "club", "name": "Ann", "password": "short", "again": "short"})
    assert r.status_code == 422 and "at least 8" in r.get_data(as_text=True)
    r = c.post("/setup", data={"mode": "club", "name": "Ann", "password": PASSWORD, "again": PASSWORD})
    assert r.status_code == 303
    with db(app) as s:
        assert accounts.get_mode(s) == "club"
        assert accounts.by_name(s, "Ann").is_admin
        assert accounts.by_name(s, "Ann").password_hash.startswith(("scrypt:", "pbkdf2:"))
    assert c.get("/setup").status_code == 404  # chosen once; nobody else can make themselves the first account
    # The seeded demo existed before any seat: on a club server it is closed to a tablet without one.
    assert app.test_client().get("/games/1").status_code == 403


def test_the_environment_can_decide_the_mode(database_url, monkeypatch):
    monkeypatch.setenv("REFEREE_MODE", "club")
    from referee import create_app
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "SEED_DEMO": False,
                      "WTF_CSRF_ENABLED": False, "MODE": None})
    with app.test_request_context("/"):
        assert auth.mode() == "club"


# --- registering and logging in ---------------------------------------------------------------------

def test_register_log_in_and_out(club_app):
    c = club_app.test_client()
    r = c.post("/register", data={"name": "Ann", "password": PASSWORD, "again": PASSWORD})
    assert r.status_code == 422 and "already taken" in r.get_data(as_text=True)
    r = c.post("/register", data={"name": "Cleo", "password": PASSWORD, "again": PASSWORD + "x"})
    assert r.status_code == 422 and "differ" in r.get_data(as_text=True)
    assert c.post("/register", data={"name": "Cleo", "password": PASSWORD, "again": PASSWORD}).status_code == 303
    assert "Cleo" in c.get("/account").get_data(as_text=True)
    c.post("/logout")
    assert c.post("/login", data={"name": "Cleo", "password": "wrong password"}).status_code == 422
    assert c.post("/login", data={"name": "Cleo", "password": PASSWORD}).status_code == 303


def test_wrong_passwords_are_limited(club_app):
    c = club_app.test_client()
    for _ in range(auth.LOGIN_TRIES):
        assert c.post("/login", data={"name": "Bob", "password": "nope nope"}).status_code == 422
    assert c.post("/login", data={"name": "Bob", "password": PASSWORD}).status_code == 429


def test_a_name_from_before_accounts_gets_its_first_password_from_the_first_account(club_app):
    with db(club_app) as s:
        old = accounts.for_owner(s, "Dora")
        s.commit()
        old_id = old.id
    dora = club_app.test_client()
    assert dora.post("/login", data={"name": "Dora", "password": PASSWORD}).status_code == 422
    bob = log_in(club_app.test_client(), "Bob")
    assert bob.post(f"/account/{old_id}/password", data={"password": PASSWORD}).status_code == 403
    ann = log_in(club_app.test_client(), "Ann")
    assert "Dora" in ann.get("/account").get_data(as_text=True)
    # Too short: refused on the account page itself, Dora still waiting there for her password.
    short = ann.post(f"/account/{old_id}/password", data={"password": "short"})
    assert short.status_code == 422 and "at least 8" in short.get_data(as_text=True)
    assert "Names from before accounts" in short.get_data(as_text=True) and "Dora" in short.get_data(as_text=True)
    assert ann.post(f"/account/{old_id}/password", data={"password": PASSWORD}).status_code == 303
    assert dora.post("/login", data={"name": "Dora", "password": PASSWORD}).status_code == 303
    # Once it has a password, nobody else can set it again.
    assert ann.post(f"/account/{old_id}/password", data={"password": "another one!"}).status_code == 422


# --- lists by account -------------------------------------------------------------------------------

def _ids(app):
    with db(app) as s:
        rows = s.exec(select(ArmyList)).all()
        return {r.name: r.id for r in rows}, {r.id: r.share_code for r in rows}


def test_the_owner_name_cookie_means_nothing_on_a_club_server(club_app):
    names, _ = _ids(club_app)
    ridge = names["Example: Wellington's ridge"]
    bob = log_in(club_app.test_client(), "Bob")
    before = fingerprint(club_app)
    assert bob.post("/lists/owner", data={"owner": "Ann"}).status_code == 403
    for path, data in ((f"/lists/{ridge}/rename", {"name": "Mine"}), (f"/lists/{ridge}/delete", {}),
                       (f"/lists/{ridge}/share", {}), (f"/lists/{ridge}/public", {"public": "1"}),
                       (f"/lists/{ridge}/edit", {"op": "save"})):
        assert bob.post(path, data=data).status_code == 403, path
    anonymous = club_app.test_client()
    for path in (f"/lists/{ridge}/rename", "/lists/import", "/lists/examples/example-french-corps", "/games/new"):
        assert anonymous.post(path, data={"name": "x", "text": "{}", "scenario": "demo"}).status_code == 403, path
    assert fingerprint(club_app) == before


def test_a_list_is_read_only_by_its_owner_its_share_code_or_its_public_flag(club_app):
    names, codes = _ids(club_app)
    corps = names["Example: d'Erlon's attack"]
    ridge = names["Example: Wellington's ridge"]
    ann, bob = log_in(club_app.test_client(), "Ann"), log_in(club_app.test_client(), "Bob")
    for suffix in ("", "/print", "/export"):
        assert ann.get(f"/lists/{corps}{suffix}").status_code == 200
        assert bob.get(f"/lists/{corps}{suffix}").status_code == 403, suffix
    assert bob.post(f"/lists/{corps}/duplicate").status_code == 403
    assert f'href="/lists/{corps}"' not in bob.get("/lists/?who=all").get_data(as_text=True)
    # The share code opens the shared one on Bob's tablet, and only that one.
    assert bob.get(f"/lists/{ridge}").status_code == 403
    code = codes[ridge]
    assert bob.get("/lists/s/" + "-".join(re.findall("....", code))).status_code == 200
    assert bob.get(f"/lists/{ridge}/export").status_code == 200
    assert bob.post(f"/lists/{ridge}/duplicate").status_code == 303
    assert bob.get(f"/lists/{corps}").status_code == 403
    # Public to the club: everyone reads it.
    assert ann.post(f"/lists/{corps}/public", data={"public": "1"}).status_code == 303
    assert bob.get(f"/lists/{corps}").status_code == 200
    assert f'href="/lists/{corps}"' in bob.get("/lists/?who=all").get_data(as_text=True)


def test_a_list_made_on_a_club_server_belongs_to_the_account(club_app):
    bob = log_in(club_app.test_client(), "Bob")
    from referee.lists import example_lists
    r = bob.post("/lists/import", data={"text": export_text(example_lists()["example-french-corps"])})
    assert r.status_code == 303
    with db(club_app) as s:
        row = s.exec(select(ArmyList).order_by(ArmyList.id.desc())).first()
        assert (row.owner, row.account_id) == ("Bob", accounts.by_name(s, "Bob").id)


def test_starting_a_game_takes_only_lists_shared_with_you(club_app):
    names, _ = _ids(club_app)
    bob = log_in(club_app.test_client(), "Bob")
    before = fingerprint(club_app)
    r = bob.post("/lists/start", data={"system": "blackpowder", "first": names["Example: d'Erlon's attack"],
                                       "second": names["Example: Prussian advance guard"]})
    assert r.status_code == 403 and fingerprint(club_app) == before


# --- the migration ----------------------------------------------------------------------------------

def test_lists_saved_before_accounts_each_get_an_account_and_none_is_lost(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    migrations.upgrade(url, "0004_campaigns")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for i, (owner, code) in enumerate([("Ann", "ABCDEFGH"), ("Ann", None), ("Bob", "JKMNPQRS"), ("Cleo", None)]):
            conn.execute(sa.text("INSERT INTO armylist (id, owner, name, system, latest, share_code, created, updated) "
                                 "VALUES (:id, :owner, :name, 'blackpowder', 1, :code, '2026-11-01', '2026-11-01')"),
                         {"id": i + 1, "owner": owner, "name": f"List {i + 1}", "code": code})
            conn.execute(sa.text("INSERT INTO armylistversion (list_id, number, name, content, problems, note, created) "
                                 "VALUES (:id, 1, :name, '{}', 0, 'created', '2026-11-01')"),
                         {"id": i + 1, "name": f"List {i + 1}"})
    migrations.upgrade(url)
    with engine.connect() as conn:
        lists = conn.execute(sa.text("SELECT a.id, a.owner, a.name, a.share_code, a.public, c.name, c.password_hash "
                                     "FROM armylist a JOIN account c ON c.id = a.account_id ORDER BY a.id")).all()
        versions = conn.execute(sa.text("SELECT count(*) FROM armylistversion")).scalar()
    assert [(r[1], r[2], r[5]) for r in lists] == [("Ann", "List 1", "Ann"), ("Ann", "List 2", "Ann"),
                                                   ("Bob", "List 3", "Bob"), ("Cleo", "List 4", "Cleo")]
    assert versions == 4
    assert all(r[6] is None for r in lists)  # nobody can log in to them until given a password
    assert not any(r[4] for r in lists)
    codes = [r[3] for r in lists if r[3]]
    assert len(codes) == 2 and all(len(c) == 16 for c in codes) and "ABCDEFGH" not in codes
    # And back down: the lists keep their owners' names.
    migrations.downgrade(url, "0004_campaigns")
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT owner, name FROM armylist ORDER BY id")).all() == [
            ("Ann", "List 1"), ("Ann", "List 2"), ("Bob", "List 3"), ("Cleo", "List 4")]


def test_the_migrated_accounts_are_the_apps_accounts(tmp_path):
    url = f"sqlite:///{tmp_path / 'app.sqlite'}"
    app = make_app(url, MODE="club")
    seed(app)
    with db(app) as s:
        assert {a.name for a in s.exec(select(Account)).all()} >= {"Ann", "Bob"}


@pytest.mark.parametrize("mode", ["laptop", "club"])
def test_a_game_started_on_either_table_has_its_starter_as_umpire(database_url, mode):
    app = make_app(database_url, MODE=mode)
    seed(app)
    c = log_in(app.test_client(), "Ann") if mode == "club" else app.test_client()
    r = c.post("/games/new", data={"scenario": "demo"})
    game_id = int(re.search(r"/games/(\d+)", r.headers["Location"]).group(1))
    page = c.get(f"/games/{game_id}/seats").get_data(as_text=True)
    if mode == "club":
        assert "This tablet is <strong class=\"my-seat\">the umpire</strong>" in page
    else:
        assert "this laptop only" in page



def test_a_campaign_is_changed_only_by_the_account_that_made_it(club_app):
    from pathlib import Path

    import yaml

    from referee.lists import example_lists
    from referee.table import campaign_games as cg
    sword = example_lists()["example-sword-squadron"]
    root = Path(__file__).resolve().parents[2]
    tables = yaml.safe_load((root / "scenarios" / "campaigns" / "oilandiron-example-tables.yaml").read_text())
    with db(club_app) as s:
        campaign_id = cg.new_oilandiron(s, "League", {"p1": ("Ann", sword.model_copy(update={"name": "A"})),
                                                      "p2": ("Bob", sword.model_copy(update={"name": "B"}))},
                                        tables, owner="Ann").id
    bob = log_in(club_app.test_client(), "Bob")
    before = fingerprint(club_app)
    for path in (f"/campaigns/{campaign_id}/undo", f"/campaigns/{campaign_id}/tables", f"/campaigns/{campaign_id}/start"):
        r = bob.post(path, data={"version": "1"})
        assert r.status_code == 403 and "League” is Ann's campaign" in html.unescape(r.get_data(as_text=True)), path
    assert fingerprint(club_app) == before
    ann = log_in(club_app.test_client(), "Ann")
    assert ann.post(f"/campaigns/{campaign_id}/undo", data={"version": "1"}).status_code != 403
