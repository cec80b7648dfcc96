"""Closing fire: a charged unit shoots at one of its chargers before they strike home.

Who may give it, which charger takes it and why it forces the chargers to test live here; the shot
itself is an ordinary shot at short range (``shooting.shoot`` with ``closing_fire``), which the
charge fires (``charges``). ``shot_plan`` and ``charges`` ask this module.
"""
from __future__ import annotations

from .model import RuleError, Unit

# Infantry give closing fire only in these formations (guns deployed, or in a building).
CLOSING_FIRE_FORMATIONS = ("line", "attack_column", "square", "mixed")


def why_no_closing_fire(target: Unit, facing: str) -> str | None:
    """Why the charged unit may not answer with closing fire (None: it may)."""
    if target.in_combat:
        return "a unit already fighting does not shoot"
    if target.is_artillery:
        if target.formation == "limbered":
            return "limbered guns cannot fire"
    elif not target.is_infantry:
        return "only infantry and artillery give closing fire"
    elif target.formation not in CLOSING_FIRE_FORMATIONS:
        return "only infantry in line, attack column, square or mixed formation give closing fire"
    elif target.shooting is None:
        return "it has no shooting value"
    if facing != "front" and target.formation != "square":
        return "closing fire is given only to the front"
    return None


def check_shooter(shooter: Unit, traversed_this_turn: bool) -> None:
    """Refuse a closing-fire shot the rules do not allow, whichever form asked for it."""
    if shooter.is_infantry and shooter.formation not in CLOSING_FIRE_FORMATIONS:
        raise RuleError(f"{shooter.name} cannot give closing fire from this formation.")
    if shooter.is_cavalry:
        raise RuleError("Cavalry do not give closing fire.")
    if traversed_this_turn:
        raise RuleError(f"{shooter.name} took a traversing shot this turn and cannot give closing fire.")


def test_reasons(by_artillery: bool, saves: dict) -> list[str]:
    """Why closing fire makes the charger it hit take a break test (beyond any shot's reasons)."""
    why = []
    if saves["became_shaken"]:
        why.append("shaken by closing fire")
    if by_artillery and saves["casualties"]:
        why.append("casualties from artillery closing fire")
    return why


def aimed_at(closing_fire_at: str, chargers: list[Unit]) -> str:
    """The charger that takes the fire: the one named, else the first."""
    return closing_fire_at or chargers[0].id


__all__ = ["CLOSING_FIRE_FORMATIONS", "aimed_at", "check_shooter", "test_reasons", "why_no_closing_fire"]
