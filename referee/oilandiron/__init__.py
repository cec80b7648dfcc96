"""Of Oil and Iron — the rules engine (pure Python; importing registers the actions)."""
from .system import SYSTEM

__all__ = ["SYSTEM"]
