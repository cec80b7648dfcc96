"""Setting up: a scenario's strength by arm as bars, each side's own, the units that arrive later
drawn dashed; and its arrivals as a timeline by turn, with the clock's time where the scenario
keeps one (``referee.data``'s ``SideStrength`` and ``Arriving``, counted from the file).
"""
from __future__ import annotations

from markupsafe import Markup

from .svg import BLUE, GREY, INK, ORANGE, frame, rect, short, text

ARMS = (("infantry", "Infantry"), ("cavalry", "Cavalry"), ("artillery", "Batteries"))
TONES = (BLUE, ORANGE)
KIND_WORDS = {"turn": "on turn", "roll": "rolling from turn", "umpire": "at the umpire's call"}


def strength_bars(sides) -> Markup:
    if not sides:
        return Markup("")
    top = max(s.total(a) for s in sides for a, _ in ARMS) or 1
    label_w, bar_w, row = 64, 132, 13
    body, y = [], 4
    for arm, word in ARMS:
        body.append(text(label_w - 4, y + row + 3, word, "end", "bold"))
        for i, s in enumerate(sides):
            start, later = s.start[arm], s.later[arm]
            w0, w1 = round(bar_w * start / top, 1), round(bar_w * later / top, 1)
            body.append(rect(label_w, y, w0, row - 2, TONES[i]))
            if later:
                body.append(rect(label_w + w0, y + 0.5, w1, row - 3, "#fff",
                                 f' stroke="{TONES[i]}" stroke-width="1.5" stroke-dasharray="3 2"'))
            words = f"{s.total(arm)} {short(s.name, 13)}" + (f" ({later} later)" if later else "")
            body.append(text(label_w + w0 + w1 + 4, y + row - 3, words))
            y += row
        y += 6
    body.append(text(label_w, y + 8, "dashed: arrive later", fill=GREY))
    said = "; ".join(s.words() for s in sides)
    return frame(340, y + 12, f"Strength by arm. {said}.", body, "strength-bars")


def _time(clock, turn: int) -> str:
    start, minutes = clock
    h, m = (int(x) for x in start.split(":"))
    total = h * 60 + m + (turn - 1) * minutes
    return f"{total // 60 % 24:02d}:{total % 60:02d}"


def arrivals_timeline(sides, turns: int | None, clock) -> Markup:
    arriving = [a for s in sides for a in s.arrivals]
    if not arriving:
        return Markup("")
    last = turns or max((a.turn or 1) for a in arriving)
    left, width, row = 92, 230, 30
    step = width / max(last, 1)
    body = []
    every = -(-18 // int(step)) if step < 18 else 1  # a turn's number every so many turns
    hours = -(-44 // int(step)) if step < 44 else 1  # a time every so many
    for t in range(1, last + 1):
        x = left + (t - 0.5) * step
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="14" y2="{14 + row * len(sides)}" stroke="#ddd"/>')
        if (t - 1) % every == 0:
            body.append(text(x, 11, t, "middle"))
        if clock and (t - 1) % hours == 0:
            body.append(text(x, 26 + row * len(sides), _time(clock, t), "middle", fill=GREY))
    words = []
    for i, s in enumerate(sides):
        y = 14 + i * row
        body.append(text(left - 6, y + 18, short(s.name, 14), "end", "bold"))
        by_turn: dict[tuple, int] = {}
        for a in s.arrivals:
            key = (a.turn or last, a.kind)
            by_turn[key] = by_turn.get(key, 0) + a.units
            words.append(f"{s.name}: {a.units} units {KIND_WORDS[a.kind]}"
                         + (f" {a.turn}" if a.turn and a.kind != "umpire" else
                            f" (not before turn {a.turn})" if a.turn else ""))
        for n, ((turn, kind), units) in enumerate(sorted(by_turn.items())):
            x = left + (turn - 0.5) * step
            cy = y + 10 + (n % 2) * 10
            if kind == "turn":
                body.append(rect(x - 5, cy - 5, 10, 10, TONES[i], f' stroke="{INK}"'))
            elif kind == "roll":
                body.append(f'<path d="M{x:.1f} {cy - 6}l6 6-6 6-6-6z" fill="#fff" stroke="{TONES[i]}" stroke-width="2"/>')
            else:
                body.append(f'<circle cx="{x:.1f}" cy="{cy}" r="5" fill="#fff" stroke="{TONES[i]}" stroke-width="2"/>')
            body.append(text(x + 8, cy + 4, units))
    key_y = 40 + row * len(sides)
    body.append(rect(4, key_y - 8, 8, 8, INK))
    body.append(text(15, key_y, "fixed turn"))
    body.append(f'<path d="M86 {key_y - 9}l5 5-5 5-5-5z" fill="#fff" stroke="{INK}" stroke-width="1.5"/>')
    body.append(text(95, key_y, "rolls from turn"))
    body.append(f'<circle cx="190" cy="{key_y - 4}" r="4" fill="#fff" stroke="{INK}" stroke-width="1.5"/>')
    body.append(text(198, key_y, "umpire's call"))
    label = f"Arrivals by turn ({last} turns" + (f", turn 1 at {clock[0]}" if clock else "") + "). " + "; ".join(words) + "."
    return frame(340, key_y + 6, label, body, "arrivals")
