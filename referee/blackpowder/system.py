"""The Black Powder Epic game system; each rules module registers its actions here."""
from ..actions import GameSystem

SYSTEM = GameSystem("blackpowder", "Black Powder Epic Battles")
