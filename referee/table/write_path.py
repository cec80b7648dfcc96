"""The one write path for every versioned document with a log: a game, a campaign.

A document is a row holding a state document and a version (``Game``, ``Campaign``), with a log of
entries that say each change (``LogEntry``, ``CampaignLogEntry``). Whatever the document,
:func:`perform`, :func:`undo` and :func:`redo` take the document's turn (``turns.py``), refuse a
stale version, resolve the action from the document's catalogue with a dice source, apply its
changes with one atomic UPDATE on the version (:func:`commit_state`) and log it with its dice and
rule, in one transaction.

What differs between a game and a campaign is said by its :class:`DocumentKind`: where its rows
are, its catalogue, and the few hooks a kind fills in (a game lands a tap on a newer version
when the writes since did not touch what it reads, asks a seated side's dice of that side, and
follows a campaign's links to other tables; a campaign keeps its rosters' versions).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from sqlalchemy import bindparam, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from ..core.dice import BadDice, DiceNeeded, DiceSource, NotYourDice, ScriptedDice, SeededDice
from ..core.docstate import StateConflict, apply_changes, revert_changes
from ..core.errors import ChoiceNeeded, DataError, RuleError
from ..core.results import Change, Result
from . import state_column
from .errors import BadInput, NeedChoice, NeedDice, StaleVersion, TableError
from .models import now
from .write_lock import locked_version, turn_of


@dataclass
class Write:
    """One write in hand, as far as the path has gone: what each hook of the kind reads."""

    session: Session
    doc: Any  # the row: a Game, a Campaign
    seen: int  # the version the tablet shows
    current: int  # the version the database holds
    action: str
    typed_dice: list[int] | None
    options: dict  # what the kind's own callers pass (who acts, a tap's token, ...)
    spec: Any = None
    facts: Any = None
    seq: int = 0
    redo_open: bool = False
    dice: DiceSource | None = None
    source_name: str = "scripted"
    result: Result | None = None
    changes: list[Change] = field(default_factory=list)
    before: dict | None = None
    new_state: dict | None = None
    version: int = 0
    # What a kind's hooks work out for later hooks of the same write (a game's seated side).
    scratch: dict = field(default_factory=dict)


class DocumentKind:
    """A kind of versioned document with a log. A kind names its rows and its catalogue; the
    hooks' defaults are the plain path (the exact version, no one to check, the app's dice)."""

    row: type  # the versioned row
    entry: type  # its log entries
    owner: str  # the entry's column naming the row ("game_id")
    what: str  # "game", "campaign": in the messages
    step: str = "action"  # what one change is called: "action", "step"
    # Whether a new change ends the chance to redo only when the newest entry says one is open
    # (see :func:`newest`); a kind whose log takes entries written elsewhere discards always.
    newest_says_redo: bool = True

    # --- what the kind says ---------------------------------------------------------------

    def load(self, session: Session, doc_id: int):
        raise NotImplementedError

    def catalogue(self, doc):
        """What answers ``action(name)`` for this document (a game system, a campaign kind)."""
        raise NotImplementedError

    def parse(self, doc, action: str, raw: dict[str, Any]):
        """The action's spec and its validated facts (a BadInput when they do not fit)."""
        return parse_facts_of(self.catalogue(doc), action, raw)

    def stale(self, current: int, what: str | None = None) -> StaleVersion:
        return StaleVersion(current, what or f"this {self.what}")

    def turn(self, session: Session, doc_id: int):
        """The turns a write to this document holds (the document's own, and any it leads to)."""
        return turn_of(self.row, doc_id)

    def owner_column(self):
        return getattr(self.entry, self.owner)

    # --- the hooks of a write, in the order the path calls them ----------------------------

    def replayed(self, session: Session, doc_id: int, options: dict):
        """The answer to a tap already applied (None: resolve it)."""
        return None

    def admit(self, w: Write) -> None:
        """Refuse a tablet's version the write cannot land on (before the facts are read)."""
        if w.seen != w.current:
            raise self.stale(w.current)

    def check(self, w: Write) -> None:
        """With the facts read, before any die: whether this write may happen at all."""

    def choose_dice(self, w: Write) -> None:
        w.dice, w.source_name = dice_for(w.doc, w.seq, w.typed_dice)

    def dice_needed(self, w: Write, e: DiceNeeded) -> TableError:
        return NeedDice(e, list(w.typed_dice or []))

    def not_your_dice(self, w: Write, e: NotYourDice) -> TableError:
        return BadInput(str(e))

    def landed(self, w: Write) -> None:
        """The result settled, before it is written: a last refusal."""

    def written(self, w: Write) -> None:
        """The new state written, before the log entry: what else the change writes."""

    def record(self, w: Write):
        """The log entry of the change (added to the transaction)."""
        raise NotImplementedError

    def answer(self, w: Write, entry):
        return w.doc, entry, w.result

    def before_step(self, session: Session, doc, entries: list, how: str, options: dict) -> None:
        """Before an undo or redo of ``entries`` is written: refuse it, or write what it leads to."""

    def stepped(self, entry, version: int, options: dict) -> None:
        """An entry taken back or put back by the write that made ``version``."""

    def after_step(self, session: Session, doc, before: dict, entries: list, how: str) -> None:
        """After an undo or redo is written, in its transaction."""


