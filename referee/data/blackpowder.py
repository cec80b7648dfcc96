"""Black Powder unit profiles, nations and key commanders, read from ``armylists/blackpowder/``.

The YAML files are the single source of stat lines: the army-list builder, the scenarios, the app
and the tests all read them through this module. Every file is validated when it is read; a
mistake raises :class:`~referee.data.errors.DataError` naming the file, the entry and the field.
The format is described in ``armylists/blackpowder/README.md``.
"""
from __future__ import annotations

import re
from dataclasses import fields as dataclass_fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..blackpowder.model import (
    ARTILLERY_FORMATIONS,
    CAVALRY_FORMATIONS,
    FORMATIONS,
    INFANTRY_FORMATIONS,
    Commander,
    Unit,
)
from ..systems import BLACK_POWDER
from .errors import DataError, FieldProblem, from_validation
from .root import ROOT

# The folder holding armylists/ and scenarios/: the repository, unless an installed copy is told
# where the data lives.
ARMYLISTS = ROOT / "armylists" / BLACK_POWDER

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
NATIONS_FILE = "nations.yaml"
COMMANDERS_FILE = "commanders.yaml"

# The bases a unit stands on, by type and size (rules summary, "Unit Sizes").
BASES = {
    ("infantry", "large"): 5, ("infantry", "standard"): 4, ("infantry", "small"): 3,
    ("cavalry", "large"): 4, ("cavalry", "standard"): 3, ("cavalry", "small"): 2,
    ("artillery", "standard"): 3, ("artillery", "small"): 3, ("artillery", "large"): 3,
}

# A weapon names its maximum range; a profile may still set its own range.
WEAPONS = {
    "smoothbore muskets": 18,
    "rifled muskets": 24,
    "smoothbore carbines": 12,
    "rifled carbines": 18,
    "horse artillery": 36,
    "foot artillery": 48,
    "field howitzer": 36,
    "rockets": 60,
}
DEFAULT_WEAPON = {"infantry": "smoothbore muskets", "cavalry": "smoothbore carbines"}
ARTILLERY_WEAPON = {"foot": "foot artillery", "horse": "horse artillery",
                    "howitzer": "field howitzer", "rocket": "rockets"}

