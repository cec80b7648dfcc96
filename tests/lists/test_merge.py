"""Merging two saves of one list (lists/merge.py): what only one tablet changed is taken, what both
changed alike is kept, and what both changed differently is a clash named at its field."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.lists.merge import merge

leaf = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=3))
doc = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                 st.dictionaries(st.sampled_from("abcd"), inner, max_size=3)),
                   max_leaves=12)
docs = st.dictionaries(st.sampled_from(["name", "notes", "rigs", "cards"]), doc, max_size=4)


@given(docs, docs)
def test_a_side_that_changed_nothing_takes_the_other_whole(base, other):
    assert merge(base, other, base).value == other and merge(base, other, base).clashes == []
    assert merge(base, base, other).value == other and merge(base, base, other).clashes == []


@given(docs, docs)
def test_both_changing_alike_is_no_clash(base, both):
    m = merge(base, both, both)
    assert m.value == both and m.clashes == []


def test_changes_to_different_parts_are_both_kept():
    base = {"name": "Rust Hounds", "notes": "", "rigs": [{"name": "Jackal", "weapons": [{"card": "gun"}]},
                                                         {"name": "Hyena", "weapons": []}]}
    theirs = {**base, "notes": "spare dice"}
    mine = {**base, "rigs": [base["rigs"][0], {"name": "Old Hyena", "weapons": []}]}
    m = merge(base, theirs, mine)
    assert m.clashes == [] and m.value == {**base, "notes": "spare dice", "rigs": mine["rigs"]}


def test_a_part_both_changed_is_a_clash_at_its_field_in_the_players_words():
    base = {"notes": "a", "rigs": [{"name": "Jackal", "weapons": [{"card": "gun"}]}]}
    theirs = {"notes": "b", "rigs": [{"name": "Jackal", "weapons": [{"card": "claw"}]}]}
    mine = {"notes": "c", "rigs": [{"name": "Jackal", "weapons": [{"card": "flamer"}]}]}
    m = merge(base, theirs, mine)
    assert m.clashes == ["notes", "rigs.0.weapons.0.card"]
    assert m.words() == ["Notes", "Rig 1 › weapon 1 › card"]
    assert m.value == mine  # a clash keeps the form's own (the save is refused, told)


def test_rows_added_on_both_sides_clash_as_the_whole_list():
    base = {"rigs": [{"name": "A"}]}
    m = merge(base, {"rigs": [{"name": "A"}, {"name": "B"}]}, {"rigs": [{"name": "A"}, {"name": "C"}, {"name": "D"}]})
    assert m.clashes == ["rigs"]
