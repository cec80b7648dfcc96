"""Saved army lists and squadrons: who owns them, their versions, share codes, and which
version each game was started from.

A saved version is never changed: editing, renaming or importing over a list appends a new
version. A game records the exact versions it was started from (``GameList``), so editing a
list later never changes a finished battle's record.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Optional

from pydantic import ValidationError
from sqlalchemy import JSON, Column, UniqueConstraint, delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, select

from ..lists import check, dump, parse
from ..lists.games import game_from_lists
from ..lists.merge import merge
from ..lists.problems import Problem
from ..lists.travel import SYSTEM_NAMES, ListModel, new_share_code, normalise_share_code
from ..systems import BLACK_POWDER, OIL_AND_IRON
from . import accounts
from .models import Game, now
from .service import BadInput, NotFound, TableError, create_game


class ArmyList(SQLModel, table=True):
    __tablename__ = "armylist"

    id: Optional[int] = Field(default=None, primary_key=True)
    owner: str = Field(index=True)
    name: str
    system: str = Field(index=True)  # "blackpowder" | "oilandiron"
    latest: int = 0  # number of the newest version
    share_code: Optional[str] = Field(default=None, unique=True, index=True)
    # The account the list belongs to (accounts are never deleted). No database-level foreign key:
    # SQLite could add and drop the column only by rebuilding the table its versions point at.
    account_id: Optional[int] = Field(default=None, index=True)
    public: bool = False  # readable by everyone on the club server, not only by share code
    created: datetime = Field(default_factory=now)
    updated: datetime = Field(default_factory=now)


class ArmyListVersion(SQLModel, table=True):
    """One saved state of a list; never updated once written."""

    __tablename__ = "armylistversion"
    __table_args__ = (UniqueConstraint("list_id", "number"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    list_id: int = Field(foreign_key="armylist.id", index=True)
    number: int
    name: str
    content: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    problems: int = 0  # how many problems it had when saved (0: ready to play)
    note: str = ""  # why this version exists ("imported", "renamed", "copied from …")
    created: datetime = Field(default_factory=now)


class GameList(SQLModel, table=True):
    """The list version each side of a game was started from."""

    __tablename__ = "gamelist"
    __table_args__ = (UniqueConstraint("game_id", "side"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    side: str  # "blue" / "red", or "p1" / "p2"
    version_id: int = Field(foreign_key="armylistversion.id", index=True)


class NotOwner(TableError):
    status = 403


@dataclass
class Saved:
    armylist: ArmyList
    version: ArmyListVersion
    problems: list[Problem]


def _owner(owner: str) -> str:
    owner = (owner or "").strip()
    if not owner:
        raise BadInput("Choose your name first: a list belongs to the player who made it.")
    return owner[:40]


def get_list(session: Session, list_id: int) -> ArmyList:
    lst = session.get(ArmyList, list_id)
    if lst is None:
        raise NotFound(f"There is no list number {list_id}.")
    return lst


def get_version(session: Session, lst: ArmyList, number: int | None = None) -> ArmyListVersion:
    number = lst.latest if number is None else number
    v = session.exec(select(ArmyListVersion).where(ArmyListVersion.list_id == lst.id,
                                                   ArmyListVersion.number == number)).first()
    if v is None:
        raise NotFound(f"“{lst.name}” has no version {number}.")
    return v


def content_of(lst: ArmyList, version: ArmyListVersion) -> ListModel:
    return parse(lst.system, version.content)


def list_lists(session: Session, owner: str | None = None, system: str | None = None) -> list[ArmyList]:
    """Everyone's lists, or one owner's; newest first."""
    q = select(ArmyList)
    if owner:
        q = q.where(ArmyList.owner == owner)
    if system:
        q = q.where(ArmyList.system == system)
    return list(session.exec(q.order_by(ArmyList.updated.desc(), ArmyList.id.desc())).all())


def _append(session: Session, lst: ArmyList, model: ListModel, note: str) -> Saved:
    problems = check(model)
    lst.latest += 1
    lst.name = model.name or lst.name or "Untitled"
    lst.updated = now()
    session.add(lst)
    session.flush()
    version = ArmyListVersion(list_id=lst.id, number=lst.latest, name=lst.name, content=dump(model),
                              problems=len(problems), note=note)
    session.add(version)
    session.commit()
    session.refresh(lst)
    session.refresh(version)
    return Saved(lst, version, problems)


def create_list(session: Session, owner: str, model: ListModel, note: str = "created") -> Saved:
    """A new list of ``owner``'s account (on a "this laptop only" table, the account of that name)."""
    name = _owner(owner)
    lst = ArmyList(owner=name, name=model.name or "Untitled", system=model.system,
                   account_id=accounts.for_owner(session, name).id)
    return _append(session, lst, model, note)


