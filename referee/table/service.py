"""Every change to a game, on the one write path (``write_path.py``) a campaign's changes take too.

``perform`` loads the game, refuses a stale version, validates the facts, calls the engine with
a dice source, applies the result's changes and appends the log entry, all in one transaction.
``undo`` and ``redo`` walk the log. Nothing else writes a game's state. What a game adds to the
plain path is its :class:`Games` kind: a tap from a screen behind the game, seated sides' dice,
a tap's token, and a campaign's links to other tables.
"""
from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session

from ..core.dice import DiceNeeded, DiceSource, ScriptedDice
from ..core.docstate import StateConflict
from ..core.errors import RuleError
from ..core.footprint import touched
from ..core.results import Change, Result
from ..systems import system_for
from . import campaign_links, handover, write_path
from .concurrent import changed_since, clash, first_result
from .errors import BadInput, NeedChoice, NeedDice, NotFound, StaleVersion, StillOwed, TableError  # noqa: F401  (callers catch service.BadInput ...)
from .games import get_game
from .models import Game, LogEntry, now
from .write_lock import turn_of
from .write_path import DocumentKind, Write, commit_state, odds_of, parse_facts_of


@dataclass
class Performed:
    game: Game
    entry: LogEntry
    result: Result | None
    # The tap's token was applied before (its answer lost on the way): ``entry`` is its first
    # result, nothing was resolved or rolled again, and ``result`` is None.
    replayed: bool = False


def create_game(session: Session, name: str, system: str, state: dict, owner: str = "",
                seed: int | None = None, commit: bool = True) -> Game:
    """A new game at version 1. ``commit=False`` leaves it in the caller's transaction (flushed, so
    it has its number): a game started from a form lands with its umpire's seat, or not at all."""
    system_for(system)  # refuses an unknown game system
    state = dict(state)
    state.setdefault("dice_mode", "app")
    game = Game(name=name, system=system, state=state, version=1, owner=owner,
                seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31))
    session.add(game)
    if not commit:
        session.flush()
        return game
    session.commit()
    session.refresh(game)
    return game


def parse_facts(system: str, action: str, raw: dict[str, Any]):
    return parse_facts_of(system_for(system), action, raw)


def odds(session: Session, game_id: int, action: str, raw: dict[str, Any]) -> list[str]:
    """Exact chances for an action before anything is rolled (empty when it rolls nothing)."""
    game = get_game(session, game_id)
    return odds_of(system_for(game.system), game.state, action, raw)


def _seated_side(game: Game, actor) -> str | None:
    """The side a seated player acts for (None: the umpire, a spectator, the one trusted tablet)."""
    role = getattr(actor, "role", None)
    return role if role and role in (game.state.get("sides") or game.state.get("players") or {}) else None


def _linked(step, session: Session, *args):
    """One of the campaign links' steps (``campaign_links.py``); its refusal changes nothing."""
    try:
        return step(session, *args)
    except (RuleError, StateConflict) as e:
        session.rollback()
        raise BadInput(str(e)) from None


_INSERT_ENTRY = insert(LogEntry.__table__)


def record_entry(session: Session, **values) -> LogEntry:
    """Add a log entry by one INSERT and give it back as it was written. The ORM's way (build
    the model, add it, flush) cost some 0.7 ms of a tap's 6, against 0.3 ms for the INSERT; the
    entry handed back is for reading (the result panel, the caller): it is not in the session,
    and a later query reads it from the table like any other."""
    values = {"undone": False, "discarded": False, "stepped": 0, "step_token": None, "created": now(), **values}
    written = session.connection().execute(_INSERT_ENTRY, values)
    return LogEntry.model_construct(id=written.inserted_primary_key[0], **values)


