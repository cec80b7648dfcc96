"""The one path for every change to a game.

``perform`` loads the game, refuses a stale version, validates the facts, calls the engine with
a dice source, applies the result's changes and appends the log entry, all in one transaction.
``undo`` and ``redo`` walk the log. Nothing else writes a game's state.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError
from sqlalchemy import bindparam, insert, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from ..core.dice import BadDice, DiceNeeded, DiceSource, NotYourDice, ScriptedDice, SeededDice
from ..core.docstate import StateConflict, apply_changes, revert_changes
from ..core.errors import RuleError
from ..core.footprint import reads, touched
from ..core.results import Change, Result
from ..systems import system_for
from . import campaign_links, handover, state_column
from .concurrent import changed_since, clash, first_result
from .errors import BadInput, NeedDice, NotFound, StaleVersion, TableError  # noqa: F401  (callers catch service.BadInput ...)
from .games import get_game
from .models import Game, LogEntry, now
from .turns import turn_of, version_now


@dataclass
class Performed:
    game: Game
    entry: LogEntry
    result: Result | None
    # The tap's token was applied before (its answer lost on the way): ``entry`` is its first
    # result, nothing was resolved or rolled again, and ``result`` is None.
    replayed: bool = False


def create_game(session: Session, name: str, system: str, state: dict, owner: str = "",
                seed: int | None = None) -> Game:
    system_for(system)  # refuses an unknown game system
    state = dict(state)
    state.setdefault("dice_mode", "app")
    game = Game(name=name, system=system, state=state, version=1, owner=owner,
                seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31))
    session.add(game)
    session.commit()
    session.refresh(game)
    return game


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


def parse_facts(system: str, action: str, raw: dict[str, Any]):
    return parse_facts_of(system_for(system), action, raw)


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


def odds(session: Session, game_id: int, action: str, raw: dict[str, Any]) -> list[str]:
    """Exact chances for an action before anything is rolled (empty when it rolls nothing)."""
    game = get_game(session, game_id)
    spec, facts = parse_facts(game.system, action, raw)
    if spec.odds is None:
        return []
    try:
        return spec.odds(game.state, facts)
    except RuleError as e:
        raise BadInput(str(e)) from None


def _dice_for(game: Game, seq: int, typed: list[int] | None) -> tuple[DiceSource, str]:
    if typed is not None:
        return ScriptedDice(typed), "typed"
    # One seed per log entry: any entry can be re-rolled identically for an audit.
    return SeededDice(f"{game.seed}:{seq}"), "app"


# The newest entry of a game's log: its number, and whether it is undone but not discarded (built
# once: every action asks it).
_NEWEST = (select(LogEntry.seq, LogEntry.undone, LogEntry.discarded)
           .where(LogEntry.game_id == bindparam("game_id")).order_by(LogEntry.seq.desc()).limit(1))


def _newest(session: Session, game_id: int) -> tuple[int, bool]:
    """The newest entry's number (0 when the log is empty) and whether anything can be redone.
    Entries undone and not yet discarded are always the newest of the log (undo takes the newest
    in force, a new action discards them all), so the newest entry says whether there are any."""
    row = session.execute(_NEWEST, {"game_id": game_id}).first()
    return (0, False) if row is None else (row[0], bool(row[1]) and not row[2])


def last_seq(session: Session, entry_cls, owner_column, owner_id: int) -> int:
    """The newest log entry's number in a game's log or a campaign's (0 when it is empty)."""
    last = session.exec(select(entry_cls.seq).where(owner_column == owner_id)
                        .order_by(entry_cls.seq.desc()).limit(1)).first()
    return last or 0


# The one UPDATE each kind of versioned row is written by, built once (a game, a campaign). It
# goes to the database as it is: the row in hand is brought up to date by ``_commit_state``.
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


