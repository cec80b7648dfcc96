"""Revision 0003: engagements stored before the engine stopped reading the data file get their
engagement type's rules copied into their document, the same rules a new engagement carries, and
play on from there; downgrading takes the copy away again."""
from __future__ import annotations

from sqlmodel import select

from referee import migrations
from referee.core.dice import ScriptedDice
from referee.core.docstate import apply_changes
from referee.data.oilandiron import setup_engagement, squadron_state
from referee.oilandiron import GAME
from referee.table.db import make_engine, session
from referee.table.models import Game


def _sabotage() -> dict:
    rigs = {**squadron_state("p1", [{"id": "a", "name": "A", "chassis": "example_medium_brawler"}]),
            **squadron_state("p2", [{"id": "t", "name": "T", "chassis": "example_heavy_siege"}])}
    return setup_engagement("Old", {"p1": {"name": "Anna"}, "p2": {"name": "Ben"}}, rigs, "sabotage")


def _stored_before_0003(tmp_path, docs: list[tuple[str, dict]]):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    migrations.upgrade(url, "0002_saved_army_lists")
    engine = make_engine(url)
    with session(engine) as s:
        for system, state in docs:
            s.add(Game(name=state.get("name", "x"), system=system, state=state))
        s.commit()
    return url, engine


def _states(engine) -> list[dict]:
    with session(engine) as s:
        return [g.state for g in s.exec(select(Game).order_by(Game.id)).all()]


def test_old_engagements_get_their_types_rules_and_play_on(tmp_path):
    fresh = _sabotage()
    old = {k: v for k, v in fresh.items() if k != "engagement_rules"}
    friendly = {k: v for k, v in setup_engagement("Friendly", {"p1": {"name": "A"}, "p2": {"name": "B"}},
                                                  fresh["rigs"]).items() if k != "engagement_rules"}
    battle = {"turn": 3}
    url, engine = _stored_before_0003(tmp_path, [("oilandiron", old), ("oilandiron", friendly),
                                                 ("blackpowder", battle)])
    migrations.upgrade(url)
    migrated, friendly_after, battle_after = _states(engine)
    assert migrated == fresh  # exactly what a new Sabotage engagement carries
    assert friendly_after["engagement_rules"] is None and battle_after == battle
    # The migrated engagement plays on: wrecking Ben's objectives wins Sabotage, read from the copy.
    objectives = {oid: dict(o, destroyed=o["owner"] == "p2") for oid, o in migrated["objectives"].items()}
    state = dict(migrated, phase="maintenance", objectives=objectives)
    result = GAME.resolve(state, "end_round", GAME.action("end_round").facts(), ScriptedDice([]))
    assert apply_changes(state, result.all_changes)["winner"] == "p1"

    migrations.downgrade(url, "0002_saved_army_lists")
    assert "engagement_rules" not in _states(engine)[0]
