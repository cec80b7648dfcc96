"""Applying and reversing :class:`~referee.core.results.Change` lists on a game's state document.

A game's state is one JSON-serialisable dict. Every change names a path into it with its before
and after values, so undo is exact: set the before values back, newest change first.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable

import orjson

from .results import MISSING, Change


class StateConflict(ValueError):
    """A change's ``before`` does not match the document: the log and the state disagree."""


def copied(value: Any) -> Any:
    """A copy of a JSON value that shares nothing with it. A list or dictionary goes through
    orjson and back (a growing list of this turn's orders, copied at every order, costs a
    twentieth of ``copy.deepcopy``), kept only if it equals the value: anything JSON would
    change (a tuple, a key that is not a string) is deep-copied as it is."""
    if not isinstance(value, (dict, list)):
        return copy.deepcopy(value)
    try:
        out = orjson.loads(orjson.dumps(value))
    except TypeError:
        return copy.deepcopy(value)
    return out if out == value else copy.deepcopy(value)


def get_path(doc: dict, path: Iterable[str], default: Any = MISSING) -> Any:
    node: Any = doc
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


def _set_path(doc: dict, path: tuple[str, ...], value: Any, owned: set[tuple[str, ...]]) -> None:
    """Write ``value`` at ``path`` in ``doc``, copying (once) each dictionary on the way that
    ``doc`` still shares with the document it was made from; ``owned`` remembers which are ours."""
    node = doc
    for i, key in enumerate(path[:-1]):
        prefix = path[: i + 1]
        child = node.get(key)
        if prefix not in owned or not isinstance(child, dict):
            child = dict(child) if isinstance(child, dict) else {}
            node[key] = child
            owned.add(prefix)
        node = child
    if value == MISSING:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = copied(value)
        owned.add(path)


def apply_changes(doc: dict, changes: Iterable[Change], check: bool = True) -> dict:
    """Return a new document with the changes applied in order; ``doc`` is left as it was.

    With ``check``, each change's ``before`` must equal what the document holds, so a change
    computed against an older state is never applied on top of a newer one. The new document
    shares every branch the changes do not touch with ``doc`` (only the dictionaries on the path
    to a changed field are copied): an action costs what it changes, not the size of the game.
    """
    out, owned = dict(doc), {()}
    for ch in changes:
        if check and get_path(out, ch.path) != ch.before:
            raise StateConflict(f"{'/'.join(ch.path)} is {get_path(out, ch.path)!r}, expected {ch.before!r}")
        _set_path(out, tuple(ch.path), ch.after, owned)
    return out


def revert_changes(doc: dict, changes: Iterable[Change]) -> dict:
    """Return a new document with the changes taken back (newest first); ``doc`` is left as it was."""
    out, owned = dict(doc), {()}
    for ch in reversed(list(changes)):
        _set_path(out, tuple(ch.path), ch.before, owned)
    return out
