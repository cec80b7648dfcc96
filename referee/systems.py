"""The game systems Referee serves, by name."""
from __future__ import annotations

from functools import cache

from .contract import Game

LABELS = {
    "blackpowder": "Black Powder Epic Battles",
    "oilandiron": "Of Oil and Iron",
}


@cache
def system_for(name: str) -> Game:
    if name == "blackpowder":
        from .blackpowder import GAME
        return GAME
    if name == "oilandiron":
        from .oilandiron import GAME
        return GAME
    raise ValueError(f"Referee does not know a game called “{name}”.")
