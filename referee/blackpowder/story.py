"""A battle's story: each army's strength at the end of every turn, and its dice against the odds.

Worked out from the document and the log alone: the state at the start (the state now with the
actions in force taken back) and each action's changes, applied in order, give the board as it
stood at every moment; the strength is read at each turn's end. Units are counted as the
brigade strip counts them (``brigades.strip_state``): fit, disordered, shaken, lost, not yet
arrived; brigades broken against the army's break point (half its brigades present).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..core.docstate import apply_changes
from ..core.results import Change
from .clock import time_of_turn
from .model import SIDES, shaken_by

STATES = ("fit", "disordered", "shaken", "lost", "awaiting")


@dataclass(frozen=True)
class SideAt:
    """One army at one turn's end."""

    fit: int = 0
    disordered: int = 0
    shaken: int = 0
    lost: int = 0
    awaiting: int = 0
    brigades: int = 0  # present: any unit arrived
    broken: int = 0
    army_broken: bool = False

    @property
    def break_at(self) -> int:
        """Broken brigades that break the army: half those present."""
        return (self.brigades + 1) // 2 if self.brigades else 0


@dataclass
class Luck:
    """A side's dice that hit on a known score: how many were thrown, hit, and were expected to."""

    dice: int = 0
    hits: int = 0
    expected: float = 0.0


@dataclass
class Story:
    turns: list[int] = field(default_factory=list)  # the turns read, in order
    sides: dict[str, list[SideAt]] = field(default_factory=dict)  # per side, one per turn read
    names: dict[str, str] = field(default_factory=dict)
    turn_limit: int | None = None
    arrivals: dict[str, list[int]] = field(default_factory=dict)  # per side, the turns reserves come
    clock: dict[int, str] = field(default_factory=dict)  # turn -> its time, when the battle keeps one
    luck: dict[str, Luck] = field(default_factory=dict)


def strength(doc: dict, side: str) -> SideAt:
    """One army's strength in a document, read from the units' documents."""
    counts = dict.fromkeys(STATES, 0)
    by_brigade: dict[str, list[dict]] = {}
    for u in doc.get("units", {}).values():
        if u.get("side") != side:
            continue
        by_brigade.setdefault(u.get("brigade"), []).append(u)
        if u.get("awaiting"):
            counts["awaiting"] += 1
        elif u.get("destroyed") or u.get("off_table"):
            counts["lost"] += 1
        elif shaken_by(u.get("casualties", 0), u.get("stamina")):
            counts["shaken"] += 1
        elif u.get("disordered"):
            counts["disordered"] += 1
        else:
            counts["fit"] += 1
    present = broken = 0
    for bid, b in doc.get("brigades", {}).items():
        if b.get("side") != side:
            continue
        units = by_brigade.get(bid, [])
        if units and all(u.get("awaiting") for u in units):
            continue
        present += 1
        broken += bool(b.get("broken"))
    army_broken = bool((doc.get("sides", {}).get(side) or {}).get("army_broken"))
    return SideAt(**counts, brigades=present, broken=broken, army_broken=army_broken)


def _luck(doc: dict, entry: dict, luck: dict[str, Luck]) -> None:
    """Add an action's to-hit dice (shooting's, and each unit's attacks in a combat) to its side."""
    shooter = (doc.get("units", {}).get(entry["facts"].get("shooter") or "") or {}).get("side")
    by_name = None
    for d in entry.get("dice", []):
        need, purpose = d.get("need", 0), d.get("purpose", "")
        if not need or not ("to hit" in purpose or "attacks (hit on" in purpose or ": re-roll" in purpose):
            continue
        side = shooter
        if side is None:
            if by_name is None:
                by_name = {u.get("name"): u.get("side") for u in doc.get("units", {}).values()}
            side = by_name.get(purpose.split(":")[0])
        if side not in SIDES:
            continue
        got = luck.setdefault(side, Luck())
        got.dice += 1
        got.hits += d["value"] >= need
        got.expected += max(0, min(6, 7 - need)) / 6


def story(initial: dict, entries: Sequence[dict]) -> Story:
    """The story of a battle from its first state and the log's entries in force, oldest first
    (each with its ``changes``, ``facts`` and ``dice``)."""
    doc, out = initial, Story()
    sides = [s for s in SIDES if s in initial.get("sides", {})]
    out.names = {s: initial["sides"][s]["name"] for s in sides}
    out.sides = {s: [] for s in sides}

    def read(turn: int) -> None:
        out.turns.append(turn)
        for s in sides:
            out.sides[s].append(strength(doc, s))

    for e in entries:
        _luck(doc, e, out.luck)
        after = apply_changes(doc, [Change.from_dict(c) for c in e["changes"]], check=False)
        if after.get("turn", 1) != doc.get("turn", 1):
            read(doc.get("turn", 1))
        doc = after
    read(doc.get("turn", 1))
    out.turn_limit = doc.get("turn_limit")
    for r in (doc.get("reserves") or {}).values():
        turn = r.get("arrived_turn") or (r.get("schedule") or {}).get("turn") or (r.get("schedule") or {}).get("from_turn")
        if turn and r.get("side") in out.sides:
            out.arrivals.setdefault(r["side"], []).append(turn)
    last = max([out.turn_limit or 0, *out.turns])
    if doc.get("clock"):
        out.clock = {t: time_of_turn(doc, t) for t in range(1, last + 1)}
    return out


def entries_of(rows: Iterable) -> list[dict]:
    """Log rows (anything with ``changes``, ``facts`` and ``dice``) as ``story`` reads them."""
    return [{"changes": r.changes, "facts": r.facts, "dice": r.dice} for r in rows]
