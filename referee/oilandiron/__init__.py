"""Of Oil and Iron — the rules engine (pure Python; importing registers the actions).

One module per rules area: rounds (initiative, end of round), activation, actions (move, ram,
reload, repair, shut down, prepare), attacks, perks, damage, heat, equipment, engagements (VP and
victory), adjust (the umpire's corrections), odds.
"""
from .system import SYSTEM

from . import rounds, activation, heat, actions, attacks, equipment, engagements, adjust  # noqa: E402,F401

GAME = SYSTEM  # the contract (referee.contract.Game); SYSTEM is its old name

__all__ = ["GAME", "SYSTEM"]
