"""What the security tests share (imported by name: the test folders are not packages): an app
in either mode, a seeded table, a fingerprint of every row in the database, and logging in."""
from __future__ import annotations

import hashlib

from _apps import make_app  # noqa: F401  (the security tests make their apps by it)
from sqlalchemy import text
from sqlmodel import SQLModel

from referee.data.scenarios import new_battle_from_scenario
from referee.lists import example_lists
from referee.lists.games import game_from_lists
from referee.table import accounts, roles, service
from referee.table import lists as saved
from referee.table.db import session as db_session

EXAMPLES = example_lists()
PASSWORD = "correct horse battery"


def db(app):
    return db_session(app.extensions["referee.engine"])


def seed(app) -> dict:
    """A battle (game 1), an engagement (game 2), lists of Ann's (one shared, one used by a game
    started from lists: game 3) and one of Bob's; accounts Ann and Bob with passwords."""
    with db(app) as s:
        ann = accounts.register(s, "Ann", PASSWORD, admin=True)
        accounts.register(s, "Bob", PASSWORD)
        battle = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo"), seed=7)
        sword = EXAMPLES["example-sword-squadron"]
        engagement = service.create_game(s, "Skirmish", "oilandiron", game_from_lists("Skirmish", sword, sword), seed=3)
        ridge = saved.create_list(s, "Ann", EXAMPLES["example-british-ridge"]).armylist
        corps = saved.create_list(s, "Ann", EXAMPLES["example-french-corps"]).armylist
        code = saved.share(s, ridge.id, "Ann")
        bobs = saved.create_list(s, "Bob", EXAMPLES["example-prussian-brigade"]).armylist
        from_lists = saved.start_game(s, "Ridge", ridge.id, corps.id, owner="Ann")
        for game in (battle, engagement, from_lists):
            roles.join_codes(s, game)
        return {"battle": battle.id, "engagement": engagement.id, "from_lists": from_lists.id, "ann": ann.id,
                "ridge": ridge.id, "corps": corps.id, "bobs": bobs.id, "share_code": code}


def fingerprint(app) -> str:
    """Every row of every table, hashed: equal fingerprints mean nothing in the database changed."""
    digest = hashlib.sha256()
    with app.extensions["referee.engine"].connect() as conn:
        for name in sorted(SQLModel.metadata.tables):
            table = SQLModel.metadata.tables[name]
            order = ", ".join(c.name for c in table.primary_key.columns) or "1"
            for row in conn.execute(text(f'SELECT * FROM "{name}" ORDER BY {order}')):
                digest.update(repr((name, tuple(row))).encode())
    return digest.hexdigest()


def log_in(client, name: str, password: str = PASSWORD):
    r = client.post("/login", data={"name": name, "password": password})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    return client
