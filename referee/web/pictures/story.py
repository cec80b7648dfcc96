"""A battle's story: each army's units by state at every turn's end as stacked columns (fit at the
bottom, then disordered, shaken, lost, not yet arrived on top), its broken brigades against the
army's break point under them, the turn limit, reserves' arrival turns and the clock marked, and
its dice against the odds (the game's board view's ``story``: blackpowder/story.py).

The states differ in lightness and outline as well as hue (white, yellow, vermillion, dark grey,
dashed), are stacked in one order the key gives, and the numbers are in a table beside it.
"""
from __future__ import annotations

from markupsafe import Markup

from .svg import GREY, INK, VERMILLION, YELLOW, frame, rect, text

LAYERS = (("fit", "fit", "#fff", ""), ("disordered", "disordered", YELLOW, ""),
          ("shaken", "shaken", VERMILLION, ""), ("lost", "lost", "#555", ""),
          ("awaiting", "to arrive", "#fff", ' stroke-dasharray="2 2"'))
LEFT, WIDTH, HIGH = 58, 280, 64


def luck_words(name: str, luck) -> str:
    if luck is None or not luck.dice:
        return f"{name} threw no dice to hit yet."
    return (f"{name} rolled {luck.hits} hits from {luck.dice} dice to hit, "
            f"where {luck.expected:.1f} were expected.")


def _side(story, side: str, top: int, y: int, step: float) -> tuple[list[str], str]:
    """One army's columns: a path per state (one column's box each), its broken brigades under
    them, its reserves' turns; and what its label says (the first and the latest turn read)."""
    name = story.names[side]
    body = [text(4, y + 10, name[:14], weight="bold")]
    paths: dict[str, list[str]] = {key: [] for key, *_ in LAYERS}
    broken = []
    for turn, at in zip(story.turns, story.sides[side]):
        x = LEFT + (turn - 1) * step + 1
        base = y + HIGH
        for key, *_ in LAYERS:
            n = getattr(at, key)
            if n:
                h = round(HIGH * n / top, 1)
                base = round(base - h, 1)
                paths[key].append(f"M{x:g} {base:g}h{max(step - 3, 2):g}v{h:g}h-{max(step - 3, 2):g}z")
        strong = ' font-weight="bold"' if at.army_broken or at.broken >= at.break_at > 0 else ""
        broken.append(f'<text x="{x + step / 2 - 2:g}" y="{y + HIGH + 11}"{strong}>{at.broken}</text>')
    for key, _, fill, dash in LAYERS:
        if paths[key]:
            body.append(f'<path data-layer="{key}" d="{"".join(paths[key])}" fill="{fill}" stroke="{INK}" '
                        f'stroke-width=".6"{dash}/>')
    body.append(f'<g text-anchor="middle">{"".join(broken)}</g>')
    at = story.sides[side][-1]
    body.append(text(LEFT - 4, y + HIGH + 11, f"broken/{at.break_at}", "end", fill=GREY))
    for turn in story.arrivals.get(side, []):
        x = LEFT + (turn - 0.5) * step - 1
        body.append(f'<path d="M{x:.1f} {y + HIGH + 14}l-4 6h8z" fill="{INK}"/>')
    said = [f"turn {turn}: {at.fit} fit, {at.disordered} disordered, {at.shaken} shaken, {at.lost} lost"
            + (f", {at.awaiting} to arrive" if at.awaiting else "")
            + f", {at.broken} of {at.brigades} brigades broken (army breaks at {at.break_at})"
            for turn, at in list(zip(story.turns, story.sides[side]))[:: max(1, len(story.turns) - 1)]]
    return body, f"{name}: " + "; ".join(said)


def battle_story(story) -> Markup:
    if story is None or not story.turns:
        return Markup("")
    sides = list(story.sides)
    last = max([story.turn_limit or 0, *story.turns])
    step = min(24.0, WIDTH / last)
    top = max(sum(getattr(a, k) for k, *_ in LAYERS) for s in sides for a in story.sides[s]) or 1
    body, label = [], []
    y = 4
    for side in sides:
        part, said = _side(story, side, top, y, step)
        body += part
        label.append(said)
        y += HIGH + 26
    # the turns, the clock every few, and the turn limit
    every = max(1, round(22 / step))
    for t in range(1, last + 1):
        x = LEFT + (t - 0.5) * step - 1
        if (t - 1) % every == 0 or t == last:
            body.append(text(x, y + 2, t, "middle"))
            if story.clock.get(t) and (t - 1) % (every * 2) == 0:
                body.append(text(x, y + 14, story.clock[t], "middle", fill=GREY))
    body.append(text(LEFT - 4, y + 2, "turn", "end", fill=GREY))
    if story.turn_limit:
        x = LEFT + story.turn_limit * step - 1
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="2" y2="{y - 8}" stroke="{INK}" stroke-dasharray="4 3"/>')
        body.append(text(x - 2, y - 10, f"limit {story.turn_limit}", "end", fill=GREY))
    y += 28
    x = 4
    for key, word, fill, dash in LAYERS:
        body.append(rect(x, y - 9, 10, 10, fill, f' stroke="{INK}"{dash}'))
        body.append(text(x + 13, y, word))
        x += 22 + 6 * len(word)
    body.append(text(4, y + 14, "States from the bottom up. Under each turn: brigades broken.", fill=GREY))
    body.append(text(4, y + 28, "▲ reserves due to arrive.", fill=GREY))
    y += 34
    for side in sides:
        y += 14
        words = luck_words(story.names[side], story.luck.get(side))
        body.append(text(4, y, words))
        label.append(words.rstrip("."))
    # The label says the first turn and the latest; every turn's numbers are in the table beside it.
    return frame(LEFT + WIDTH + 16, y + 6, "The battle by turn. " + ". ".join(label), body, "battle-story",
                 tooltip=False)