def _commit_state(session: Session, game: Game, seen_version: int, new_state: dict) -> int:
    """Write the new state only if nobody else wrote since ``seen_version`` (one atomic UPDATE).
    Any versioned row with a state document works the same way (a game, a campaign)."""
    new_version = seen_version + 1
    row = type(game)
    when = now()
    try:
        with state_column.keeping():  # the engine's document is kept as written (state_column.py)
            res = session.connection().execute(_write_statement(row), {
                "row_id": game.id, "seen": seen_version, "new_state": new_state, "new_version": new_version,
                "when": when})
    except OperationalError as e:
        # SQLite in WAL refuses a write from a transaction whose snapshot another tablet's write
        # has overtaken ("database is locked"): for the tablet that is a stale view, not a crash.
        session.rollback()
        if "locked" not in str(e).lower():
            raise
        raise StaleVersion(session.get(row, game.id).version) from None
    if res.rowcount != 1:
        session.rollback()
        raise StaleVersion(session.get(row, game.id).version)
    # The row in hand now holds what was written: no second read of a 200 kB document after the
    # commit, and the document stays the one the engine built (state_column.py).
    for name, value in (("state", new_state), ("version", new_version), ("updated", when)):
        set_committed_value(game, name, value)
    return new_version


def _seated_side(game: Game, actor) -> str | None:
    """The side a seated player acts for (None: the umpire, a spectator, the one trusted tablet)."""
    role = getattr(actor, "role", None)
    return role if role and role in (game.state.get("sides") or game.state.get("players") or {}) else None


def settle(state: dict, result, spec, dice: DiceSource, typed_dice: list[int] | None, source_name: str,
           what: str) -> tuple[list[Change], dict, str]:
    """What every change (a game's action, a campaign's step) does once its engine has answered:
    check every typed die was used, apply the changes to a copy of the state (refused whole if
    they no longer fit), and name where the dice came from."""
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
    """A new change ends the chance to redo what was undone (in a game's log or a campaign's): one
    UPDATE, however many were undone (loading each entry to mark it made the first action after
    undoing a thousand take a second)."""
    session.execute(update(entry_cls).where(owner_column == owner_id, entry_cls.undone == True,  # noqa: E712
                                            entry_cls.discarded == False)  # noqa: E712
                    .values(discarded=True).execution_options(synchronize_session="fetch"))


def perform(session: Session, game_id: int, seen_version: int, action: str, raw_facts: dict[str, Any],
            typed_dice: list[int] | None = None, dice: DiceSource | None = None, actor=None,
            typists: list[str | None] | None = None, continuing: bool = False,
            token: str | None = None) -> Performed:
    """Resolve one action and record it. ``typed_dice`` (players' own dice) or ``dice`` (a
    source, for tests and replays) replace the app's seeded roll. ``actor`` (a
    ``referee.table.roles.Actor``) is who acts at a club's table; its role is checked before
    anything is resolved, and a refusal changes nothing. None is the one trusted tablet.

    A seated side's player types only that side's dice: when typed dice run out at another
    side's, the action waits for them (``handover.HandedOver``, a pending roll, nothing applied).
    ``typists`` says who typed each typed die (default: the actor, for a seated side); the
    hand-over's resolution passes it, with ``continuing``, so every further die is asked for
    through the pending roll too.

    Writes to one game take turns (``turns.py``). A write from a screen that another tablet's
    change has overtaken lands on the newest version unless that change touched what it reads or
    would change (``referee.core.footprint``); then it is refused, before its dice are rolled when what
    it reads was touched. ``token``: the tap's one-time token, kept with its log entry; the same
    token again is answered with that entry (``Performed.replayed``), never resolved again. A game
    a campaign links to another table also takes the campaign's turn, and what the action does at
    the other table is written in the same transaction (``campaign_links.py``)."""
    with turn_of(Game, game_id), campaign_links.turn_for(session, game_id):
        if token:
            first = first_result(session, game_id, token)
            if first is not None:
                return Performed(get_game(session, game_id), first, None, replayed=True)
        return _perform(session, game_id, seen_version, action, raw_facts, typed_dice, dice, actor, typists,
                        continuing, token)


