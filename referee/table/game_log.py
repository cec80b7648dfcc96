"""Reading a game's log: its newest lines for the board, the whole log or a page of it, one entry,
and whether Undo and Redo have anything to do. Only reads; every write to the log goes through
``service``."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, select

from .models import LogEntry


@dataclass(frozen=True)
class LogLine:
    """What a log line shows of an entry: its number, what it was, whether it is undone, and its
    result's one-line summary, without the result itself."""
    id: int
    seq: int
    action: str
    label: str
    dice_source: str
    undone: bool
    discarded: bool
    created: Any
    summary: str | None


# The newest lines of a game's log, the summary read out of the result by the database (built
# once: every board drawn reads it). Reading the entries and then each new line's result cost a
# query and a decoded result per board drawn.
_LINE_COLUMNS = tuple(getattr(LogEntry, f.name) for f in fields(LogLine) if f.name != "summary")
_LINES = (select(*_LINE_COLUMNS, LogEntry.result["summary"].as_string())
          .where(LogEntry.game_id == bindparam("game_id")).order_by(LogEntry.seq.desc()).limit(bindparam("most")))


def log_lines(session: Session, game_id: int, most: int) -> list[LogLine]:
    """The newest ``most`` lines of the game log, newest first (the board's log pane)."""
    return [LogLine(*row) for row in session.execute(_LINES, {"game_id": game_id, "most": most})]


def log(session: Session, game_id: int, limit: int | None = None) -> list[LogEntry]:
    """The game log, newest first (undone entries included, marked)."""
    q = select(LogEntry).where(LogEntry.game_id == game_id).order_by(LogEntry.seq.desc())
    if limit:
        q = q.limit(limit)
    return list(session.exec(q).all())


def entry(session: Session, game_id: int, seq: int) -> LogEntry | None:
    """One log entry by its number, read alone: as quick in a log of thousands as in one of ten."""
    return session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.seq == seq)).first()


def last_seq(session: Session, game_id: int) -> int:
    """The newest entry's number (0: the log is empty)."""
    return session.exec(select(LogEntry.seq).where(LogEntry.game_id == game_id)
                        .order_by(LogEntry.seq.desc()).limit(1)).first() or 0


def entries_before(session: Session, game_id: int, before: int, most: int) -> list[LogEntry]:
    """A page of the log: the ``most`` entries numbered below ``before``, newest first."""
    return list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.seq < before)
                             .order_by(LogEntry.seq.desc()).limit(most)).all())


def newest_in_force(session: Session, game_id: int) -> LogEntry | None:
    """The newest entry not undone (one another table took back counts, as the board shows it)."""
    return session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.undone == False)  # noqa: E712
                        .order_by(LogEntry.seq.desc()).limit(1)).first()


def recent_actions(session: Session, game_id: int, most: int) -> list[tuple[str, dict[str, Any]]]:
    """The newest ``most`` actions in force (not undone), newest first, as (action, facts): what a
    form's likely picks are read from (``GameRules.likely``)."""
    if most <= 0:
        return []
    q = (select(LogEntry.action, LogEntry.facts).where(LogEntry.game_id == game_id, LogEntry.undone == False,  # noqa: E712
                                                      LogEntry.discarded == False)  # noqa: E712
         .order_by(LogEntry.seq.desc()).limit(most))
    return [(action, facts or {}) for action, facts in session.exec(q).all()]


def can_undo(session: Session, game_id: int, newest: list[LogLine] | None = None, whole: bool = False) -> bool:
    """Whether an action is in force to undo. ``newest``: the log's newest entries, newest first,
    if already read (``whole``: they are the whole log); one of them in force answers at once."""
    if newest is not None:
        if any(not e.undone and not e.discarded for e in newest):
            return True
        if whole:
            return False
    return session.exec(select(LogEntry.id).where(LogEntry.game_id == game_id, LogEntry.undone == False,  # noqa: E712
                                                  LogEntry.discarded == False).limit(1)).first() is not None  # noqa: E712


_NEXT_REDO = (select(*_LINE_COLUMNS, LogEntry.result["summary"].as_string())
              .where(LogEntry.game_id == bindparam("game_id"), LogEntry.undone == True,  # noqa: E712
                     LogEntry.discarded == False).order_by(LogEntry.seq.asc()).limit(1))  # noqa: E712


def next_redo(session: Session, game_id: int, newest: list[LogLine] | None = None) -> LogLine | None:
    """What Redo would put back, as the server's redo chooses it: the oldest undone entry that may
    still be redone. An entry another table took back with it (``discarded``) is passed over, so
    the newest line being such an entry does not hide an earlier one that Redo would take.
    ``newest``: the log's newest entries, newest first, if already read. Undo takes entries back
    from the newest down and a new action ends every redo, so what may be redone is a run at the
    top of the log: the database is asked only when that run may go on past the lines read."""
    if newest is not None:
        if not any(e.undone for e in newest):
            return None
        redoable = [e for e in newest if e.undone and not e.discarded]
        if redoable and redoable[-1] is not newest[-1]:
            return redoable[-1]
        if not redoable and not newest[-1].undone:
            return None
    return _oldest_redoable(session, game_id)


def _oldest_redoable(session: Session, game_id: int) -> LogLine | None:
    row = session.execute(_NEXT_REDO, {"game_id": game_id}).first()
    return LogLine(*row) if row else None


def can_redo(session: Session, game_id: int, newest: list[LogLine] | None = None) -> bool:
    """Whether an undone action can be put back (``next_redo``)."""
    return next_redo(session, game_id, newest) is not None
