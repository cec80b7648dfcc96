"""What a side has done this turn, kept in the battle document under ``turn_state``: units and
commanders ordered, initiative moves, rallies. Entries carry their turn and side, so last turn's
never count and nothing must be cleared when the turn passes.

Orders, initiative moves and rallies all write and read here; the board reads it to mark units
already ordered.
"""
from __future__ import annotations

from .model import Battle, BattleChanges, RuleError, Unit


def turn_entries(battle: Battle, key: str) -> list:
    return list(battle.doc.get("turn_state", {}).get(key, []))


def this_turn(battle: Battle, key: str, side: str) -> list[dict]:
    """Entries recorded this turn by this side (older turns' entries are kept but ignored, so the
    bookkeeping needs no reset when the turn passes)."""
    return [e for e in turn_entries(battle, key)
            if isinstance(e, dict) and e.get("turn") == battle.turn and e.get("side") == side]


def record_turn(ch: BattleChanges, key: str, entry: dict, label: str) -> None:
    battle = ch.battle
    entry = {"turn": battle.turn, "side": battle.active_side, **entry}
    set_turn_list(ch, key, turn_entries(battle, key) + [entry], label)


def set_turn_list(ch: BattleChanges, key: str, entries: list, label: str) -> None:
    # A fresh battle has no "turn_state" yet: create it whole, so undo removes it whole and the
    # document comes back exactly as it was.
    if not isinstance(ch.doc.get("turn_state"), dict):
        ch.at(("turn_state",), {key: entries}, label)
    else:
        ch.at(("turn_state", key), entries, label)


def units_ordered_this_turn(battle: Battle, side: str | None = None) -> set[str]:
    """Units that have had an order this turn (passed, failed or blundered)."""
    side = side or battle.active_side
    return {u for e in this_turn(battle, "units_ordered", side) for u in e.get("units", ())}


def commanders_ordered_this_turn(battle: Battle, side: str | None = None) -> list[str]:
    """Brigade ids whose commander has given an order this turn (for Headstrong)."""
    side = side or battle.active_side
    return [e["brigade"] for e in this_turn(battle, "commanders_ordered", side)]


def command_phase_units(battle: Battle, unit_ids: list[str]) -> list[Unit]:
    """The units named, checked fit to act in their own side's Command phase before any order."""
    if battle.phase != "command":
        raise RuleError("This happens in the Command phase.")
    units = [battle.unit(u) for u in unit_ids]
    for u in units:
        if u.side != battle.active_side:
            raise RuleError(f"{u.name} is not on the side whose Command phase this is.")
        if not u.in_play:
            raise RuleError(f"{u.name} is no longer on the table.")
    side = battle.sides.get(battle.active_side)
    if side is not None and side.army_broken:
        raise RuleError("The army is broken: its units can no longer rally, recover or use initiative.")
    return units
