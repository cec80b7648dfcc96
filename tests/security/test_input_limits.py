"""The kinds of malformed input that used to answer 500, each answered now with a 4xx and a
sentence, and nothing changed: ids too large for the database, digits that are not ASCII in a
version, a count or typed dice, numbers of thousands of digits, deep JSON in an import, deep or
aliased YAML in a typed squadron, an unknown field in a typed Rig, a builder row with a perk but
no name, and deleting a list a game still uses."""
from __future__ import annotations

import json

import pytest
import yaml
from _security_helpers import fingerprint

from referee.core.dice import BadDice, parse_typed
from referee.core.parse_limits import MAX_DEPTH, TooComplex, json_depth, load_json, load_yaml
from referee.web.serving.input_limits import problem_with

HTMX = {"HX-Request": "true"}


def _refused(app, client, method, path, status=(400, 404, 413, 422), **kw):
    before = fingerprint(app)
    r = client.open(path, method=method, **kw)
    assert r.status_code in status, (path, r.status_code, r.get_data(as_text=True)[:300])
    assert fingerprint(app) == before
    return r.get_data(as_text=True)


@pytest.fixture
def client(laptop_app):
    c = laptop_app.test_client()
    c.post("/lists/owner", data={"owner": "Ann"})
    return c


@pytest.mark.parametrize("path", ["/games/99999999999999999999999", "/games/9223372036854775808/log",
                                  "/lists/99999999999999999999999/export", "/games/1/log/99999999999999999999"])
def test_ids_too_large_for_the_database_are_not_pages(laptop_app, client, path):
    _refused(laptop_app, client, "GET", path, status=(404,))


@pytest.mark.parametrize("field,value", [("version", "²"), ("version", "1²"), ("version", "٣"),
                                         ("version", "-99999999999999999999999"), ("version", "9" * 5000)])
def test_a_version_that_is_not_a_number_a_person_means(laptop_app, client, field, value):
    page = _refused(laptop_app, client, "POST", "/games/1/act/break_test", data={field: value, "unit": "11th-leger"})
    assert "digits" in page or "version" in page


def test_typed_dice_with_other_digits_or_thousands_of_them(laptop_app, client):
    client.post("/games/1/act/dice_mode", data={"version": "1", "mode": "typed"})
    for typed in ("4 ²", "4, ٣", "1" * 5000, "4 " + "6" * 40):
        page = _refused(laptop_app, client, "POST", "/games/1/act/break_test",
                        data={"version": "2", "unit": "11th-leger", "typed": typed}, headers=HTMX)
        assert "digits" in page or "die result" in page
    with pytest.raises(BadDice):
        parse_typed("4 ²")
    with pytest.raises(BadDice):
        parse_typed("1234")


def test_a_count_in_a_typed_force_with_other_digits(laptop_app, client):
    _refused(laptop_app, client, "POST", "/games/new/forces",
             data={"blue-b0-u0-count": "²", "blue-b0-u0-name": "A", "blue-n": "1"})
    _refused(laptop_app, client, "POST", "/games/new/forces", data={"blue-n": "9" * 5000})


def test_a_form_field_name_with_other_digits(laptop_app, client):
    _refused(laptop_app, client, "POST", "/lists/check/oilandiron", data={"rigs.².name": "x"})


def test_deep_json_in_an_import(laptop_app, client):
    deep = "[" * 5000 + "]" * 5000
    page = _refused(laptop_app, client, "POST", "/lists/import",
                    data={"text": '{"format": "referee-list", "format_version": 1, "list": ' + deep + "}"})
    assert "nests more than" in page
    with pytest.raises(TooComplex):
        load_json(deep)
    assert json_depth('{"a": "[[[[", "b": [1, [2]]}') == 3
    assert load_json('{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}


def test_a_number_of_thousands_of_digits_in_an_import(laptop_app, client):
    page = _refused(laptop_app, client, "POST", "/lists/import", data={"text": json.dumps({"n": 1}).replace("1", "9" * 5000)})
    assert "digits" in page


def test_deep_or_aliased_yaml_in_a_typed_squadron(laptop_app, client):
    deep = "".join("  " * i + "-\n" for i in range(MAX_DEPTH + 5))
    flow = "[" * 3000 + "]" * 3000
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b]\n"
    for text in (deep, flow, bomb):
        page = _refused(laptop_app, client, "POST", "/games/new/oilandiron",
                        data={"engagement": "iron_clash", "p1-typed": text, "p2-typed": text})
        assert "typed squadron" in page
        with pytest.raises((TooComplex, yaml.YAMLError)):
            load_yaml(text)
    assert load_yaml("- {name: A, weapons: [a, b]}") == [{"name": "A", "weapons": ["a", "b"]}]


def test_an_unknown_field_in_a_typed_rig(laptop_app, client):
    typed = "- name: A1\n  chassis: example_light_scout\n  weapons: []\n  surprise: 1\n"
    page = _refused(laptop_app, client, "POST", "/games/new/oilandiron",
                    data={"engagement": "iron_clash", "p1-typed": typed, "p2-typed": typed})
    assert "surprise" in page


def test_a_builder_row_with_a_perk_but_no_name(laptop_app, client):
    for op in ("check", "save"):
        _refused(laptop_app, client, "POST", "/lists/new/oilandiron", status=(200, 422),
                 data={"op": op, "cards.weapons.0.perks": "Impale", "cards.weapons.0.name": "",
                       "rigs.0.name": "", "rigs.0.perks": "Shock"})
        _refused(laptop_app, client, "POST", "/lists/check/oilandiron", status=(200, 422),
                 data={"cards.weapons.0.perks": "Impale", "cards.chassis.0.perks": "x"})


@pytest.mark.parametrize("value,problem", [("12", None), ("Jäger 2", None), ("m2", None), ("²", "digits"),
                                           ("-٣", "digits"), ("1" * 13, "at most"), ("x" * 400_000, "characters")])
def test_what_a_box_may_hold(value, problem):
    found = problem_with(value)
    assert (found is None) if problem is None else (problem in found)


@pytest.mark.parametrize("value", ["1234567890123", "a_1234567890123", "1234567890123x", "v=1234567890123;",
                                   "x" * 20 + "1" * 16 + "y", "123456789012", "ab-123456789012-cd", "", " 42 "])
def test_the_quick_look_at_ascii_agrees_with_reading_word_by_word(value):
    from referee.web.serving.input_limits import _problem
    assert problem_with(value) == _problem(value)


def test_the_quick_look_agrees_on_any_ascii_text():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from referee.web.serving.input_limits import _problem

    # Digits weighted up, so long runs and all-digit words turn up often.
    text = st.text(alphabet=st.sampled_from("0123456789" * 6 + "ab_- .;=Z\t"), max_size=60)

    @settings(max_examples=400, deadline=None)
    @given(text)
    def agree(value):
        assert problem_with(value) == _problem(value)
    agree()
