"""An odds line that also carries the chance of each outcome it speaks of, for the odds bars.

An action's ``odds`` answers lines of text ("Holds: 58.3%"); a line built as :class:`Chances` is
still that text (everything that reads it as a string reads it unchanged) and also holds the
outcomes it was worked out from, in order ("hits 0, 1, 2…", a break test's results, a table's
rows), so the form can draw them as bars beside the words. The numbers are the engine's own: the
picture never works a chance out again.
"""
from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction


class Chances(str):
    """A line of the odds and, as ``outcomes``, the (label, chance) of each of its outcomes."""

    outcomes: tuple[tuple[str, float], ...]
    title: str

    def __new__(cls, text: str, outcomes: Iterable[tuple[object, float | Fraction]], title: str = ""):
        line = super().__new__(cls, text)
        line.outcomes = tuple((str(label), float(p)) for label, p in outcomes)
        line.title = title or text.split(":")[0]
        return line

    def likeliest(self) -> str:
        """The outcome with the greatest chance (the first of equals), which the bars mark."""
        return max(self.outcomes, key=lambda o: o[1])[0] if self.outcomes else ""


def spread(chances: dict[int, float | Fraction], least: float = 0.005) -> list[tuple[int, float]]:
    """A count's chances (hits 0…N) in order, the long tail below ``least`` left off at each end,
    so a ROF 6 burst with Sustained Fire does not draw sixteen bars of nothing."""
    items = sorted((k, float(p)) for k, p in chances.items())
    while items and items[-1][1] < least:
        items.pop()
    while items and items[0][1] < least:
        items.pop(0)
    return items
