"""Actions every game system has: who rolls the dice, and the game's rule settings.

Both are changes to the state document like any other, so they are logged and undoable.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Literal

from pydantic import Field

from .changes import ChangeBuilder
from .contract import ActionSpec, Facts
from .errors import RuleError
from .results import Result

DICE_MODES = {"app": "The app rolls", "typed": "We roll (type the dice in)"}


def setting_title(settings_cls, name: str) -> str:
    """A setting as the settings page heads it: its title in the players' words (``TITLES``), or
    its name written out."""
    return (getattr(settings_cls, "TITLES", None) or {}).get(name) or name.replace("_", " ").capitalize()


class DiceMode(Facts):
    mode: Literal["app", "typed"] = Field(title="Who rolls", json_schema_extra={"labels": DICE_MODES})


def resolve_dice_mode(doc: dict, facts: DiceMode, dice) -> Result:
    ch = ChangeBuilder(doc)
    if not ch.set(("dice_mode",), facts.mode, f"Dice: {DICE_MODES[facts.mode]}"):
        raise RuleError(f"Dice are already set to “{DICE_MODES[facts.mode]}”.")
    return Result("dice_mode", f"Dice from now on: {DICE_MODES[facts.mode]}", changes=ch.changes)


class ChangeSetting(Facts):
    name: str = Field(title="Setting", max_length=60)
    value: str = Field(title="Value", max_length=60)


def yes_or_no(raw: str, name: str) -> bool:
    """A typed yes or no (yes/no, true/false, on/off, 1/0), or a refusal naming ``name``."""
    if raw.strip().lower() in ("yes", "true", "on", "1"):
        return True
    if raw.strip().lower() in ("no", "false", "off", "0"):
        return False
    raise RuleError(f"“{name}” is yes or no.")


def parse_setting(settings_cls, name: str, raw: str):
    """Turn the typed value into the setting's own type, or say why it cannot be."""
    by_name = {f.name: f for f in fields(settings_cls)}
    if name not in by_name:
        raise RuleError(f"There is no setting “{name}”.")
    default = getattr(settings_cls(), name)
    raw = raw.strip()
    if isinstance(default, bool):
        return yes_or_no(raw, name.replace("_", " "))
    if isinstance(default, int):
        if not (raw.isascii() and raw.isdigit()):
            raise RuleError(f"“{name.replace('_', ' ')}” is a whole number.")
        return int(raw)
    choices = getattr(settings_cls, "CHOICES", {}).get(name)
    if choices and raw not in choices:
        raise RuleError(f"“{name.replace('_', ' ')}” is one of: {', '.join(choices)}.")
    return raw


def common_actions(settings_cls) -> tuple[ActionSpec, ...]:
    """The actions every game has: who rolls the dice, and changing one of its rule settings."""
    def resolve_setting(doc: dict, facts: ChangeSetting, dice) -> Result:
        value = parse_setting(settings_cls, facts.name, facts.value)
        current = settings_cls.from_dict(doc.get("settings")).to_dict()  # defaults filled in
        if current[facts.name] == value:
            raise RuleError(f"“{facts.name.replace('_', ' ')}” is already {value}.")
        # The document may lack the key (defaults are implicit): the builder takes the before
        # from the document itself.
        ch = ChangeBuilder(doc)
        ch.set(("settings", facts.name), value,
               f"Setting {facts.name.replace('_', ' ')}: {current[facts.name]} → {value}")
        return Result("setting", f"Setting changed: {facts.name.replace('_', ' ')} = {value}", changes=ch.changes)

    return (
        ActionSpec("dice_mode", "Who rolls the dice", DiceMode, resolve_dice_mode, rolls_dice=False),
        ActionSpec("change_setting", "Change a rule setting", ChangeSetting, resolve_setting, rolls_dice=False),
    )
