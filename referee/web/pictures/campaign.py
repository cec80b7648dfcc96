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


def campaign_timeline(tl, over=()) -> Markup:
    """``over``: the titles of the battles whose game has ended, not yet recorded: they are no
    longer being fought."""
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
            word = game_words(status, btitle in over, BLACK_POWDER)
            body.append(text(12, y + 10, f"{MARKS.get(status, '·')} {short(btitle, 40)}: {word}"))
            day_words.append(f"{btitle} {word}")
            y += 13
        said.append(f"{title}: " + "; ".join(day_words))
        y += 8
    body.append(rect(4, y, 10, 9, BLUE) + rect(18, y, 10, 9, "#fff", f' stroke="{INK}"') + rect(32, y, 10, 9, "#555"))
    body.append(text(48, y + 9, "fit, worn (casualties carried), lost; ✓ fought ▶ under way ○ to come", fill=GREY))
    return frame(LEFT + BAR + 190, y + 16, "The campaign day by day. " + ". ".join(said) + ".", body, "campaign-timeline")


def roster_timeline(roster) -> Markup:
    """An Of Oil and Iron campaign's roster across its engagements: a row per Rig, a cell per
    engagement's Aftermath with the structure it carries (a bar of its most), its experience and
    repair traits, and its fate."""
    if roster is None or not roster.engagements:
        return Markup("")
    name_w, cell = 130, 62
    body, said = [], []
    for j, step in enumerate(roster.engagements):
        open_now = roster.open and j == len(roster.engagements) - 1
        body.append(text(name_w + j * cell + cell / 2, 11, f"#{step}" + (" (now)" if open_now else ""), "middle", "bold"))
    y = 16
    for ref, cells in roster.rigs.items():
        body.append(text(name_w - 6, y + 12, short(roster.names[ref], 22), "end"))
        words = []
        for j, at in enumerate(cells):
            x = name_w + j * cell
            if at is None:
                body.append(text(x + cell / 2, y + 12, "–", "middle", fill=GREY))
                words.append(f"engagement {roster.engagements[j]}: not yet on the roster")
                continue
            if at.status != "active":
                body.append(text(x + 4, y + 12, short(at.fate.split(":")[0], 11), fill=GREY))
                words.append(f"engagement {roster.engagements[j]}: {at.fate}")
                continue
            w = cell - 10
            body.append(rect(x + 2, y + 2, w, 6, "#fff", f' stroke="{INK}" stroke-width=".6"'))
            body.append(rect(x + 2, y + 2, round(w * at.structure / at.most, 1) if at.most else 0, 6, BLUE))
            body.append(text(x + 2, y + 19, f"{at.structure}/{at.most} XP {at.xp}" + ("*" if at.traits else "")))
            words.append(f"engagement {roster.engagements[j]}: structure {at.structure} of {at.most}, {at.xp} XP"
                         + (f", traits {', '.join(at.traits)}" if at.traits else ""))
        said.append(f"{roster.names[ref]}: " + "; ".join(words))
        y += 24
    body.append(text(4, y + 10, "Each Aftermath: structure carried / most, experience; * a repair trait.", fill=GREY))
    width = name_w + len(roster.engagements) * cell + 8
    return frame(max(width, 330), y + 16, "The roster engagement by engagement. " + ". ".join(said) + ".", body,
                 "roster-timeline")
