"""What an action reads or changes of a game, in pieces a tablet can be told about: the moment
of the game (turn, phase, whose go it is), a unit, its brigade, a combat it is in.

Two tablets act at once. The second tablet's screen was drawn before the first one's change; its
tap is refused only if that change touched something the tap reads or would change, and lands
on the newest version otherwise (``table/service.py``). Everything here is pure: it looks at the
game's document, the tap's facts and the logged changes' paths, never at a rule.

A piece is a ``(collection, id)`` pair, an entry of a top-level dictionary of dictionaries in the
document (``("units", "11th-leger")``, ``("combats", "c1")``, ``("rigs", "p1-1")``). The moment
is :data:`MOMENT`, every top-level value that is not a dictionary (``turn``, ``phase``,
``active_side``, ``round``, ``active_rig``...): every action reads it. Any other top-level
dictionary (``settings``, a turn's bookkeeping) is a section, named by ``(key,)``: a change to
it touches the pieces it names (a unit added to the units ordered this turn).

Each game says how its pieces name each other (``GameRules.links``): a unit names its brigade, a
combat its units. A tap reads the pieces its facts name, the pieces naming those directly (the
combats a unit is in) and everything named from there on (the other units in those combats, the
brigades of all of them). A change touches the pieces it changes and what they name (a unit's
brigade).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

Key = tuple[str, ...]
# The moment of the game: turn, phase, whose go it is, whether it has ended.
MOMENT: Key = ("moment",)
# How a game's pieces name each other: collection -> {field: collection of the piece it names}.
Links = Mapping[str, Mapping[str, str]]


def _collections(doc: dict) -> dict[str, dict]:
    return {name: value for name, value in doc.items()
            if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values())}


def key_of(doc: dict, path: Iterable[Any]) -> Key:
    """The piece, section or moment a path of the document falls in."""
    path = tuple(path)
    if not path:
        return MOMENT
    top = doc.get(path[0])
    if not isinstance(top, dict):
        return MOMENT
    if len(path) >= 2 and isinstance(top.get(path[1]), dict):
        return (path[0], str(path[1]))
    return (path[0],)


def _named(value: Any) -> list[str]:
    """Every text in a value, however nested (the ids a fact or a record may name)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _named(v)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _named(v)]
    return []


def _reach(doc: dict, links: Links, start: set[Key], naming: bool = True) -> set[Key]:
    """The pieces ``start`` stands for: the pieces naming them directly (unless not ``naming``),
    then everything named from there on."""
    found = set(start)
    for coll, fields in links.items() if naming else ():
        for piece_id, piece in (doc.get(coll) or {}).items():
            if not isinstance(piece, dict):
                continue
            for field, target in fields.items():
                if any((target, n) in start for n in _named(piece.get(field))):
                    found.add((coll, str(piece_id)))
    todo = list(found)
    while todo:
        coll, *rest = todo.pop()
        if not rest:
            continue
        piece = (doc.get(coll) or {}).get(rest[0])
        if not isinstance(piece, dict):
            continue
        for field, target in links.get(coll, {}).items():
            for n in _named(piece.get(field)):
                key = (target, n)
                if key not in found and n in (doc.get(target) or {}):
                    found.add(key)
                    todo.append(key)
    return found


def reads(doc: dict, facts: Mapping[str, Any], links: Links) -> set[Key]:
    """What an action with these facts reads: the moment, the pieces its facts name (a unit, a
    combat, a reserve, a Rig), and what they reach (``_reach``)."""
    collections = _collections(doc)
    named: set[Key] = set()
    for value in facts.values():
        for n in _named(value):
            for coll, pieces in collections.items():
                if n in pieces:
                    named.add((coll, n))
    return _reach(doc, links, named) | {MOMENT}


def touched(doc: dict, changes: Iterable[tuple[Iterable[Any], Any, Any]], links: Links) -> set[Key]:
    """What changes (``(path, before, after)``) touch, with what the changed pieces name (a unit's
    change touches its brigade; a combat's, its units and theirs). A tap on a unit in a combat
    reads the other units in it (``reads``), so a change to any of them meets it. A change to a
    list of ids (the units ordered this turn, a combat's attackers) touches the pieces it adds or
    takes out."""
    collections = _collections(doc)
    keys: set[Key] = set()
    for path, before, after in changes:
        keys.add(key_of(doc, path))
        if len(key_of(doc, path)) == 2:
            continue  # a piece's own field: the piece is touched, not what it names
        for n in set(_named(before)) ^ set(_named(after)):
            keys.update((coll, n) for coll, pieces in collections.items() if n in pieces)
    return _reach(doc, links, {k for k in keys if len(k) == 2}, naming=False) | keys


def overlap(read: set[Key], changed: set[Key]) -> set[Key]:
    """The keys of ``read`` that ``changed`` touches. A section (``settings``, a turn's bookkeeping)
    never clashes on its own: a tap lands on the newest version, so it reads the section as the
    other tablet left it; what such a change means for a piece is in the pieces it names."""
    return {k for k in read & changed if k == MOMENT or len(k) == 2}


def name_of(doc: dict, key: Key) -> str:
    """A key in the players' words: the piece's name, "the turn and phase", or the section."""
    if key == MOMENT:
        return "the turn and phase"
    if len(key) == 1:
        return f"the {key[0]}"
    piece = (doc.get(key[0]) or {}).get(key[1])
    name = piece.get("name") if isinstance(piece, dict) else None
    if not name and key[0] == "combats":
        return f"combat {key[1]}"
    return str(name or key[1])
