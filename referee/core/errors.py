"""The two kinds of trouble Referee tells a person about, and nothing else.

``RuleError``: the rules refuse what the players asked (a march column shooting, a Rig with no
actions left). The table service answers it with its message and changes nothing.

``DataError``: a data file (army list, scenario, engagement card) that cannot be used as written.
It names the file, the entry and the field.

Any other exception is a bug: the web layer logs it with its traceback and answers a plain
error page; it is never shown to the umpire as if the rules had refused the move.
"""
from __future__ import annotations

from pathlib import Path


class RuleError(ValueError):
    """The facts given cannot happen under the rules. The message is shown; nothing changes.

    It stays a ``ValueError`` so that code and tests written against the rules keep reading
    naturally, but only ``RuleError`` (never a bare ``ValueError``) is taken as a refusal."""


class ChoiceNeeded(RuleError):
    """The action cannot go on without a choice that arose as it resolved (where overflow damage
    goes): ``field`` names the fact that carries it, ``choices`` its (value, words) to pick from.
    The screen asks it beside the dice and resolves again with the same dice; code that knows
    nothing of it reads it as a refusal with its message."""

    def __init__(self, prompt: str, field: str, choices: list[tuple[str, str]]):
        super().__init__(prompt)
        self.prompt, self.field, self.choices = prompt, field, list(choices)


class DataError(ValueError):
    """A data file that cannot be used as written: where (file, entry, field) and what."""

    def __init__(self, file: str | Path, entry: str | None = None, field: str | None = None,
                 message: str | None = None, more: list["DataError"] | None = None):
        if message is None:  # DataError("what is wrong"): the caller names the place in the words
            file, message = "", str(file)
        self.file = str(file)
        self.entry = entry
        self.field = field
        self.message = message
        self.more = more or []
        super().__init__(self._text())

    def _line(self) -> str:
        if not self.file:
            return self.message
        where = [self.file]
        if self.entry:
            where.append(f"entry “{self.entry}”")
        if self.field:
            where.append(f"field “{self.field}”")
        return ", ".join(where) + f": {self.message}"

    def _text(self) -> str:
        return "\n".join([self._line()] + [e._line() for e in self.more])
