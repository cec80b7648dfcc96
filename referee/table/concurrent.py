"""Two tablets acting at once on one game (``service.perform``): what the writes since a
tablet's screen touched, whether that meets what its tap reads or would change, and the tap
already applied once (its one-time token kept with its log entry).

A tablet's screen was drawn at some version; other tablets' writes may have landed since. Each
write is a log entry: an action (``version_after``) or an undo or redo of one (``stepped``), so
the log names every version since and the paths each changed. When the log cannot account for a
version (a write that left no entry), the tap is refused as before: nothing is ever applied on a
state it did not read.
"""
from __future__ import annotations

from sqlalchemy import bindparam
from sqlmodel import Session, select

from ..core.footprint import MOMENT, Key, name_of, overlap, touched
from ..systems import system_for
from .models import Game, LogEntry

_BY_TOKEN = (select(LogEntry).where(LogEntry.game_id == bindparam("game_id"), LogEntry.token == bindparam("token"))
             .limit(1))


def first_result(session: Session, game_id: int, token: str) -> LogEntry | None:
    """The log entry a tap with this token made, if it was applied."""
    return session.exec(_BY_TOKEN, params={"game_id": game_id, "token": token}).first()


_BY_STEP_TOKEN = (select(LogEntry).where(LogEntry.game_id == bindparam("game_id"),
                                        LogEntry.step_token == bindparam("token")).limit(1))


def first_step(session: Session, game_id: int, token: str) -> LogEntry | None:
    """The log entry an undo or redo with this token took back or put back, if it still stands
    as that tap left it (an Undo tapped twice, or tapped again after its answer was lost)."""
    return session.exec(_BY_STEP_TOKEN, params={"game_id": game_id, "token": token}).first()


_SINCE = (select(LogEntry.version_after, LogEntry.stepped, LogEntry.changes)
          .where(LogEntry.game_id == bindparam("game_id"),
                 (LogEntry.version_after > bindparam("seen")) | (LogEntry.stepped > bindparam("seen"))))


def changed_since(session: Session, game: Game, seen_version: int, current: int) -> set | None:
    """What the writes after ``seen_version`` touched (``footprint.touched``, on the game as it is
    now), or None when the log cannot say (a version it does not account for: everything)."""
    links = system_for(game.system).links
    paths, versions = [], set()
    for version_after, stepped, changes in session.execute(_SINCE, {"game_id": game.id, "seen": seen_version}):
        versions.update(v for v in (version_after, stepped) if v > seen_version)
        paths.extend((c["path"], c.get("before"), c.get("after")) for c in changes)
    if not set(range(seen_version + 1, current + 1)) <= versions:
        return None
    return touched(game.state, paths, links)


def clash(game: Game, wanted: set[Key], changed: set[Key] | None) -> str | None:
    """What of ``wanted`` (what a tap reads, or would change) the writes since its screen
    touched, in the players' words (None: nothing, the tap may land on the newest version). The
    most telling is named: the moment, else the pieces that name others (a unit, a combat) rather
    than those named (its brigade)."""
    if changed is None:
        return "this game"
    found = overlap(wanted, changed)
    if not found:
        return None
    if MOMENT in found:
        return name_of(game.state, MOMENT)
    links = system_for(game.system).links
    naming = {k for k in found if k[0] in links}
    names = sorted({name_of(game.state, k) for k in (naming or found)})
    return " and ".join(names[:2]) + (" and more" if len(names) > 2 else "")
