"""Scenarios and forces: from a file in ``scenarios/blackpowder/`` (or two forces the umpire typed
in) to the setup the Black Powder game starts from (``GAME.new_game``).

A scenario file names each side's general, its brigades with their commanders, and the units of
each brigade by unit-profile id and a readable name. Everything is validated when read; errors
name the file, the entry and the field. Unit stats always come from the army lists, never from
the scenario, so there is one source of stat lines.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..blackpowder.battle_setup import BattleSetup
from ..blackpowder.game import GAME
from ..systems import BLACK_POWDER, OIL_AND_IRON
from .blackpowder import (
    ROOT,
    SLUG,
    load_commanders,
    load_nations,
    load_unit_profiles,
    read_yaml,
    unit_from_profile,
    validate_file,
)
from .errors import DataError, FieldProblem, ForceError, friendly
from .oilandiron import load_engagements
from .scenario_balance import Balance, balances
from .scenario_checks import check_units
from .scenario_strength import SideStrength, strengths
from .scenario_terms import Arrival, Clock, Feature, FoePosture, Victory, line_of, split_field

SCENARIOS = ROOT / "scenarios"
MAX_UNITS_PER_LINE = 30


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CommanderSpec(Strict):
    """A commander: either a key commander by id (``key: wellington``), whose rating, rules and
    attacks come from commanders.yaml unless given here, or a name with a Staff Rating."""

    key: str | None = Field(None, pattern=SLUG)
    name: str | None = Field(None, min_length=1, max_length=80)
    staff_rating: int | None = None
    rules: tuple[str, ...] | None = None
    personality: str | None = None
    attacks: int | None = Field(None, ge=0, le=6)
    attacks_defending: int | None = Field(None, ge=0, le=6)

    @model_validator(mode="before")
    @classmethod
    def _key_alone(cls, data: Any) -> Any:
        """``general: napoleon`` is short for ``general: {key: napoleon}``."""
        return {"key": data} if isinstance(data, str) else data

    @field_validator("staff_rating")
    @classmethod
    def _rating_in_range(cls, v: int | None) -> int | None:
        if v is not None and not 5 <= v <= 10:
            raise ValueError(f"staff rating {v} is outside 5..10")
        return v

    @model_validator(mode="after")
    def _named(self) -> "CommanderSpec":
        if not self.key and not self.name:
            raise FieldProblem("name", "a commander needs a name (or the key of a known commander)")
        return self


class UnitLine(Strict):
    """One line of a brigade: ``count`` units of one profile. ``{n}`` in the name numbers them
    ("{n}/7th Musketeers" gives "1/7th Musketeers", "2/7th Musketeers")."""

    profile: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=80)
    count: int = Field(1, ge=1, le=MAX_UNITS_PER_LINE)
    formation: str | None = None
    building_size: Literal["small", "standard", "large"] | None = None  # when formation is building
    notes: str = ""
    arrives: Arrival | None = None  # not on the table at the start: when it comes on
    # The unit's own nation when its profile is another nation's (a borrowed profile never
    # changes whose the unit is), and why a profile is not of the unit's nation or arm.
    nation: str | None = Field(None, pattern=SLUG)
    why: str = Field("", max_length=300)

    @model_validator(mode="after")
    def _building_has_size(self) -> "UnitLine":
        if (self.formation == "building") != (self.building_size is not None):
            raise FieldProblem("building_size", "a unit in buildings needs a building_size (small, "
                               "standard or large), and only a unit in buildings has one")
        return self

    def names(self) -> list[str]:
        if "{n}" in self.name:
            return [self.name.replace("{n}", str(i)) for i in range(1, self.count + 1)]
        if self.count == 1:
            return [self.name]
        return [f"{self.name} {i}" for i in range(1, self.count + 1)]


class BrigadeSpec(Strict):
    name: str = Field(min_length=1, max_length=80)
    commander: CommanderSpec
    units: tuple[UnitLine, ...]
    notes: str = ""
    deploy: str = Field("", max_length=400)  # where it sets up, as an instruction to the players
    arrives: Arrival | None = None  # a reserve or reinforcement: when the brigade comes on

    @field_validator("units")
    @classmethod
    def _has_units(cls, v: tuple) -> tuple:
        if not v:
            raise ValueError("a brigade needs at least one unit")
        return v


class ForceSpec(Strict):
    """One side's force: its name, nation (for standing national rules), the armies it fields
    (default its nation's), general and brigades."""

    name: str = Field(min_length=1, max_length=80)
    nation: str | None = Field(None, pattern=SLUG)
    armies: tuple[str, ...] = ()  # anglo-allied, prussian, french: every unit belongs to one
    general: CommanderSpec | None = None
    brigades: tuple[BrigadeSpec, ...]
    deployment: str = Field("", max_length=800)  # the side's deployment zone, for the players

    @field_validator("brigades")
    @classmethod
    def _has_brigades(cls, v: tuple) -> tuple:
        if not v:
            raise ValueError("a force needs at least one brigade")
        return v


class Sides(Strict):
    blue: ForceSpec
    red: ForceSpec


class Scenario(Strict):
    id: str = Field(pattern=SLUG)
    system: str = BLACK_POWDER
    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    # An outline: the summary gives the situation but not the full forces; the forces shipped
    # are what the text names, to be edited before play.
    outline: bool = False
    turns: int | None = Field(None, ge=1, le=40)
    clock: Clock | None = None
    victory: Victory | None = None
    forces_note: str = ""
    features: tuple[Feature, ...] = ()
    notes: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    settings: dict = {}
    foe_posture: tuple[FoePosture, ...] = ()  # the Foe's posture by turn, when Referee plays a side
    sides: Sides

    @model_validator(mode="after")
    def _terms_fit(self) -> "Scenario":
        """Arrivals and the checkpoint fall within the turn limit; a group arrives one way."""
        if self.victory and self.victory.checkpoint and self.turns and self.victory.checkpoint > self.turns:
            raise FieldProblem("victory.checkpoint", f"turn {self.victory.checkpoint} is after the last turn ({self.turns})")
        for i, p in enumerate(self.foe_posture):
            if self.turns and p.last_turn() > self.turns:
                raise FieldProblem(f"foe_posture.{i}.turns", f"turn {p.last_turn()} is after the last turn ({self.turns})")
        groups: dict[tuple, tuple] = {}
        for side in ("blue", "red"):
            for bi, b in enumerate(getattr(self.sides, side).brigades):
                lines = [(f"sides.{side}.brigades.{bi}.arrives", b.arrives)]
                for ui, u in enumerate(b.units):
                    if u.arrives and b.arrives:
                        raise FieldProblem(f"sides.{side}.brigades.{bi}.units.{ui}.arrives",
                                           f"the whole brigade “{b.name}” already arrives later")
                    lines.append((f"sides.{side}.brigades.{bi}.units.{ui}.arrives", u.arrives))
                for where, a in lines:
                    if a is None:
                        continue
                    first = a.first_turn()
                    if self.turns and first and first > self.turns:
                        raise FieldProblem(where, f"turn {first} is after the last turn ({self.turns})")
                    if a.group:
                        key = (side, a.group)
                        plan = (a.kind, a.turn, a.from_turn, a.roll)
                        if groups.setdefault(key, plan) != plan:
                            raise FieldProblem(where, f"the group “{a.group}” arrives another way elsewhere; "
                                                      "give every member the same turn or roll")
        return self

    @property
    def victory_text(self) -> str:
        return self.victory.text if self.victory else ""


@dataclass(frozen=True)
class ScenarioInfo:
    id: str
    title: str
    summary: str
    outline: bool
    turns: int | None = None
    victory: str = ""
    blue: str = ""  # side names, for "French v Prussians"
    red: str = ""
    strengths: tuple[SideStrength, ...] = ()  # each side's units by arm, counted from the file
    clock: tuple[str, int] | None = None  # the time of turn 1 and the minutes a turn stands for
    balance: Balance | None = None  # each side's wins when Referee plays both (scenario_balance.py)


# --- reading -----------------------------------------------------------------------------

def _folder(system: str, directory: Path | str | None) -> Path:
    return Path(directory) if directory else SCENARIOS / system


@lru_cache(maxsize=8)
def _load(folder: Path) -> dict[str, Scenario]:
    if not folder.is_dir():
        raise DataError(str(folder), None, None, "the scenarios folder does not exist")
    out: dict[str, Scenario] = {}
    files: dict[str, str] = {}
    for path in sorted(folder.glob("*.yaml")):
        raw = read_yaml(path)
        entry = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
        try:
            scenario: Scenario = validate_file(path, Scenario, raw, entry)  # type: ignore[assignment]
        except DataError as exc:
            raise _with_lines(path, exc) from None
        if scenario.id in out:
            raise DataError(path.name, scenario.id, "id",
                            f"the id is already used in {files[scenario.id]}{_at(path, ['id'])}")
        for side in ("blue", "red"):
            _check_force(getattr(scenario.sides, side), side,
                         lambda entry, field, msg, loc=None, p=path:
                         DataError(p.name, entry, field, msg + (_at(p, loc) if loc else "")), scenario=True)
        out[scenario.id] = scenario
        files[scenario.id] = path.name
    return out


def _at(path: Path, loc) -> str:
    line = line_of(path.read_text(encoding="utf-8"), list(loc))
    return f" (line {line})" if line else ""


def _with_lines(path: Path, exc: DataError) -> DataError:
    """The same errors, each saying on which line of the file the field is."""
    def one(e: DataError) -> DataError:
        return DataError(e.file, e.entry, e.field, e.message + _at(path, split_field(e.field)))
    first = one(exc)
    return DataError(first.file, first.entry, first.field, first.message, more=[one(e) for e in exc.more])


def load_scenarios(system: str = BLACK_POWDER, directory: Path | str | None = None) -> dict[str, Scenario]:
    return dict(_load(_folder(system, directory).resolve()))


def reload() -> None:
    _load.cache_clear()


def list_scenarios(system: str = BLACK_POWDER, directory: Path | str | None = None) -> list[ScenarioInfo]:
    """Every scenario, playable ones first, then by title. Of Oil and Iron has engagements
    instead (``scenarios/oilandiron/engagements.yaml``), listed in the same shape."""
    if system == OIL_AND_IRON:
        return [ScenarioInfo(e.key, e.name, e.summary, False, None, e.note)
                for e in load_engagements().engagements]
    if system != BLACK_POWDER:
        raise ValueError(f"There are no scenarios for the game “{system}”.")
    infos = [ScenarioInfo(s.id, s.title, s.summary, s.outline, s.turns, s.victory_text,
                          s.sides.blue.name, s.sides.red.name, strengths(s),
                          (s.clock.start, s.clock.minutes_per_turn) if s.clock else None, balances().get(s.id))
             for s in load_scenarios(system, directory).values()]
    return sorted(infos, key=lambda i: (i.outline, i.id != "demo", i.title))


def get_scenario(scenario_id: str, directory: Path | str | None = None) -> Scenario:
    scenarios = load_scenarios(BLACK_POWDER, directory)
    if scenario_id not in scenarios:
        raise KeyError(f"There is no scenario “{scenario_id}”.")
    return scenarios[scenario_id]


# --- building a battle ----------------------------------------------------------------------

def new_battle_from_scenario(scenario_id: str, directory: Path | str | None = None) -> dict:
    """A fresh battle document for the scenario, ready to play (Blue moves first)."""
    s = get_scenario(scenario_id, directory)
    info = {"id": s.id, "title": s.title, "outline": s.outline, "turns": s.turns,
            "victory": s.victory_text, "notes": list(s.notes), "forces_note": s.forces_note,
            "deployment": {side: getattr(s.sides, side).deployment for side in ("blue", "red")
                           if getattr(s.sides, side).deployment},
            "features": [f.model_dump() for f in s.features]}
    doc = _build(s.title, s.sides.blue, s.sides.red, settings=s.settings, scenario=info)
    # The terms the engine reads during play (reserves.py, clock.py, victory.py), copied in so a
    # battle never reads its scenario file again.
    doc["turn_limit"] = s.turns
    doc["clock"] = s.clock.model_dump() if s.clock else None
    doc["victory"] = s.victory.as_doc(s.turns) if s.victory and s.victory.questions else None
    if s.foe_posture:
        doc["foe_posture"] = [p.model_dump() for p in s.foe_posture]
    return doc


def new_battle_from_forces(name: str, blue: ForceSpec | dict, red: ForceSpec | dict,
                           settings: dict | None = None) -> dict:
    """A battle from two forces typed in on the spot. Raises ForceError with a message for the
    umpire (unknown unit profile, a brigade without units, a staff rating outside 5..10)."""
    forces = []
    for side, spec in (("blue", blue), ("red", red)):
        if not isinstance(spec, ForceSpec):
            try:
                spec = ForceSpec.model_validate(spec)
            except ValidationError as exc:
                raise ForceError(_force_message(side, spec, exc)) from None
        _check_force(spec, side, lambda entry, field, msg, loc=None: ForceError(f"{entry}: {msg}"))
        forces.append(spec)
    if not name or not name.strip():
        raise ForceError("The battle needs a name.")
    return _build(name.strip(), forces[0], forces[1], settings=settings, scenario={})


def reinforcement_units(doc: dict, side: str, profile: str, name: str, count: int = 1) -> list[dict]:
    """Units the umpire adds to a battle in play (``referee.blackpowder.reserves.ADD_UNITS``),
    built from the army lists as a scenario's are, with ids the battle does not use yet. Raises
    ForceError with a message for the umpire."""
    try:
        line = UnitLine(profile=profile, name=name.strip() or profile, count=count)
    except ValidationError as exc:
        raise ForceError(_force_message(side, {"profile": profile, "name": name, "count": count}, exc)) from None
    profiles = load_unit_profiles()
    if line.profile not in profiles:
        near = _near(line.profile, profiles)
        raise ForceError(f"Unknown unit profile “{line.profile}”" + (f" (did you mean {near}?)" if near else ""))
    taken = set(doc.get("units", {})) | set(doc.get("brigades", {}))
    return [unit_from_profile(line.profile, _unique(slug(n), taken), n, side, "to-be-added") for n in line.names()]


def _check_force(force: ForceSpec, side: str, error, scenario: bool = False) -> None:
    """References to the army lists resolve: profiles, key commanders, the nation; each unit is of
    its side's army and on a profile of its arm (``scenario_checks``). ``error(entry, field,
    message, loc)`` makes the exception; ``loc`` is the place in a scenario file."""
    profiles = load_unit_profiles()
    commanders = load_commanders()
    label = f"{side.title()} ({force.name})"
    if force.nation and force.nation not in load_nations():
        raise error(label, "nation", f"unknown nation “{force.nation}”", ("sides", side, "nation"))
    if force.general and force.general.key and force.general.key not in commanders:
        raise error(f"{label}, general", "key", f"unknown commander “{force.general.key}” "
                                                 f"(known: {', '.join(sorted(commanders))})",
                    ("sides", side, "general"))
    for bi, b in enumerate(force.brigades):
        where = f"{label}, brigade “{b.name}”"
        at = ("sides", side, "brigades", bi)
        if b.commander.key and b.commander.key not in commanders:
            raise error(where, "commander.key", f"unknown commander “{b.commander.key}”",
                         at + ("commander", "key"))
        for ui, u in enumerate(b.units):
            if u.profile not in profiles:
                near = _near(u.profile, profiles)
                hint = f" (did you mean {near}?)" if near else ""
                raise error(f"{where}, unit “{u.name}”", "profile",
                             f"unknown unit profile “{u.profile}”{hint}", at + ("units", ui, "profile"))
            if u.formation:
                try:
                    unit_from_profile(u.profile, "check", u.name, side, "check", formation=u.formation)
                except (TypeError, ValueError) as exc:
                    raise error(f"{where}, unit “{u.name}”", "formation", str(exc),
                                 at + ("units", ui, "formation"))
    check_units(force, side, profiles, load_nations(), error, scenario)


def _near(wrong: str, known: dict) -> str:
    close = difflib.get_close_matches(wrong, list(known), n=3, cutoff=0.6)
    return ", ".join(f"“{c}”" for c in close)


def _force_message(side: str, raw: Any, exc: ValidationError) -> str:
    """Pydantic's complaint about typed-in forces, in the umpire's words: the brigade and unit
    are named by the names the umpire typed, not by their position."""
    lines = []
    for err in exc.errors():
        where, node, loc = [side.title()], raw, list(err["loc"])
        while loc:
            key = loc.pop(0)
            node = node.get(key) if isinstance(node, dict) else None
            if key in ("brigades", "units") and loc and isinstance(loc[0], int):
                idx = loc.pop(0)
                node = node[idx] if isinstance(node, (list, tuple)) and idx < len(node) else None
                label = "brigade" if key == "brigades" else "unit"
                named = node.get("name") if isinstance(node, dict) else None
                where.append(f"{label} “{named}”" if named else f"{label} {idx + 1}")
            elif isinstance(key, str):
                where.append(key.replace("_", " "))
        lines.append(f"{', '.join(where)}: {friendly(err)}")
    return "\n".join(lines)


def _commander(spec: CommanderSpec | None, nation_rules: tuple[str, ...]) -> dict | None:
    if spec is None:
        return None
    base = load_commanders()[spec.key].as_commander() if spec.key else \
        {"name": spec.name, "staff_rating": 8, "rules": [], "personality": None,
         "attacks": 0, "attacks_defending": 0}
    # A key commander's personal rules come with his key; a plain name has none.
    for f in ("name", "staff_rating", "personality", "attacks", "attacks_defending"):
        if getattr(spec, f) is not None:
            base[f] = getattr(spec, f)
    if spec.rules is not None:
        base["rules"] = list(spec.rules)
    # A nation's standing commander rules (every Prussian commander is Decisive).
    base["rules"] = base["rules"] + [r for r in nation_rules if r.lower() not in
                                     (x.lower() for x in base["rules"])]
    return base


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.replace("'", "").replace("’", ""))
    text = text.encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _unique(base: str, taken: set[str]) -> str:
    key, n = base, 2
    while key in taken:
        key, n = f"{base}-{n}", n + 1
    taken.add(key)
    return key


