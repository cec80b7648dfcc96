"""What an Of Oil and Iron action reads beyond the pieces its facts name, and how the game's
pieces name each other: the game's side of "two tablets acting at once" (``referee.core.footprint``).

A piece is a Rig (``("rigs", "p1-1")``), an objective or a player. An action names its Rig (and a
target, the Rigs near a barrage point...) in its facts, so a tap on one Rig and a change to another
both land; on the same Rig the later one is refused. What is read without being named:

- a salvage objective names the Rigs that carry it (``collected_by``): a tap on a Rig reads the
  salvage it carries, and taking it touches the Rig;
- "End activation" acts on the active Rig, which its facts do not name;
- scoring a round reads the whole board as it was shown: every Rig and every objective.

The moment (round, phase, whose go it is, the active Rig) is read by every action, as in every
game.
"""
from __future__ import annotations

from typing import Any, Mapping

# collection -> {field: the collection of the piece it names}.
LINKS: Mapping[str, Mapping[str, str]] = {"objectives": {"collected_by": "rigs"}}

# Actions that weigh the whole board: what the umpire saw of every Rig and objective.
WHOLE_BOARD = frozenset({"score_round"})
# Actions on the active Rig that do not name it.
ON_THE_ACTIVE_RIG = frozenset({"end_activation"})


def also_reads(doc: dict, action: str, facts: Mapping[str, Any]) -> list[str]:
    """The ids of the pieces ``action`` reads that its facts do not name."""
    if action in WHOLE_BOARD:
        return [*(doc.get("rigs") or {}), *(doc.get("objectives") or {})]
    if action in ON_THE_ACTIVE_RIG and doc.get("active_rig"):
        return [doc["active_rig"]]
    return []
