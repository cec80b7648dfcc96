"""The chips (or segmented buttons) of a field that picks from a list, as HTML.

A shot's target on a full Waterloo day is one of some three hundred units: drawn through the
template one chip at a time, that list costs more than the rest of the form. Each chip depends
only on the choice itself, the field's name and kind, and whether it is picked, so each is drawn
once and kept (``lru_cache``); a form joins the chips it shows. The markup is the one
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


def chips(f: FieldView) -> Markup:
    """Every choice of ``f`` as a chip, a side's heading before its first chip on a ref field."""
    ref = f.kind == "ref"
    out, group = [], None
    for c in f.choices:
        if ref and c.group and c.group != group:
            out.append(f'    <span class="chip-group">{escape(c.group)}</span>\n')
        group = c.group
        out.append(_chip(f.name, ref, f.multiple, c, f.is_chosen(c.value)))
    return Markup("".join(out))  # noqa: S704 - every value above is escaped
