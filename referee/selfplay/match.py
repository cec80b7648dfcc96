"""One game the Foe plays against itself, through the game's own contract: every step is one of
the game's actions, resolved with seeded dice and kept as the table keeps its log (action, facts,
dice, changes), so the game can be replayed and undone as any game at a club can.

Both sides are the Foe's, each declared before the first turn with its own difficulty and seed
(``foe_settings`` keeps each side's declaration); the side that must decide is handed the Foe
with ``foe_settings`` again, a logged step like any other. The questions the Foe asks are
answered by a simulated table (``blackpowder_table``, ``oilandiron_table``).
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

from ..core.contract import GameRules
from ..core.dice import SeededDice
from ..core.docstate import apply_changes, revert_changes
from ..core.errors import RuleError
from ..core.foe import Decision, Question
from ..core.results import Change, Result
from ..systems.replay import replay

# Most questions one decision may ask before the table gives up on it (a Foe asking forever).
MOST_QUESTIONS = 40

Step = Callable[[dict, dict], "Question | Decision | None"]
Answer = Callable[[dict, Question, dict], str]


@dataclass
class Outcome:
    """What one self-played game came to, and what went wrong in it."""

    game: str
    scenario: str
    seed: int
    difficulty: dict[str, str]  # side -> difficulty
    names: dict[str, str] = field(default_factory=dict)  # side -> the side's name
    winner: str | None = None  # a side's key, "draw", or None when it never ended
    turns: int = 0
    losses: dict[str, int] = field(default_factory=dict)  # side -> units or Rigs lost
    steps: int = 0
    questions: int = 0
    refused: list[str] = field(default_factory=list)
    fallbacks: int = 0  # the Foe's own first choice refused on its trial, so it held instead
    unanswered: int = 0  # questions the simulated table could not answer ("can't tell")
    exceptions: list[str] = field(default_factory=list)
    invariant_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def finished(self) -> bool:
        return self.winner is not None and not self.exceptions

    def to_dict(self) -> dict:
        return {"game": self.game, "scenario": self.scenario, "seed": self.seed, "difficulty": self.difficulty,
                "winner": self.winner, "turns": self.turns, "losses": self.losses, "steps": self.steps,
                "questions": self.questions, "refused": self.refused, "fallbacks": self.fallbacks,
                "unanswered": self.unanswered, "exceptions": self.exceptions,
                "invariant_failures": self.invariant_failures, "seconds": round(self.seconds, 3)}


class Match:
    """A game in progress: its document, its first document and its log."""

    def __init__(self, game: GameRules, doc: dict, seed: int, outcome: Outcome):
        self.game, self.doc, self.first, self.seed = game, doc, doc, seed
        self.log: list[dict] = []
        self.outcome = outcome
        self.started = time.process_time()  # this process's own time: one core, however busy the machine

    def act(self, action: str, facts: dict) -> Result:
        """One of the game's actions on the document, logged with its dice; a refusal raises."""
        spec = self.game.action(action)
        dice = SeededDice(f"{self.seed}:{len(self.log)}")
        checked = spec.facts.model_validate(facts)
        result = self.game.resolve(self.doc, action, checked, dice)
        self.doc = apply_changes(self.doc, result.all_changes)
        self.log.append({"action": action, "facts": checked.model_dump(), "dice": [{"value": d.value} for d in
                                                                                   dice.history],
                         "changes": [c.to_dict() for c in result.all_changes]})
        self.outcome.steps += 1
        return result

    def hand_to(self, side: str) -> None:
        """The Foe takes up ``side`` (as declared before the game) if it is not playing it now."""
        foe = self.doc.get("foe") or {}
        if foe.get("side") != side:
            self.act("foe_settings", {"side": side, **(foe.get("declared") or {})[side]})

    def ask(self, step: Step, doc: dict, answer: Answer) -> tuple[Question | Decision | None, dict]:
        """The Foe's step on ``doc``, every question answered by the table."""
        answers: dict[str, str] = {}
        found = step(doc, answers)
        while isinstance(found, Question):
            if len(answers) >= MOST_QUESTIONS:
                raise RuntimeError(f"The Foe asked more than {MOST_QUESTIONS} questions for one decision.")
            value = answer(doc, found, answers)
            self.outcome.questions += 1
            self.outcome.unanswered += value == "cant_tell"
            answers[found.key] = value
            found = step(doc, answers)
        return found, answers

    def decide(self, decision: Decision, answers: dict) -> Result | None:
        """The Foe's decision taken through ``foe_decide``; a refusal is counted and the Foe
        overruled there (logged), so the game goes on."""
        if decision.rule.startswith("Its first choice was refused"):
            self.outcome.fallbacks += 1
        try:
            return self.act("foe_decide", {"answers": answers})
        except RuleError as refused:
            self.outcome.refused.append(f"turn {self.doc.get('turn', self.doc.get('round'))}: "
                                        f"{decision.name} — {decision.rung}: {refused}")
            self.act("foe_overrule", {"answers": answers, "reason": "refused by the rules in a self-played game"})
            return None

    # --- what every game must keep -------------------------------------------------------------

    def check_log(self) -> list[str]:
        """The log replays to the document, and undoing every entry gives the first document."""
        failures = []
        if replay(self.game.name, self.first, self.log) != self.doc:
            failures.append("the log does not replay to the same document")
        changes = [c for e in self.log for c in (result_changes(e))]
        if revert_changes(self.doc, changes) != self.first:
            failures.append("undoing every entry does not give the starting document")
        return failures

    def finish(self) -> Outcome:
        self.outcome.seconds = time.process_time() - self.started
        return self.outcome


def play_through(match: Match, play: Callable, difficulty: dict[str, str], check: bool) -> None:
    """Play a whole game with ``play``; an exception (a bug in an engine) is counted on the
    outcome with where it came from, and the run goes on."""
    try:
        play(match, difficulty, check)
    except Exception as exc:  # noqa: BLE001 — a bug in an engine: counted, the run goes on
        match.outcome.exceptions.append(f"{type(exc).__name__}: {exc} | " +
                                        " < ".join(f"{f.name}:{f.lineno}" for f in
                                                   reversed(traceback.extract_tb(exc.__traceback__)[-4:])))


def result_changes(entry: dict) -> list[Change]:
    return [Change.from_dict(c) for c in entry["changes"]]


def with_side(doc: dict, side: str) -> dict:
    """The document as it would be with the Foe playing ``side`` (as declared): the Foe is asked
    on it whether that side has anything to decide before it is handed the side."""
    foe = doc.get("foe") or {}
    return {**doc, "foe": {**foe, "side": side, **(foe.get("declared") or {}).get(side, {})}}