NO_VALUE = ("–", "—", "-", "", "0")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitProfile(Strict):
    """One line of an army list: what a unit of this kind fights like."""

    id: str = Field(pattern=SLUG)
    name: str = Field(min_length=1)
    nation: str = Field(pattern=SLUG)
    army_list: str = ""  # the army list (table) it comes from; filled in from the file
    type: Literal["infantry", "cavalry", "artillery"]
    size: Literal["small", "standard", "large"] = "standard"
    bases: int = Field(0, ge=0, le=8)  # 0: the usual number for the type and size
    hand_to_hand: int = Field(ge=0, le=12)
    # Dice when shooting; None when the unit cannot shoot ("–") or is artillery (range bands).
    shooting: int | None = Field(None, ge=0, le=8)
    # Artillery dice by range band as the lists print them ("3-2-1").
    artillery_dice: str | None = Field(None, pattern=r"^\d(-\d)*$")
    artillery_kind: Literal["foot", "horse", "howitzer", "rocket"] | None = None
    morale: int | None = Field(ge=2, le=6)  # save on this or more; None: no save
    stamina: int = Field(ge=1, le=6)
    special_rules: tuple[str, ...] = ()
    weapon: str = ""
    weapon_range: int = Field(0, ge=0, le=120)  # 0: the weapon's usual range
    example: bool = False  # not from the published lists: a labelled example to edit
    note: str = ""
    source: str = ""  # where the numbers come from ("rules/black-powder-epic.md:437")

    @model_validator(mode="before")
    @classmethod
    def _read_artillery_dice(cls, data: Any) -> Any:
        """Artillery prints its dice by range band ("3-2-1") where others print Shooting."""
        if isinstance(data, dict) and isinstance(data.get("shooting"), str) \
                and re.fullmatch(r"\d(-\d)+", data["shooting"].strip()):
            data = {**data, "shooting": None, "artillery_dice": data["shooting"].strip()}
        return data

    @field_validator("morale", mode="before")
    @classmethod
    def _read_morale(cls, value: Any) -> Any:
        """As the tables print it: "4+"; "0" or "–" for no save."""
        if value is None or isinstance(value, int):
            return value or None
        s = str(value).strip()
        if s in NO_VALUE:
            return None
        m = re.fullmatch(r"(\d)\+?", s)
        if not m:
            raise ValueError(f"“{s}” is not a save like “4+”, nor “0” or “–” for none")
        return int(m.group(1))

    @field_validator("shooting", mode="before")
    @classmethod
    def _read_shooting(cls, value: Any) -> Any:
        if isinstance(value, str):
            s = value.strip()
            if s in NO_VALUE:
                return None
            if not s.isdigit():
                raise ValueError(f"“{s}” is not a number of dice, “–”, "
                                 "or artillery dice like “3-2-1”")
            return int(s)
        return value

    @field_validator("special_rules", mode="before")
    @classmethod
    def _read_rules(cls, value: Any) -> Any:
        if isinstance(value, str):
            s = value.strip()
            return () if s in NO_VALUE else tuple(r.strip() for r in s.split(","))
        return value

    @field_validator("special_rules")
    @classmethod
    def _rules_named(cls, rules: tuple[str, ...]) -> tuple[str, ...]:
        for r in rules:
            if not r or not r.strip():
                raise ValueError("a special rule has no name")
            if r.lower().startswith(("as line", "as above", "as musketeer", "as jäger")):
                raise ValueError(f"“{r}” must be written out as the full list of rules")
        if len({r.lower() for r in rules}) != len(rules):
            raise ValueError("a special rule is listed twice")
        return rules

    @model_validator(mode="after")
    def _complete(self) -> "UnitProfile":
        if self.type == "artillery":
            if not self.artillery_kind:
                raise FieldProblem("artillery_kind",
                                   "artillery needs an artillery_kind (foot, horse, howitzer or rocket)")
            if not self.artillery_dice:
                raise FieldProblem("shooting", "artillery gives its dice by range band (e.g. “3-2-1”)")
        elif self.artillery_kind:
            raise FieldProblem("artillery_kind", f"{self.type} cannot have an artillery_kind")
        elif self.artillery_dice:
            raise FieldProblem("shooting", f"{self.type} cannot shoot by range bands like artillery")
        weapon = self.weapon or (ARTILLERY_WEAPON[self.artillery_kind] if self.artillery_kind
                                 else DEFAULT_WEAPON[self.type])
        if weapon not in WEAPONS and not self.weapon_range:
            raise FieldProblem("weapon", f"“{weapon}” is not one of: {', '.join(WEAPONS)} "
                                         "(or give a weapon_range)")
        object.__setattr__(self, "weapon", weapon)
        object.__setattr__(self, "weapon_range", self.weapon_range or WEAPONS[weapon])
        object.__setattr__(self, "bases", self.bases or BASES[(self.type, self.size)])
        return self

    # --- as the tables print them ---
    @property
    def shooting_text(self) -> str:
        if self.artillery_dice:
            return self.artillery_dice
        return "–" if self.shooting is None else str(self.shooting)

    @property
    def morale_text(self) -> str:
        return "–" if self.morale is None else f"{self.morale}+"

    def has(self, rule: str) -> bool:
        rule = rule.lower()
        return any(r.lower() == rule or r.lower().startswith(rule + " ") for r in self.special_rules)


class Nation(Strict):
    """A nation's standing rules, as data the engines and builders read."""

    id: str = Field(pattern=SLUG)
    name: str = Field(min_length=1)
    # The army its units fought in (anglo-allied, prussian, french); none for the examples' nation.
    army: str | None = Field(None, pattern=SLUG)
    # Infantry of this nation count as Tough Fighters when fighting units of these nations.
    infantry_tough_fighters_against: tuple[str, ...] = ()
    # Rules every commander of this nation has.
    commander_rules: tuple[str, ...] = ()
    # Points for an extra sub-commander, where the summary gives it.
    sub_commander_points: int | None = Field(None, ge=0)
    notes: str = ""
    source: str = ""


