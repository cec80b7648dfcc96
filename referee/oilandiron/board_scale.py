"""What the Of Oil and Iron board needs to fold, find and filter its Rigs in the browser: the facts
about each Rig and squadron, computed here from the engine's state and written into the page as
``data-`` attributes (``static/board.js`` only compares them).

- ``attention``: a Rig still in play that runs above its Heat Threshold or has a damaged location.
- ``unordered``: a Rig in play of the player to activate, not yet activated this round.
"""
from __future__ import annotations

from ..core.board import COMPACT_ABOVE, flag, folded


def rig_facts(eng, rig) -> dict[str, str]:
    damaged = any(rig.structure.get(loc, 0) < top for loc, top in rig.structure_max.items())
    unordered = (rig.in_play and not rig.activated and not eng.ended
                 and (eng.current_player is None or rig.player == eng.current_player))
    return {
        "name": folded(rig.name),
        "side": rig.player,
        "attention": flag(rig.in_play and (rig.above_threshold or damaged)),
        "unordered": flag(unordered),
        "reserve": "",
        "lost": flag(not rig.in_play),
    }


def squadron_line(eng, player: str) -> dict:
    """The one line a folded squadron shows."""
    rigs = eng.rigs_of(player)
    playing = [r for r in rigs if r.in_play]
    return {
        "search": folded(eng.player_name(player)),
        "rigs": len(rigs),
        "in_play": len(playing),
        "out": len(rigs) - len(playing),
        "overheated": sum(1 for r in playing if r.above_threshold),
        "damaged": sum(1 for r in playing
                       if any(r.structure.get(loc, 0) < top for loc, top in r.structure_max.items())),
        "activated": sum(1 for r in playing if r.activated),
    }


def rig_board(eng) -> dict:
    total = len(eng.rigs)
    return {"units": total, "compact": total > COMPACT_ABOVE, "reserves": False}
