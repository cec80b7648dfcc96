"""The chips (or segmented buttons) of a field that picks from a list, as HTML.

A shot's target on a full Waterloo day is one of some three hundred units: drawn through the
template one chip at a time, that list costs more than the rest of the form. Each chip depends
only on the choice itself, the field's name and kind, and whether it is picked, so each is drawn
once and kept: with its Choice, found by identity (a unit's Choice is kept while its document is
unchanged), and by value (``lru_cache``) for a choice made afresh equal to one drawn before (a
brigade, a combat). A form joins the chips it shows. The markup is the one
``games/_field.html`` would draw: that template calls :func:`chips`.
"""
from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from .forms import Choice, FieldView


@lru_cache(maxsize=8192)
def _chip(name: str, ref: bool, multiple: bool, choice: Choice, checked: bool) -> str:
    cls = ("chip" if ref else "seg") + (f" tone-{escape(choice.tone)}" if choice.tone else "")
    kind = "checkbox" if multiple else "radio"
    detail = f'\n      <span class="chip-detail">{escape(choice.detail)}</span>' if choice.detail else ""
    return (f'    <label class="{cls}">\n'
            f'      <input type="{kind}" name="{escape(name)}" value="{escape(choice.value)}"'
            f'{" checked" if checked else ""}>\n'
            f'      <span class="chip-name">{escape(choice.label)}</span>{detail}\n'
            f'    </label>\n')


# Each choice's chips kept with the choice itself, found by identity: a unit's Choice stays the
# same object while its document does (``battle_view._UnitChoices``), so a form listing every unit
# several times (a combat's supporters on each side) finds each chip without hashing the choice.
_BY_CHOICE: dict[int, tuple[Choice, dict]] = {}
MOST = 20_000


def _kept_for(choice: Choice) -> dict:
    found = _BY_CHOICE.get(id(choice))
    if found is None or found[0] is not choice:
        if len(_BY_CHOICE) >= MOST:
            _BY_CHOICE.clear()
        found = _BY_CHOICE[id(choice)] = (choice, {})
    return found[1]


def chips(f: FieldView) -> Markup:
    """Every choice of ``f`` as a chip, a side's heading before its first chip on a ref field."""
    ref, multiple, name = f.kind == "ref", f.multiple, f.name
    chosen = f.chosen()
    plain, checked = (name, ref, multiple, False), (name, ref, multiple, True)
    out, group = [], None
    for c in f.choices:
        if ref and c.group and c.group != group:
            out.append(f'    <span class="chip-group">{escape(c.group)}</span>\n')
        group = c.group
        on = c.value in chosen
        kept = _kept_for(c)
        key = checked if on else plain
        html = kept.get(key)
        if html is None:
            html = kept[key] = _chip(name, ref, multiple, c, on)
        out.append(html)
    return Markup("".join(out))  # noqa: S704 - every value above is escaped
