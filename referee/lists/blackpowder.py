"""A Black Powder army list: a General and brigades of units, each brigade under a commander.

The model accepts a draft as the player left it (a brigade of two units, a rating of 11, a
unit from another nation): nothing is dropped or corrected. ``check_army`` then says what is
wrong and where. Only a list with no problems can start a battle (``army_force``).
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..data.blackpowder import CommanderProfile, UnitProfile, load_commanders, load_nations, load_unit_profiles
from ..data.scenarios import BrigadeSpec, CommanderSpec, ForceSpec, UnitLine
from ..systems import BLACK_POWDER
from .problems import Problem, picked, placed

MIN_UNITS, MAX_UNITS = 3, 6  # per brigade
MIN_RATING, MAX_RATING = 5, 10
NAME = Field(max_length=80)
# The builder's rows, each drawn with its own problems (``problems.row_of``); the rest of the
# army (its name, nation, allies, points limit) is the head.
ROWS = ("general", "brigades.#", "brigades.#.commander", "brigades.#.units", "brigades.#.units.#",
        "unassigned_commanders.#", "notes")


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Commander(_Part):
    """A commander by name with his Staff Rating and rules; ``key`` names a key commander
    (Wellington) whose rating and rules the player copied in and may still change."""

    key: str | None = Field(None, max_length=40)
    name: str = NAME
    staff_rating: int = Field(8, ge=0, le=99)
    rules: list[str] = []
    points: int | None = Field(None, ge=0, le=100000)


class ArmyUnit(_Part):
    profile: str = Field(max_length=80)  # a unit-profile id from armylists/blackpowder/
    name: str = NAME
    points: int | None = Field(None, ge=0, le=100000)
    notes: str = Field("", max_length=500)


class Brigade(_Part):
    name: str = NAME
    commander: Commander | None = None
    units: list[ArmyUnit] = []


class Army(_Part):
    system: Literal[BLACK_POWDER] = BLACK_POWDER
    name: str = NAME
    nation: str = Field(max_length=40)
    # Nations whose lists this army may also draw on (a Netherlands contingent in a British army).
    allies: list[str] = []
    general: Commander | None = None
    brigades: list[Brigade] = []
    # Commanders chosen but not yet given a brigade: kept, and reported, never dropped.
    unassigned_commanders: list[Commander] = []
    points_limit: int | None = Field(None, ge=1, le=100000)
    notes: str = Field("", max_length=2000)


def blank_army(nation: str = "british", name: str = "") -> Army:
    return Army(name=name, nation=nation, general=Commander(name="", staff_rating=8), brigades=[])


def commander_from_key(key: str) -> Commander:
    """A key commander's card copied into the list (the player may then change it)."""
    c: CommanderProfile = load_commanders()[key]
    return Commander(key=c.id, name=c.name, staff_rating=c.staff_rating, rules=list(c.rules))


# --- what the army may field ---------------------------------------------------------------

def allowed_nations(army: Army) -> set[str]:
    return {army.nation, "generic", *army.allies}


def army_lists_of(nation: str) -> set[str]:
    """The published lists a nation fields from (the British field KGL from “British & KGL”)."""
    return {p.army_list for p in load_unit_profiles().values() if p.nation == nation and not p.example}


def may_field(army: Army, profile: UnitProfile) -> bool:
    lists = set().union(*(army_lists_of(n) for n in allowed_nations(army)))
    return profile.nation in allowed_nations(army) or profile.army_list in lists


def profiles_for(army: Army) -> list[UnitProfile]:
    """The profiles the builder offers this army, its own lists first, size variants together."""
    profiles = [p for p in load_unit_profiles().values() if may_field(army, p)]
    return sorted(profiles, key=lambda p: (p.nation != army.nation, p.army_list, p.type, p.name))


def size_variants(profile_id: str) -> list[UnitProfile]:
    """Other sizes of the same unit (``british-riflemen`` and ``british-riflemen-small``)."""
    profiles = load_unit_profiles()
    p = profiles.get(profile_id)
    if p is None:
        return []
    stem = _stem(p.id)
    return [q for q in profiles.values() if _stem(q.id) == stem and q.army_list == p.army_list]


def _stem(profile_id: str) -> str:
    for suffix in ("-small", "-large"):
        if profile_id.endswith(suffix):
            return profile_id[: -len(suffix)]
    return profile_id


# --- checking ----------------------------------------------------------------------------

def _label(kind: str, index: int, name: str) -> str:
    return f"{kind} {index + 1} “{name}”" if name.strip() else f"{kind} {index + 1}"


