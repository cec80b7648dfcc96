"""Odds as bars: beside an odds line, the chance of each of its outcomes, the likeliest marked.

A count (hits 0…N) stands as columns left to right; named outcomes (a break test's results, a
table's rows) as rows of bars. The numbers are the odds line's own (:class:`Chances`), so the
picture and the words always agree.
"""
from __future__ import annotations

from markupsafe import Markup

from ...core.odds import Chances
from .svg import BLUE, INK, PALE, VERMILLION, frame, rect, short, text

WIDTH = 300
MARK = "▼"  # the likeliest outcome's mark, said in the label too: never colour alone


def described(line: Chances) -> str:
    likeliest = line.likeliest()
    parts = ", ".join(f"{label} {p:.1%}" for label, p in line.outcomes)
    return f"{line.title}: {parts}. Likeliest: {likeliest}."


def odds_bars(line: str) -> Markup:
    """The bars of an odds line that carries its outcomes; nothing for a plain line."""
    if not isinstance(line, Chances) or len(line.outcomes) < 2:
        return Markup("")
    if all(label.lstrip("-").isdigit() for label, _ in line.outcomes):
        return _columns(line)
    return _rows(line)


def _columns(line: Chances) -> Markup:
    n = len(line.outcomes)
    top = max(p for _, p in line.outcomes) or 1
    step = min(28, (WIDTH - 10) // n)
    high, base = 56, 74
    likeliest = line.likeliest()
    body = [text(4, 11, line.title, weight="bold")]
    for i, (label, p) in enumerate(line.outcomes):
        x, h = 6 + i * step, round(high * p / top, 1)
        mark = label == likeliest
        body.append(rect(x, base - h, step - 3, h, VERMILLION if mark else BLUE,
                         ' stroke="#222" stroke-width="1.5"' if mark else ""))
        body.append(text(x + (step - 3) / 2, base + 11, label, "middle"))
        if mark:
            body.append(text(x + (step - 3) / 2, base - h - 3, f"{MARK}{p:.0%}", "middle", "bold"))
    body.append(f'<line x1="4" x2="{6 + n * step:g}" y1="{base}" y2="{base}" stroke="{INK}"/>')
    body.append(text(WIDTH - 2, 11, f"{MARK} likeliest", "end"))
    return frame(WIDTH, base + 14, described(line), body, "odds-bars")


def _rows(line: Chances) -> Markup:
    likeliest = line.likeliest()
    label_w, bar_w, row = 112, 130, 17
    body = [text(4, 11, line.title, weight="bold")]
    for i, (label, p) in enumerate(line.outcomes):
        y = 16 + i * row
        mark = label == likeliest
        body.append(text(label_w - 4, y + 11, short(label, 18), "end"))
        body.append(rect(label_w, y + 2, bar_w, row - 5, PALE))
        body.append(rect(label_w, y + 2, round(bar_w * p, 1), row - 5, VERMILLION if mark else BLUE,
                         ' stroke="#222" stroke-width="1.5"' if mark else ""))
        body.append(text(label_w + bar_w + 4, y + 11, f"{p:.0%}" + (f" {MARK}" if mark else ""),
                         weight="bold" if mark else ""))
    height = 16 + len(line.outcomes) * row + 14
    body.append(text(WIDTH - 2, height - 3, f"{MARK} likeliest", "end"))
    return frame(WIDTH, height, described(line), body, "odds-bars")
