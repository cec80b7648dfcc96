"""Loading and validating the shipped data: ``armylists/`` and ``scenarios/``.

Black Powder: :mod:`referee.data.blackpowder` (unit profiles, nations, commanders) and
:mod:`referee.data.scenarios` (scenarios and typed-in forces to a battle document).

The web layer meets the data only here, through :mod:`referee.data.starts` (how a game starts
from the shipped files or a typed-in form), re-exported below.
"""
from .starts import (
    MAX_ROWS,
    PLAYERS,
    START_ROWS,
    ForceError,
    build_engagement,
    engagement_catalogue,
    list_scenarios,
    load_nations,
    load_unit_profiles,
    new_battle_from_forces,
    new_battle_from_scenario,
    reinforcement_units,
    rows_from_examples,
    slug,
)

__all__ = ["ForceError", "MAX_ROWS", "PLAYERS", "START_ROWS", "build_engagement", "engagement_catalogue",
           "list_scenarios", "load_nations", "load_unit_profiles", "new_battle_from_forces",
           "new_battle_from_scenario", "reinforcement_units", "rows_from_examples", "slug"]