def import_list(session: Session, owner: str, model: ListModel) -> tuple[Saved, str]:
    """A list from a file or pasted text, named apart from the lists of its game already here
    (“Rust Hounds (imported)”, “Rust Hounds (imported 2)”, …): two lists are never told apart
    only by their version numbers. Answers what the import says about its name ("" if kept)."""
    name = model.name or "Untitled"
    taken = set(session.exec(select(ArmyList.name).where(ArmyList.system == model.system)).all())
    said = ""
    if name in taken:
        n = 1
        while (candidate := f"{name} (imported{'' if n == 1 else f' {n}'})"[:80]) in taken and n < 1000:
            n += 1
        said = f"A list called “{name}” is already here: the one imported is called “{candidate}”."
        model = model.model_copy(update={"name": candidate})
    return create_list(session, owner, model, note="imported"), said


def _must_own(lst: ArmyList, owner: str) -> None:
    if lst.owner != (owner or "").strip():
        raise NotOwner(f"“{lst.name}” belongs to {lst.owner}: only {lst.owner} can change it. "
                       "Make a copy to change your own.")


class ListConflict(TableError):
    """The list was saved meanwhile (another tablet) and both changed the same parts."""

    status = 409

    def __init__(self, message: str, clashes: list[str], latest: int):
        super().__init__(message)
        self.clashes = clashes
        self.latest = latest


def save_list(session: Session, list_id: int, owner: str, model: ListModel, note: str = "edited",
              base: int | None = None) -> Saved:
    """A new version of the list, unless nothing changed (then the current one is kept).

    ``base`` is the version the builder was opened from: if the list was saved since, what this
    save changed from ``base`` is merged into the newest version, and refused (nothing written)
    where both changed the same part."""
    lst = get_list(session, list_id)
    _must_own(lst, owner)
    if model.system != lst.system:
        raise BadInput(f"“{lst.name}” is a {SYSTEM_NAMES[lst.system]} list.")
    current = get_version(session, lst)
    if base is not None and base != current.number:
        model, note = _merged(session, lst, current, model, base, note)
    if current.content == dump(model):
        return Saved(lst, current, check(model))
    try:
        return _append(session, lst, model, note)
    except IntegrityError:
        # Another tablet's save took this version number a moment ago: nothing of this one was kept.
        session.rollback()
        raise ListConflict("This list was saved from another tablet at the same moment. Nothing was saved; "
                           "your form is kept as you typed it: Save again.", [], current.number + 1) from None


def _merged(session: Session, lst: ArmyList, current: ArmyListVersion, model: ListModel, base: int,
            note: str) -> tuple[ListModel, str]:
    opened = get_version(session, lst, base) if 0 < base < current.number else None
    if opened is None:
        raise BadInput(f"That form was opened from a version of “{lst.name}” that is not there: "
                       "open the list again.")
    merged = merge(opened.content, current.content, dump(model))
    when = current.created.strftime("%H:%M")
    if merged.clashes:
        raise ListConflict(
            f"“{lst.name}” was saved from another tablet at {when} (version {current.number}, {current.note}) "
            f"while this form was open, and both changed {_listed(merged.words())}. Nothing was saved; "
            "your form is kept as you typed it. Save again to keep your version of those, "
            f"or open version {current.number} to see the other.",
            merged.clashes, current.number)
    try:
        model = parse(lst.system, merged.value)
    except ValidationError:
        # Each side's changes fit, together they do not: the form's whole list is the clash.
        raise ListConflict(
            f"“{lst.name}” was saved from another tablet at {when} (version {current.number}) while this form "
            "was open, and the two do not fit together. Nothing was saved; your form is kept as you typed it. "
            f"Save again to keep yours, or open version {current.number} to see the other.", [], current.number)
    return model, f"{note} (merged with version {current.number}, saved at {when})"


def _listed(words: list[str]) -> str:
    shown = words[:6] + ([f"{len(words) - 6} more"] if len(words) > 6 else [])
    return ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]


def rename_list(session: Session, list_id: int, owner: str, name: str) -> Saved:
    name = name.strip()
    if not name:
        raise BadInput("A list needs a name.")
    lst = get_list(session, list_id)
    model = content_of(lst, get_version(session, lst))
    return save_list(session, list_id, owner, model.model_copy(update={"name": name[:80]}), note="renamed")


