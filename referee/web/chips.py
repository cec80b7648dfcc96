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

from ..core.board import Choice, FieldView
from .forms import FOLD_ABOVE


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
# same object while its document does (``blackpowder/board_view._UnitChoices``), so a form listing every unit
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


# A pick list longer than ``FOLD_ABOVE`` (forms.py) folds its chips by their ``fold`` (a unit's
# brigade): a Waterloo order picks the brigade first, then units in it, and a shot's two hundred
# targets are a screen of brigade names. The folds holding a chosen chip stay open; the form's
# find box (static/forms.js) opens those holding what is typed.


def chips(f: FieldView) -> Markup:
    """Every choice of ``f`` as a chip, a side's heading before its first chip on a ref field.
    A long list (``FOLD_ABOVE``) folds each side, and in it each brigade: the first side open
    when nothing is picked (a target's enemies come first), else the folds holding what is
    picked; one unit picked already (the shooter from its card) is shown first, alone, with the
    folds closed below it. A list the rules rank (a shot's targets) shows its likely picks first,
    unfolded, and every side folded below them."""
    ref, multiple, name = f.kind == "ref", f.multiple, f.name
    chosen = f.chosen()
    if not (ref and len(f.choices) > FOLD_ABOVE and any(c.fold for c in f.choices)):
        out, group = [], None
        for c in f.choices:
            if ref and c.group and c.group != group:
                out.append(f'    <span class="chip-group">{escape(c.group)}</span>\n')
            group = c.group
            out.append(_row(c, name, ref, multiple, c.value in chosen))
        return Markup("".join(out))  # noqa: S704 - every value above is escaped
    holding: set = set()
    for c in f.choices:
        if c.value in chosen:
            holding |= {c.group, (c.group, c.fold)}
    alone = not multiple and bool(holding)
    # A list the rules rank (``FieldView.likely``): its likely picks first, open, and every side
    # folded below them, so a Waterloo shot's form is a screen, not two hundred brigades' names.
    ranked = f.likely is not None and not alone
    likely = [c for c in f.choices if c.value in set(f.likely)] if ranked else []
    likely.sort(key=lambda c: f.likely.index(c.value))
    skip = {c.value for c in likely}
    sizes: dict[tuple[str, str], int] = {}
    for c in f.choices:
        if c.value not in skip:
            sizes[(c.group, c.fold)] = sizes.get((c.group, c.fold), 0) + 1
    out = []
    if alone:
        # The one picked, then every other in a single fold, each side's brigades under its name.
        out += [_row(c, name, ref, multiple, True) for c in f.choices if c.value in chosen]
        out.append('    <details class="chip-side"><summary class="chip-group">Pick another</summary>'
                   '<div class="chip-side-body">\n')
    else:
        # The find box (static/forms.js; hidden without JavaScript, where the folds still open).
        out.append(f'    <label class="chip-find" hidden><span class="visually-hidden">Find in {escape(f.title)}</span>'
                   '<input type="search" autocomplete="off" spellcheck="false" enterkeyhint="search" data-chip-find'
                   ' placeholder="Find a unit or brigade"></label>\n')
        if likely:
            out.append('    <div class="chip-likely"><span class="chip-group">Likely</span>\n')
            out += [_row(c, name, ref, multiple, c.value in chosen) for c in likely]
            out.append('    </div>\n')
    group = fold = None
    sides = 0
    for c in f.choices:
        if c.value in skip:
            continue
        if fold is not None and (c.group, c.fold) != fold:
            out.append("    </div></details>\n")
            fold = None
        if c.group != group and alone:
            group = c.group
            out.append(f'    <span class="chip-group">{escape(group or "Units")}</span>\n')
        elif c.group != group:
            if group is not None:
                out.append("    </div></details>\n")
            group = c.group
            sides += 1
            is_open = (not holding and sides == 1 and not ranked) or group in holding
            out.append(f'    <details class="chip-side"{" open" if is_open else ""}><summary class="chip-group">'
                       f'{escape(group or "Units")}</summary><div class="chip-side-body">\n')
        if fold is None:
            fold = (c.group, c.fold)
            is_open = not alone and fold in holding
            out.append(f'    <details class="chip-fold"{" open" if is_open else ""}>'
                       f'<summary>{escape(c.fold or "Others")} <small>{sizes[fold]}</small></summary>'
                       f'<div class="chip-fold-body">\n')
        if not (alone and c.value in chosen):
            out.append(_row(c, name, ref, multiple, c.value in chosen))
    out.append("    </div></details>\n    </div></details>\n")
    return Markup("".join(out))  # noqa: S704 - every value above is escaped


def _row(c: Choice, name: str, ref: bool, multiple: bool, on: bool) -> str:
    """One chip, drawn once and kept (``_kept_for``)."""
    kept = _kept_for(c)
    key = (name, ref, multiple, on)
    html = kept.get(key)
    if html is None:
        html = kept[key] = _chip(name, ref, multiple, c, on)
    return html
