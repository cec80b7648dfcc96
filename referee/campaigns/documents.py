"""The shape of a campaign document, checked when a campaign file is imported: every field the
engines and the campaign pages read must be there with the right kind of value, so a file edited
by hand is refused with the place named instead of breaking a page later. Fields a later Referee
adds are let through."""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, ValidationError

from ..core.errors import DataError
from ..systems import OIL_AND_IRON
from .oilandiron_tables import Tables


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Loc(_Open):
    hull: int
    arms: int
    legs: int
    engine: int


class History(_Open):
    engagements: int
    damage_taken: int
    damage_dealt: int
    destroyed: int
    recovered: int


class RosterWeapon(_Open):
    card: str
    mount: Optional[str] = None
    lost: bool


class RosterEquipment(_Open):
    key: str
    weapon: Optional[str] = None


class Trait(_Open):
    name: str
    effect: str
    negative: bool
    ignored: bool


class RosterRig(_Open):
    key: str
    name: str
    chassis: str
    engine: Optional[str] = None
    chassis_name: str
    weight_class: Literal["light", "medium", "heavy", "colossal"]
    weapons: list[RosterWeapon]
    equipment: list[RosterEquipment]
    structure_max: Loc
    damage: Loc
    lasting: list[str]
    traits: list[Trait]
    iron_bonus: int
    status: Literal["active", "awaiting_recovery", "lost"]
    xp: int
    kills: int
    history: History
    service: list[str]


class Squadron(_Open):
    name: str
    tier: str
    formation: str
    cards: dict
    rigs: dict[str, RosterRig]


class OIPlayer(_Open):
    name: str
    iron: int


class Catalogue(_Open):
    engagements: list[tuple[str, str]]
    chassis: dict[str, dict]
    engines: dict[str, dict]
    weapons: dict[str, dict]
    equipment: dict[str, dict]


class OIGame(_Open):
    n: int
    game_id: Any
    name: str
    status: Literal["playing", "aftermath", "done"]
    pieces: dict[str, str]
    weapons: dict[str, dict[str, int]]


class OilAndIron(_Open):
    kind: Literal[OIL_AND_IRON]
    name: str
    settings: dict
    tables: Tables
    catalogue: Catalogue
    players: dict[Literal["p1", "p2"], OIPlayer]
    rosters: dict[Literal["p1", "p2"], Squadron]
    next: dict
    games: dict[str, OIGame]
    aftermath: Optional[dict] = None
    ended: bool


class Battle(_Open):
    key: str
    title: str
    day: str
    scenario: str
    optional: bool
    order: int
    vp: dict
    status: Literal["not_fought", "playing", "fought", "cancelled"]
    result: Optional[dict] = None
    notes: list[str]


class Unit(_Open):
    name: str
    brigade: str
    casualties: int
    stamina: Optional[int] = None
    destroyed: bool
    battles: list[str]


class Army(_Open):
    name: str
    units: dict[str, Unit]
    brigades: dict[str, dict]
    general_lost: bool


class Day(_Open):
    title: str
    vp: dict[Literal["french", "coalition"], int]
    result: Optional[dict] = None


class Plan(_Open):
    armies: dict[Literal["french", "coalition"], str]
    days: list[dict]
    battles: list[dict]
    day_results: list[dict]
    consequences: list[dict]


class HundredDays(_Open):
    kind: Literal["hundred_days"]
    name: str
    plan: Plan
    settings: dict
    battles: dict[str, Battle]
    day: str
    days: dict[str, Day]
    armies: dict[Literal["french", "coalition"], Army]
    consequences: list[dict]
    ended: bool
    winner: Optional[str] = None


def check_document(kind: str, doc: Any) -> None:
    """Raise a DataError naming the first field of the document that is missing or wrong."""
    model = {OIL_AND_IRON: OilAndIron, "hundred_days": HundredDays}.get(kind)
    if model is None:
        raise DataError(f"There is no kind of campaign “{kind}”.")
    try:
        model.model_validate(doc)
    except ValidationError as e:
        err = e.errors()[0]
        where = " › ".join(str(x) for x in err["loc"]) or "the document"
        raise DataError(f"The campaign's document, {where}: {err['msg']}") from None
