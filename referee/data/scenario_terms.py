"""A scenario's terms beyond its forces: when reserves arrive, the battle clock, and the victory
questions the umpire answers at the checkpoint.

These are read from the scenario file (``scenarios/blackpowder/*.yaml``, see
``docs/scenarios.md``), checked when read, and copied into the battle document when a battle
starts, so the engine (``referee/blackpowder/reserves.py``, ``clock.py``, ``victory.py``) reads
them from the document and never from a file.
"""
from __future__ import annotations

import re
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from .errors import FieldProblem

SIDE_ANSWERS = ("blue", "red", "both", "neither")
WINNERS = ("blue", "red", "draw", "general")
QUESTION_ID = r"^[a-z][a-z0-9_]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- arrivals ---------------------------------------------------------------------------------

class EntryRoll(Strict):
    """The entry check as dice: ``dice`` D6 added up, arriving on ``target`` or more."""

    dice: int = Field(1, ge=1, le=3)
    target: int = Field(ge=2, le=18)

    @model_validator(mode="before")
    @classmethod
    def _short(cls, data: Any) -> Any:
        """``roll: 4+`` is short for one D6 needing 4 or more; ``roll: 2D6 7+`` for two."""
        if isinstance(data, (str, int)):
            m = re.fullmatch(r"\s*(?:(\d)?D6\s+)?(\d{1,2})\+?\s*", str(data), re.IGNORECASE)
            if not m:
                raise ValueError(f"“{data}” is not an entry roll like “4+” or “2D6 7+”")
            return {"dice": int(m.group(1) or 1), "target": int(m.group(2))}
        return data

    @model_validator(mode="after")
    def _possible(self) -> "EntryRoll":
        if not self.dice < self.target <= 6 * self.dice:
            raise FieldProblem("target", f"{self.dice}D6 can never make {self.target} or more, or always does")
        return self


