"""What is wrong with a list, and where: the builder shows these beside the part they name.

A list with problems is still kept (a draft); it cannot start a game until it has none.

Each problem names the field it is about (``path``) and the builder row it is drawn at (``row``):
a game's list is drawn as rows (a brigade, a unit, a Rig, one of its weapons ...), given as
patterns like ``"rigs.#.weapons.#"`` ("#" for any row number); a field belongs to the longest
pattern that starts its path, and a path no pattern starts to the list's own head (row "").
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Mapping, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Problem:
    # Dotted path into the list ("brigades.1.units.0"), so the builder can mark the right row.
    path: str
    # The part in the players' words ("Brigade “Picton”, unit 2 “1/28th Foot”").
    where: str
    message: str
    # The builder row it is drawn at ("rigs.0.weapons.1"); "" is the list's head (its name, nation...).
    row: str = ""

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def to_dict(self) -> dict:
        return {"path": self.path, "where": self.where, "message": self.message, "row": self.row}


def _fits(pattern: list[str], parts: list[str]) -> bool:
    return len(pattern) <= len(parts) and all(
        p == q or (p == "#" and q.isdigit()) for p, q in zip(pattern, parts))


def row_of(path: str, rows: Iterable[str]) -> str:
    """The row of ``rows`` (patterns) a field's dotted path belongs to: the longest that starts it,
    with the path's own row numbers; "" (the list's head) when none does."""
    parts = path.split(".") if path else []
    best: list[str] = []
    for pattern in rows:
        pat = pattern.split(".")
        if len(pat) > len(best) and _fits(pat, parts):
            best = parts[:len(pat)]
    return ".".join(best)


def placed(problems: Iterable[Problem], rows: Iterable[str]) -> list[Problem]:
    """The problems, each given the row it is drawn at."""
    rows = tuple(rows)
    return [replace(p, row=row_of(p.path, rows)) for p in problems]


def by_row(problems: Iterable[Problem]) -> dict[str, list[Problem]]:
    """The problems under the row each is drawn at, in their order."""
    out: dict[str, list[Problem]] = {}
    for p in problems:
        out.setdefault(p.row, []).append(p)
    return out


def rows_in(data: Any, rows: Iterable[str]) -> list[str]:
    """Every row the builder draws for the list ``data`` (plain data, as the form holds it): the
    head "" and each pattern of ``rows`` for every row number the list has. A pattern's last
    part is drawn even when the list leaves it out (a brigade's commander not chosen yet)."""
    out = [""]
    for pattern in rows:
        out.extend(_expand(data, pattern.split("."), []))
    return out


def _expand(node: Any, parts: list[str], done: list[str]) -> Iterator[str]:
    if not parts:
        yield ".".join(done)
        return
    head, rest = parts[0], parts[1:]
    if head == "#":
        if isinstance(node, list):
            for i, child in enumerate(node):
                yield from _expand(child, rest, [*done, str(i)])
    elif not rest:
        yield ".".join([*done, head])
    elif isinstance(node, dict) and head in node:
        yield from _expand(node[head], rest, [*done, head])


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
