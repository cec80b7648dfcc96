"""The number-size limit applies to numbers, never to text: a list's notes may hold a long run of
digits (a phone number, a club membership code) and still import. Found by the round-trip
property test in tests/lists/test_sheets.py."""
from __future__ import annotations

import pytest

from referee.core.parse_limits import TooComplex, load_json, load_yaml


def test_long_digits_inside_text_are_read():
    assert load_json('{"notes": "0000000000000000"}') == {"notes": "0000000000000000"}
    assert load_yaml('notes: "0000000000000000"') == {"notes": "0000000000000000"}
    assert load_yaml("notes: call 01234 567890 123456 before the game")["notes"].startswith("call")


@pytest.mark.parametrize("text", ['{"a": 12345678901234567}', '{"a": -1.2345678901234567e3}', "[1, 99999999999999999]"])
def test_a_json_number_of_sixteen_digits_is_refused(text):
    with pytest.raises(TooComplex):
        load_json(text)


def test_a_bare_yaml_number_of_sixteen_digits_is_refused():
    with pytest.raises(TooComplex):
        load_yaml("count: 12345678901234567")
