"""The battle clock and the turn limit.

A scenario may give the time of turn 1 and the length of a turn (the Waterloo day: turn 1 at
11:00, half-hour turns, so turn 12 is 16:30) and a turn limit. Both are copied into the battle
document when the battle starts (``clock``, ``turn_limit``); this module only reads them.

At the end of the last turn there is no next phase: the battle ends (``victory.py``, or the
general rule in ``brigades.py``).
"""
from __future__ import annotations

from .model import PHASES, SIDES, Battle, RuleError


def turn_limit(doc: dict) -> int | None:
    """The last turn, if the battle has one."""
    limit = doc.get("turn_limit")
    if limit is None:
        limit = (doc.get("scenario") or {}).get("turns")
    return int(limit) if limit else None


def time_of_turn(doc: dict, turn: int) -> str | None:
    """The time turn ``turn`` begins ("16:30"), or None when the battle has no clock."""
    clock = doc.get("clock")
    if not clock:
        return None
    hours, minutes = (int(p) for p in clock["start"].split(":"))
    at = hours * 60 + minutes + (turn - 1) * int(clock["minutes_per_turn"])
    return f"{(at // 60) % 24:02d}:{at % 60:02d}"


def turn_of_time(doc: dict, time: str) -> int | None:
    """The turn that begins at ``time`` ("16:30" → 12 at Waterloo); None without a clock or when
    no turn begins then."""
    clock = doc.get("clock")
    if not clock:
        return None
    start_h, start_m = (int(p) for p in clock["start"].split(":"))
    h, m = (int(p) for p in time.split(":"))
    elapsed = (h * 60 + m) - (start_h * 60 + start_m)
    step = int(clock["minutes_per_turn"])
    if elapsed < 0 or elapsed % step:
        return None
    return elapsed // step + 1


def is_last_turn(doc: dict, turn: int) -> bool:
    limit = turn_limit(doc)
    return limit is not None and turn >= limit


def time_is_up(battle: Battle) -> bool:
    """The last phase of the last turn: moving on would start a turn beyond the limit."""
    limit = turn_limit(battle.doc)
    return (limit is not None and battle.turn >= limit and battle.active_side == SIDES[-1]
            and battle.phase == PHASES[-1])


def refuse_after_last_turn(battle: Battle) -> None:
    """``next_phase`` asks this first: at the end of the last turn the battle ends instead."""
    if time_is_up(battle):
        raise RuleError(f"Turn {battle.turn} was the last turn: the battle is over. End it and "
                        f"answer the scenario's victory questions.")


def clock_line(doc: dict, turn: int) -> str:
    """"Turn 12 of 20 · 16:30" for the board."""
    limit = turn_limit(doc)
    words = f"Turn {turn}" + (f" of {limit}" if limit else "")
    at = time_of_turn(doc, turn)
    return f"{words} · {at}" if at else words
