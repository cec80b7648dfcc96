"""Black Powder Epic Battles: The Waterloo Campaign — the rules engine.

Pure Python: battle state and facts in, a :class:`~referee.results.Result` out. One module per
rules area; importing the package registers every action on ``SYSTEM``.
"""
from .system import SYSTEM

from . import adjust  # noqa: E402,F401  (registers actions)
from . import morale  # noqa: E402,F401
from . import break_tests  # noqa: E402,F401
from . import shooting  # noqa: E402,F401
from . import buildings  # noqa: E402,F401
from . import brigades, turns  # noqa: E402,F401
from . import combat, charges  # noqa: E402,F401
from . import command  # noqa: E402,F401
from . import key_commanders  # noqa: E402,F401

GAME = SYSTEM  # the contract (referee.contract.Game); SYSTEM is its old name

__all__ = ["GAME", "SYSTEM"]