class CommanderProfile(Strict):
    """A named commander with his Staff Rating, rules and the attacks he adds to a fight."""

    id: str = Field(pattern=SLUG)
    name: str = Field(min_length=1)
    nation: str = Field(pattern=SLUG)
    staff_rating: int = Field(ge=5, le=10)
    rules: tuple[str, ...] = ()
    personality: str | None = None
    attacks: int = Field(0, ge=0, le=6)  # added when attached to a unit in a combat
    attacks_defending: int = Field(0, ge=0, le=6)  # added instead when his unit was charged
    # His personal rules the engines apply (see commanders.yaml for each).
    break_test_bonus_within_12: int = Field(0, ge=0, le=3)
    supporters_retake_break_tests: bool = False
    valiant_units: str = Field("", pattern=r"^(|[1-9]|D3|D6)$")
    ferocious_charge_units: int = Field(0, ge=0, le=6)
    free_move_before_game: bool = False
    chooses_deployment_side: bool = False
    abilities: tuple[str, ...] = ()  # his personal rules, in our words, for the card
    source: str = ""

    def as_commander(self) -> dict:
        """The commander as the battle document holds it: every ``model.Commander`` field."""
        return {f.name: list(getattr(self, f.name)) if f.name == "rules" else getattr(self, f.name)
                for f in dataclass_fields(Commander)}


class ListFile(Strict):
    title: str = Field(min_length=1)
    notes: str = ""
    units: list[dict]


class NationsFile(Strict):
    nations: list[dict]


class CommandersFile(Strict):
    commanders: list[dict]


# --- reading ---------------------------------------------------------------------------

def read_yaml(path: Path) -> Any:
    """The parsed file, or a DataError pointing at the line YAML could not read."""
    try:
        with path.open(encoding="utf-8") as f:
            return yaml.safe_load(f)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise DataError(path.name, None, None, f"not valid YAML{where}: {getattr(exc, 'problem', exc)}") from None
    except OSError as exc:
        raise DataError(path.name, None, None, f"cannot be read: {exc}") from None


def validate_file(path: Path, model: type[BaseModel], data: Any, entry: str | None = None) -> BaseModel:
    if data is None:
        raise DataError(path.name, None, None, "the file is empty")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise from_validation(path.name, entry, exc) from None


def validate_entries(path: Path, section: str, items: list, model: type[BaseModel],
                     extra: dict | None = None) -> list:
    """Each entry validated on its own, so an error names the entry (by id, else position)."""
    out, problems = [], []
    for i, item in enumerate(items):
        entry = item.get("id") if isinstance(item, dict) and item.get("id") else f"{section} #{i + 1}"
        if not isinstance(item, dict):
            problems.append(DataError(path.name, entry, None, "each entry is a mapping of field: value"))
            continue
        try:
            out.append(model.model_validate({**(extra or {}), **item}))
        except ValidationError as exc:
            problems.append(from_validation(path.name, entry, exc))
        except ValueError as exc:  # raised while reading table values, before field checks
            problems.append(DataError(path.name, entry, None, str(exc)))
    if problems:
        lines = [p for e in problems for p in [e] + e.more]
        raise DataError(lines[0].file, lines[0].entry, lines[0].field, lines[0].message, more=lines[1:])
    return out


def _directory(directory: Path | str | None) -> Path:
    return Path(directory) if directory else ARMYLISTS