def _refuse_if(game: Game, current: int, what: str | None) -> None:
    if what is not None:
        raise StaleVersion(current, what)


def _current_game(session: Session, game_id: int, seen_version: int) -> Game:
    """The game, in this write's turn, if the tablet's version is still the game's; otherwise the
    write is stale (and the game in hand is expired, so the refusal draws the fresh one)."""
    game = get_game(session, game_id)
    current = version_now(session, game)
    if seen_version != current:
        raise StaleVersion(current)
    return game


def _perform(session: Session, game_id: int, seen_version: int, action: str, raw_facts: dict[str, Any],
             typed_dice, dice, actor, typists, continuing, token) -> Performed:
    game = get_game(session, game_id)
    current = version_now(session, game)
    if not 0 < seen_version <= current:
        raise StaleVersion(current)
    spec, facts = parse_facts(game.system, action, raw_facts)
    changed = None
    if seen_version != current:  # another tablet wrote since this screen: refused if it touched what this reads
        changed = changed_since(session, game, seen_version, current)
        _refuse_if(game, current, clash(game, reads(game.state, facts.model_dump(mode="json"),
                                                    system_for(game.system).links), changed))
    if actor is not None:
        actor.check_action(game, action, facts)
    if campaign_links.MARK in game.state:
        _linked(campaign_links.check, session, game, action)
    seq, redo_open = _newest(session, game.id)
    seq += 1
    source_name = "scripted"
    side = _seated_side(game, actor)
    if dice is None:
        dice, source_name = _dice_for(game, seq, typed_dice)
        if typed_dice is not None and side is not None:
            typists = list(typists) if typists is not None else [side] * len(typed_dice)
            dice = ScriptedDice(typed_dice, typists, acting=side)
    try:
        result = spec.resolve(game.state, facts, dice)
    except DiceNeeded as e:
        if side is not None and typed_dice is not None and (continuing or (e.side or side) != side):
            raise handover.hand_over(session, game, action, facts.model_dump(mode="json"), list(typed_dice),
                                     list(typists or [side] * len(typed_dice)), e, side) from None
        raise NeedDice(e, list(typed_dice or [])) from None
    except NotYourDice as e:
        raise handover.NotYourDice(f"The dice for {e.purpose} are for {handover.side_name(game.state, e.owner)} to roll, not "
                                   f"{handover.side_name(game.state, e.typist)}: type only your own side's dice. Nothing was changed.") from None
    except BadDice as e:
        raise BadInput(str(e)) from None
    except RuleError as e:  # the facts cannot happen under the rules; anything else is a bug
        raise BadInput(str(e)) from None
    changes, new_state, source_name = settle(game.state, result, spec, dice, typed_dice, source_name, "game")
    if changed is not None:  # nor if it would change what another tablet changed since
        _refuse_if(game, current, clash(game, touched(new_state, [(c.path, c.before, c.after) for c in changes],
                                                      system_for(game.system).links), changed))
    if redo_open:
        discard_redo(session, LogEntry, LogEntry.game_id, game.id)
    before = game.state
    version = _commit_state(session, game, current, new_state)
    if side is not None:
        handover.drop(session, game.id)  # the game moved on: a roll still waiting is cancelled with it
    if campaign_links.MARK in new_state:  # what reached the other tables, said in this entry too
        reached = _linked(campaign_links.follow, session, game, seq, action, before, new_state, changes,
                          _commit_state, _record)
        if reached:
            result = replace(result, notes=(*result.notes, *reached))
    entry = _record(session, game_id=game.id, seq=seq, action=action, label=spec.label,
                    facts=facts.model_dump(mode="json"), dice=[d.to_dict() for d in dice.history],
                    dice_source=source_name, result=result.to_dict(),
                    changes=[c.to_dict() for c in changes], version_after=version,
                    actor=getattr(actor, "role", ""), token=token or None)
    session.commit()
    return Performed(game, entry, result)


