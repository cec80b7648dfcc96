"""The Of Oil and Iron campaign tables the rules summary names but does not give: starting Iron,
recovery, repair traits, salvage, experience, rewards, repair costs, battlefields and
deployments.

A campaign keeps its own copy of the tables in its document (a campaign setting the umpire can
edit), so editing a table file later never changes a campaign already running. The project
ships an example set (``scenarios/campaigns/oilandiron-example-tables.yaml``) labelled as an example,
never as the official tables.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..core.errors import DataError
from .rolls import Row


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableRow(_M):
    top: int = Field(ge=-20, le=99, description="the highest total this row covers")
    text: str = Field(min_length=1, max_length=120)


class RecoveryRow(TableRow):
    outcome: str = Field(pattern="^(lost|recovered_with_trait|recovered)$")


class SalvageRow(TableRow):
    iron: int = Field(0, ge=0, le=20)


# What a repair trait does, as the engines apply it (each an amount added): the Rig's figures in
# the engagement (speed in inches, pivots, Heat Threshold, Engine Exhaust, a location's structure),
# and the rules that read a trait as they resolve (ACC with the left-mount weapon, heat after a
# Shut Down, heat of a Reload, the first repair roll of each engagement, re-rolls of a recovery
# roll once per campaign).
TraitEffect = Literal["speed", "pivot", "heat_threshold", "exhaust", "hull", "arms", "legs", "engine",
                      "left_mount_acc", "shutdown_heat", "reload_heat", "first_repair", "recovery_reroll"]
FIGURES = ("speed", "pivot", "heat_threshold", "exhaust")
STRUCTURE = ("hull", "arms", "legs", "engine")


class Trait(_M):
    roll: int = Field(ge=1, le=12)
    name: str = Field(min_length=1, max_length=60)
    effect: str = Field(max_length=160)
    negative: bool = True
    apply: dict[TraitEffect, int] = Field(default_factory=dict,
                                          description="what the trait changes, each an amount added")

    @model_validator(mode="after")
    def _small(self) -> Trait:
        if any(not -5 <= n <= 5 for n in self.apply.values()):
            raise ValueError("apply: each amount must be between −5 and 5")
        return self


class Rank(_M):
    xp: int = Field(ge=0)
    name: str = Field(min_length=1, max_length=40)


class Experience(_M):
    took_part: int = Field(1, ge=0, le=10)
    survived: int = Field(1, ge=0, le=10)
    per_kill: int = Field(2, ge=0, le=10)
    on_winning_side: int = Field(1, ge=0, le=10)
    ranks: list[Rank] = Field(min_length=1)


class Rewards(_M):
    win: int = Field(ge=0, le=30)
    draw: int = Field(ge=0, le=30)
    loss: int = Field(ge=0, le=30)


class RepairCosts(_M):
    per_sp: int = Field(ge=0, le=10)
    wrecked_location: int = Field(ge=0, le=10, description="more for the first SP of a location at 0")
    lasting_effect: int = Field(ge=0, le=10)
    negative_trait: int = Field(ge=0, le=20)


class Battlefield(_M):
    roll: int = Field(ge=1, le=6)
    name: str = Field(min_length=1, max_length=60)
    effect: str = Field(max_length=200)
    salvage: int = Field(0, ge=-3, le=3)
    recovery: int = Field(0, ge=-3, le=3)
    repair_discount: int = Field(0, ge=0, le=3)


class Deployment(_M):
    roll: int = Field(ge=1, le=6)
    name: str = Field(min_length=1, max_length=60)
    text: str = Field(max_length=200)


class Tables(_M):
    label: str = Field(min_length=1, max_length=120)
    official: bool = False
    starting_iron: int = Field(ge=0, le=100)
    salvage_rolls: int = Field(1, ge=0, le=5)
    recovery: list[RecoveryRow] = Field(min_length=1)
    repair_traits: list[Trait] = Field(min_length=12, max_length=12)
    salvage: list[SalvageRow] = Field(min_length=1)
    experience: Experience
    rewards: Rewards
    repair_costs: RepairCosts
    battlefields: list[Battlefield] = Field(min_length=6, max_length=6)
    deployments: list[Deployment] = Field(min_length=6, max_length=6)

    @model_validator(mode="after")
    def _ordered(self) -> Tables:
        for name in ("recovery", "salvage"):
            tops = [r.top for r in getattr(self, name)]
            if tops != sorted(tops) or len(set(tops)) != len(tops):
                raise ValueError(f"{name}: each row's top must be higher than the row before")
        for name in ("repair_traits", "battlefields", "deployments"):
            rolls = [r.roll for r in getattr(self, name)]
            if sorted(rolls) != list(range(1, len(rolls) + 1)):
                raise ValueError(f"{name}: one row for each roll 1 to {len(rolls)}")
        return self

    def recovery_rows(self) -> list[Row]:
        return [Row(r.top, r.outcome, r.text) for r in self.recovery]

    def salvage_rows(self) -> list[Row]:
        return [Row(r.top, str(r.iron), r.text) for r in self.salvage]

    def trait(self, roll: int) -> Trait:
        return next(t for t in self.repair_traits if t.roll == roll)

    def rank(self, xp: int) -> str:
        name = self.experience.ranks[0].name
        for r in sorted(self.experience.ranks, key=lambda r: r.xp):
            if xp >= r.xp:
                name = r.name
        return name


def read_tables(raw: dict, where: str = "campaign tables") -> Tables:
    """The tables from plain data, or a DataError naming the first bad field."""
    try:
        return Tables.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(x) for x in err["loc"]) or None
        raise DataError(where, None, field, err["msg"]) from None
