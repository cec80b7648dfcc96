"""The game systems Referee serves, by name: the one registry the rest of the app asks.

Each game names itself once, in its contract (``GameRules.name`` and ``label`` in its package's
``game.py``); everything else asks here for a game by the name stored with it (``system_for``),
for every game in order (``GAMES``), for their labels, or for one of them by its constant.
"""
from __future__ import annotations

from .. import blackpowder, oilandiron
from ..core.contract import Game

GAMES: tuple[Game, ...] = (blackpowder.GAME, oilandiron.GAME)
BY_NAME: dict[str, Game] = {game.name: game for game in GAMES}
LABELS: dict[str, str] = {game.name: game.label for game in GAMES}
# The two games by name, for code that serves one game only (its own blueprint, its list builder).
BLACK_POWDER, OIL_AND_IRON = (game.name for game in GAMES)


def system_for(name: str) -> Game:
    found = BY_NAME.get(name)
    if found is None:
        raise ValueError(f"Referee does not know a game called “{name}”.")
    return found
