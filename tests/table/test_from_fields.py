"""Reading a dataclass from a document (``referee.core.reading.from_fields``): the quick way of filling
its fields gives what the class's own ``__init__`` gives, and refuses what it refuses."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.blackpowder.model import Unit
from referee.core.reading import from_fields
from referee.data.scenarios import new_battle_from_scenario


@dataclass(frozen=True)
class Sample:
    id: str
    count: int
    tags: tuple[str, ...] = ()
    notes: list = field(default_factory=list)
    kind: str = "plain"


@dataclass(frozen=True)
class Checked:
    id: str
    count: int = 0

    def __post_init__(self):
        if self.count < 0:
            raise ValueError("no negative counts")


DOCS = st.fixed_dictionaries(
    {"id": st.text(max_size=5), "count": st.integers()},
    optional={"tags": st.lists(st.text(max_size=3)).map(tuple), "notes": st.lists(st.integers()),
              "kind": st.text(max_size=5), "extra": st.integers(), "other": st.text()})


@given(DOCS)
def test_the_same_as_the_classes_own_init(doc):
    made = from_fields(Sample, doc)
    expected = Sample(**{f.name: doc[f.name] for f in fields(Sample) if f.name in doc})
    assert made == expected
    assert repr(made) == repr(expected)


def test_a_default_factory_gives_each_its_own_value():
    one, two = from_fields(Sample, {"id": "a", "count": 1}), from_fields(Sample, {"id": "b", "count": 2})
    assert one.notes == [] and one.notes is not two.notes


def test_given_values_win_over_the_document():
    assert from_fields(Sample, {"id": "a", "count": 1, "kind": "x"}, kind="y").kind == "y"


def test_a_missing_field_is_refused_as_init_refuses_it():
    with pytest.raises(TypeError, match="count"):
        from_fields(Sample, {"id": "a"})


def test_the_result_is_still_frozen():
    made = from_fields(Sample, {"id": "a", "count": 1})
    with pytest.raises(AttributeError):
        made.count = 2  # type: ignore[misc]


def test_a_class_that_checks_itself_is_built_through_its_init():
    with pytest.raises(ValueError):
        from_fields(Checked, {"id": "a", "count": -1})
    assert from_fields(Checked, {"id": "a"}) == Checked("a")


def test_every_unit_of_a_scenario_reads_as_before():
    for raw in new_battle_from_scenario("demo")["units"].values():
        unit = Unit.from_dict(raw)
        kw = {f.name: raw[f.name] for f in fields(Unit) if f.name in raw}
        kw["special_rules"], kw["used"] = tuple(raw.get("special_rules", ())), tuple(raw.get("used", ()))
        assert unit == Unit(**kw)
        assert isinstance(unit.special_rules, tuple) and isinstance(unit.used, tuple)


@dataclass(frozen=True, slots=True)
class Slotted:
    id: str
    count: int = 0


def test_a_class_without_an_instance_dictionary_is_built_through_its_init():
    made = from_fields(Slotted, {"id": "a", "other": 1})
    assert made == Slotted("a") and not hasattr(made, "__dict__")


def test_given_values_win_for_a_class_built_through_its_init_too():
    assert from_fields(Checked, {"id": "a", "count": 1}, count=2) == Checked("a", 2)
