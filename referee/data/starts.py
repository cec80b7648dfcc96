"""The one face the web layer meets of the data files: what its forms offer, read from them,
and every way a page starts a game from them. ``tests/test_architecture.py`` lets the web layer
import the data layer through this module only.

Black Powder: the army lists' nations and unit profiles, the scenarios, a battle from a scenario or
from two forces typed in, and units added mid-battle. Of Oil and Iron: the start form's cards and
engagement types, its example squadrons, and an engagement built from the form's values. And a
title as a file name (``slug``).
"""
from __future__ import annotations

import yaml

from ..core.errors import DataError
from ..core.parse_limits import TooComplex, load_yaml
from ..oilandiron import GAME as OIL_AND_IRON_GAME
from ..oilandiron.model import PLAYERS
from .blackpowder import load_commanders, load_nations, load_unit_profiles
from .errors import ForceError
from .oilandiron import (
    engagement_setup,
    example_squadrons,
    load_engagements,
    load_equipment,
    load_examples,
    squadron_state,
)
from .scenarios import list_scenarios, new_battle_from_forces, new_battle_from_scenario, reinforcement_units, slug

__all__ = ["ForceError", "MAX_ROWS", "PLAYERS", "START_ROWS", "build_engagement", "engagement_catalogue",
           "list_scenarios", "load_commanders", "load_engagements", "load_nations", "load_unit_profiles",
           "new_battle_from_forces", "new_battle_from_scenario", "reinforcement_units", "rows_from_examples", "slug"]

# --- Of Oil and Iron: an engagement from the start form's values -----------------------------------

START_ROWS = 3
MAX_ROWS = 8
WEAPON_SLOTS = 3
# Ready-made squadrons built from the shipped example cards (labelled examples, not official Rigs),
# so a table can start playing with one tap: armylists/oilandiron/example_squadrons.yaml.
EXAMPLE_SQUADRONS = example_squadrons()
DEFAULT_NAMES = {"p1": "First player", "p2": "Second player"}


def engagement_catalogue() -> dict:
    """The cards, engagement types and note the start form offers."""
    ex = load_examples()
    cards = [c for c in load_equipment().values() if not c.campaign_only]
    return {"chassis": ex.chassis, "engines": ex.engines, "weapons": ex.weapons, "equipment": cards,
            "engagements": load_engagements().engagements, "note": ex.note}


def rows_from_examples() -> dict:
    """The form's values for the example squadrons (what a GET shows)."""
    values: dict = {"name": "", "engagement": "iron_clash", "aggressor": "p1"}
    shape = {}
    for side, rigs in EXAMPLE_SQUADRONS.items():
        values[f"{side}-name"] = DEFAULT_NAMES[side]
        shape[side] = len(rigs)
        for i, r in enumerate(rigs):
            key = f"{side}-r{i}"
            values[f"{key}-name"] = r["name"]
            values[f"{key}-chassis"] = r["chassis"]
            values[f"{key}-engine"] = r["engine"]
            for s, w in enumerate(r["weapons"]):
                values[f"{key}-w{s}"] = w
            values[f"{key}-equipment"] = list(r["equipment"])
    return {"values": values, "shape": shape}


def _rig_rows(values: dict, side: str, rows: int) -> list[dict]:
    out = []
    for i in range(rows):
        key = f"{side}-r{i}"
        name = values.get(f"{key}-name", "").strip()
        chassis = values.get(f"{key}-chassis", "")
        if not name and not chassis:
            continue
        if not chassis:
            raise DataError(f"{name}: pick a chassis.")
        weapons = [values[f"{key}-w{s}"] for s in range(WEAPON_SLOTS) if values.get(f"{key}-w{s}")]
        out.append({"id": f"{side}-{i + 1}", "name": name or f"Rig {i + 1}", "chassis": chassis,
                    "engine": values.get(f"{key}-engine") or None, "weapons": weapons,
                    "equipment": list(values.get(f"{key}-equipment") or [])})
    return out


def _typed_rigs(text: str, side: str) -> list[dict]:
    """A squadron typed in the squadron format: a YAML list of Rigs, cards by key or in full."""
    try:
        raw = load_yaml(text)
    except yaml.YAMLError as e:
        raise DataError(f"The typed squadron is not valid YAML: {e}") from None
    except TooComplex as e:
        raise DataError(f"The typed squadron cannot be read: {e}.") from None
    if isinstance(raw, dict) and "rigs" in raw:
        raw = raw["rigs"]
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        raise DataError("A typed squadron is a list of Rigs, each with a name, a chassis and its weapons.")
    out = []
    for i, r in enumerate(raw):
        r = dict(r)
        r["id"] = f"{side}-{i + 1}"
        r.setdefault("name", f"Rig {i + 1}")
        out.append(r)
    return out


def build_engagement(values: dict, shape: dict) -> dict:
    """The engagement document from the start form (through the engine's ``new_game``), or a
    DataError / RuleError saying what is wrong."""
    key = values.get("engagement", "")
    etype = next((e for e in load_engagements().engagements if e.key == key), None)
    if etype is None:
        raise DataError("Pick an engagement type.")
    aggressor = values.get("aggressor") if values.get("aggressor") in PLAYERS else "p1"
    players, rigs = {}, {}
    for side in PLAYERS:
        name = values.get(f"{side}-name", "").strip()[:40] or DEFAULT_NAMES[side]
        role = None
        if etype.roles:
            role = etype.roles[0] if side == aggressor else etype.roles[1]
        players[side] = {"name": name, "role": role}
        typed = values.get(f"{side}-typed", "").strip()
        specs = _typed_rigs(typed, side) if typed else _rig_rows(values, side, shape[side])
        if not specs:
            raise DataError(f"{name} has no Rigs: add at least one.")
        try:
            rigs.update(squadron_state(side, specs))
        except DataError as e:
            raise DataError(f"{name}'s squadron: {e}") from None
    name = values.get("name", "").strip()[:80] or f"{etype.name}: {players['p1']['name']} v {players['p2']['name']}"
    return OIL_AND_IRON_GAME.new_game(engagement_setup(name, players, rigs, etype.key))


