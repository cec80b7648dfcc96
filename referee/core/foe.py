"""The Foe: Referee commanding one side of a game for a player who has no opponent. What both
games' Foes share, pure like the engines (no Flask, no database, no ``random``).

The Foe never sees the table, so it asks. Its questions are only about geometry (what the game
already holds it reads from the document): a pick from a short list, a yes or no, or a distance
band; every question also offers "can't tell", which costs the Foe one rung of its ladder.

A game's Foe is a function ``step(doc, answers) -> Question | Decision | None``: the next thing
it must be told, or what it has decided (the questions it asked with the answers, the candidates
it weighed, the rung of its ladder it took and the rule or odds behind it, the orders in words
a tape measure can carry out, and the actions it takes through the game's own catalogue), or
None when it has nothing to do now. The same document and answers always give the same step.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .errors import RuleError

CANT_TELL = "cant_tell"
CANT_TELL_LABEL = "Can't tell"

# The distance bands, nearest first: 6" steps to 24", then a step at each longer weapon's reach
# (36" horse guns, 48" foot guns, 60" rockets), up to the longest reach the question is about;
# "beyond" is past that reach and "none" is "none seen".
BAND_STEPS = (6, 12, 18, 24, 36, 48)
BEYOND = 99  # what "beyond" counts as: past every band offered


def bands_to(longest: int = 24) -> tuple[tuple[str, str], ...]:
    """The bands for a question about something up to ``longest`` inches away (never short of 24")."""
    reach = max(24, int(longest))
    steps = [s for s in BAND_STEPS if s < reach] + [reach]
    return tuple((str(s), f"Within {s}\"") for s in steps) + (("beyond", f"Beyond {reach}\""),
                                                               ("none", "None seen"))


BANDS = bands_to(24)


def band_inches(answer: str) -> int | None:
    """The inches a band answer stands for (its far edge; "beyond" is :data:`BEYOND`), or None
    when nothing was seen or the player could not tell."""
    if answer.isdigit():
        return int(answer)
    return BEYOND if answer == "beyond" else None

DIFFICULTIES = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}
TIE_RULES = {"player": "The player decides ties", "against": "Ties go against the player",
             "draw": "Ties are drawn by lot (seeded)"}


@dataclass(frozen=True)
class Question:
    """One thing the Foe must be told. ``options`` are (value, label) pairs and always end with
    "can't tell"."""

    key: str
    text: str
    kind: str  # "pick" | "yes_no" | "band"
    options: tuple[tuple[str, str], ...]

    def label_of(self, value: str) -> str:
        return dict(self.options).get(value, value)

    def to_dict(self) -> dict:
        return {"key": self.key, "text": self.text, "kind": self.kind, "options": [list(o) for o in self.options]}


def pick(key: str, text: str, options: Sequence[tuple[str, str]]) -> Question:
    return Question(key, text, "pick", tuple(options) + ((CANT_TELL, CANT_TELL_LABEL),))


def yes_no(key: str, text: str) -> Question:
    return Question(key, text, "yes_no", (("yes", "Yes"), ("no", "No"), (CANT_TELL, CANT_TELL_LABEL)))


def band(key: str, text: str, longest: int = 24) -> Question:
    """A distance band question whose bands reach ``longest`` inches (the longest weapon the
    answer is for: a 48" battery is asked up to 48", not stopped at 24")."""
    return Question(key, text, "band", bands_to(longest) + ((CANT_TELL, CANT_TELL_LABEL),))


@dataclass(frozen=True)
class Planned:
    """An action the Foe takes through the game's catalogue. ``when``: "always", or "passed" (only
    if the action before it passed its order test: a charge after its order)."""

    action: str
    facts: dict
    when: str = "always"

    def to_dict(self) -> dict:
        return {"action": self.action, "facts": dict(self.facts), "when": self.when}


@dataclass(frozen=True)
class Decision:
    """What the Foe decided for one piece (a brigade, a combat, a Rig's action, the phase)."""

    piece: str
    name: str
    rung: str
    rule: str
    orders: tuple[str, ...]
    asked: tuple[tuple[str, str, str], ...] = ()  # (key, question, answer's label)
    candidates: tuple[str, ...] = ()
    plan: tuple[Planned, ...] = ()
    dropped: int = 0  # rungs given up for "can't tell"
    reference: str = ""  # the rules reference entry behind the rung
    memo: tuple[tuple[str, str], ...] = ()  # what the Foe keeps for later (the last band it heard)

    def to_dict(self) -> dict:
        return {"piece": self.piece, "name": self.name, "rung": self.rung, "rule": self.rule,
                "orders": list(self.orders), "asked": [list(a) for a in self.asked],
                "candidates": list(self.candidates), "plan": [p.to_dict() for p in self.plan],
                "dropped": self.dropped, "reference": self.reference, "memo": dict(self.memo)}


@dataclass(frozen=True)
class FoeSettings:
    """Declared before the game: the side the Foe plays, how hard it plays and who decides ties."""

    side: str = ""
    difficulty: str = "normal"
    ties: str = "player"
    seed: int = 1

    @classmethod
    def of(cls, doc: dict) -> "FoeSettings":
        raw = doc.get("foe") or {}
        return cls(side=str(raw.get("side", "")), difficulty=str(raw.get("difficulty", "normal")),
                   ties=str(raw.get("ties", "player")), seed=int(raw.get("seed", 1)))

    def declared(self) -> dict:
        """What is kept of a side once declared (``foe.declared``), so that when Referee plays both
        sides (a game it plays against itself) each side keeps its own difficulty, ties and seed."""
        return {"difficulty": self.difficulty, "ties": self.ties, "seed": self.seed}


