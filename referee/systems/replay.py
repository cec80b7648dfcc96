"""Replaying a game from its document and log alone.

A game's state at the start is its state now with every action still in force taken back
(newest first). Replaying re-resolves each of those actions, in order, with the very dice the
log recorded, through the game's own contract. A game that replays to the state it holds proves
that the engine read nothing but the document: no data file, no clock, no chance.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..core.dice import ScriptedDice
from ..core.docstate import apply_changes, revert_changes
from ..core.results import Change
from . import system_for


def initial_state(state: dict, entries: Iterable[Mapping[str, Any]]) -> dict:
    """The state before the first of ``entries`` (the actions in force, oldest first)."""
    changes = [Change.from_dict(c) for e in entries for c in e["changes"]]
    return revert_changes(state, changes)


def replay(system: str, initial: dict, entries: Iterable[Mapping[str, Any]]) -> dict:
    """The state after re-resolving every entry (action, facts, dice) from ``initial``."""
    game = system_for(system)
    state = initial
    for e in entries:
        spec = game.action(e["action"])
        facts = spec.facts.model_validate(e["facts"])
        dice = ScriptedDice([d["value"] for d in e["dice"]])
        result = game.resolve(state, e["action"], facts, dice)
        state = apply_changes(state, result.all_changes)
    return state
