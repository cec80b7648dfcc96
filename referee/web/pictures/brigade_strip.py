"""A brigade at a glance: its units as a strip of boxes in the board's order, each with its state's
letter (F fresh, D disordered, S shaken, L lost, R not yet arrived) and pattern, and how many more
lost units would break it (the board view's ``strip`` and ``break_at``: blackpowder/brigades.py).
"""
from __future__ import annotations

from markupsafe import Markup

from .svg import BLUE, GREY, INK, ORANGE, VERMILLION, frame, text

BOX, GAP = 17, 2
# state letter -> (word, fill, counts towards breaking)
STATES = {"F": ("fresh", "#fff", False), "D": ("disordered", ORANGE, False),
          "S": ("shaken", VERMILLION, True), "L": ("lost", GREY, True), "R": ("not yet arrived", "#fff", False)}
ORDER = "FDSLR"


def described(name: str, strip: str, break_at: int, broken: bool) -> str:
    counts = ", ".join(f"{strip.count(s)} {STATES[s][0]}" for s in ORDER if strip.count(s))
    lost = sum(strip.count(s) for s in "SL")
    if broken:
        state = "broken"
    else:
        more = max(0, break_at - lost)
        state = f"{lost} of the {break_at} lost units that break it" + (f", {more} more breaks it" if more else "")
    return f"{name}: {len(strip)} units, {counts}; {state}."


def brigade_strip(name: str, facts: dict, broken: bool = False) -> Markup:
    strip, break_at = facts.get("strip", ""), facts.get("break_at", 0)
    if not strip:
        return Markup("")
    lost = sum(strip.count(s) for s in "SL")
    boxes, letters = [], []
    for i, s in enumerate(strip):
        x = i * (BOX + GAP) + 1
        dash = ' stroke-dasharray="3 2"' if s == "R" else ""
        boxes.append(f'<rect x="{x}" y="1" width="{BOX}" height="{BOX}" fill="{STATES[s][1]}"{dash}/>')
        light = ' fill="#fff"' if s in "SL" else ""
        letters.append(f'<text x="{x + BOX / 2:g}" y="14"{light}>{s}</text>')
    # One group for the boxes' outline and one for the letters' type: a board of sixty brigades
    # draws some three hundred of each.
    body = [f'<g stroke="{INK}">{"".join(boxes)}</g>',
            f'<g text-anchor="middle" font-weight="bold" fill="{INK}">{"".join(letters)}</g>']
    # The break point: a tick after the box whose loss would break the brigade.
    width = len(strip) * (BOX + GAP) + 1
    words = "broken" if broken else f"{lost}/{break_at} lost"
    body.append(text(width + 4, 14, words, weight="bold" if broken or lost >= break_at else "",
                     fill=VERMILLION if broken else INK))
    bar = f'<rect x="1" y="{BOX + 3}" width="{min(lost, break_at) / break_at * (width - 2):.1f}" height="3" fill="{BLUE}"/>' \
        if break_at else ""
    body.append(bar)
    return frame(width + 62, BOX + 7, described(name, strip, break_at, broken), body, "brigade-strip", tooltip=False)
