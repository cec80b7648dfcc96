"""Dice sources. Engines never touch ``random``: they ask a source, so any resolution can be
replayed (scripted), audited (seeded) or fed from the players' own physical dice (typed in).

The protocol is one method, ``roll(count, sides, purpose) -> list[int]``. Every source keeps the
dice it handed out in ``history`` so the log can store exactly what was rolled.

Dice know whose they are: an engine names the side whose die it is (``roll(..., side="red")``: a
target's saves, a testing unit's break test, each side's attacks in a combat round) when that may
be another side than the one acting; None is the acting side's. When typed dice run out, the
request (:class:`DiceNeeded`) says whose dice to ask for, so the table can hand the tablet over.
"""
from __future__ import annotations

import random
from itertools import repeat
from typing import Iterable, Protocol

from .results import Die


class DiceSource(Protocol):
    history: list[Die]

    def roll(self, count: int, sides: int, purpose: str) -> list[int]: ...


class DiceNeeded(Exception):
    """The typed-in dice ran out: the players must roll ``count`` more ``d{sides}`` for ``purpose``.

    The screen asks for them and resolves again with all dice typed so far plus the new ones;
    ``used`` is how many typed dice were consumed before the request.
    """

    def __init__(self, count: int, sides: int, purpose: str, used: int, side: str | None = None):
        self.count, self.sides, self.purpose, self.used = count, sides, purpose, used
        self.side = side  # whose dice: a side or player key; None is the acting side's
        super().__init__(self.prompt)

    @property
    def prompt(self) -> str:
        # "D6" already names the die: players say "roll 3 D6", never "3 D6 dice".
        return f"Roll {self.count} D{self.sides} — {self.purpose}"

    def to_dict(self) -> dict:
        return {"count": self.count, "sides": self.sides, "purpose": self.purpose,
                "used": self.used, "prompt": self.prompt, "side": self.side}


class BadDice(ValueError):
    """A typed die that cannot be: out of range for the die asked for, or not a number."""


class NotYourDice(BadDice):
    """A typed die that a side typed for dice another side rolls: ``typist`` typed it for
    ``owner``'s ``purpose``."""

    def __init__(self, typist: str, owner: str, purpose: str):
        self.typist, self.owner, self.purpose = typist, owner, purpose
        super().__init__(f"Dice for {purpose} are {owner}'s to roll, not {typist}'s.")


class _Recording:
    def __init__(self) -> None:
        self.history: list[Die] = []

    def _record(self, values: list[int], sides: int, purpose: str,
                typists: list[str | None] | None = None) -> list[int]:
        self.history.extend(Die(v, sides, purpose, typist=t) for v, t in zip(values, typists or repeat(None)))
        return values


class SeededDice(_Recording):
    """The app rolls. The seed is stored with the game, so every roll can be audited."""

    def __init__(self, seed: int | str | None = None):
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, count: int, sides: int, purpose: str) -> list[int]:
        return self._record([self._rng.randint(1, sides) for _ in range(count)], sides, purpose)


class ScriptedDice(_Recording):
    """Dice given in advance, used in order: fixed dice for tests, a replay, or dice typed in
    by players. Running out raises :class:`DiceNeeded`; a value that cannot be on the die asked
    for raises :class:`BadDice`."""

    def __init__(self, values: Iterable[int], typists: Iterable[str | None] | None = None,
                 acting: str | None = None):
        super().__init__()
        self._values = list(values)
        self._pos = 0
        # Who typed each die (a side's key; None: the umpire or the one trusted tablet, who may
        # type any die) and the side acting: a die typed by one side is never used for another's.
        self._typists = list(typists) if typists is not None else [None] * len(self._values)
        self.acting = acting

    @property
    def remaining(self) -> int:
        return len(self._values) - self._pos

    def roll(self, count: int, sides: int, purpose: str, side: str | None = None) -> list[int]:
        # A die typed by one side is never taken for another side's roll, even when more are needed.
        owner = side or self.acting
        typists = self._typists[self._pos:self._pos + count]
        for typist in typists:
            if typist is not None and owner is not None and typist != owner:
                raise NotYourDice(typist, owner, purpose)
        if self.remaining < count:
            raise DiceNeeded(count - self.remaining, sides, purpose, self._pos, side)
        out = self._values[self._pos:self._pos + count]
        for v in out:
            if not 1 <= v <= sides:
                raise BadDice(f"A D{sides} shows 1 to {sides}; {v} was typed for {purpose}.")
        self._pos += count
        return self._record(out, sides, purpose, typists)


def parse_typed(text: str) -> list[int]:
    """Dice typed on the tablet: numbers separated by spaces or commas ("4 6 1" or "4,6,1")."""
    out = []
    for token in text.replace(",", " ").split():
        if not (token.isascii() and token.isdigit()) or len(token) > 3:
            raise BadDice(f"“{token[:12]}” is not a die result: type numbers like 4 6 1.")
        out.append(int(token))
    return out


def roll(source: DiceSource, count: int, sides: int, purpose: str, need: int = 0,
         side: str | None = None) -> tuple[Die, ...]:
    """Roll and return the dice as :class:`Die` for a result; ``need`` is the natural score that
    succeeds, when the roll has one, so each die can be shown as a hit or a miss. ``side`` is
    whose dice they are when not the acting side's (a target's saves, say)."""
    if count <= 0:
        return ()
    try:
        if side is not None and isinstance(source, ScriptedDice):
            values = source.roll(count, sides, purpose, side=side)
        else:
            values = source.roll(count, sides, purpose)
    except DiceNeeded as e:
        if e.side is None:
            e.side = side
        raise
    return tuple(Die(v, sides, purpose, need) for v in values)


def d3(value: int) -> int:
    """A D3 is a D6 halved, rounding up."""
    return (value + 1) // 2
