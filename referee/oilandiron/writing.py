"""How the engine writes an engagement: the one change builder (:class:`referee.core.changes.ChangeBuilder`)
with Of Oil and Iron's words for a change nobody labelled, and the few readings every rules area
needs while it writes (the engagement and a Rig as the changes so far have left them).

A resolution starts a working copy with ``work = builder(doc)``, writes through ``work.set`` (or
``rig_set`` for one field of a Rig), reads back through ``engagement_now`` / ``rig_now``, and hands
``work.changes`` to its :class:`~referee.core.results.Result`.
"""
from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ..core.changes import ChangeBuilder
from ..core.errors import RuleError
from ..core.results import MISSING, Change
from .model import Engagement, Rig

# The engagement as each working copy last showed it, with the version it was read at.
_views: "WeakKeyDictionary[ChangeBuilder, tuple[int, Engagement]]" = WeakKeyDictionary()


def words(doc: dict, change: Change) -> str:
    """A bookkeeping change nobody labelled, in words the tablet can show (never a raw path)."""
    rigs, players = doc.get("rigs", {}), doc.get("players", {})

    def shown(value: Any) -> str:
        if value is None or value == MISSING:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str) and value in rigs:
            return rigs[value].get("name", value)
        if isinstance(value, str) and value in players:
            return players[value].get("name") or value
        return str(value)

    if isinstance(change.after, (dict, list)) and not (change.path[0] == "rigs" and len(change.path) > 2):
        return " ".join(str(p).replace("_", " ") for p in change.path if p not in rigs).capitalize() + " updated"

    path = change.path
    if path[0] == "rigs" and len(path) > 2:
        who = rigs.get(path[1], {}).get("name", path[1])
        what = " ".join(str(p).replace("_", " ") for p in path[2:])
        if isinstance(change.after, (dict, list)):
            return f"{who}: {what} updated"
        return f"{who}: {what} {shown(change.before)} → {shown(change.after)}"
    what = " ".join(str(p).replace("_", " ") for p in path).capitalize()
    return f"{what}: {shown(change.before)} → {shown(change.after)}"


def builder(doc: dict) -> ChangeBuilder:
    """A working copy of the engagement document that records every change, in the players' words."""
    return ChangeBuilder(doc, words)


def engagement_now(work: ChangeBuilder) -> Engagement:
    """The engagement as the changes so far have left it (read again only after a write)."""
    seen = _views.get(work)
    if seen is None or seen[0] != work.version:
        seen = (work.version, Engagement.from_doc(work.doc))
        _views[work] = seen
    return seen[1]


def rig_now(work: ChangeBuilder, rig_id: str) -> Rig:
    """One Rig as the changes so far have left it (read alone: a step about one Rig need not read
    the whole engagement again after each write)."""
    seen = _views.get(work)
    if seen is not None and seen[0] == work.version:
        return seen[1].rig(rig_id)
    raw = work.doc.get("rigs", {}).get(rig_id)
    if raw is None:
        raise RuleError(f"There is no Rig “{rig_id}” in this engagement.")
    return Rig.from_dict(raw)


def rig_set(work: ChangeBuilder, rig_id: str, field_name: str, value: Any, label: str = "") -> None:
    """Write one field of one Rig."""
    work.set(("rigs", rig_id, field_name), value, label)
