"""The catalogue of actions a game system offers, shared by both games.

An action is a name, a pydantic model for its facts (what the players tell the app), a pure
``resolve(state_doc, facts, dice) -> Result`` and, for actions that roll, an ``odds(state_doc,
facts) -> list[str]`` that gives exact chances from the same dice plan. The table service looks
actions up here; nothing in this module knows about Flask or the database.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .contract import ActionSpec, Facts


@dataclass
class GameSystem:
    """One game (Black Powder Epic, Of Oil and Iron): its actions and how to read its state."""

    name: str
    label: str
    actions: dict[str, ActionSpec] = field(default_factory=dict)

    def add(self, spec: ActionSpec) -> ActionSpec:
        self.actions[spec.name] = spec
        return spec

    def action(self, name: str) -> ActionSpec:
        try:
            return self.actions[name]
        except KeyError:
            raise KeyError(f"{self.label} has no action “{name}”.") from None
