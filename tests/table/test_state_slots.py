"""The engine's document written in slots (table/state_slots.py): JSON for the same document,
laid out so that a change which keeps each changed unit in its slot keeps the text's length and
every byte outside that slot, which lets SQLite write again only the pages that changed."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.dialects import sqlite

from referee.data.scenarios import new_battle_from_scenario
from referee.table import db, service, state_column, state_slots
from referee.table.models import Game


def _with_unit(doc: dict, unit_id: str, **fields) -> dict:
    """The next version as the engines make it: copies of what changed, the rest shared."""
    units = dict(doc["units"])
    units[unit_id] = {**units[unit_id], **fields}
    return {**doc, "units": units}


def test_the_text_is_json_for_the_same_document_padded_to_whole_blocks():
    doc = new_battle_from_scenario("demo")
    laid_out = state_slots.encode(doc)
    assert json.loads(laid_out) == doc
    assert len(laid_out.encode()) % state_slots.WHOLE == 0
    assert len(laid_out) > len(state_column.encode(doc))


def test_a_unit_changed_within_its_slot_moves_no_other_byte():
    doc = new_battle_from_scenario("demo")
    unit_id = list(doc["units"])[3]
    before = state_slots.encode(doc).encode()
    after = state_slots.encode(_with_unit(doc, unit_id, casualties=2)).encode()
    assert len(after) == len(before)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    slot_starts = before.index(json.dumps(unit_id).encode() + b":{")
    next_unit = before.index(json.dumps(list(doc["units"])[4]).encode() + b":{")
    assert changed and slot_starts <= changed[0] and changed[-1] < next_unit


def test_a_unit_outgrowing_its_slot_is_still_written_right():
    doc = new_battle_from_scenario("demo")
    unit_id = list(doc["units"])[0]
    grown = _with_unit(doc, unit_id, notes="x" * 3 * state_slots.GRAIN)
    assert json.loads(state_slots.encode(grown)) == grown


def test_a_list_growing_at_the_end_uses_the_padding():
    doc = {**new_battle_from_scenario("demo"), "turn_state": {"units_ordered": []}}
    length = len(state_slots.encode(doc))
    grown = {**doc, "turn_state": {"units_ordered": ["11th-leger"]}}
    assert len(state_slots.encode(grown)) == length


def test_an_unchanged_unit_is_not_encoded_again(monkeypatch):
    doc = new_battle_from_scenario("demo")
    state_slots.encode(doc)
    encoded = []
    real = state_slots.json_bytes
    monkeypatch.setattr(state_slots, "json_bytes", lambda value: encoded.append(value) or real(value))
    unit_id = list(doc["units"])[1]
    changed = _with_unit(doc, unit_id, casualties=1)
    assert json.loads(state_slots.encode(changed)) == changed
    units_encoded = [v for v in encoded if isinstance(v, dict) and v.get("id") in doc["units"]]
    assert units_encoded == [changed["units"][unit_id]]


def test_keys_that_are_not_strings_are_written_compact():
    odd = {"units": {1: {"a": 1}}, 2: "b"}
    assert json.loads(state_slots.encode(odd)) == {"units": {"1": {"a": 1}}, "2": "b"}
    inner = {"units": {1: {"a": 1}}, "b": [1]}
    assert json.loads(state_slots.encode(inner)) == {"units": {"1": {"a": 1}}, "b": [1]}


def test_the_slots_kept_are_bounded():
    slots = state_slots._Slots(0, 4)  # none a game: never more than its least
    values = [{"n": n} for n in range(20)]
    for n, value in enumerate(values):
        slots.put(str(n), value, b"x")
    assert len(slots.newer) + len(slots.older) <= 8
    assert slots.get("19", values[19]) == b"x" and slots.get("0", values[0]) is None
    assert slots.get("18", {"n": 18}) is None  # an equal value is not the same unit


def test_a_kept_unit_changed_in_place_is_caught_as_it_is_written(monkeypatch):
    monkeypatch.setenv("REFEREE_CHECK_STATE", "1")
    write = state_column.StateDocument().bind_processor(sqlite.dialect())
    doc = new_battle_from_scenario("demo")
    try:
        with state_column.keeping():
            write(doc)
            next(iter(doc["units"].values()))["casualties"] = 3  # what no code may do
            with pytest.raises(state_column.StateChangedInPlace):
                write({**doc, "turn": 2})
    finally:  # the spoilt document and its slots are no other test's to find
        state_column.KEPT.clear()
        state_slots.forget()


def test_an_action_rewrites_the_stored_text_at_the_same_length(tmp_path):
    """A new game's text is compact (its document is still its caller's); from the engine's
    first write on, an order that changes one unit and the turn's list keeps the length."""
    engine = db.make_engine(f"sqlite:///{tmp_path / 'slots.db'}")
    db.create_tables(engine)
    with db.session(engine) as s:
        game_id = service.create_game(s, "Demo", "blackpowder", new_battle_from_scenario("demo")).id

    def order(units):
        with db.session(engine) as s:
            service.perform(s, game_id, service.get_game(s, game_id).version, "order", {"units": units})
        with engine.connect() as c:
            return c.execute(text("SELECT length(CAST(state AS BLOB)), version FROM game WHERE id = :g"),
                             {"g": game_id}).one()
    length, version = order(["11th-leger"])
    assert order(["4th-chasseurs-a-cheval"]) == (length, version + 1)
    state_column.KEPT.clear()
    with db.session(engine) as s:
        ordered = s.get(Game, game_id).state["turn_state"]["units_ordered"]
    assert [o["units"] for o in ordered] == [["11th-leger"], ["4th-chasseurs-a-cheval"]]


_SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
            | st.text(max_size=40))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
_DOCS = st.dictionaries(st.text(max_size=12), _VALUES | st.dictionaries(st.text(max_size=12), _VALUES, max_size=8),
                        max_size=8)


@settings(max_examples=200, deadline=None)
@given(doc=_DOCS, key=st.text(max_size=12), entry=st.text(max_size=12), new=_VALUES)
def test_any_document_and_any_next_version_read_back_equal(doc, key, entry, new):
    """Whatever the document, its text in slots is JSON for it, in whole blocks; and the next
    version, one entry of one collection changed (its other entries the same objects), too."""
    state_slots.forget()
    first = state_slots.encode(doc)
    assert json.loads(first) == doc and (not doc or len(first.encode()) % state_slots.WHOLE == 0)
    collection = doc.get(key)
    after = {**doc, key: {**collection, entry: new} if isinstance(collection, dict) else {entry: new}}
    assert json.loads(state_slots.encode(after)) == after


def test_a_collection_none_of_whose_entries_changed_is_not_laid_out_again(monkeypatch):
    doc = new_battle_from_scenario("demo")
    first = state_slots.encode(doc)
    entries = []
    real = state_slots._entry
    monkeypatch.setattr(state_slots, "_entry", lambda key, value: entries.append(key) or real(key, value))
    next_turn = {**doc, "turn": doc["turn"] + 1}
    assert json.loads(state_slots.encode(next_turn)) == next_turn
    assert not set(entries) & set(doc["units"])
    assert len(state_slots.encode(next_turn)) == len(first)


def test_whole_collections_kept_are_few_however_many_versions_are_written():
    """A collection laid out whole is a battle's units, some 200 kB on a big day: a few are kept."""
    doc = new_battle_from_scenario("demo")
    unit_id = list(doc["units"])[0]
    for n in range(60):
        doc = _with_unit(doc, unit_id, casualties=n % 3)
        state_slots.encode(doc)
    kept = state_slots.COLLECTIONS
    assert len(kept.newer) + len(kept.older) <= 16