def duplicate_list(session: Session, list_id: int, owner: str, name: str | None = None) -> Saved:
    """A copy owned by ``owner`` (anyone may copy anyone's list), starting at version 1."""
    lst = get_list(session, list_id)
    model = content_of(lst, get_version(session, lst))
    new_name = (name or "").strip() or f"Copy of {model.name}"
    return create_list(session, owner, model.model_copy(update={"name": new_name[:80]}),
                       note=f"copied from “{lst.name}” v{lst.latest} by {lst.owner}")


def delete_list(session: Session, list_id: int, owner: str) -> None:
    """The list and every version of it go. Games started from it are not touched (each holds its
    forces in its own document); only their note of which list version they came from goes with it."""
    lst = get_list(session, list_id)
    _must_own(lst, owner)
    ids = select(ArmyListVersion.id).where(ArmyListVersion.list_id == lst.id)
    # In the order the foreign keys ask: what points at a version, the versions, then the list.
    session.execute(delete(GameList).where(GameList.version_id.in_(ids)))
    session.execute(delete(ArmyListVersion).where(ArmyListVersion.list_id == lst.id))
    session.delete(lst)
    session.commit()


def versions(session: Session, list_id: int) -> list[ArmyListVersion]:
    return list(session.exec(select(ArmyListVersion).where(ArmyListVersion.list_id == list_id)
                             .order_by(ArmyListVersion.number.desc())).all())


def share(session: Session, list_id: int, owner: str) -> str:
    """The list's share code, made on first asking (only the owner hands a list out)."""
    lst = get_list(session, list_id)
    _must_own(lst, owner)
    if not lst.share_code:
        taken = True
        while taken:
            code = new_share_code()
            taken = session.exec(select(ArmyList).where(ArmyList.share_code == code)).first() is not None
        lst.share_code = code
        session.add(lst)
        session.commit()
        session.refresh(lst)
    return lst.share_code


def set_public(session: Session, list_id: int, owner: str, public: bool) -> ArmyList:
    """Open the list to everyone on the club server, or back to its owner and its share code."""
    lst = get_list(session, list_id)
    _must_own(lst, owner)
    lst.public = bool(public)
    session.add(lst)
    session.commit()
    session.refresh(lst)
    return lst


def readable(lst: ArmyList, owner: str, shared_ids=()) -> bool:
    """Whether a club member may read the list: their own, public to the club, or opened by its
    share code on this tablet (``shared_ids``)."""
    return bool(owner) and lst.owner == owner or lst.public or lst.id in set(shared_ids or ())


def by_share_code(session: Session, code: str) -> ArmyList:
    lst = session.exec(select(ArmyList).where(ArmyList.share_code == normalise_share_code(code))).first()
    if lst is None:
        raise NotFound(f"No list has the share code “{code.strip()}”. Check the letters and try again.")
    return lst


SIDES = {BLACK_POWDER: ("blue", "red"), OIL_AND_IRON: ("p1", "p2")}


def start_game(session: Session, name: str, first_id: int, second_id: int, owner: str = "",
               commit: bool = True, **options) -> Game:
    """A game from the newest versions of two saved lists; the versions used are recorded.
    ``commit=False`` leaves it in the caller's transaction (its umpire's seat lands with it)."""
    first, second = get_list(session, first_id), get_list(session, second_id)
    if first.system != second.system:
        raise BadInput("Both lists must be for the same game.")
    v1, v2 = get_version(session, first), get_version(session, second)
    name = (name or "").strip() or f"{first.name} v {second.name}"
    try:
        doc = game_from_lists(name, content_of(first, v1), content_of(second, v2), **options)
    except ValueError as e:  # NotReady, a tier mismatch, a rule the engine refuses
        raise BadInput(str(e)) from None
    game = create_game(session, name, first.system, doc, owner=owner, commit=False)
    for side, v in zip(SIDES[first.system], (v1, v2)):
        session.add(GameList(game_id=game.id, side=side, version_id=v.id))
    if commit:
        session.commit()
    return game


def games_of_list(session: Session, list_id: int) -> list[tuple[Game, ArmyListVersion]]:
    """The games started from any version of this list, newest first, with the version used."""
    rows = session.exec(select(Game, ArmyListVersion).join(GameList, GameList.game_id == Game.id)
                        .join(ArmyListVersion, ArmyListVersion.id == GameList.version_id)
                        .where(ArmyListVersion.list_id == list_id).order_by(Game.id.desc())).all()
    return [(g, v) for g, v in rows]


def lists_of_game(session: Session, game_id: int) -> list[tuple[str, ArmyList, ArmyListVersion]]:
    rows = session.exec(select(GameList).where(GameList.game_id == game_id)).all()
    out = []
    for r in rows:
        v = session.get(ArmyListVersion, r.version_id)
        out.append((r.side, session.get(ArmyList, v.list_id), v))
    return out