def playing(doc: dict) -> FoeSettings | None:
    """The Foe's settings when it plays a side of this game now (None: it plays none, or the game
    is over): where each game's Foe begins its step."""
    settings = FoeSettings.of(doc)
    return None if doc.get("ended") or not settings.side else settings


# A posture for the Foe's side on some turns: a scenario's (``foe_posture`` in the battle document,
# copied from the scenario file) or one the document gives it (``foe.posture``: {"1-2": "all_out"}).
POSTURES = {"all_out": "All out", "delay": "Delay"}


def in_span(span: str, turn: int) -> bool:
    first, _, last = str(span).partition("-")
    return first.isdigit() and (not last or last.isdigit()) and int(first) <= turn <= int(last or first)


def posture(doc: dict, side: str, turn: int) -> tuple[str, str]:
    """The Foe's posture for ``side`` on ``turn`` and why: ("all_out" or "delay", the reason), or
    ("", "") for none."""
    for span, word in ((doc.get("foe") or {}).get("posture") or {}).items():
        if word in POSTURES and in_span(span, turn):
            return word, "The posture set for this game."
    for entry in doc.get("foe_posture") or ():
        if entry.get("side") == side and entry.get("posture") in POSTURES and in_span(entry.get("turns", ""), turn):
            span = str(entry["turns"]).replace("-", "–")
            return entry["posture"], f"{entry.get('why', '')} The scenario gives it turns {span}.".strip()
    return "", ""


class Asker:
    """The answers so far, read question by question: ``ask`` gives the answer to a question
    already answered, or raises :class:`NeedAnswer` with the question to put next."""

    def __init__(self, answers: dict[str, str], known: dict[str, str] | None = None):
        self.answers = dict(answers)
        self.known = dict(known or {})  # told at an earlier decision (the same activation): not asked again
        self.asked: list[tuple[str, str, str]] = []
        self.dropped = 0

    def ask(self, q: Question) -> str:
        if self.known.get(q.key) in dict(q.options):
            value = self.known[q.key]
            self.dropped += value == CANT_TELL
            return value
        value = self.answers.get(q.key)
        if value is None or value not in dict(q.options):
            raise NeedAnswer(q)
        self.asked.append((q.key, q.text, q.label_of(value)))
        if value == CANT_TELL:
            self.dropped += 1
        return value


class NeedAnswer(Exception):
    def __init__(self, question: Question):
        super().__init__(question.text)
        self.question = question


def run(decide: Callable[[Asker], Decision | None], answers: dict[str, str],
        known: dict[str, str] | None = None) -> Question | Decision | None:
    """Run a decision with the answers given: the question it needs next, or what it decided."""
    asker = Asker(answers, known)
    try:
        return decide(asker)
    except NeedAnswer as need:
        return need.question


def lot(seed: int, *words: Any) -> int:
    """A seeded draw, the same for the same seed and words (a hash, never ``random``)."""
    text = ":".join(str(w) for w in (seed, *words)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def break_tie(asker: Asker, settings: FoeSettings, key: str, text: str, tied: list[tuple[str, str]],
              harm: Callable[[str], float], *words: Any) -> str:
    """Choose among tied candidates ((value, label) pairs) by the declared tie rule: the player
    picks, the one worst for the player (``harm``, highest first) is taken, or a seeded lot.
    "Can't tell" from the player leaves the first."""
    if len(tied) == 1:
        return tied[0][0]
    if settings.ties == "against":
        return max(tied, key=lambda t: harm(t[0]))[0]
    if settings.ties == "draw":
        return tied[lot(settings.seed, key, *words) % len(tied)][0]
    chosen = asker.ask(pick(key, text, tied))
    return tied[0][0] if chosen == CANT_TELL else chosen


def within(answer: str, inches: int) -> bool:
    """True when a band answer puts the thing at ``inches`` or nearer."""
    reach = band_inches(answer)
    return reach is not None and reach <= inches


class SteadyDice:
    """Dice that always show ``value``: the Foe tries its first action with them before choosing
    it, so a refusal of the rules is found before the player is told anything (never ``random``)."""

    def __init__(self, value: int = 1):
        self.value = value
        self.history: list = []

    def roll(self, count: int, sides: int, purpose: str, side: str | None = None) -> list[int]:
        return [min(self.value, sides)] * count


def tried(specs: Mapping[str, Any], doc: dict, plan: tuple[Planned, ...], dice: SteadyDice) -> bool:
    """The first planned action resolves without a refusal, tried on steady ``dice`` through the
    game's own catalogue (``specs``: action name -> its spec); its result is not kept."""
    if not plan:
        return True
    spec = specs[plan[0].action]
    try:
        spec.resolve(doc, spec.facts.model_validate(plan[0].facts), dice)
    except RuleError:
        return False
    return True


def pct(p: float) -> str:
    return f"{p * 100:.0f}%"


__all__ = ["Asker", "BANDS", "BAND_STEPS", "BEYOND", "band_inches", "bands_to", "CANT_TELL", "Decision", "DIFFICULTIES", "FoeSettings", "NeedAnswer", "Planned",
           "POSTURES", "Question", "in_span", "posture", "SteadyDice", "TIE_RULES", "band", "break_tie", "lot", "pick",
           "playing", "pct", "run", "tried", "within", "yes_no"]
