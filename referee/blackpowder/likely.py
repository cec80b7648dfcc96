"""The likely picks of a long pick list, from what the battle holds: a shot's or a charge's
likely targets.

At Waterloo a shot's target is one of some two hundred enemy units, but a brigade fights and
shoots at the few in front of it. Likeliest first: the enemy units in an open combat with a unit
of the shooter's brigade, then the units its brigade shot at lately (the game's recent actions,
newest first, as the table reads them from the log), each once, in play and an enemy of the
shooter's. The form shows them first and folds the rest (``web/chips.py``).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .model import Battle

# How many actions back the log is read for recent targets, and the most offered first.
RECENT = 60
MOST = 8


def likely_targets(doc: dict, shooter: str, recent: Iterable[tuple[str, Mapping]]) -> list[str]:
    battle = Battle.from_doc(doc)
    if shooter not in battle.units:
        return []
    unit = battle.units[shooter]
    brigade = {u.id for u in battle.units_of_brigade(unit.brigade)}
    found: list[str] = []
    for rec in (doc.get("combats") or {}).values():
        if rec.get("status") != "open":
            continue
        attackers, defenders = rec.get("attackers", []), rec.get("defenders", [])
        if brigade.intersection(attackers):
            found += defenders
        elif brigade.intersection(defenders):
            found += attackers
    found += [str(facts.get("target")) for action, facts in recent if facts.get("target") and (
              (action == "shoot" and facts.get("shooter") in brigade) or
              (action == "charge" and brigade.intersection(facts.get("chargers") or ())))]
    out = [uid for uid in dict.fromkeys(found)
           if uid in battle.units and battle.units[uid].side != unit.side and battle.units[uid].in_play]
    return out[:MOST]


def likely(doc: dict, action: str, field: str, facts: Mapping, recent: Iterable[tuple[str, Mapping]]) -> list[str] | None:
    """The likely picks of ``field`` in ``action``'s form, likeliest first; None for a field the
    rules do not rank."""
    if action == "shoot" and field == "target":
        return likely_targets(doc, str(facts.get("shooter") or ""), recent)
    if action == "charge" and field == "target":  # the first charger speaks for them
        chargers = facts.get("chargers") or []
        first = chargers[0] if isinstance(chargers, (list, tuple)) and chargers else chargers
        return likely_targets(doc, str(first or ""), recent)
    return None