def _build(name: str, blue: ForceSpec, red: ForceSpec, settings: dict | None, scenario: dict) -> dict:
    nations = load_nations()
    sides, brigades, units = {}, {}, {}
    taken: set[str] = set()
    reserves: dict[str, dict] = {}
    # Two armies of one name (a list fought against itself) told apart, as two squadrons of one
    # list are in an engagement (``data/oilandiron.engagement_setup``): the table never calls both by one name.
    names = {"blue": blue.name, "red": f"{red.name} (player 2)" if red.name == blue.name else red.name}
    for side, force in (("blue", blue), ("red", red)):
        rules = nations[force.nation].commander_rules if force.nation else ()
        sides[side] = {"id": side, "name": names[side], "nation": force.nation,
                       "general": _commander(force.general, rules)}
        for b in force.brigades:
            bid = _unique(f"{side}-{slug(b.name)}", taken)
            brigades[bid] = {"id": bid, "name": b.name, "side": side,
                             "commander": _commander(b.commander, rules)}
            for line in b.units:
                status: dict[str, Any] = {"formation": line.formation} if line.formation else {}
                if line.building_size:
                    status["building_size"] = line.building_size
                if line.notes:
                    status["notes"] = line.notes
                for unit_name in line.names():
                    uid = _unique(slug(unit_name), taken)
                    units[uid] = unit_from_profile(line.profile, uid, unit_name, side, bid, **status)
                    if line.nation:
                        units[uid]["nation"] = line.nation
                    arrival = b.arrives or line.arrives
                    if arrival:
                        units[uid]["awaiting"] = True
                        label = arrival.group or (b.name if b.arrives else unit_name)
                        _join_reserve(reserves, side, label, arrival, uid, bid if b.arrives else None)
    doc = GAME.new_game(BattleSetup(name=name, sides=sides, brigades=brigades, units=units,
                                    settings=settings, scenario=scenario))
    doc["reserves"] = reserves
    return doc


def _join_reserve(reserves: dict, side: str, label: str, arrival: Arrival, uid: str, bid: str | None) -> None:
    """Units that arrive together form one reserve (a brigade, a group of brigades, a unit):
    the battle document's record that ``referee.blackpowder.reserves`` plays from."""
    gid = f"{side}-{slug(label)}"
    group = reserves.setdefault(gid, {
        "id": gid, "label": label, "side": side, "units": [], "brigades": [],
        "schedule": arrival.schedule(), "at": arrival.at, "note": arrival.note,
        "status": "waiting", "due_turn": None, "rolled": [],
    })
    group["units"].append(uid)
    if bid and bid not in group["brigades"]:
        group["brigades"].append(bid)
    for text, key in ((arrival.at, "at"), (arrival.note, "note")):
        if text and text not in group[key]:
            group[key] = f"{group[key]} {text}".strip()