def _check_commander(c: Commander, path: str, where: str, out: list[Problem]) -> None:
    if not c.name.strip():
        out.append(Problem(f"{path}.name", where, "the commander needs a name"))
    if not MIN_RATING <= c.staff_rating <= MAX_RATING:
        out.append(Problem(f"{path}.staff_rating", where,
                           f"Staff Rating {c.staff_rating} is outside {MIN_RATING}..{MAX_RATING}"))
    if c.key and c.key not in load_commanders():
        out.append(Problem(f"{path}.key", where, f"there is no key commander “{c.key}”"))


def check_army(army: Army) -> list[Problem]:
    """Every problem in the army, in the order the builder shows the parts."""
    out: list[Problem] = []
    profiles = load_unit_profiles()
    nations = load_nations()
    if not army.name.strip():
        out.append(Problem("name", "Army", "the army needs a name"))
    if army.nation not in nations:
        out.append(Problem("nation", "Army", f"there is no nation “{army.nation}”"))
    for i, ally in enumerate(army.allies):
        if ally not in nations:
            out.append(Problem(f"allies.{i}", "Army", f"there is no nation “{ally}” to ally with"))
    if army.general is None:
        out.append(Problem("general", "General", "the army needs a General"))
    else:
        _check_commander(army.general, "general", "General", out)
    if not army.brigades:
        out.append(Problem("brigades", "Army", "the army needs at least one brigade"))
    nation_name = nations[army.nation].name if army.nation in nations else army.nation
    total = 0
    for b_i, b in enumerate(army.brigades):
        bpath, bwhere = f"brigades.{b_i}", _label("Brigade", b_i, b.name)
        if not b.name.strip():
            out.append(Problem(f"{bpath}.name", bwhere, "the brigade needs a name"))
        if b.commander is None:
            out.append(Problem(f"{bpath}.commander", bwhere, "the brigade has no commander"))
        else:
            _check_commander(b.commander, f"{bpath}.commander", f"{bwhere}, commander", out)
            total += b.commander.points or 0
        n = len(b.units)
        if not MIN_UNITS <= n <= MAX_UNITS:
            out.append(Problem(f"{bpath}.units", bwhere,
                               f"a brigade has {MIN_UNITS} to {MAX_UNITS} units; this one has {n}"))
        for u_i, u in enumerate(b.units):
            upath, uwhere = f"{bpath}.units.{u_i}", f"{bwhere}, {_label('unit', u_i, u.name)}"
            total += u.points or 0
            if not u.name.strip():
                out.append(Problem(f"{upath}.name", uwhere, "the unit needs a name"))
            p = picked(profiles, u.profile, f"{upath}.profile", uwhere, out, "choose what kind of unit this is",
                       "unit profile")
            if p is not None and not may_field(army, p):
                theirs = nations[p.nation].name if p.nation in nations else p.nation
                out.append(Problem(f"{upath}.profile", uwhere,
                                   f"{p.name} is from the {theirs} list ({p.army_list}); a {nation_name} "
                                   f"army cannot field it unless {theirs} is named as an ally"))
    for c_i, c in enumerate(army.unassigned_commanders):
        where = f"Commander {c_i + 1} “{c.name}”" if c.name.strip() else f"Commander {c_i + 1}"
        out.append(Problem(f"unassigned_commanders.{c_i}", where,
                           "this commander has no brigade: give him one or take him out"))
    if army.general:
        total += army.general.points or 0
    if army.points_limit is not None and total > army.points_limit:
        out.append(Problem("points_limit", "Army", f"{total} points is over the limit of {army.points_limit}"))
    return placed(out, ROWS)


def army_points(army: Army) -> int:
    commanders = [army.general] + [b.commander for b in army.brigades]
    return sum((c.points or 0) for c in commanders if c) + \
        sum((u.points or 0) for b in army.brigades for u in b.units)


# --- to a battle --------------------------------------------------------------------------

def _spec(c: Commander) -> CommanderSpec:
    return CommanderSpec(key=c.key or None, name=c.name, staff_rating=c.staff_rating, rules=tuple(c.rules))


def army_force(army: Army) -> ForceSpec:
    """The army as a force for ``new_battle_from_forces`` (the caller checks it first)."""
    brigades = tuple(
        BrigadeSpec(name=b.name, commander=_spec(b.commander),
                    units=tuple(UnitLine(profile=u.profile, name=u.name, notes=u.notes) for u in b.units))
        for b in army.brigades if b.commander is not None)
    return ForceSpec(name=army.name, nation=army.nation,
                     general=_spec(army.general) if army.general else None, brigades=brigades)
