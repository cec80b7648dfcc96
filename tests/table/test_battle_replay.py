"""A battle replays from its document and log alone, whatever the data files say later: the
engine reads nothing but the document while it plays. (Of Oil and Iron has the same test at the
engine level, tests/rules/oilandiron/test_replay.py.)"""
from __future__ import annotations

import pytest

from referee.systems.replay import initial_state, replay
from referee.table import game_log, service
from referee.table.db import create_tables, make_engine, session


@pytest.fixture()
def engine(database_url):
    eng = make_engine(database_url)
    create_tables(eng)
    return eng


def _in_force(s, game_id: int) -> list[dict]:
    entries = [e for e in reversed(game_log.log(s, game_id)) if not e.undone and not e.discarded]
    return [{"action": e.action, "facts": e.facts, "dice": e.dice, "changes": e.changes} for e in entries]


def _play(s, game_id: int, moves: list[tuple[str, dict]]) -> None:
    for action, facts in moves:
        version = service.get_game(s, game_id).version
        if action == "undo":
            service.undo(s, game_id, version)
        else:
            service.perform(s, game_id, version, action, facts)


BATTLE_MOVES = [
    ("order", {"units": ["11th-leger"], "distance_steps": 1}),
    ("order", {"units": ["4th-chasseurs-a-cheval", "9th-chasseurs-a-cheval"]}),
    ("next_phase", {}),
    ("shoot", {"shooter": "7th-division-foot-battery", "target": "1-7th-musketeers", "range_band": "long"}),
    ("shoot", {"shooter": "11th-leger", "target": "2-7th-musketeers"}),
    ("undo", {}),
    ("shoot", {"shooter": "12th-leger", "target": "2-7th-musketeers"}),
    ("next_phase", {}),
    ("next_phase", {}),
    ("shoot", {"shooter": "3rd-brigade-foot-battery", "target": "82nd-ligne", "range_band": "medium"}),
]


def test_a_battle_replays_to_the_same_state_after_the_army_lists_change(engine, monkeypatch):
    from referee.data import blackpowder as data
    from referee.data.scenarios import new_battle_from_scenario

    with session(engine) as s:
        game = service.create_game(s, "Replay", "blackpowder", new_battle_from_scenario("demo"), seed=11)
        _play(s, game.id, BATTLE_MOVES)
        game = service.get_game(s, game.id)
        final, entries = game.state, _in_force(s, game.id)
    assert len(entries) == 8 and entries[-1]["action"] == "shoot"

    # The army lists change after the battle: every profile shoots and saves differently.
    profiles = data.load_unit_profiles()
    changed = {k: p.model_copy(update={"shooting": 1, "morale": 6}) if hasattr(p, "model_copy") else p
               for k, p in profiles.items()}
    monkeypatch.setattr(data, "load_unit_profiles", lambda *a, **k: changed)

    start = initial_state(final, entries)
    assert start["turn"] == 1 and start["phase"] == "command"
    assert replay("blackpowder", start, entries) == final