# --- the path -------------------------------------------------------------------------------------

def perform(kind: DocumentKind, session: Session, doc_id: int, seen_version: int, action: str,
            raw_facts: dict[str, Any], typed_dice: list[int] | None = None, dice: DiceSource | None = None,
            commit: bool = True, **options):
    """Resolve one action on the document and record it, in the document's turn. ``typed_dice``
    (players' own dice) or ``dice`` (a source, for tests and replays) replace the app's seeded
    roll. ``commit=False`` leaves the transaction open for a caller that adds rows of its own to
    the same change; ``options`` are the kind's own."""
    with kind.turn(session, doc_id):
        again = kind.replayed(session, doc_id, options)
        if again is not None:
            return again
        doc = kind.load(session, doc_id)
        w = Write(session, doc, seen_version, locked_version(session, doc), action, typed_dice, options)
        kind.admit(w)
        w.spec, w.facts = kind.parse(doc, action, raw_facts)
        kind.check(w)
        w.seq, w.redo_open = newest(session, kind.entry, kind.owner_column(), doc.id)
        w.seq += 1
        if dice is None:
            kind.choose_dice(w)
        else:
            w.dice = dice
        _resolve(kind, w)
        w.changes, w.new_state, w.source_name = settle(doc.state, w.result, w.spec, w.dice, typed_dice,
                                                       w.source_name, kind.what)
        kind.landed(w)
        if w.redo_open or not kind.newest_says_redo:
            discard_redo(session, kind.entry, kind.owner_column(), doc.id)
        w.before = doc.state
        w.version = write_state(kind, session, doc, w.current, w.new_state)
        kind.written(w)
        entry = kind.record(w)
        if commit:
            session.commit()
        return kind.answer(w, entry)


def _resolve(kind: DocumentKind, w: Write) -> None:
    try:
        w.result = w.spec.resolve(w.doc.state, w.facts, w.dice)
    except DiceNeeded as e:
        raise kind.dice_needed(w, e) from None
    except NotYourDice as e:
        raise kind.not_your_dice(w, e) from None
    except ChoiceNeeded as e:
        raise NeedChoice(e, list(w.typed_dice or [])) from None
    except (BadDice, RuleError, DataError) as e:  # the facts cannot happen; anything else is a bug
        raise BadInput(str(e)) from None


def current_doc(kind: DocumentKind, session: Session, doc_id: int, seen_version: int):
    """The document, in this write's turn, if the tablet's version is still the document's;
    otherwise the write is stale (and the row in hand is expired, so the refusal draws the fresh one)."""
    doc = kind.load(session, doc_id)
    current = locked_version(session, doc)
    if seen_version != current:
        raise kind.stale(current)
    return doc


def in_force(kind: DocumentKind, doc_id: int):
    e = kind.entry
    return select(e).where(kind.owner_column() == doc_id, e.undone == False, e.discarded == False)  # noqa: E712


