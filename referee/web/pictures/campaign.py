"""A Hundred Days campaign over time: for each day, each army's units at the day's end (fit, worn,
lost) with its victory points so far, and the day's battles marked fought, being fought or still to
come (``referee.campaigns.timeline``)."""
from __future__ import annotations

from markupsafe import Markup

from ...campaigns import game_words
from ...systems import BLACK_POWDER
from .svg import BLUE, GREY, INK, ORANGE, frame, rect, short, text

MARKS = {"fought": "✓", "playing": "▶", "not_fought": "○", "cancelled": "✗"}
LEFT, BAR = 96, 130


def campaign_timeline(tl) -> Markup:
    if tl is None or not tl.days:
        return Markup("")
    top = max([a.units for rows in tl.armies.values() for a in rows] + [1])
    body, said, y = [], [], 4
    tones = dict(zip(tl.armies, (BLUE, ORANGE)))
    for key, title in tl.days:
        body.append(text(4, y + 11, title, weight="bold"))
        y += 16
        at_day = tl.read.index(key) if key in tl.read else None
        day_words = []
        for army, rows in tl.armies.items():
            body.append(text(LEFT - 6, y + 10, short(tl.names[army], 16), "end"))
            if at_day is None:
                body.append(text(LEFT, y + 10, "still to come", fill=GREY))
            else:
                a = rows[at_day]
                x = LEFT
                for n, fill, extra in ((a.fit, tones[army], ""), (a.worn, "#fff", f' stroke="{tones[army]}" stroke-width="1.5"'),
                                       (a.lost, "#555", "")):
                    if n:
                        w = round(BAR * n / top, 1)
                        body.append(rect(x, y + 2, w, 10, fill, extra))
                        x += w
                words = f"{a.units} units, {a.lost} lost, {a.worn} worn; {a.vp} VP"
                body.append(text(x + 4, y + 11, words))
                day_words.append(f"{tl.names[army]} {words}")
            y += 15
        for btitle, status in tl.battles.get(key, []):
            word = game_words(status, False, BLACK_POWDER)
            body.append(text(12, y + 10, f"{MARKS.get(status, '·')} {short(btitle, 40)}: {word}"))
            day_words.append(f"{btitle} {word}")
            y += 13
        said.append(f"{title}: " + "; ".join(day_words))
        y += 8
    body.append(rect(4, y, 10, 9, BLUE) + rect(18, y, 10, 9, "#fff", f' stroke="{INK}"') + rect(32, y, 10, 9, "#555"))
    body.append(text(48, y + 9, "fit, worn (casualties carried), lost; ✓ fought ▶ being fought ○ to come", fill=GREY))
    return frame(LEFT + BAR + 190, y + 16, "The campaign day by day. " + ". ".join(said) + ".", body, "campaign-timeline")
