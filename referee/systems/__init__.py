"""The game systems Referee serves, by name: the one registry the rest of the app asks.

Each game's name and label are written once, in its package's ``name.py`` (its contract, ``game.py``,
fills ``GameRules.name`` and ``label`` from there); everything else asks here for a game by the
name stored with it (``system_for``), for every game in order (``GAMES``), for their labels, or for
one of them by its constant.
"""
from __future__ import annotations

from .. import blackpowder, oilandiron
from ..blackpowder.name import BLACK_POWDER
from ..core.contract import Game
from ..oilandiron.name import OIL_AND_IRON

GAMES: tuple[Game, ...] = (blackpowder.GAME, oilandiron.GAME)
BY_NAME: dict[str, Game] = {game.name: game for game in GAMES}
LABELS: dict[str, str] = {game.name: game.label for game in GAMES}


def system_for(name: str) -> Game:
    found = BY_NAME.get(name)
    if found is None:
        raise ValueError(f"Referee does not know a game called “{name}”.")
    return found


# ``BLACK_POWDER`` and ``OIL_AND_IRON``: the two games by name, for code that serves one game only
# (its own blueprint, its list builder, its data folders, its campaigns).
__all__ = ["BLACK_POWDER", "BY_NAME", "GAMES", "LABELS", "OIL_AND_IRON", "system_for"]