def undo(kind: DocumentKind, session: Session, doc_id: int, seen_version: int, down_to: int | None = None,
         **options) -> list:
    """Take back the newest change still in force, or every one from the newest down to ``down_to``
    (a whole Aftermath), in one transaction; the entries are marked undone, never deleted."""
    with kind.turn(session, doc_id):
        doc = current_doc(kind, session, doc_id, seen_version)
        q = in_force(kind, doc_id).order_by(kind.entry.seq.desc())
        entries = list(session.exec(q.limit(1) if down_to is None else q.where(kind.entry.seq >= down_to)).all())
        if not entries:
            raise BadInput("There is nothing to undo.")
        if down_to is not None and entries[-1].seq != down_to:
            raise BadInput(f"Step {down_to} is not in force: nothing was undone.")
        kind.before_step(session, doc, entries, "undo", options)
        before = state = doc.state
        for e in entries:
            state = revert_changes(state, [Change.from_dict(c) for c in e.changes])
        version = write_state(kind, session, doc, seen_version, state)
        for e in entries:
            kind.stepped(e, version, options)
            e.undone = True
            session.add(e)
        kind.after_step(session, doc, before, entries, "undo")
        session.commit()
        return entries


def redo(kind: DocumentKind, session: Session, doc_id: int, seen_version: int, **options):
    """Put back the oldest undone change, as long as no new change came after the undo."""
    with kind.turn(session, doc_id):
        doc = current_doc(kind, session, doc_id, seen_version)
        e = kind.entry
        entry = session.exec(select(e).where(kind.owner_column() == doc_id, e.undone == True,  # noqa: E712
                                             e.discarded == False)  # noqa: E712
                             .order_by(e.seq.asc()).limit(1)).first()
        if entry is None:
            raise BadInput("There is nothing to redo.")
        kind.before_step(session, doc, [entry], "redo", options)
        try:
            new_state = apply_changes(doc.state, [Change.from_dict(c) for c in entry.changes])
        except StateConflict as err:
            raise BadInput(f"That {kind.step} no longer fits the {kind.what} ({err}).") from None
        before = doc.state
        version = write_state(kind, session, doc, seen_version, new_state)
        kind.stepped(entry, version, options)
        entry.undone = False
        session.add(entry)
        kind.after_step(session, doc, before, [entry], "redo")
        session.commit()
        return entry


# --- the pieces every kind shares -----------------------------------------------------------------

def validation_message(err: ValidationError, facts_cls=None) -> str:
    """What is wrong, named as the form names it (the field's title) where the facts class is known."""
    fields = getattr(facts_cls, "model_fields", {})
    parts = []
    for e in err.errors():
        loc = list(e["loc"])
        if loc and loc[0] in fields and fields[loc[0]].title:
            loc[0] = fields[loc[0]].title
        else:
            loc = [str(x).replace("_", " ") for x in loc]
        where = " → ".join(str(x) for x in loc) or "input"
        msg = e["msg"]
        if e["type"] == "missing" or (e["type"] == "too_short" and not e.get("input")):
            msg = "nothing chosen yet"
        elif e["type"] == "extra_forbidden":
            msg = "is not a fact this action takes"
        parts.append(f"{where}: {msg}")
    return "; ".join(parts)


def parse_facts_of(catalogue, action: str, raw: dict[str, Any]):
    """The action's spec and its validated facts, from any catalogue with ``action(name)`` (a
    game, a campaign kind); a name it lacks or facts that do not fit are a BadInput."""
    try:
        spec = catalogue.action(action)
    except KeyError as e:
        raise BadInput(str(e.args[0])) from None
    try:
        return spec, spec.facts.model_validate(raw)
    except ValidationError as e:
        raise BadInput(validation_message(e, spec.facts)) from None


def odds_of(catalogue, state: dict, action: str, raw: dict[str, Any]) -> list[str]:
    """Exact chances for an action before anything is rolled (empty when it rolls nothing)."""
    _, facts = parse_facts_of(catalogue, action, raw)
    try:
        return catalogue.odds(state, action, facts)
    except (RuleError, DataError) as e:
        raise BadInput(str(e)) from None


def dice_for(doc, seq: int, typed: list[int] | None) -> tuple[DiceSource, str]:
    if typed is not None:
        return ScriptedDice(typed), "typed"
    # One seed per log entry: any entry can be re-rolled identically for an audit.
    return SeededDice(f"{doc.seed}:{seq}"), "app"


# The newest entry of each kind of log, built once per kind (every action asks it).
_NEWEST: dict[type, Any] = {}