def _linked(step, session: Session, *args):
    """One of the campaign links' steps (``campaign_links.py``); its refusal changes nothing."""
    try:
        return step(session, *args)
    except (RuleError, StateConflict) as e:
        session.rollback()
        raise BadInput(str(e)) from None


_INSERT_ENTRY = insert(LogEntry.__table__)


def _record(session: Session, **values) -> LogEntry:
    """Add a log entry by one INSERT and give it back as it was written. The ORM's way (build
    the model, add it, flush) cost some 0.7 ms of a tap's 6, against 0.3 ms for the INSERT; the
    entry handed back is for reading (the result panel, the caller): it is not in the session,
    and a later query reads it from the table like any other."""
    values = {"undone": False, "discarded": False, "stepped": 0, "step_token": None, "created": now(), **values}
    written = session.connection().execute(_INSERT_ENTRY, values)
    return LogEntry.model_construct(id=written.inserted_primary_key[0], **values)


def _active_entries(session: Session, game_id: int):
    return select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.undone == False,  # noqa: E712
                                  LogEntry.discarded == False)  # noqa: E712


def undo(session: Session, game_id: int, seen_version: int, actor=None, token: str | None = None) -> LogEntry:
    """Take back the newest action still in force (``actor`` as for :func:`perform`; ``token``:
    the tap's, kept with the entry, see ``concurrent.first_step``); what it did at a linked table
    is taken back in the same transaction, or the undo is refused."""
    with turn_of(Game, game_id), campaign_links.turn_for(session, game_id):
        game = _current_game(session, game_id, seen_version)
        entry = session.exec(_active_entries(session, game_id).order_by(LogEntry.seq.desc()).limit(1)).first()
        if entry is None:
            raise BadInput("There is nothing to undo.")
        if actor is not None:
            actor.check_step(game, entry, "undo")
        if campaign_links.MARK in game.state:
            _linked(campaign_links.before_undo, session, game, entry, _commit_state)
        new_state = revert_changes(game.state, [Change.from_dict(c) for c in entry.changes])
        entry.stepped, entry.step_token = _commit_state(session, game, seen_version, new_state), token or None
        entry.undone = True
        session.add(entry)
        session.commit()
        return entry


def redo(session: Session, game_id: int, seen_version: int, actor=None, token: str | None = None) -> LogEntry:
    """Put back the oldest undone action, as long as no new action came after the undo
    (``actor`` and ``token`` as for :func:`undo`); what it does at a linked table follows as it did
    the first time."""
    with turn_of(Game, game_id), campaign_links.turn_for(session, game_id):
        game = _current_game(session, game_id, seen_version)
        entry = session.exec(select(LogEntry).where(LogEntry.game_id == game_id, LogEntry.undone == True,  # noqa: E712
                                                    LogEntry.discarded == False)  # noqa: E712
                             .order_by(LogEntry.seq.asc()).limit(1)).first()
        if entry is None:
            raise BadInput("There is nothing to redo.")
        if actor is not None:
            actor.check_step(game, entry, "redo")
        try:
            new_state = apply_changes(game.state, [Change.from_dict(c) for c in entry.changes])
        except StateConflict as e:
            raise BadInput(f"That action no longer fits the game ({e}).") from None
        before = game.state
        entry.stepped, entry.step_token = _commit_state(session, game, seen_version, new_state), token or None
        entry.undone = False
        session.add(entry)
        if campaign_links.MARK in new_state:
            _linked(campaign_links.follow, session, game, entry.seq, entry.action, before, new_state,
                    [Change.from_dict(c) for c in entry.changes], _commit_state, _record)
        session.commit()
        return entry


# The two writes a campaign's link makes at a linked table, inside the transaction of the step that
# makes it (``campaign_day.py``, ``campaign_links.py``): a versioned row, and a log entry.
commit_state = _commit_state
record_entry = _record
