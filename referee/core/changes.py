"""The one way an engine builds the changes a result carries, for both games.

A :class:`ChangeBuilder` is a working copy of the game document. Each ``set`` writes the working
copy, so later steps of the same action read what earlier steps left (damage, then its
catastrophic effect, then the overflow; a volley, then the break test it forces), and records
one :class:`~referee.core.results.Change` per field touched: the field's first ``before`` and last
``after``, which is exactly what the game log needs to undo it.

The working copy shares everything it has not written with the document it started from (only
the dictionaries on the path to a written field are copied), so building a change costs what it
changes, not the size of the battle. The document passed in is never mutated.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from .docstate import copied, get_path
from .results import MISSING, Change

Path = tuple[str, ...]


class ChangeBuilder:
    """A working copy of a game document that records what was changed, field by field.

    ``words``, when given, turns a change nobody labelled into the players' words (each game
    knows how to name its units or Rigs); without it the change keeps an empty label.
    """

    def __init__(self, doc: dict, words: Callable[[dict, Change], str] | None = None):
        self._base = doc
        self._doc = dict(doc)
        # Paths whose dictionary is our own copy: writing below them touches nothing shared.
        self._owned: set[Path] = {()}
        self._changes: dict[Path, Change] = {}
        self._words = words
        self._version = 0

    # --- reading --------------------------------------------------------------------------------
    @property
    def doc(self) -> dict:
        """The document as the changes so far have left it. Read it; write only through ``set``."""
        return self._doc

    @property
    def version(self) -> int:
        """Grows with every write: a game's cached view of ``doc`` is stale when it changes."""
        return self._version

    def snapshot(self) -> dict:
        """The document as it stands, never to change again: later writes copy their path
        afresh, so a view read from this snapshot (even lazily) keeps seeing it as it was."""
        frozen = self._doc
        self._doc = dict(frozen)
        self._owned = {()}
        return frozen

    def get(self, path: Iterable[str], default: Any = None) -> Any:
        v = get_path(self._doc, tuple(path))
        return default if v == MISSING else v

    # --- writing --------------------------------------------------------------------------------
    def set(self, path: Iterable[str], value: Any, label: str = "") -> bool:
        """Write ``value`` at ``path`` (``MISSING`` removes the key). False when it was already so."""
        path = tuple(path)
        if not path:
            raise ValueError("A change needs a path into the document.")
        before = get_path(self._doc, path)
        if before == value:
            return False
        node = self._own_parent(path)
        if value == MISSING:
            node.pop(path[-1], None)
        else:
            node[path[-1]] = copied(value)
            if isinstance(value, dict):
                self._owned.add(path)
        self._record(path, before, value, label)
        self._version += 1
        return True

    def extend(self, changes: Iterable[Change]) -> None:
        """Write changes built elsewhere (a follow-on result's) into the working copy, recording them."""
        for ch in changes:
            self.set(ch.path, ch.after, ch.label)

    def absorb(self, changes: Iterable[Change]) -> None:
        """Write changes that another result already carries into the working copy, without
        recording them again (the later steps must see them; the log gets them from that result)."""
        for ch in changes:
            path = tuple(ch.path)
            node = self._own_parent(path)
            if ch.after == MISSING:
                node.pop(path[-1], None)
            else:
                node[path[-1]] = copied(ch.after)
                if isinstance(ch.after, dict):
                    self._owned.add(path)
            self._version += 1

    def _own_parent(self, path: Path) -> dict:
        """The dictionary holding ``path``'s last key, copied (once) so writing it shares nothing."""
        node = self._doc
        for i, key in enumerate(path[:-1]):
            prefix = path[: i + 1]
            child = node.get(key)
            if prefix in self._owned and isinstance(child, dict):
                node = child
                continue
            child = dict(child) if isinstance(child, dict) else {}
            node[key] = child
            self._owned.add(prefix)
            node = child
        return node

    def _record(self, path: Path, before: Any, after: Any, label: str) -> None:
        old = self._changes.get(path)
        if old is None:
            self._changes[path] = Change(path, copied(before), copied(after), label)
            return
        if not label or label in old.label:
            joined = old.label
        else:
            joined = f"{old.label}; {label}" if old.label else label
        self._changes[path] = Change(path, old.before, copied(after), joined)

    # --- the outcome ----------------------------------------------------------------------------
    @property
    def changes(self) -> tuple[Change, ...]:
        """One change per field touched (first before, last after), those that ended where they
        started left out, each in words."""
        out = []
        for c in self._changes.values():
            if c.before == c.after:
                continue
            if not c.label and self._words is not None:
                c = Change(c.path, c.before, c.after, self._words(self._doc, c))
            out.append(c)
        return tuple(out)

    def __bool__(self) -> bool:
        return any(c.before != c.after for c in self._changes.values())
