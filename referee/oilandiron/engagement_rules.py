"""An engagement type's rules as the engagement document carries them: the objectives set out, the
High Value Targets, the supply drop, the starting Prepare tokens, what scores VP (with its numbers)
and how the engagement is won.

``scenarios/oilandiron/engagements.yaml`` is read into these models by ``referee.data.oilandiron``;
``new_game`` copies the chosen one into the document (``engagement_rules``), and from then on the
engine reads only that copy, so a game plays and replays the same whatever the file says later.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

WEIGHT_CLASSES = ("light", "medium", "heavy", "colossal")
SCORING_RULES = (
    "destroyed_rig_vp", "rig_near_objective", "rig_in_enemy_territory", "control_all_objectives",
    "control_at_round", "salvage", "destroy_all_enemy_objectives", "surviving_objectives_vp",
    "destroyed_objectives_vp", "destroyed_rigs_flat_vp", "exit_fraction",
)
VICTORY_RULES = ("most_vp", "last_hvt", "control_all_or_draw", "control_at_round", "destroy_all_objectives",
                 "defender_survives_half", "attacker_exits_half")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScoringRule(_Model):
    rule: Literal[SCORING_RULES]
    vp: int | None = None
    within: int | None = None
    round: int | None = None
    heat: int | None = None
    role: str | None = None


class ObjectiveSpec(_Model):
    per_player: int = Field(ge=1)
    structure: int | None = Field(None, ge=1)
    direct: int | None = None
    severe: int | None = None
    critical: int | None = None

    @model_validator(mode="after")
    def _all_or_none(self):
        stats = (self.structure, self.direct, self.severe, self.critical)
        if any(s is not None for s in stats) and any(s is None for s in stats):
            raise ValueError("an objective that can be attacked needs structure, direct, severe and critical")
        return self

    @property
    def attackable(self) -> bool:
        return self.structure is not None


class StartTokens(_Model):
    role: str
    token: str
    round: int = 1


class EngagementRules(_Model):
    """One engagement type. ``destroyed_rig_vp``: VP for each destroyed enemy Rig by weight class
    (the engagements file gives one table for every type that scores them)."""

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    category: Literal["standard", "special"]
    summary: str
    roles: list[str] = []
    objectives: ObjectiveSpec | None = None
    hvt: bool = False
    airdrop: dict[str, int] | None = None
    start_tokens: StartTokens | None = None
    scoring: list[ScoringRule]
    victory: Literal[VICTORY_RULES]
    tie: Literal["draw", "defender"] = "draw"
    note: str = ""
    destroyed_rig_vp: dict[Literal[WEIGHT_CLASSES], int] | None = None

    @model_validator(mode="after")
    def _roles(self):
        if self.roles and len(self.roles) != 2:
            raise ValueError("an engagement with roles names exactly two")
        for r in self.scoring:
            if r.role and r.role not in self.roles:
                raise ValueError(f"scoring rule {r.rule} names role {r.role}, which is not one of {self.roles}")
        return self

    def rule(self, name: str) -> ScoringRule | None:
        """The scoring rule of that name with its numbers, or None when this engagement has none."""
        return next((r for r in self.scoring if r.rule == name), None)
