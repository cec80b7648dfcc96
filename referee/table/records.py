"""The record every finished game keeps: the game as one documented JSON file (``docs/game-file.md``)
that re-imports for review, and archiving or deleting a finished game that no campaign holds.

Rows are written out column by column from the tables themselves (every column but the row ids),
so a column another part of Referee adds later travels in the file too.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Optional

from sqlalchemy import DateTime, delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, select

from ..core.parse_limits import MAX_DEPTH, json_depth
from ..systems import BY_NAME, system_for
from .campaigns import campaign_of_game
from .models import Game, LogEntry
from .service import BadInput, get_game

GAME_FORMAT = "referee-game"
FORMAT_VERSION = 1
MAX_FILE = 20 * 1024 * 1024


class GameRecord(SQLModel, table=True):
    """What the games list needs beyond the game itself: archived, or imported for review."""

    __tablename__ = "gamerecord"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", unique=True)
    archived: bool = False
    imported: bool = False


# --- rows to plain data and back ------------------------------------------------------------------

def stamp(value: datetime) -> str:
    """A time as the files write it: UTC, microseconds, a Z (SQLite gives times back without a zone)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def unstamp(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def row_data(row: SQLModel, skip: tuple[str, ...] = ("id",)) -> dict[str, Any]:
    out = {}
    for col in type(row).__table__.columns:
        if col.name in skip:
            continue
        v = getattr(row, col.name)
        out[col.name] = stamp(v) if isinstance(v, datetime) else v
    return out


def _is_time(col) -> bool:
    return isinstance(col.type, DateTime) or isinstance(getattr(col.type, "impl", None), DateTime)


def row_from(model: type[SQLModel], data: dict, where: str, **fixed) -> SQLModel:
    """A row from file data: every column the table has must be there (ids and ``fixed`` aside)."""
    values = dict(fixed)
    for col in model.__table__.columns:
        if col.name == "id" or col.name in fixed:
            continue
        if col.name not in data:
            if col.default is not None or col.nullable:
                continue
            raise BadInput(f"{where}: “{col.name}” is missing.")
        v = data[col.name]
        if _is_time(col) and isinstance(v, str):
            try:
                v = unstamp(v)
            except ValueError:
                raise BadInput(f"{where}: “{col.name}” is not a time like 2026-06-18T11:30:00.000000Z.") from None
        values[col.name] = v
    try:
        return model.model_validate(values)
    except ValueError as e:
        raise BadInput(f"{where}: {str(e).splitlines()[0]}") from None


def file_text(data: dict) -> str:
    """The one way Referee writes its files: sorted keys, so the same content gives the same bytes."""
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def read_json(raw: bytes | str, what: str, file_format: str | None = None, version: int | None = None) -> dict:
    """A Referee file read whole (``what``: "game", "campaign"), refused with a sentence when it is
    too large, nests too deep, is not JSON, or (given) is not of ``file_format`` and ``version``."""
    if len(raw) > MAX_FILE:
        raise BadInput(f"The {what} file is larger than {MAX_FILE // (1024 * 1024)} MB.")
    try:
        # Size and nesting are checked before parsing (a deep file is a refusal, not a crash).
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        # A campaign with its games is far larger than a list, so the size limit is this module's;
        # the nesting limit is the one every pasted file gets.
        if json_depth(text) > MAX_DEPTH:
            raise BadInput(f"That {what} file nests more than {MAX_DEPTH} levels deep: it is not one Referee wrote.")
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise BadInput(f"That is not a {what} file: it is not readable JSON.") from None
    if not isinstance(data, dict):
        raise BadInput(f"That is not a {what} file.")
    if file_format is not None and data.get("format") != file_format:
        raise BadInput(f"That is not a Referee {what} file (its “format” is not “{file_format}”).")
    if version is not None and data.get("format_version") != version:
        raise BadInput(f"This Referee reads {what} files of format version {version}, "
                       f"not {data.get('format_version')}.")
    return data


# --- one game ----------------------------------------------------------------------------------

def game_log(session: Session, game_id: int) -> list[LogEntry]:
    return list(session.exec(select(LogEntry).where(LogEntry.game_id == game_id).order_by(LogEntry.seq)).all())


def game_data(session: Session, game: Game) -> dict:
    return {"game": row_data(game), "log": [row_data(e, ("id", "game_id")) for e in game_log(session, game.id)]}


def export_game(session: Session, game_id: int) -> str:
    game = get_game(session, game_id)
    return file_text({"format": GAME_FORMAT, "format_version": FORMAT_VERSION, **game_data(session, game)})


def _readable(game: Game, where: str) -> None:
    """The engine can read the state document (a hand-edited file is refused here, not on the board)."""
    try:
        state = system_for(game.system).board.read(game.state)
        for name in ("units", "rigs", "brigades", "sides", "players"):
            part = getattr(state, name, None)
            if part is not None and hasattr(part, "values"):
                list(part.values())
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise BadInput(f"{where}: its state is not one Referee can read ({type(e).__name__}: {e}).") from None


def add_game(session: Session, data: dict, where: str = "the game") -> Game:
    """The rows of one exported game, added to the session (not committed)."""
    if not isinstance(data.get("game"), dict) or not isinstance(data.get("log"), list):
        raise BadInput(f"{where}: a game needs its “game” and its “log”.")
    game = row_from(Game, data["game"], where)
    if not isinstance(game.state, dict) or game.system not in BY_NAME:
        raise BadInput(f"{where}: “system” is not a game Referee plays, or the state is not a document.")
    _readable(game, where)
    session.add(game)
    session.flush()
    seqs = set()
    for i, e in enumerate(data["log"]):
        if not isinstance(e, dict):
            raise BadInput(f"{where}, log entry {i + 1}: not an entry.")
        entry = row_from(LogEntry, e, f"{where}, log entry {i + 1}", game_id=game.id)
        if entry.seq in seqs:
            raise BadInput(f"{where}, log entry {i + 1}: step {entry.seq} appears twice.")
        seqs.add(entry.seq)
        session.add(entry)
    return game


def import_game(session: Session, raw: bytes | str, commit: bool = True) -> Game:
    """A game from its file, for review: all of it or, with a message, nothing. ``commit=False``
    leaves it in the caller's transaction, written and checked (its importer's seat lands with it)."""
    data = read_json(raw, "game", GAME_FORMAT, FORMAT_VERSION)
    try:
        game = add_game(session, data)
        session.add(GameRecord(game_id=game.id, imported=True))
        session.flush()
        if not commit:
            return game
        session.commit()
    except BadInput:
        session.rollback()
        raise
    except (IntegrityError, ValueError, TypeError) as e:
        session.rollback()
        raise BadInput(f"The game file does not fit together: {str(e).splitlines()[0]}") from None
    session.refresh(game)
    return game


# --- archive and delete -------------------------------------------------------------------------

def record_of(session: Session, game_id: int) -> GameRecord | None:
    return session.exec(select(GameRecord).where(GameRecord.game_id == game_id)).first()


def records(session: Session) -> dict[int, GameRecord]:
    return {r.game_id: r for r in session.exec(select(GameRecord)).all()}


def _outside_campaigns(session: Session, game: Game, what: str) -> None:
    if not game.state.get("ended"):
        raise BadInput(f"Only a finished game can be {what}: “{game.name}” is still being played.")
    if campaign_of_game(session, game.id) is not None:
        raise BadInput(f"“{game.name}” belongs to a campaign, whose record keeps it: it cannot be {what}.")


def set_archived(session: Session, game_id: int, archived: bool) -> GameRecord:
    game = get_game(session, game_id)
    _outside_campaigns(session, game, "archived")
    rec = record_of(session, game_id) or GameRecord(game_id=game_id)
    rec.archived = archived
    session.add(rec)
    session.commit()
    return rec


def delete_game(session: Session, game_id: int, confirm_name: str) -> None:
    """Delete a finished game outside any campaign, its log and every row that points at it."""
    game = get_game(session, game_id)
    _outside_campaigns(session, game, "deleted")
    if confirm_name.strip() != game.name.strip():
        raise BadInput(f"To delete it, type the game's name exactly: “{game.name}”.")
    try:
        for table in reversed(SQLModel.metadata.sorted_tables):
            for fk in table.foreign_keys:
                if fk.column.table.name == "game" and table.name != "game":
                    session.execute(delete(table).where(fk.parent == game_id))
        session.delete(game)
        session.commit()
    except IntegrityError:
        session.rollback()
        raise BadInput(f"“{game.name}” is still referred to elsewhere and was kept.") from None
