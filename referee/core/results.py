"""What a resolution hands back: the dice, the modifiers with their rules, the outcome, the changes.

One object feeds the screen, the game log and the tests, so it is plain, frozen and
JSON-serialisable (``to_dict`` / ``from_dict``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Die:
    """One die as it landed, and what it was rolled for ("to hit", "save", "re-roll: Sharp Shooters").

    ``need`` is the natural score that counted as a success when the engine knew one as it
    rolled (a to-hit, a save, an attack), so the screen can mark hits and misses; 0 when the
    die is read against a table instead. ``typist``: the side whose player typed the die in on
    their own tablet (None: rolled by the app, or typed by the umpire or the one trusted tablet).
    """

    value: int
    sides: int
    purpose: str
    need: int = 0
    typist: str | None = None

    @property
    def succeeded(self) -> bool | None:
        return self.value >= self.need if self.need else None

    def to_dict(self) -> dict:
        out = {"value": self.value, "sides": self.sides, "purpose": self.purpose}
        if self.need:
            out["need"] = self.need
        if self.typist is not None:
            out["typist"] = self.typist
        return out


@dataclass(frozen=True)
class Modifier:
    """A number that changed a roll or a target, and the rule that gave it.

    ``applies_to`` names the roll or score it changes ("staff rating", "to hit", "save",
    "break test", "combat dice", "aim"), so the screen can group them.
    """

    amount: int
    rule: str
    applies_to: str = ""

    def to_dict(self) -> dict:
        return {"amount": self.amount, "rule": self.rule, "applies_to": self.applies_to}

    def __str__(self) -> str:
        sign = "+" if self.amount >= 0 else "−"
        return f"{sign}{abs(self.amount)} {self.rule}"


@dataclass(frozen=True)
class Change:
    """One field of the game state, before and after.

    ``path`` addresses the state document, e.g. ``("units", "u3", "casualties")``. ``before`` of
    :data:`MISSING` means the key did not exist (undo removes it again).
    ``label`` is the change in the players' words ("2nd Line: casualties 1 → 3").
    """

    path: tuple[str, ...]
    before: Any
    after: Any
    label: str = ""

    def to_dict(self) -> dict:
        return {"path": list(self.path), "before": self.before, "after": self.after, "label": self.label}

    @classmethod
    def from_dict(cls, d: dict) -> "Change":
        return cls(tuple(d["path"]), d["before"], d["after"], d.get("label", ""))


# A JSON-safe marker for "this key did not exist before the change".
MISSING = {"__missing__": True}


@dataclass(frozen=True)
class Result:
    """The outcome of one resolution.

    ``summary`` is one line in the players' words. ``notes`` are further lines (instructions to
    the players: "retire one full move to the rear"). ``children`` are follow-on resolutions the
    rules trigger inside the same action (a break test after shooting); their changes are part
    of this action and are listed in ``all_changes``. ``data`` holds the structured outcome
    (moves, hits, casualties...) for tests and templates.
    """

    kind: str
    summary: str
    dice: tuple[Die, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    changes: tuple[Change, ...] = ()
    notes: tuple[str, ...] = ()
    children: tuple["Result", ...] = ()
    data: dict = field(default_factory=dict)

    @property
    def all_changes(self) -> tuple[Change, ...]:
        out = list(self.changes)
        for child in self.children:
            out.extend(child.all_changes)
        return tuple(out)

    @property
    def all_dice(self) -> tuple[Die, ...]:
        out = list(self.dice)
        for child in self.children:
            out.extend(child.all_dice)
        return tuple(out)

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "summary": self.summary,
            "dice": [d.to_dict() for d in self.dice],
            "modifiers": [m.to_dict() for m in self.modifiers],
            "changes": [c.to_dict() for c in self.changes],
            "notes": list(self.notes),
            "children": [c.to_dict() for c in self.children],
            "data": self.data,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Result":
        return cls(
            kind=d["kind"],
            summary=d["summary"],
            dice=tuple(Die(**x) for x in d.get("dice", [])),
            modifiers=tuple(Modifier(**x) for x in d.get("modifiers", [])),
            changes=tuple(Change.from_dict(x) for x in d.get("changes", [])),
            notes=tuple(d.get("notes", [])),
            children=tuple(cls.from_dict(x) for x in d.get("children", [])),
            data=d.get("data", {}),
        )


def total(modifiers: list[Modifier] | tuple[Modifier, ...], applies_to: str | None = None) -> int:
    """Sum of the modifiers (optionally only those that change one roll)."""
    return sum(m.amount for m in modifiers if applies_to is None or m.applies_to == applies_to)
