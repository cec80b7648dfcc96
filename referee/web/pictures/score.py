"""An engagement's score by round: each player's victory points at every round's end as a pair of
columns, the player named under each and the points written on it (the board view's ``story``:
oilandiron/story.py)."""
from __future__ import annotations

from markupsafe import Markup

from .svg import BLUE, GREY, INK, VERMILLION, frame, rect, short, text

LEFT, WIDTH, HIGH = 46, 290, 70


def score_by_round(story) -> Markup:
    if story is None or not story.rounds:
        return Markup("")
    players = list(story.vp)
    top = max([v for rows in story.vp.values() for v in rows] + [1])
    step = min(48.0, WIDTH / len(story.rounds))
    bar = max(4.0, (step - 6) / max(len(players), 1))
    tones = dict(zip(players, (BLUE, VERMILLION)))
    body, said = [], []
    for i, rnd in enumerate(story.rounds):
        x0 = LEFT + i * step
        for j, pid in enumerate(players):
            vp = story.vp[pid][i]
            h = round(HIGH * vp / top, 1)
            x = x0 + j * bar
            body.append(rect(x, 8 + HIGH - h, bar - 1, h, tones[pid], f' stroke="{INK}" stroke-width=".6"'))
            body.append(text(x + bar / 2, 6 + HIGH - h, vp, "middle"))
        body.append(text(x0 + bar * len(players) / 2, HIGH + 22, rnd, "middle"))
    body.append(f'<line x1="{LEFT - 2}" x2="{LEFT + len(story.rounds) * step}" y1="{HIGH + 8}" y2="{HIGH + 8}" stroke="{INK}"/>')
    body.append(text(LEFT - 4, HIGH + 22, "round", "end", fill=GREY))
    y = HIGH + 40
    for j, pid in enumerate(players):
        body.append(rect(4 + j * 150, y - 9, 10, 10, tones[pid]))
        body.append(text(18 + j * 150, y, f"{'left' if j == 0 else 'right'}: {short(story.names[pid], 16)}"))
        said.append(f"{story.names[pid]}: " + ", ".join(f"round {r} {v} VP" for r, v in zip(story.rounds, story.vp[pid])))
    return frame(LEFT + WIDTH + 10, y + 8, "Victory points at each round's end. " + "; ".join(said) + ".", body,
                 "score-by-round")
