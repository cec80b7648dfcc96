"""Limits checked before a player's text is parsed as JSON or YAML: its size, how deep it nests
and (for YAML) no anchors or aliases, so a crafted file is refused with a sentence instead of
exhausting the parser's recursion or the server's memory. Pure Python, no Flask."""
from __future__ import annotations

import json
import re

import yaml

MAX_TEXT = 1024 * 1024  # an army list export is a few tens of kilobytes
MAX_DEPTH = 32  # the deepest real list or squadron nests about 8 levels
MAX_NODES = 50_000


MAX_DIGITS = 15
LONG_NUMBER = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))
# A YAML scalar written bare that reads as a number (quoted text is text, however many digits).
PLAIN_NUMBER = re.compile(r"[-+]?[\d_]+(\.[\d_]*)?([eE][-+]?\d+)?")


class TooComplex(ValueError):
    """The text is larger or nests deeper than any list or squadron does."""


def _check_numbers(found) -> None:
    if found:
        raise TooComplex(f"it holds a number of more than {MAX_DIGITS} digits, far more than any count or value")


def _json_number(kind):
    def read(digits: str):
        _check_numbers(LONG_NUMBER.search(digits))
        return kind(digits)
    return read


def _check_size(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise TooComplex(f"it is longer than {MAX_TEXT // 1024} KB, far more than any list or squadron")


def json_depth(text: str) -> int:
    """How deep the brackets of a JSON text nest (strings skipped), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json(text: str):
    """``json.loads`` after the size and depth checks (``TooComplex`` or ``ValueError``)."""
    _check_size(text)
    if json_depth(text) > MAX_DEPTH:
        raise TooComplex(f"it nests more than {MAX_DEPTH} levels deep, far more than any list")
    try:
        # Only numbers are held to the limit: a note may hold a long run of digits as text.
        return json.loads(text, parse_int=_json_number(int), parse_float=_json_number(float))
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise TooComplex("it nests too deep to read") from None


def load_yaml(text: str):
    """``yaml.safe_load`` after walking its events: refused (``TooComplex``) when it nests deeper
    than ``MAX_DEPTH``, has more than ``MAX_NODES`` values, or uses anchors and aliases (which can
    make a small text stand for an enormous one). Syntax errors raise ``yaml.YAMLError``."""
    _check_size(text)
    depth = nodes = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise TooComplex("it uses YAML anchors or aliases (& and *): write each Rig out in full")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise TooComplex(f"it nests more than {MAX_DEPTH} levels deep, far more than any squadron")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        if isinstance(event, yaml.ScalarEvent) and event.style is None and PLAIN_NUMBER.fullmatch(event.value):
            _check_numbers(LONG_NUMBER.search(event.value))
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise TooComplex(f"it holds more than {MAX_NODES} values, far more than any squadron")
    return yaml.safe_load(text)
