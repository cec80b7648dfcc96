"""Of Oil and Iron — the rules engine (pure Python: no Flask, no database, no data files).

``GAME`` is the game as the rest of Referee meets it (``game.py``: the contract, the catalogue).
One module per rules area: setup (starting an engagement), rounds (initiative, end of round),
activation, actions (move, ram, reload, repair, shut down, prepare), attacks, perks, damage, heat,
equipment, engagements (each type's scoring, VP and victory), adjust (the umpire's corrections),
offers (what a Rig may do now), odds; model (the document as the engine reads it) and writing
(the change builder with the engine's words).
"""
from .game import GAME

SYSTEM = GAME  # the name the rules tests have always used

__all__ = ["GAME", "SYSTEM"]
