"""The state column keeps each document it wrote or read (table/state_column.py): the same text
gives back the same document, a write's document is the one read after it, and a document
changed in place is caught, not silently served."""
from __future__ import annotations

import json

import pytest

from referee.data.scenarios import new_battle_from_scenario
from referee.table import db, service, state_column
from referee.table.models import Game


@pytest.fixture
def engine(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path / 'state.db'}")
    db.create_tables(engine)
    return engine


def _read(engine, game_id):
    with db.session(engine) as s:
        return s.get(Game, game_id).state


def test_reading_the_same_version_twice_gives_the_same_document(engine):
    with db.session(engine) as s:
        game_id = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo")).id
    first, second = _read(engine, game_id), _read(engine, game_id)
    assert first is second


def test_an_action_keeps_every_unit_it_did_not_touch_as_the_same_object(engine):
    with db.session(engine) as s:
        game = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo"))
        game_id, version = game.id, game.version
    before = _read(engine, game_id)
    with db.session(engine) as s:
        service.perform(s, game_id, version, "next_phase", {})
    after = _read(engine, game_id)
    assert after is not before
    assert after["phase"] != before["phase"]
    assert all(after["units"][u] is before["units"][u] for u in before["units"])


def test_a_document_changed_in_place_is_caught(engine, monkeypatch):
    monkeypatch.setenv("REFEREE_CHECK_STATE", "1")
    with db.session(engine) as s:
        game_id = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo")).id
    doc = _read(engine, game_id)
    doc["turn"] = 99  # what no code may do: change a stored document in place
    with pytest.raises(state_column.StateChangedInPlace):
        _read(engine, game_id)
    state_column.KEPT.clear()
    assert _read(engine, game_id)["turn"] != 99  # the database was never touched


def test_a_document_no_longer_kept_is_decoded_again_equal(engine):
    with db.session(engine) as s:
        game_id = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo")).id
    first = _read(engine, game_id)
    state_column.KEPT.clear()
    again = _read(engine, game_id)
    assert again == first and again is not first


def test_a_new_games_document_stays_its_callers_and_is_not_kept_as_handed_in(engine):
    doc = new_battle_from_scenario("demo")
    with db.session(engine) as s:
        game_id = service.create_game(s, "Demo", "blackpowder", doc).id
    first_unit = next(iter(doc["units"]))
    doc["units"][first_unit]["casualties"] = 5  # the caller's own copy, changed after the game began
    assert _read(engine, game_id)["units"][first_unit].get("casualties", 0) != 5


def test_a_document_is_written_whatever_its_keys_and_numbers(monkeypatch):
    """Keys all strings (every document the engines make) go the quick way, without orjson's
    option for other keys; a key that is not a string, or a whole number beyond 64 bits, still
    gives the JSON it stands for."""
    import orjson
    options = []
    dumps = orjson.dumps
    monkeypatch.setattr(state_column.orjson, "dumps", lambda doc, option=None: options.append(option) or dumps(doc, option=option))
    plain = {"units": {"u1": {"casualties": 2, "name": "Légère – 1st"}}}
    assert json.loads(state_column.encode(plain)) == plain and options == [None]
    assert json.loads(state_column.encode({1: "a", "b": [1, 2]})) == {"1": "a", "b": [1, 2]}
    assert json.loads(state_column.encode({"big": 2 ** 70})) == {"big": 2 ** 70}
