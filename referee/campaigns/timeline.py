"""A Hundred Days campaign over time: each army's strength and victory points at each day's end,
and which battles were fought, are being fought and are still to come.

Read from the campaign's document and its log alone: the state at the start (the state now with
the steps in force taken back) and each step's changes, applied in order, give the campaign as it
stood at every moment; each army is counted as its day ended (when the campaign moved to the next
day) and as it stands now.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..core.docstate import apply_changes
from ..core.results import Change
from .views import STATUS_WORDS


@dataclass(frozen=True)
class ArmyAt:
    """An army at one day's end: the units it has brought to battle, those lost, those carrying
    casualties into the next battle, and its victory points for the campaign so far."""

    units: int
    lost: int
    worn: int
    vp: int

    @property
    def fit(self) -> int:
        return self.units - self.lost - self.worn


@dataclass
class Timeline:
    days: list[tuple[str, str]] = field(default_factory=list)  # (key, title) in the plan's order
    read: list[str] = field(default_factory=list)  # the days counted so far, in order
    armies: dict[str, list[ArmyAt]] = field(default_factory=dict)  # per army, one per day read
    names: dict[str, str] = field(default_factory=dict)
    battles: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # day -> (title, status) now


def army_at(doc: dict, key: str) -> ArmyAt:
    units = list(doc["armies"][key]["units"].values())
    lost = sum(1 for u in units if u.get("destroyed"))
    worn = sum(1 for u in units if u.get("casualties") and not u.get("destroyed"))
    vp = sum(d["vp"].get(key, 0) for d in doc["days"].values())
    return ArmyAt(len(units), lost, worn, vp)


def day_by_day(initial: dict, entries: Sequence[dict]) -> Timeline:
    """The campaign day by day, from its first state and its log's steps in force, oldest first
    (each with its ``changes``)."""
    out = Timeline()
    out.days = [(d["key"], d["title"]) for d in initial["plan"]["days"]]
    out.names = {k: a["name"] for k, a in initial["armies"].items()}
    out.armies = {k: [] for k in initial["armies"]}
    doc = initial

    def read(day: str) -> None:
        out.read.append(day)
        for k in out.armies:
            out.armies[k].append(army_at(doc, k))

    for e in entries:
        after = apply_changes(doc, [Change.from_dict(c) for c in e["changes"]], check=False)
        if after.get("day") != doc.get("day") and doc.get("day") in dict(out.days):
            read(doc["day"])
        doc = after
    if doc.get("day") in dict(out.days):
        read(doc["day"])
    for key, _ in out.days:
        battles = sorted((b for b in doc["battles"].values() if b["day"] == key), key=lambda b: b["order"])
        out.battles[key] = [(b["title"], b["status"]) for b in battles]
    return out


# --- an Of Oil and Iron campaign's roster, engagement by engagement -------------------------------

@dataclass(frozen=True)
class RigAt:
    """A roster Rig as an engagement's Aftermath left it: structure it carries into the next
    engagement (its most less the damage kept), experience, repair traits, and whether it is
    still on the roster."""

    structure: int
    most: int
    xp: int
    traits: tuple[str, ...]
    status: str

    @property
    def fate(self) -> str:
        """Its status in the players' words ("destroyed: awaiting its recovery roll")."""
        return STATUS_WORDS.get(self.status, self.status.replace("_", " "))


@dataclass
class Roster:
    engagements: list[str] = field(default_factory=list)  # each Aftermath read ("1", "2", ...)
    rigs: dict[str, list[RigAt | None]] = field(default_factory=dict)  # "p1/r1" -> one per engagement
    names: dict[str, str] = field(default_factory=dict)  # "p1/r1" -> "Jackal (Anna)"
    open: bool = False  # the last engagement's Aftermath is still under way


def _rigs_at(doc: dict) -> dict[str, RigAt]:
    out = {}
    for pid, roster in doc["rosters"].items():
        for key, r in roster["rigs"].items():
            most = sum(r["structure_max"].values())
            traits = tuple(t["name"] if isinstance(t, dict) else str(t) for t in r["traits"])
            out[f"{pid}/{key}"] = RigAt(most - sum(r["damage"].values()), most, r["xp"], traits, r["status"])
    return out


def roster_by_engagement(initial: dict, entries: Sequence[dict]) -> Roster:
    """Each Rig after each engagement's Aftermath closed (and as the Aftermath under way leaves it),
    from the campaign's first state and its log's steps in force, oldest first."""
    out, doc = Roster(), initial
    reads: list[tuple[str, dict[str, RigAt]]] = []
    for e in entries:
        after = apply_changes(doc, [Change.from_dict(c) for c in e["changes"]], check=False)
        if doc.get("aftermath") and not after.get("aftermath"):
            reads.append((doc["aftermath"]["step"], _rigs_at(after)))
        doc = after
    if doc.get("aftermath"):
        reads.append((doc["aftermath"]["step"], _rigs_at(doc)))
        out.open = True
    out.engagements = [step for step, _ in reads]
    for pid, roster in doc["rosters"].items():
        for key, r in roster["rigs"].items():
            ref = f"{pid}/{key}"
            out.names[ref] = f"{r['name']} ({doc['players'][pid]['name']})"
            out.rigs[ref] = [rigs.get(ref) for _, rigs in reads]
    return out
