"""What is wrong with a list, and where: the builder shows these beside the part they name.

A list with problems is still kept (a draft); it cannot start a game until it has none.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    # Dotted path into the list ("brigades.1.units.0"), so the builder can mark the right row.
    path: str
    # The part in the players' words ("Brigade “Picton”, unit 2 “1/28th Foot”").
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def to_dict(self) -> dict:
        return {"path": self.path, "where": self.where, "message": self.message}


def picked(cards: Mapping[str, T], key: str | None, path: str, where: str, out: list[Problem],
           choose: str, unknown: str) -> T | None:
    """The card (or profile) a row of a list picks by ``key``, or None with what is wrong added to
    ``out``: nothing chosen (``choose`` says what to do), or a key naming nothing (no such ``unknown``)."""
    if not key:
        out.append(Problem(path, where, choose))
        return None
    card = cards.get(key)
    if card is None:
        out.append(Problem(path, where, f"there is no {unknown} “{key}”"))
    return card


class ListFileError(ValueError):
    """An exported list file that cannot be read back; the message names what is wrong and
    nothing is stored."""


class NotReady(ValueError):
    """A list that still has problems was asked to start a game."""

    def __init__(self, name: str, problems: list[Problem]):
        self.problems = problems
        lines = "; ".join(str(p) for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(f"“{name}” is a draft with {len(problems)} problem(s): {lines}{more}")