def newest(session: Session, entry_cls, owner_column, owner_id: int) -> tuple[int, bool]:
    """The newest entry's number (0 when the log is empty) and whether anything can be redone.
    Entries undone and not yet discarded are always the newest of the log (undo takes the newest
    in force, a new action discards them all), so the newest entry says whether there are any."""
    statement = _NEWEST.get(entry_cls)
    if statement is None:
        statement = _NEWEST[entry_cls] = (
            select(entry_cls.seq, entry_cls.undone, entry_cls.discarded)
            .where(owner_column == bindparam("owner_id")).order_by(entry_cls.seq.desc()).limit(1))
    row = session.execute(statement, {"owner_id": owner_id}).first()
    return (0, False) if row is None else (row[0], bool(row[1]) and not row[2])


def settle(state: dict, result, spec, dice: DiceSource, typed_dice: list[int] | None, source_name: str,
           what: str) -> tuple[list[Change], dict, str]:
    """What every change does once its engine has answered: check every typed die was used,
    apply the changes to a copy of the state (refused whole if they no longer fit), and name
    where the dice came from."""
    if isinstance(dice, ScriptedDice) and typed_dice is not None and dice.remaining:
        raise BadInput(f"{len(typed_dice)} dice were typed but this needs only "
                       f"{len(typed_dice) - dice.remaining}: check the dice and type them again.")
    if not spec.rolls_dice:
        source_name = "manual"
    changes = list(result.all_changes)
    try:
        new_state = apply_changes(state, changes)
    except StateConflict as e:
        raise BadInput(f"The result does not fit the {what} as it stands ({e}).") from None
    return changes, new_state, source_name


def discard_redo(session: Session, entry_cls, owner_column, owner_id: int) -> None:
    """A new change ends the chance to redo what was undone: one UPDATE, however many were
    undone (loading each entry to mark it made the first action after undoing a thousand take a
    second)."""
    session.execute(update(entry_cls).where(owner_column == owner_id, entry_cls.undone == True,  # noqa: E712
                                            entry_cls.discarded == False)  # noqa: E712
                    .values(discarded=True).execution_options(synchronize_session="fetch"))


# The one UPDATE each kind of versioned row is written by, built once (a game, a campaign). It
# goes to the database as it is: the row in hand is brought up to date by ``commit_state``.
_WRITES: dict[type, Any] = {}


def _write_statement(row: type):
    found = _WRITES.get(row)
    if found is None:
        t = row.__table__
        found = _WRITES[row] = (
            update(t).where(t.c.id == bindparam("row_id"), t.c.version == bindparam("seen"))
            .values(state=bindparam("new_state", type_=t.c.state.type), version=bindparam("new_version"),
                    updated=bindparam("when", type_=t.c.updated.type)))
    return found


def commit_state(session: Session, doc, seen_version: int, new_state: dict) -> int:
    """Write the new state only if nobody else wrote since ``seen_version`` (one atomic UPDATE).
    Any versioned row with a state document works the same way (a game, a campaign)."""
    new_version = seen_version + 1
    row = type(doc)
    when = now()
    try:
        with state_column.keeping():  # the engine's document is kept as written (state_column.py)
            res = session.connection().execute(_write_statement(row), {
                "row_id": doc.id, "seen": seen_version, "new_state": new_state, "new_version": new_version,
                "when": when})
    except OperationalError as e:
        # SQLite in WAL refuses a write from a transaction whose snapshot another tablet's write
        # has overtaken ("database is locked"): for the tablet that is a stale view, not a crash.
        session.rollback()
        if "locked" not in str(e).lower():
            raise
        raise StaleVersion(session.get(row, doc.id).version) from None
    if res.rowcount != 1:
        session.rollback()
        raise StaleVersion(session.get(row, doc.id).version)
    # The row in hand now holds what was written: no second read of a 200 kB document after the
    # commit, and the document stays the one the engine built (state_column.py).
    for name, value in (("state", new_state), ("version", new_version), ("updated", when)):
        set_committed_value(doc, name, value)
    return new_version


def write_state(kind: DocumentKind, session: Session, doc, seen_version: int, new_state: dict) -> int:
    """:func:`commit_state`, its refusal worded for the kind."""
    try:
        return commit_state(session, doc, seen_version, new_state)
    except StaleVersion as e:
        raise kind.stale(e.current) from None
