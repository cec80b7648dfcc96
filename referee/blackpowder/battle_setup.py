"""How a battle starts: the forces, already resolved into units, brigades and sides, become the
battle document.

Every way of starting a battle (a scenario, forces typed in, two saved army lists, a campaign)
reads its own source into a :class:`BattleSetup` outside the engine (the army lists and
scenarios are data files, which the engine never reads) and then asks ``GAME.new_game``. The
document holds everything the engine reads during play, so a battle replays from its document
and log alone.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .model import Unit, new_battle_doc


class BattleSetup(BaseModel):
    """A battle ready to be fought: each unit's fighting qualities copied from its profile."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=120)
    sides: dict[str, dict[str, Any]]
    brigades: dict[str, dict[str, Any]]
    units: dict[str, dict[str, Any]]
    settings: dict[str, Any] | None = None
    scenario: dict[str, Any] = Field(default_factory=dict)


def new_game(setup: BattleSetup) -> dict:
    """The battle document for ``setup``: Blue moves first, turn 1, Command phase."""
    if not isinstance(setup, BattleSetup):
        setup = BattleSetup.model_validate(setup)
    doc = new_battle_doc(setup.name, setup.sides, setup.brigades, setup.units,
                         settings=setup.settings, scenario=setup.scenario)
    for u in doc["units"].values():  # every unit readable by the engine before play starts
        Unit.from_dict(u)
    return doc
