"""What the Black Powder board needs to fold, find and filter a few hundred units in the browser:
the facts about each unit, brigade and side, computed here from the engine's state and written
into the page as ``data-`` attributes. The browser only compares them (``static/board.js``): it
never decides who is shaken or who has been ordered.

- ``attention``: a unit still in play that is shaken or disordered (its Wavering, if any, is
  already played out by the engine's break test).
- ``orderable``: a unit in play and arrived that has had no order this turn
  (passed or failed; the engine records them) and made no initiative move, while the battle goes
  on. The "not yet ordered" filter shows those of the side to play, which the turn bar names
  (``data-active-side``): a new side to play changes one bar, not every card.
- ``reserve``: a reserve or reinforcement not yet arrived (``blackpowder/reserves.py``).
"""
from __future__ import annotations

from ..core.board import COMPACT_ABOVE, flag, folded
from .brigades import break_point, strip_state, unit_is_lost
from .model import SIDES
from .turn_record import units_ordered_this_turn


def due_to_arrive(battle, unit) -> bool:
    """A reserve or reinforcement not yet on the table (``blackpowder/reserves.py``): not lost,
    offered no orders, found by the "due to arrive" filter."""
    return bool(unit.awaiting)


def has_reserves(battle) -> bool:
    """Whether any unit is still to arrive (read from the documents: no unit is built for it)."""
    return any(raw.get("awaiting") for raw in battle.doc.get("units", {}).values())


class BattleFacts:
    """The facts of one Black Powder battle, read once for the whole board."""

    def __init__(self, battle):
        self.battle = battle
        # Both sides' orders this turn: when the other side comes to play, no card changes.
        self.ordered = set().union(*(units_ordered_this_turn(battle, side) for side in SIDES))
        entries = (battle.doc.get("turn_state") or {}).get("initiative_moves") or []
        self.initiative = {e.get("unit") for e in entries if isinstance(e, dict) and e.get("turn") == battle.turn}

    def key(self, unit_id: str, raw: dict) -> tuple:
        """What a unit's facts depend on besides its own document: a unit whose document and key
        are what they were has the same facts (``board_view.sides`` keeps its card)."""
        b = self.battle
        return (bool(b.doc.get("ended")), unit_id in self.ordered, unit_id in self.initiative)

    def unit(self, unit) -> dict[str, str]:
        b = self.battle
        reserve = due_to_arrive(b, unit)
        in_play = unit.in_play and not reserve
        orderable = (in_play and not b.doc.get("ended")
                     and unit.id not in self.ordered and unit.id not in self.initiative)
        return {
            "name": folded(unit.name),
            "side": unit.side,
            "brigade": unit.brigade,
            "attention": flag(in_play and (unit.shaken or unit.disordered)),
            "orderable": flag(orderable),
            "reserve": flag(reserve),
            "lost": flag(not reserve and unit_is_lost(unit)),
        }

    def brigade(self, brigade, units) -> dict:
        """The one line a folded brigade shows."""
        b = self.battle
        here = [u for u in units if not due_to_arrive(b, u)]
        commander = brigade.commander.name if brigade.commander else ""
        return {
            "commander": commander,
            "search": folded(" ".join(filter(None, (brigade.name, commander)))),
            "units": len(units),
            "on_table": sum(1 for u in here if u.in_play),
            "lost": sum(1 for u in here if unit_is_lost(u)),
            "shaken": sum(1 for u in here if u.in_play and u.shaken),
            "disordered": sum(1 for u in here if u.in_play and u.disordered),
            "reserve": len(units) - len(here),
            "broken": brigade.broken,
            "side": brigade.side,
            # Its strip (web/pictures/brigade_strip.py): each unit's letter, and how many lost break it.
            "strip": "".join(strip_state(u) for u in units),
            "break_at": break_point(len(here)),
        }


# The filter facts of a unit as its brigade's index names them, a letter each (static/board.js).
INDEX_LETTERS = (("attention", "a"), ("orderable", "o"), ("reserve", "r"), ("lost", "l"))


def unit_index(cards) -> list[list[str]]:
    """A brigade's units as its folded line lists them for the search and filters of a tablet
    that was not sent their cards (``web/serving/folds.py``): id, name as the search compares it, and the
    letters of the filter facts that hold."""
    return [[c.unit.id, c.facts["name"], "".join(letter for key, letter in INDEX_LETTERS if c.facts.get(key))]
            for c in cards]


def board(battle, sides) -> dict:
    """Board-wide facts: how many units, whether the reserve filter has anything to show."""
    total = sum(len(bv.cards) for s in sides for bv in s.brigades)
    return {"units": total, "compact": total > COMPACT_ABOVE, "reserves": has_reserves(battle)}