class Games(DocumentKind):
    """A game on the one write path (``write_path.py``): what a game adds to the plain path."""

    row, entry, owner, what = Game, LogEntry, "game_id", "game"

    def load(self, session: Session, game_id: int) -> Game:
        return get_game(session, game_id)

    def catalogue(self, game: Game):
        return system_for(game.system)

    def parse(self, game: Game, action: str, raw: dict[str, Any]):
        return parse_facts(game.system, action, raw)

    @contextmanager
    def turn(self, session: Session, game_id: int):
        # The game's turn, then (a game a campaign links to other tables) the campaign's.
        with turn_of(Game, game_id), campaign_links.turn_for(session, game_id):
            yield

    def replayed(self, session: Session, game_id: int, options: dict):
        token = options.get("token")
        first = first_result(session, game_id, token) if token else None
        return None if first is None else Performed(get_game(session, game_id), first, None, replayed=True)

    def admit(self, w: Write) -> None:
        # A tablet behind the game may still land (``check``), never one ahead of it.
        if not 0 < w.seen <= w.current:
            raise StaleVersion(w.current)

    def check(self, w: Write) -> None:
        game, actor = w.doc, w.options.get("actor")
        if w.seen != w.current:  # another tablet wrote since this screen: refused if it touched what this reads
            w.scratch["changed"] = changed = changed_since(w.session, game, w.seen, w.current)
            _refuse_if(w.current, clash(game, system_for(game.system).reads(game.state, w.action,
                                                                              w.facts.model_dump(mode="json")), changed))
        if actor is not None:
            actor.check_action(game, w.action, w.facts)
        rules = system_for(game.system)
        owed = rules.owed_before(game.state, w.action, w.facts)
        if owed:  # the phase is left only once what it asks is done, or by a second, deliberate tap
            raise StillOwed(w.spec.label, owed, may_leave=all(o.may_leave for o in rules.owed(game.state)))
        if campaign_links.MARK in game.state:
            _linked(campaign_links.check, w.session, game, w.action)
        w.scratch["side"] = _seated_side(game, actor)
        w.scratch["typists"] = w.options.get("typists")

    def choose_dice(self, w: Write) -> None:
        super().choose_dice(w)
        side, typed = w.scratch["side"], w.typed_dice
        if typed is not None and side is not None:
            typists = w.scratch["typists"]
            w.scratch["typists"] = typists = list(typists) if typists is not None else [side] * len(typed)
            w.dice = ScriptedDice(typed, typists, acting=side)

    def dice_needed(self, w: Write, e: DiceNeeded) -> TableError:
        side, typed = w.scratch["side"], w.typed_dice
        if side is not None and typed is not None and (w.options.get("continuing") or (e.side or side) != side):
            return handover.hand_over(w.session, w.doc, w.action, w.facts.model_dump(mode="json"), list(typed),
                                      list(w.scratch["typists"] or [side] * len(typed)), e, side)
        return super().dice_needed(w, e)

    def not_your_dice(self, w: Write, e) -> TableError:
        state = w.doc.state
        return handover.NotYourDice(f"The dice for {e.purpose} are for {handover.side_name(state, e.owner)} to roll, not "
                                    f"{handover.side_name(state, e.typist)}: type only your own side's dice. Nothing was changed.")

    def landed(self, w: Write) -> None:
        changed = w.scratch.get("changed")
        if changed is not None:  # nor if it would change what another tablet changed since
            _refuse_if(w.current, clash(w.doc, touched(w.new_state, [(c.path, c.before, c.after) for c in w.changes],
                                                       system_for(w.doc.system).links), changed))

    def written(self, w: Write) -> None:
        if w.scratch["side"] is not None:
            handover.drop(w.session, w.doc.id)  # the game moved on: a roll still waiting is cancelled with it
        if campaign_links.MARK in w.new_state:  # what reached the other tables, said in this entry too
            reached = _linked(campaign_links.follow, w.session, w.doc, w.seq, w.action, w.before, w.new_state,
                              w.changes, commit_state, record_entry)
            if reached:
                w.result = replace(w.result, notes=(*w.result.notes, *reached))

    def record(self, w: Write) -> LogEntry:
        return record_entry(w.session, game_id=w.doc.id, seq=w.seq, action=w.action, label=w.spec.label,
                            facts=w.facts.model_dump(mode="json"), dice=[d.to_dict() for d in w.dice.history],
                            dice_source=w.source_name, result=w.result.to_dict(),
                            changes=[c.to_dict() for c in w.changes], version_after=w.version,
                            actor=getattr(w.options.get("actor"), "role", ""), token=w.options.get("token") or None)

    def answer(self, w: Write, entry: LogEntry) -> Performed:
        return Performed(w.doc, entry, w.result)

    def before_step(self, session: Session, game: Game, entries: list, how: str, options: dict) -> None:
        actor = options.get("actor")
        if actor is not None:
            actor.check_step(game, entries[0], how)
        if how == "undo" and campaign_links.MARK in game.state:
            _linked(campaign_links.before_undo, session, game, entries[0], commit_state)

    def stepped(self, entry: LogEntry, version: int, options: dict) -> None:
        entry.stepped, entry.step_token = version, options.get("token") or None

    def after_step(self, session: Session, game: Game, before: dict, entries: list, how: str) -> None:
        if how == "redo" and campaign_links.MARK in game.state:
            entry = entries[0]
            _linked(campaign_links.follow, session, game, entry.seq, entry.action, before, game.state,
                    [Change.from_dict(c) for c in entry.changes], commit_state, record_entry)


GAMES = Games()


def _refuse_if(current: int, what: str | None) -> None:
    if what is not None:
        raise StaleVersion(current, what)


def perform(session: Session, game_id: int, seen_version: int, action: str, raw_facts: dict[str, Any],
            typed_dice: list[int] | None = None, dice: DiceSource | None = None, actor=None,
            typists: list[str | None] | None = None, continuing: bool = False,
            token: str | None = None) -> Performed:
    """Resolve one action and record it, on the one write path (``write_path.perform``).
    ``typed_dice`` (players' own dice) or ``dice`` (a source, for tests and replays) replace the
    app's seeded roll. ``actor`` (a ``referee.table.roles.Actor``) is who acts at a club's table;
    its role is checked before anything is resolved, and a refusal changes nothing. None is the
    one trusted tablet.

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
    return write_path.perform(GAMES, session, game_id, seen_version, action, raw_facts, typed_dice, dice,
                              actor=actor, typists=typists, continuing=continuing, token=token)


def undo(session: Session, game_id: int, seen_version: int, actor=None, token: str | None = None) -> LogEntry:
    """Take back the newest action still in force (``actor`` as for :func:`perform`; ``token``:
    the tap's, kept with the entry, see ``concurrent.first_step``); what it did at a linked table
    is taken back in the same transaction, or the undo is refused."""
    return write_path.undo(GAMES, session, game_id, seen_version, actor=actor, token=token)[0]


def redo(session: Session, game_id: int, seen_version: int, actor=None, token: str | None = None) -> LogEntry:
    """Put back the oldest undone action, as long as no new action came after the undo
    (``actor`` and ``token`` as for :func:`undo`); what it does at a linked table follows as it did
    the first time."""
    return write_path.redo(GAMES, session, game_id, seen_version, actor=actor, token=token)
