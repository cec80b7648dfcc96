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
- ``resolve(state, action, facts, dice)``: the action's :class:`~referee.results.Result`, whose
  changes were built with the one change builder, :class:`referee.changes.ChangeBuilder`.

And it says how its pieces name each other (``links``: a unit its brigade, a combat its units), so
the table can tell whether two tablets acting at once touch the same things (``referee.footprint``).

Engines raise :class:`referee.errors.RuleError` when the rules refuse; anything else is a bug.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

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


@runtime_checkable
class Game(Protocol):
    """What a game system offers the rest of Referee."""

    name: str
    label: str
    actions: Mapping[str, ActionSpec]
    settings_cls: type
    links: Mapping[str, Mapping[str, str]]

    def new_game(self, setup: Any) -> dict: ...

    def offers(self, state: dict, piece: str) -> list[Offer]: ...

    def odds(self, state: dict, action: str, facts: Facts) -> list[str]: ...

    def resolve(self, state: dict, action: str, facts: Facts, dice: DiceSource) -> Result: ...


@dataclass(frozen=True)
class GameRules:
    """The ordinary way to implement :class:`Game`: each game's package builds one of these from
    its explicit catalogue and its own ``new_game`` and ``offers``."""

    name: str
    label: str
    catalogue: tuple[ActionSpec, ...]
    settings_cls: type
    build: Callable[[Any], dict]
    offers_for: Callable[[dict, str], list[Offer]]
    # collection -> {field: the collection of the piece it names} (``referee.footprint``).
    links: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # The Foe, Referee playing one side (``referee.foe``): its next question or decision for the
    # document and the answers so far. None: this game has no Foe.
    foe: Callable[[dict, dict], Any] | None = None

    @property
    def actions(self) -> Mapping[str, ActionSpec]:
        return {spec.name: spec for spec in self.catalogue}

    def action(self, name: str) -> ActionSpec:
        for spec in self.catalogue:
            if spec.name == name:
                return spec
        raise KeyError(f"{self.label} has no action “{name}”.")

    def new_game(self, setup: Any) -> dict:
        return self.build(setup)

    def offers(self, state: dict, piece: str) -> list[Offer]:
        return self.offers_for(state, piece)

    def odds(self, state: dict, action: str, facts: Facts) -> list[str]:
        spec = self.action(action)
        return spec.odds(state, facts) if spec.odds else []

    def resolve(self, state: dict, action: str, facts: Facts, dice: DiceSource) -> Result:
        return self.action(action).resolve(state, facts, dice)


__all__ = ["ActionSpec", "Facts", "Game", "GameRules", "Offer", "RuleError"]
