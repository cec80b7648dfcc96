"""The contract every game Referee serves implements, and the only way the rest of the app
meets a game's rules.

A game (``referee.blackpowder.GAME``, ``referee.oilandiron.GAME``) answers five questions:

- ``new_game(setup)``: the state document for a new game, built from a validated setup (forces
  from a scenario, typed in, or from saved lists: each caller turns its source into the game's
  setup model first). The document holds everything the engine reads during play, so a game
  replays from its document and log alone, whatever the data files say later.
- ``actions``: the catalogue, an explicit mapping of action name to :class:`ActionSpec`, written
  out in the game's package (no registration by import).
- ``offers(state, piece)``: what that unit or Rig may do now, each with the reason when it may
  not, so the tablet draws buttons without knowing a rule.
- ``odds(state, action, facts)``: exact chances before anything is rolled.
- ``resolve(state, action, facts, dice)``: the action's :class:`~referee.core.results.Result`, whose
  changes were built with the one change builder, :class:`referee.core.changes.ChangeBuilder`.

It names itself (``name``, ``label``, taken from its package's ``name.py``, the only place a game's
name is written), says what its pieces are called (``pieces``: "units", "Rigs") and how its
board shows a state (``board``, a :class:`referee.core.board.BoardView` built beside the engine).
And it says how its pieces name each other (``links``: a unit its brigade, a combat its units), so
the table can tell whether two tablets acting at once touch the same things (``referee.core.footprint``).

Engines raise :class:`referee.core.errors.RuleError` when the rules refuse; anything else is a bug.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from pydantic import BaseModel, ConfigDict

from . import footprint
from .board import BoardView
from .dice import DiceSource
from .errors import RuleError
from .results import Result


class Facts(BaseModel):
    """Base for every action's facts: unknown fields are refused, so a typo is a clear error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class ActionSpec:
    """One action: its name, the words on its button, the facts it asks, how it resolves and
    (for actions that roll) its exact odds."""

    name: str
    label: str
    facts: type[Facts]
    resolve: Callable[[dict, Facts, DiceSource], Result]
    odds: Callable[[dict, Facts], list[str]] | None = None
    rolls_dice: bool = True
    # Who may take it at a club table, when its facts do not say (``referee.table.roles``): ""
    # reads the facts; "umpire": the umpire alone; "foe": Referee's own turn, the umpire's or the
    # lone player's who plays against the side Referee plays.
    acts_for: str = ""


