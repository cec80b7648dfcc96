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

from .model import Settings, Unit
from .name import BLACK_POWDER


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


def new_battle_doc(name: str, sides: dict, brigades: dict, units: dict, settings: dict | None = None,
                   scenario: dict | None = None) -> dict:
    """A fresh battle document. ``sides``/``brigades``/``units`` are dicts keyed by id."""
    return {
        "system": BLACK_POWDER,
        "name": name,
        "turn": 1,
        "active_side": "blue",
        "phase": "command",
        "sides": {k: {"army_broken": False, "general_reroll_used": False, **v} for k, v in sides.items()},
        "brigades": {k: _brigade_doc(v) for k, v in brigades.items()},
        "units": {k: Unit.from_dict(v).to_dict() for k, v in units.items()},
        "settings": Settings.from_dict(settings).to_dict(),
        "scenario": scenario or {},
        "ended": False,
        "winner": None,
    }


def _brigade_doc(d: dict) -> dict:
    """Every field present, so each later change has a real before value."""
    return {"broken": False, "commander": None, **d}
