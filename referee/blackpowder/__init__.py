"""Black Powder Epic Battles: The Waterloo Campaign — the rules engine.

Pure Python: battle state and facts in, a :class:`~referee.core.results.Result` out. One module per
rules area; ``game.py`` lists every action and is the one object the app asks (``GAME``).
"""
from .game import GAME

SYSTEM = GAME  # the name the rules tests have always used

__all__ = ["GAME", "SYSTEM"]
