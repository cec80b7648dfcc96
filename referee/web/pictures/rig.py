"""A Rig at a glance: its four hit locations drawn as a walker (engine on its back, hull, arms
either side, legs below), each filled to the structure it has left and crossed out when it is
down to nothing, with its heat as a column against the Heat Threshold (the board view's
``LocationBar`` and ``HeatGauge``: oilandiron/board_view.py).
"""
from __future__ import annotations

from markupsafe import Markup

from .svg import BLUE, INK, ORANGE, VERMILLION, frame, rect, text

# location key -> its boxes (x, y, w, h) on the walker and where its figures are written
SHAPES = {
    "engine": ([(52, 2, 46, 16)], (75, 14)),
    "hull": ([(42, 20, 66, 40)], (75, 44)),
    "arms": ([(14, 22, 25, 36), (111, 22, 25, 36)], (26, 44)),
    "legs": ([(48, 62, 24, 40), (78, 62, 24, 40)], (60, 86)),
}
SHORT = {"engine": "Eng", "hull": "Hull", "arms": "Arms", "legs": "Legs"}
GAUGE_X, GAUGE_TOP, GAUGE_H, GAUGE_W = 160, 6, 92, 16


def described(name: str, locations, heat) -> str:
    parts = []
    for loc in locations:
        word = f"{loc.label} {loc.sp} of {loc.max}"
        if loc.catastrophic:
            word += " (catastrophic)"
        elif loc.sp == 0:
            word += " (destroyed)"
        parts.append(word)
    above = ", above its threshold" if heat.heat > heat.threshold else ""
    return (f"{name}: structure {', '.join(parts)}; heat {heat.heat} of {heat.track}, "
            f"threshold {heat.threshold}{above}.")


def _location(loc) -> list[str]:
    boxes, (tx, ty) = SHAPES[loc.key]
    left = loc.sp / loc.max if loc.max else 0
    out = []
    for x, y, w, h in boxes:
        out.append(rect(x, y, w, h, "#fff", f' stroke="{INK}" rx="3"'))
        if left:
            filled = round(h * left, 1)
            out.append(rect(x + 1, y + h - filled, w - 2, filled, BLUE if left > 0.5 else ORANGE))
        if loc.sp == 0 or loc.catastrophic:
            out.append(f'<path d="M{x} {y}L{x + w} {y + h}M{x + w} {y}L{x} {y + h}" stroke="{VERMILLION}" '
                       f'stroke-width="2.5"/>')
    words = f"{SHORT[loc.key]} {loc.sp}/{loc.max}"
    if loc.key == "legs":
        words = f"Legs {loc.sp}/{loc.max}"
        out.append(f'<rect x="{tx - 4}" y="{ty - 10}" width="38" height="13" fill="#fff" opacity=".85"/>')
        out.append(text(tx + 15, ty, words, "middle", "bold"))
    elif loc.key == "arms":
        out.append(text(26, 19, "Arms", "middle", "bold"))
        out.append(text(26, ty, f"{loc.sp}/{loc.max}", "middle", "bold"))
        out.append(text(124, ty, f"{loc.sp}/{loc.max}", "middle", "bold"))
    else:
        out.append(f'<rect x="{tx - 22}" y="{ty - 10}" width="44" height="13" fill="#fff" opacity=".85"/>')
        out.append(text(tx, ty, words, "middle", "bold"))
    return out


def _gauge(heat) -> list[str]:
    track = max(heat.track, 1)
    cell = GAUGE_H / track
    out = [rect(GAUGE_X, GAUGE_TOP, GAUGE_W, GAUGE_H, "#fff", f' stroke="{INK}"')]
    shown = min(heat.heat, track)
    if shown:
        h = round(cell * shown, 1)
        out.append(rect(GAUGE_X + 1, GAUGE_TOP + GAUGE_H - h, GAUGE_W - 2, h,
                        VERMILLION if heat.heat > heat.threshold else ORANGE))
    y = round(GAUGE_TOP + GAUGE_H - cell * heat.threshold, 1)
    out.append(f'<line x1="{GAUGE_X - 4}" x2="{GAUGE_X + GAUGE_W + 4}" y1="{y}" y2="{y}" stroke="{INK}" '
               f'stroke-width="2" stroke-dasharray="4 2"/>')
    out.append(text(GAUGE_X + GAUGE_W + 6, y + 4, f"T {heat.threshold}", weight="bold"))
    out.append(text(GAUGE_X + GAUGE_W / 2, GAUGE_TOP + GAUGE_H + 12, f"Heat {heat.heat}", "middle", "bold"))
    return out


def rig_diagram(name: str, locations, heat) -> Markup:
    body = [part for loc in locations if loc.key in SHAPES for part in _location(loc)]
    body += _gauge(heat)
    return frame(205, 112, described(name, locations, heat), body, "rig-diagram")
