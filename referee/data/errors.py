"""Errors raised while reading the shipped data files or forces typed in by the umpire.

A data file is edited by hand, so every problem must say where it is: which file, which entry
(its id, or its position when it has none) and which field.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from ..core.errors import DataError


class FieldProblem(ValueError):
    """Raised by a check that looks at several fields, to say which field the reader should fix
    (pydantic would otherwise report it against the whole entry)."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


class ForceError(ValueError):
    """Forces typed in for a new battle that cannot be fielded (unknown profile, empty brigade,
    staff rating out of range). The message is shown to the umpire as it is."""


def field_of(loc: tuple) -> str:
    """Pydantic's location of an error as a dotted field name ("units.2.morale")."""
    return ".".join(str(p) for p in loc) if loc else ""


def friendly(err: dict) -> str:
    """Pydantic's message without its "Value error, " prefix."""
    msg = err.get("msg", "invalid")
    return msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def from_validation(file: str | Path, entry: str | None, exc: ValidationError,
                    prefix: tuple = ()) -> DataError:
    """One DataError naming file, entry and field for each problem pydantic found."""
    errors = [DataError(file, entry, field_of(prefix + tuple(e["loc"]) + _named_field(e)) or None,
                        friendly(e)) for e in exc.errors()]
    first, rest = errors[0], errors[1:]
    return DataError(first.file, first.entry, first.field, first.message, more=rest)


def _named_field(err: dict) -> tuple:
    problem = (err.get("ctx") or {}).get("error")
    return (problem.field,) if isinstance(problem, FieldProblem) else ()
