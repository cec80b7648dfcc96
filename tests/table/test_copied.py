"""``docstate.copied``: a change's values are copied so that nothing written into a document is
shared with what the engine goes on holding, through orjson where that gives the same value."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.core.docstate import copied

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=20)


def _containers(value) -> list[int]:
    if isinstance(value, dict):
        return [id(value)] + [i for v in value.values() for i in _containers(v)]
    if isinstance(value, (list, tuple)):
        return [id(value)] + [i for v in value for i in _containers(v)]
    return []


@given(JSON)
def test_a_json_value_is_copied_equal_and_shares_no_list_or_dictionary(value):
    out = copied(value)
    assert out == value and type(out) is type(value)
    assert not set(_containers(out)) & set(_containers(value))


@given(st.lists(st.tuples(st.integers(), st.text(max_size=3)), min_size=1, max_size=3))
def test_what_json_would_change_is_kept_as_it_is(pairs):
    # Tuples would come back from JSON as lists, and whole numbers as keys would come back as text.
    for value in ({"pairs": pairs}, {"by_number": {n: s for n, s in pairs}}):
        out = copied(value)
        assert out == value and out is not value
        assert all(type(p) is tuple for p in out.get("pairs", ()))
        assert all(type(k) is int for k in out.get("by_number", {}))
    assert copied(2 ** 70) == 2 ** 70 and copied([2 ** 70]) == [2 ** 70]  # beyond orjson's integers
