"""The record of each hand-to-hand combat in the battle document, under ``("combats", id)``: who
attacks and defends, the round, who retired, who won the last round, and whether it is open.
"""
from __future__ import annotations

from ..core.words import counted
from .model import Battle, RuleError, Unit

SIDE_KEYS = ("attackers", "defenders")


def other(key: str) -> str:
    return "defenders" if key == "attackers" else "attackers"


# --- the records ----------------------------------------------------------------------------

def combats(battle: Battle) -> dict:
    return battle.doc.get("combats", {}) or {}


def combat_record(battle: Battle, combat_id: str) -> dict:
    rec = combats(battle).get(combat_id)
    if rec is None:
        raise RuleError(f"There is no combat “{combat_id}”.")
    return rec


def open_combat_of(battle: Battle, unit_id: str) -> tuple[str, dict] | None:
    for cid, rec in combats(battle).items():
        if rec.get("status") == "open" and unit_id in rec["attackers"] + rec["defenders"]:
            return cid, rec
    return None


def combat_title(battle: Battle, rec: dict) -> str:
    """A combat as the table knows it, by who fights whom: "The fight of 11th Léger against 1/7th
    Line", "The fight of 2nd Dragoons and 2 others against 1/27th Infantry"."""
    def side(key: str) -> str:
        names = [battle.units[u].name for u in rec.get(key, []) if u in battle.units]
        if not names:
            return "nobody"
        return names[0] if len(names) == 1 else f"{names[0]} and {counted(len(names) - 1, 'other')}"
    return f"The fight of {side('attackers')} against {side('defenders')}"


def next_combat_id(battle: Battle) -> str:
    n = len(combats(battle)) + 1
    while f"c{n}" in combats(battle):
        n += 1
    return f"c{n}"


def new_combat_record(cid: str, attackers: list[str], defenders: list[str], *, turn: int,
                      countercharging: list[str] = (), flank_rear: list[str] = (),
                      charging: list[str] | None = None) -> dict:
    return {"id": cid, "attackers": list(attackers), "defenders": list(defenders),
            "charging": list(attackers if charging is None else charging),
            "countercharging": list(countercharging), "flank_rear": list(flank_rear), "round": 1,
            "retired": [], "last_winner": None, "awaiting_outcome": False, "fought": None,
            "started_turn": turn, "status": "open"}


def engaged(battle: Battle, rec: dict, key: str) -> list[Unit]:
    return [battle.unit(u) for u in rec[key] if battle.unit(u).in_play and u not in rec.get("retired", [])]


def names(units) -> str:
    return ", ".join(u.name for u in units) or "nobody"


def may_sweep(battle: Battle, rec: dict, key: str) -> bool:
    """Whether the winners of a first round may make a sweeping advance: cavalry still fit to ride."""
    return rec.get("last_round") == 1 and any(
        battle.unit(u).is_cavalry and battle.unit(u).in_play and not battle.unit(u).shaken for u in rec[key]
        if u not in rec.get("retired", []))
