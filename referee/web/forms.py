"""Action forms drawn from an action's Facts model, and facts read back from a posted form.

Each field of a Facts model says how it wants to be drawn (``docs/engine-conventions.md``): a
``ref`` picks something from the game (units as chips), a ``Literal`` is a row of buttons, a
``bool`` a toggle, an ``int`` a stepper. Which things a ``ref`` can pick is the game system's
business (``choices_for``), so this module knows no rules.
"""
from __future__ import annotations

import types
import typing
from copy import copy
from functools import lru_cache
from typing import Any, Callable, Literal

from pydantic_core import PydanticUndefined

from ..core.board import Choice, FieldView
from ..core.contract import Facts

# The hidden field naming every fact the form drew: a toggle missing from the post then means
# "off", while a short form (a single button) leaves the facts it does not draw at their defaults.
DRAWN = "_drawn"


# A pick list longer than this folds by side and brigade (web/chips.py), its likely picks first.
FOLD_ABOVE = 24


def _unwrap_optional(tp):
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def _describe(name: str, info) -> FieldView:
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    tp, optional = _unwrap_optional(info.annotation)
    multiple = typing.get_origin(tp) in (list, tuple, set, frozenset)
    inner = typing.get_args(tp)[0] if multiple and typing.get_args(tp) else tp
    default = None if info.default is PydanticUndefined else info.default
    view = FieldView(name=name, title=info.title or name.replace("_", " ").capitalize(), kind="text",
                     required=info.is_required(), default=default, help=extra.get("help", ""),
                     group=extra.get("group", ""), ask=bool(extra.get("ask")), multiple=multiple)
    for m in info.metadata:
        if getattr(m, "ge", None) is not None:
            view.ge = m.ge
        if getattr(m, "le", None) is not None:
            view.le = m.le
        if getattr(m, "max_length", None) is not None:
            view.max_length = m.max_length
    labels = extra.get("labels", {})
    if "ref" in extra:
        view.kind, view.ref, view.side = "ref", extra["ref"], extra.get("side", "any")
        view.of = extra.get("of", "")
    elif typing.get_origin(inner) is Literal:
        view.kind = "choice"
        view.choices = [Choice(str(v), labels.get(v, str(v).replace("_", " ").capitalize() or "None"))
                        for v in typing.get_args(inner)]
    elif inner is bool:
        view.kind = "bool"
    elif inner is int:
        view.kind = "int"
    if optional and view.kind == "ref":
        view.required = False
    return view


def describe_facts(model: type[Facts]) -> list[FieldView]:
    """A fresh description of each field (the caller fills in values), copied from the one kept
    per model: a post reads the model's fields three times, and they never change."""
    return [copy(view) for view in _described(model)]


@lru_cache(maxsize=None)
def _described(model: type[Facts]) -> tuple[FieldView, ...]:
    return tuple(_describe(name, info) for name, info in model.model_fields.items())


def draw(model: type[Facts], values: dict[str, Any],
         choices_for: Callable[[FieldView], list[Choice] | None], seat: str = "") -> list[FieldView]:
    """The fields to draw, each holding the value to show (posted, prefilled or default); ``seat``:
    the side the tablet plays, whose pieces its lists of who acts offer."""
    out = []
    for view in describe_facts(model):
        view.seat = seat
        if view.name in values:
            view.value = values[view.name]
        elif view.multiple:
            view.value = [str(v) for v in (view.default or [])]
        elif view.kind == "bool":
            view.value = bool(view.default)
        else:
            view.value = "" if view.default is None else str(view.default)
        if view.multiple and not isinstance(view.value, list):
            view.value = [view.value] if view.value not in (None, "") else []
        if view.kind == "bool" and not isinstance(view.value, bool):
            view.value = str(view.value).lower() in ("on", "true", "1", "yes")
        if view.kind == "ref":
            of = values.get(view.of) if view.of else None
            of = of[0] if isinstance(of, list) and of else of  # several units picked: the first speaks for them
            view.of_value = str(of or "")
            found = choices_for(view)
            if found is None:  # a ref the game system cannot list: typed in
                view.kind = "text"
            else:
                view.choices = found
        elif view.kind == "choice":
            # The game may word its buttons from the game (a side's name for "blue"), or leave them.
            view.choices = choices_for(view) or view.choices
        out.append(view)
    return out


def groups(fields: list[FieldView]) -> list[tuple[str, list[FieldView]]]:
    """Fields under their headings, in the order the model declares the first of each group."""
    out: list[tuple[str, list[FieldView]]] = []
    for f in fields:
        if out and out[-1][0] == f.group:
            out[-1][1].append(f)
            continue
        for name, items in out:
            if name == f.group:
                items.append(f)
                break
        else:
            out.append((f.group, [f]))
    return out


# A pick list with more choices than this, in a group that shows folded, is drawn only when the
# group is opened: a combat on a Waterloo day has six lists of supporters of some 150 units each
# and a list of every unit, 300 kB of a form nobody opens in most fights.
LIST_LATER_ABOVE = 24


def folded(fields: list[FieldView]) -> bool:
    """A named group shows folded while every fact in it is at its default, unless one of them must
    be answered every time (required, or a question asked every time)."""
    return not any(f.required or f.ask or not f.at_default for f in fields)


def list_later(grouped: list[tuple[str, list[FieldView]]], opened: str = "") -> set[str]:
    """The groups that show folded (every named one but ``opened``), each long pick list in them
    marked to be drawn when its group is opened (``FieldView.later``): never one holding a pick, so
    what the form posts untouched is what it would have posted with every list drawn."""
    out = set()
    for name, fields in grouped:
        if not name or name == opened or not folded(fields):
            continue
        out.add(name)
        for f in fields:
            f.later = f.kind == "ref" and len(f.choices) > LIST_LATER_ABOVE and not (f.chosen() - {"", None})
    return out


def shown_values(model: type[Facts], form) -> dict[str, Any]:
    """What the umpire chose, as the form holds it (strings), to draw the form again."""
    out: dict[str, Any] = {}
    drawn = set(filter(None, form.get(DRAWN, "").split(",")))
    for view in _described(model):  # read only: the kept descriptions themselves
        if view.multiple:
            if view.name in form or view.name in drawn:
                out[view.name] = [v for v in form.getlist(view.name) if v != ""]
        elif view.kind == "bool":
            if view.name in form or view.name in drawn:
                out[view.name] = form.get(view.name, "").lower() in ("on", "true", "1", "yes")
        elif view.name in form:
            out[view.name] = form.get(view.name)
    return out


def facts_from_form(model: type[Facts], form) -> dict[str, Any]:
    """The raw facts for the table service; pydantic there refuses what cannot be."""
    raw: dict[str, Any] = {}
    shown = shown_values(model, form)
    for view in _described(model):  # read only: the kept descriptions themselves
        if view.name not in shown:
            continue
        value = shown[view.name]
        if view.kind == "bool" and not view.multiple and form.get(view.name) == "":
            continue  # a yes/no choice left empty ("as recorded") keeps the default; a toggle posts "on" or nothing
        if view.multiple or view.kind == "bool":
            raw[view.name] = value
        elif value == "":
            # An empty box keeps the default; an empty optional pick means "none".
            if view.required:
                continue
            raw[view.name] = view.default
        else:
            raw[view.name] = value
    return raw
