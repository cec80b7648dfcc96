"""The frame every picture shares: an ``<svg role="img">`` named by its numbers, scaled to the width
it is given (``viewBox``, never wider than its box), and the few colours they use.

The colours are Okabe and Ito's, told apart with the common colour blindnesses; no picture says
anything by colour alone (each state also has its letter, pattern or label).
"""
from __future__ import annotations

from markupsafe import Markup, escape

BLUE, ORANGE, SKY, GREEN, YELLOW, VERMILLION, PURPLE = (
    "#0072B2", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#D55E00", "#CC79A7")
INK, GREY, PALE = "#222", "#767676", "#e8e8e8"


def esc(text: object) -> str:
    return str(escape(str(text)))


def frame(width: int, height: int, label: str, body: list[str], cls: str = "", tooltip: bool = True) -> Markup:
    """The picture: ``label`` is what a screen reader says (its numbers, in words), also shown
    as the tooltip unless ``tooltip`` is False (a picture drawn many times on the board, whose
    words are beside it anyway)."""
    lab = esc(label)
    drawn = (f'<svg xmlns="http://www.w3.org/2000/svg" class="picture {cls}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{lab}" font-size="11" '
        f'font-family="sans-serif">{f"<title>{lab}</title>" if tooltip else ""}{"".join(body)}</svg>')
    # One byte per character, as everything drawn for the board (web/serving/live.py).
    return Markup(drawn.encode("latin-1", "xmlcharrefreplace").decode("latin-1"))  # noqa: S704 - escaped above


def text(x: float, y: float, words: object, anchor: str = "start", weight: str = "", fill: str = INK) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" fill="{fill}"{bold}>{esc(words)}</text>'


def rect(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"{extra}/>'


def percent(p: float) -> str:
    return f"{p:.0%}" if p >= 0.095 or p == 0 else f"{p:.1%}"


def short(words: str, most: int) -> str:
    return words if len(words) <= most else words[: most - 1] + "…"
