"""The Of Oil and Iron game system; each rules module registers its actions here."""
from ..actions import GameSystem

SYSTEM = GameSystem("oilandiron", "Of Oil and Iron")