@dataclass(frozen=True)
class Offer:
    """One thing a unit or Rig may do now (or may not, and why).

    ``kind``: "form" opens the action's form with ``facts`` filled in; "post" acts at once with
    ``facts``. ``now``: the usual thing to do in this phase (drawn first, highlighted).
    ``reason``: when set, the action is not open to this piece now, and this says why.
    """

    action: str
    label: str
    kind: str = "form"
    facts: Mapping[str, Any] = field(default_factory=dict)
    now: bool = False
    reason: str | None = None

    @property
    def allowed(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class Owed:
    """Something the rules require in this phase that is still undone (a combat that has not
    fought its round, a break test the hits forced, a Heat Threshold roll): what it is, in the
    players' words, and the action that does it, drawn as a button (``kind`` as for an
    :class:`Offer`). ``may_leave``: the phase may be left without it by a deliberate second
    choice, which the log records; False when the rules cannot go on without it."""

    text: str
    action: str
    label: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "form"
    may_leave: bool = True


@runtime_checkable
class Game(Protocol):
    """What a game system offers the rest of Referee."""

    name: str
    label: str
    pieces: str
    actions: Mapping[str, ActionSpec]
    settings_cls: type
    links: Mapping[str, Mapping[str, str]]
    likely_reads: int

    def new_game(self, setup: Any) -> dict: ...

    def offers(self, state: dict, piece: str) -> list[Offer]: ...

    def odds(self, state: dict, action: str, facts: Facts) -> list[str]: ...

    def resolve(self, state: dict, action: str, facts: Facts, dice: DiceSource) -> Result: ...

    def reads(self, state: dict, action: str, facts: Mapping[str, Any]) -> set: ...

    # A pick list's likely picks (None: not ranked), read from ``likely_reads`` recent actions.
    def likely(self, state: dict, action: str, field_name: str, facts: Mapping[str, Any],
               recent: Sequence[tuple[str, Mapping[str, Any]]]) -> list[str] | None: ...


@dataclass(frozen=True)
class Catalogue:
    """An explicit catalogue of actions, written out as one tuple in its package (no registration
    by import): a game's actions (:class:`GameRules`) and a campaign kind's steps
    (``referee.campaigns.CampaignKind``) are both one. The table's one write path
    (``referee.table.write_path``) asks it for an action by name, its odds and its result."""

    name: str
    label: str
    catalogue: tuple[ActionSpec, ...]

    @property
    def actions(self) -> Mapping[str, ActionSpec]:
        return {spec.name: spec for spec in self.catalogue}

    def action(self, name: str) -> ActionSpec:
        for spec in self.catalogue:
            if spec.name == name:
                return spec
        raise KeyError(self.missing(name))

    def missing(self, name: str) -> str:
        """What to say of a name the catalogue lacks."""
        return f"{self.label} has no action “{name}”."

    def odds(self, state: dict, action: str, facts: Facts) -> list[str]:
        spec = self.action(action)
        return spec.odds(state, facts) if spec.odds else []

    def resolve(self, state: dict, action: str, facts: Facts, dice: DiceSource) -> Result:
        return self.action(action).resolve(state, facts, dice)


@dataclass(frozen=True)
class GameRules(Catalogue):
    """The ordinary way to implement :class:`Game`: each game's package builds one of these from
    its explicit catalogue and its own ``new_game`` and ``offers``."""

    settings_cls: type
    build: Callable[[Any], dict]
    offers_for: Callable[[dict, str], list[Offer]]
    # What a sentence calls the game's pieces, the things a side acts with ("units", "Rigs").
    pieces: str
    # collection -> {field: the collection of the piece it names} (``referee.core.footprint``).
    links: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # The Foe, Referee playing one side (``referee.core.foe``): its next question or decision for the
    # document and the answers so far. None: this game has no Foe.
    foe: Callable[[dict, dict], Any] | None = None
    # The ids of the pieces an action reads that its facts do not name (the active Rig an "End
    # activation" ends, the whole board a round's score weighs). None: its facts name all it reads.
    also_reads: Callable[[dict, str, Mapping[str, Any]], list[str]] | None = None
    # The likely picks of a form's long pick list, likeliest first, from the document, the action,
    # the field, the facts chosen so far and the game's recent actions ((action, facts), newest
    # first): ``likely``. None: this game ranks no pick list.
    likely_for: Callable[[dict, str, str, Mapping[str, Any], Sequence[tuple[str, Mapping[str, Any]]]],
                         list[str] | None] | None = None
    # How many of the game's recent actions ``likely_for`` reads.
    likely_reads: int = 0
    # How the board shows a game of this system (``referee.core.board``): pure code beside the engine,
    # so the web layer draws a game without importing its engine. None: the shared skeleton only.
    board: BoardView | None = None
    # What the rules still require in the phase the document is in (``Owed``), and the actions that
    # leave the phase ("Next phase", "End the round"): the table refuses those while something is
    # owed, unless their facts say ``leave_undone`` and everything owed ``may_leave``.
    owed_for: Callable[[dict], list[Owed]] | None = None
    moves_on: tuple[str, ...] = ()

    def new_game(self, setup: Any) -> dict:
        return self.build(setup)

    def offers(self, state: dict, piece: str) -> list[Offer]:
        return self.offers_for(state, piece)

    def reads(self, state: dict, action: str, facts: Mapping[str, Any]) -> set:
        """What ``action`` with these facts (as JSON) reads (``referee.core.footprint.reads``): the
        moment, the pieces its facts name, those the game says it reads besides, and their reach."""
        extra = self.also_reads(state, action, facts) if self.also_reads else []
        return footprint.reads(state, {**facts, "_also_read": extra} if extra else facts, self.links)

    def likely(self, state: dict, action: str, field_name: str, facts: Mapping[str, Any],
               recent: Sequence[tuple[str, Mapping[str, Any]]]) -> list[str] | None:
        """The likely picks of a pick list (``likely_for``), or None when the rules rank none."""
        return self.likely_for(state, action, field_name, facts, recent) if self.likely_for else None

    def owed(self, state: dict) -> list[Owed]:
        """What the rules still require in this phase (``owed_for``); [] when nothing is."""
        return self.owed_for(state) if self.owed_for else []

    def owed_before(self, state: dict, action: str, facts: Any) -> list[Owed]:
        """What stands in the way of ``action`` leaving the phase: everything owed, unless its facts
        say ``leave_undone`` (then only what may not be left). [] for any other action."""
        if action not in self.moves_on:
            return []
        owed = self.owed(state)
        if getattr(facts, "leave_undone", False):
            return [o for o in owed if not o.may_leave]
        return owed


__all__ = ["ActionSpec", "Catalogue", "Facts", "Game", "GameRules", "Offer", "Owed", "RuleError"]