class Arrival(Strict):
    """When a brigade or unit comes on: on a fixed turn, from a turn on with an entry roll each
    turn, or when the umpire calls it (not before ``from_turn`` if given)."""

    turn: int | None = Field(None, ge=1, le=40)
    from_turn: int | None = Field(None, ge=1, le=40)
    roll: EntryRoll | None = None
    umpire: bool = False
    group: str | None = Field(None, min_length=1, max_length=80)  # arrive together, one roll
    at: str = Field("", max_length=300)  # where they come on, for the players
    note: str = Field("", max_length=300)

    @model_validator(mode="before")
    @classmethod
    def _short(cls, data: Any) -> Any:
        """``arrives: 3`` is turn 3; ``arrives: umpire`` waits for the umpire's call."""
        if isinstance(data, bool):
            raise ValueError("write a turn number, “umpire”, or a mapping")
        if isinstance(data, int):
            return {"turn": data}
        if data == "umpire":
            return {"umpire": True}
        return data

    @model_validator(mode="after")
    def _one_way(self) -> "Arrival":
        ways = [self.turn is not None, self.roll is not None, self.umpire]
        if sum(ways) != 1:
            raise FieldProblem("turn", "say one way to arrive: a fixed turn, from_turn with an entry roll, "
                                       "or umpire: true")
        if self.roll is not None and self.from_turn is None:
            raise FieldProblem("from_turn", "an entry roll needs the turn it is first made (from_turn)")
        if self.turn is not None and self.from_turn is not None:
            raise FieldProblem("from_turn", "a fixed turn and from_turn cannot both be given")
        return self

    @property
    def kind(self) -> str:
        return "turn" if self.turn is not None else "roll" if self.roll is not None else "umpire"

    def schedule(self) -> dict:
        """The schedule as the battle document keeps it (``referee.blackpowder.reserves``)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.turn is not None:
            out["turn"] = self.turn
        if self.from_turn is not None:
            out["from_turn"] = self.from_turn
        if self.roll is not None:
            out["dice"], out["target"] = self.roll.dice, self.roll.target
        return out

    def first_turn(self) -> int | None:
        return self.turn if self.turn is not None else self.from_turn


# --- clock ------------------------------------------------------------------------------------

class Clock(Strict):
    start: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")  # the time of turn 1, "11:00"
    minutes_per_turn: int = Field(ge=5, le=240)

    @model_validator(mode="before")
    @classmethod
    def _time_as_text(cls, data: Any) -> Any:
        # YAML 1.1 reads an unquoted 11:00 as the sexagesimal number 660.
        if isinstance(data, dict) and isinstance(data.get("start"), int):
            minutes = data["start"]
            data = {**data, "start": f"{minutes // 60:02d}:{minutes % 60:02d}"}
        return data


# --- the Foe's posture ------------------------------------------------------------------------

class FoePosture(Strict):
    """How the Foe plays one side on some turns when Referee commands it (``docs/foe.md``):
    ``all_out`` (charges at the easy threshold, never holds) or ``delay`` (never charges or
    advances), with the reason, in the app's words, shown on the Foe's screen."""

    side: Literal["blue", "red"]
    turns: str = Field(pattern=r"^\d{1,2}(-\d{1,2})?$")  # "1-11", or one turn "3"
    posture: Literal["all_out", "delay"]
    why: str = Field(min_length=1, max_length=300)

    @model_validator(mode="after")
    def _in_order(self) -> "FoePosture":
        first, _, last = self.turns.partition("-")
        if int(first) < 1 or (last and int(last) < int(first)):
            raise FieldProblem("turns", f"“{self.turns}” is not a span of turns from the first to the last")
        return self

    def last_turn(self) -> int:
        return int(self.turns.rpartition("-")[2])


# --- victory ----------------------------------------------------------------------------------

class Question(Strict):
    """A question the umpire answers about the table at the checkpoint.

    ``answer``: ``side`` (blue, red, both or neither), ``yes_no``, ``count`` (0..``max``), or
    ``choice`` (one of ``options``). ``points``: what the answer scores. For ``side`` the side
    named scores them; for ``yes_no`` the side in ``scores`` does on a yes; for ``count`` the side
    in ``scores`` does for each one counted.
    """

    id: str = Field(pattern=QUESTION_ID)
    ask: str = Field(min_length=1, max_length=300)
    answer: Literal["side", "yes_no", "count", "choice"]
    options: tuple[str, ...] = ()
    max: int = Field(40, ge=1, le=400)
    scores: Literal["blue", "red"] | None = None
    points: float = Field(0, ge=0, le=100)

    @model_validator(mode="after")
    def _consistent(self) -> "Question":
        if (self.answer == "choice") != bool(self.options):
            raise FieldProblem("options", "a choice question needs its options, and only a choice question has them")
        if self.answer in ("yes_no", "count") and self.points and not self.scores:
            raise FieldProblem("scores", "say which side (blue or red) scores the points")
        if self.answer in ("side", "choice") and self.scores:
            raise FieldProblem("scores", "a side question scores for the side named; choices score nothing")
        return self

    def accepts(self, value: Any) -> bool:
        if self.answer == "side":
            return value in SIDE_ANSWERS
        if self.answer == "yes_no":
            return isinstance(value, bool)
        if self.answer == "count":
            return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= self.max
        return value in self.options


class Outcome(Strict):
    """A result decided by the answers: ``when`` every listed answer matches (a value, a list of
    values, or ``{at_least: n}`` / ``{at_most: n}`` for counts)."""

    when: dict[str, Any] = Field(min_length=1)
    winner: Literal["blue", "red", "draw", "general"]
    label: str = Field("", max_length=80)  # "Prussian major victory"
    reason: str = Field(min_length=1, max_length=300)


class Victory(Strict):
    text: str = Field(min_length=1)
    checkpoint: int | None = Field(None, ge=1, le=40)  # the end of this turn; default the last
    questions: tuple[Question, ...] = ()
    results: tuple[Outcome, ...] = ()
    tie: Literal["blue", "red", "draw"] = "draw"  # equal points
    otherwise: Literal["blue", "red", "draw", "general"] = "general"
    army_break_decides: bool = True  # an army broken: the general rule decides first

    @model_validator(mode="before")
    @classmethod
    def _text_alone(cls, data: Any) -> Any:
        return {"text": data} if isinstance(data, str) else data

    @model_validator(mode="after")
    def _answers_fit(self) -> "Victory":
        qs = {q.id: q for q in self.questions}
        if len(qs) != len(self.questions):
            raise FieldProblem("questions", "two questions share an id")
        for i, r in enumerate(self.results):
            for qid, want in r.when.items():
                if qid not in qs:
                    raise FieldProblem(f"results.{i}.when", f"no question has the id “{qid}”")
                problem = _condition_problem(qs[qid], want)
                if problem:
                    raise FieldProblem(f"results.{i}.when.{qid}", problem)
        return self

    def as_doc(self, turns: int | None) -> dict:
        d = self.model_dump(mode="json")
        d["checkpoint"] = self.checkpoint or turns
        return d


def _condition_problem(q: Question, want: Any) -> str | None:
    if isinstance(want, dict):
        if q.answer != "count" or not set(want) <= {"at_least", "at_most"} or not want:
            return "only a count question takes at_least / at_most"
        if not all(isinstance(v, int) for v in want.values()):
            return "at_least / at_most take whole numbers"
        return None
    values = want if isinstance(want, list) else [want]
    bad = [v for v in values if not q.accepts(v)]
    if bad:
        allowed = {"side": "blue, red, both or neither", "yes_no": "true or false",
                   "count": f"a number 0..{q.max}", "choice": ", ".join(q.options)}[q.answer]
        return f"“{bad[0]}” is not an answer to “{q.id}” ({allowed})"
    return None


class Feature(Strict):
    """A piece of ground and how to treat it, as an instruction to the players."""

    name: str = Field(min_length=1, max_length=80)
    rules: str = Field(min_length=1, max_length=600)


# --- where a mistake is in the file ----------------------------------------------------------

def line_of(text: str, loc: tuple | list) -> int | None:
    """The line (1-based) of the node at ``loc`` (keys and list indexes) in the YAML ``text``;
    the deepest node found when the path runs out (a missing field: its parent's line)."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == str(key)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            nxt = node.value[key]
        else:
            nxt = None
        if nxt is None:
            break
        node = nxt
        line = node.start_mark.line + 1
    return line


def split_field(field: str | None) -> list:
    """A dotted field name back to its path: "sides.blue.brigades.0.commander" → [..., 0, ...]."""
    return [int(p) if p.isdigit() else p for p in (field or "").split(".") if p]