@lru_cache(maxsize=8)
def _load_all(directory: Path) -> tuple[dict, dict, dict]:
    if not directory.is_dir():
        raise DataError(str(directory), None, None, "the army lists folder does not exist")
    nations: dict[str, Nation] = {}
    commanders: dict[str, CommanderProfile] = {}
    profiles: dict[str, UnitProfile] = {}
    seen: dict[str, str] = {}

    nations_path = directory / NATIONS_FILE
    if not nations_path.exists():
        raise DataError(NATIONS_FILE, None, None, "the nations file is missing")
    doc = validate_file(nations_path, NationsFile, read_yaml(nations_path))
    for n in validate_entries(nations_path, "nations", doc.nations, Nation):
        _unique(nations, n, nations_path, seen)

    for path in sorted(directory.glob("*.yaml")):
        if path.name in (NATIONS_FILE, COMMANDERS_FILE):
            continue
        doc = validate_file(path, ListFile, read_yaml(path))
        for p in validate_entries(path, "units", doc.units, UnitProfile, extra={"army_list": doc.title}):
            _known_nation(nations, path, p.id, p.nation)
            _unique(profiles, p, path, seen)

    commanders_path = directory / COMMANDERS_FILE
    if commanders_path.exists():
        doc = validate_file(commanders_path, CommandersFile, read_yaml(commanders_path))
        for c in validate_entries(commanders_path, "commanders", doc.commanders, CommanderProfile):
            _known_nation(nations, commanders_path, c.id, c.nation)
            _unique(commanders, c, commanders_path, seen)
    return profiles, nations, commanders


def _unique(into: dict, item: Any, path: Path, seen: dict[str, str]) -> None:
    key = f"{type(item).__name__}:{item.id}"
    if key in seen:
        raise DataError(path.name, item.id, "id", f"the id is already used in {seen[key]}")
    seen[key] = path.name
    into[item.id] = item


def _known_nation(nations: dict, path: Path, entry: str, nation: str) -> None:
    if nation not in nations:
        raise DataError(path.name, entry, "nation",
                        f"unknown nation “{nation}” (known: {', '.join(sorted(nations))})")


def load_unit_profiles(directory: Path | str | None = None) -> dict[str, UnitProfile]:
    """Every unit profile of every list, keyed by its id ("british-line-infantry")."""
    return dict(_load_all(_directory(directory).resolve())[0])


def load_nations(directory: Path | str | None = None) -> dict[str, Nation]:
    return dict(_load_all(_directory(directory).resolve())[1])


def load_commanders(directory: Path | str | None = None) -> dict[str, CommanderProfile]:
    """The key commanders (Wellington, Napoleon, Ney, Blücher, von Zieten), keyed by id."""
    return dict(_load_all(_directory(directory).resolve())[2])


def reload() -> None:
    """Forget what was read, so edited files are read again."""
    _load_all.cache_clear()


STATUS_FIELDS = {"casualties", "formation", "disordered", "in_combat", "off_table", "destroyed",
                 "building_size", "won_last_round", "mounted", "used", "notes"}


def unit_from_profile(profile_id: str, unit_id: str, name: str, side: str, brigade: str,
                      directory: Path | str | None = None, **status: Any) -> dict:
    """A unit for ``new_battle_doc``: the profile's fighting qualities plus its starting status
    (formation, casualties, ...). Artillery starts deployed, everyone else in line."""
    profiles = load_unit_profiles(directory)
    if profile_id not in profiles:
        raise KeyError(f"There is no unit profile “{profile_id}”.")
    unknown = set(status) - STATUS_FIELDS
    if unknown:
        raise TypeError(f"Not a unit's status: {', '.join(sorted(unknown))}.")
    p = profiles[profile_id]
    allowed = {"infantry": INFANTRY_FORMATIONS, "cavalry": CAVALRY_FORMATIONS,
               "artillery": ARTILLERY_FORMATIONS}[p.type]
    if "formation" in status and status["formation"] not in allowed:
        raise ValueError(f"A {p.type} unit cannot start in “{status['formation']}” "
                         f"(it can be: {', '.join(FORMATIONS[f] for f in allowed)}).")
    unit = {
        "id": unit_id, "name": name, "side": side, "brigade": brigade,
        "type": p.type, "size": p.size, "profile": p.id, "nation": p.nation,
        "hand_to_hand": p.hand_to_hand, "shooting": p.shooting, "morale": p.morale,
        "stamina": None if p.has("Untested") else p.stamina,
        "special_rules": list(p.special_rules), "weapon_range": p.weapon_range,
        "artillery_kind": p.artillery_kind,
        "formation": "deployed" if p.type == "artillery" else "line",
        **status,
    }
    Unit.from_dict(unit)  # every field the engines read is present and well-formed
    return unit
