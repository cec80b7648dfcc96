"""What every campaign has, whichever game it follows: its settings, the umpire's override (recorded
as such, with the reason), and the record that a game was started from the rosters.

Campaign actions have the same shape as a game's (:class:`referee.core.contract.ActionSpec`): facts
in, a :class:`~referee.core.results.Result` out whose changes address the campaign document, built
with :class:`referee.core.changes.ChangeBuilder`, so the campaign log can undo any of them.
"""
from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from ..core.changes import ChangeBuilder
from ..core.contract import ActionSpec, Facts
from ..core.docstate import get_path
from ..core.errors import RuleError
from ..core.results import MISSING, Result
from ..core.settings_actions import yes_or_no

# Where an override may write: the campaign's own records, never its plan or its tables.
OVERRIDE_ROOTS = ("players", "rosters", "armies", "days", "battles")
IDS = ("id", "key")


def builder(doc: dict) -> ChangeBuilder:
    return ChangeBuilder(doc, words=change_words)


def change_words(doc: dict, c) -> str:
    """A change nobody labelled, in the players' words: "Waterloo: game id none → 4", and a
    record that holds many things (a list of notes, a unit's whole entry) only "updated"."""
    if isinstance(c.before, (dict, list)) or isinstance(c.after, (dict, list)):
        return f"{field_words(doc, [str(p) for p in c.path])} updated"
    return f"{field_words(doc, [str(p) for p in c.path])} {shown(c.before)} → {shown(c.after)}"


def field_words(doc: dict, parts: list[str]) -> str:
    """"rosters.p1.rigs.r2.damage.hull" as "Anna › Hyena: damage hull": each part on the way that
    has a name (or a title, as a battle has) by that name, then the field in words."""
    node, names, last = doc, [], 0
    for i, part in enumerate(parts[:-1]):
        node = node.get(part, {}) if isinstance(node, dict) else {}
        name = node.get("name") or node.get("title") if isinstance(node, dict) and i > 0 else None
        if isinstance(name, str):
            names.append(name)
            last = i + 1
    words = [key_words(doc, p) for p in parts]
    if names:
        return f"{' › '.join(names)}: {' '.join(words[last:])}"
    return f"{words[0].capitalize()}: {' '.join(words[1:])}" if len(words) > 1 else words[0].capitalize()


def key_words(doc: dict, key: str) -> str:
    """A key of the campaign's record as said at the table: an army's ("french") capitalized, as
    the players name the sides, any other with spaces for its underscores."""
    return key.capitalize() if key in (doc.get("armies") or {}) else key.replace("_", " ")


def shown(v: Any) -> str:
    """A value of the campaign's record as a person reads it."""
    if v is None or v == MISSING:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (dict, list)):
        return "updated"
    return str(v).replace("_", " ")


def overridable(doc: dict) -> list[tuple[str, Any]]:
    """Every field the umpire may override, as (dotted path, current value), in document order."""
    out: list[tuple[str, Any]] = []

    def walk(node: Any, path: list[str]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in IDS:  # a piece's own id is what the rest points at: never overridden
                    walk(v, path + [str(k)])
        elif isinstance(node, (bool, int, str)) and len(path) > 1:
            out.append((".".join(path), node))

    for root in OVERRIDE_ROOTS:
        if root in doc:
            walk(doc[root], [root])
    return out


def parse_value(current: Any, raw: str, name: str) -> Any:
    raw = raw.strip()
    if isinstance(current, bool):
        return yes_or_no(raw, name)
    if isinstance(current, int):
        try:
            return int(raw)
        except ValueError:
            raise RuleError(f"“{name}” is a whole number; “{raw}” is not.") from None
    if not raw:
        raise RuleError(f"“{name}” needs a value.")
    return raw[:120]


class StepFacts(Facts):
    """Base for every campaign step's facts: as a game's, unknown fields are refused; text typed at
    the table is read without the spaces around it (a reason of spaces is no reason)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Override(StepFacts):
    field: str = Field(title="What to change", max_length=200)
    value: str = Field(title="New value", max_length=120)
    reason: str = Field(title="Why (kept in the log)", min_length=1, max_length=200)


def resolve_override(doc: dict, facts: Override, dice) -> Result:
    path = tuple(facts.field.split("."))
    if path[0] not in OVERRIDE_ROOTS or dict(overridable(doc)).get(facts.field, MISSING) == MISSING:
        raise RuleError(f"“{facts.field}” is not something the umpire can set here.")
    current = get_path(doc, path)
    value = parse_value(current, facts.value, facts.field)
    b, what = builder(doc), field_words(doc, list(path))
    if not b.set(path, value, f"Umpire override: {what} {shown(current)} → {shown(value)} ({facts.reason})"):
        raise RuleError(f"“{what}” is already {shown(value)}.")
    return Result("umpire_override", f"Umpire override: {what} set to {shown(value)}",
                  changes=b.changes, notes=(f"Reason: {facts.reason}",), data={"override": True})


class ChangeSetting(StepFacts):
    name: str = Field(title="Setting", max_length=60)
    value: str = Field(title="Value", max_length=60)


def settings_action(defaults: dict, choices: dict) -> ActionSpec:
    """Changing one of the campaign's settings (``defaults`` gives each setting and its type)."""
    def resolve(doc: dict, facts: ChangeSetting, dice) -> Result:
        if facts.name not in defaults:
            raise RuleError(f"There is no setting “{facts.name}”.")
        current = doc.get("settings", {}).get(facts.name, defaults[facts.name])
        value = parse_value(defaults[facts.name], facts.value, facts.name.replace("_", " "))
        if facts.name in choices and value not in choices[facts.name]:
            raise RuleError(f"“{facts.name.replace('_', ' ')}” is one of: {', '.join(shown(c) for c in choices[facts.name])}.")
        b = builder(doc)
        said = facts.name.replace("_", " ")
        if not b.set(("settings", facts.name), value, f"Setting {said}: {shown(current)} → {shown(value)}"):
            raise RuleError(f"“{said}” is already {shown(value)}.")
        return Result("setting", f"Setting changed: {said} = {shown(value)}", changes=b.changes)

    return ActionSpec("change_setting", "Change a campaign setting", ChangeSetting, resolve, rolls_dice=False)


class GameStarted(StepFacts):
    """Written by the table service when it starts a game from the rosters: never typed by hand."""

    step: str = Field(max_length=40)  # the engagement number, or the battle's key
    game_id: int = Field(ge=1)
    name: str = Field(max_length=120)
    roster_versions: dict[str, int] = Field(default_factory=dict)
    pieces: dict[str, str] = Field(default_factory=dict)  # a game's Rig id -> its roster key "p1/r1"
    weapons: dict[str, dict[str, int]] = Field(default_factory=dict)  # Rig id -> weapon id -> roster position
    notes: list[str] = Field(default_factory=list)


OVERRIDE = ActionSpec("umpire_override", "Umpire override", Override, resolve_override, rolls_dice=False)


def setting(doc: dict, defaults: dict, name: str) -> Any:
    return doc.get("settings", {}).get(name, defaults[name])
