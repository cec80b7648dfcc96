"""A scenario's strength by side and arm, counted from its file: what the picker shows beside
each battle, and the table ``docs/scenarios.md`` prints (``referee.data.scenario_doc`` writes it).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .blackpowder import load_nations, load_unit_profiles
from .scenario_checks import army_title

ARMS = ("infantry", "cavalry", "artillery")
ARM_WORDS = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "batteries"}
BEGIN = "<!-- strengths: written by `python -m referee.data.scenario_doc` from the scenario files -->"
END = "<!-- end of strengths -->"


@dataclass(frozen=True)
class Arriving:
    """A brigade, or the units of one of its lines, that comes on after the start: when (the turn it
    comes on, or first rolls to), how (``turn``, ``roll``, ``umpire``) and how many units."""

    name: str
    units: int
    turn: int | None
    kind: str


@dataclass(frozen=True)
class SideStrength:
    """One side's units by arm: on the table at the start and arriving later; and by army."""

    side: str
    name: str
    start: dict[str, int]
    later: dict[str, int]
    armies: dict[str, int] = field(default_factory=dict)  # army name: units, when more than one
    arrivals: tuple[Arriving, ...] = ()  # what arrives later, in the file's order

    def total(self, arm: str) -> int:
        return self.start[arm] + self.later[arm]

    @property
    def units(self) -> int:
        return sum(self.total(a) for a in ARMS)

    def words(self) -> str:
        """"French: 47 infantry, 34 cavalry, 23 batteries (16 of them arrive later)"."""
        parts = ", ".join(f"{self.total(a)} {ARM_WORDS[a]}" for a in ARMS if self.total(a))
        later = sum(self.later.values())
        return f"{self.name}: {parts}" + (f" ({later} of them arrive later)" if later else "")


def unit_nation(line, profiles) -> str:
    """A unit's nation: the one its scenario line states, else its profile's."""
    return line.nation or profiles[line.profile].nation


def side_strength(scenario, side: str) -> SideStrength:
    profiles, nations = load_unit_profiles(), load_nations()
    force = getattr(scenario.sides, side)
    start = dict.fromkeys(ARMS, 0)
    later = dict.fromkeys(ARMS, 0)
    armies: dict[str, int] = {}
    arrivals: list[Arriving] = []
    for b in force.brigades:
        if b.arrives:
            arrivals.append(Arriving(b.name, sum(line.count for line in b.units), b.arrives.first_turn(),
                                     b.arrives.kind))
        for line in b.units:
            if line.arrives and not b.arrives:
                arrivals.append(Arriving(f"{b.name}: {line.name.replace('{n}', '')}".strip(), line.count,
                                         line.arrives.first_turn(), line.arrives.kind))
            arm = profiles[line.profile].type
            (later if (b.arrives or line.arrives) else start)[arm] += line.count
            nation = nations[unit_nation(line, profiles)]
            army = army_title(nation.army) if nation.army else nation.name
            armies[army] = armies.get(army, 0) + line.count
    return SideStrength(side, force.name, start, later, armies if len(armies) > 1 else {}, tuple(arrivals))


def strengths(scenario) -> tuple[SideStrength, SideStrength]:
    return side_strength(scenario, "blue"), side_strength(scenario, "red")


def markdown(scenarios) -> str:
    """The table for ``docs/scenarios.md``, between its markers."""
    rows = [BEGIN, "",
            "| file | side | infantry | cavalry | batteries | of which arrive later | units |",
            "|---|---|---|---|---|---|---|"]
    for sid in sorted(scenarios):
        for s in strengths(scenarios[sid]):
            later = sum(s.later.values())
            name = s.name + (" (" + ", ".join(f"{a} {n}" for a, n in s.armies.items()) + ")" if s.armies else "")
            rows.append(f"| `{sid}.yaml` | {name} | {s.total('infantry')} | {s.total('cavalry')} | "
                        f"{s.total('artillery')} | {later} | {s.units} |")
    return "\n".join(rows + ["", END])
