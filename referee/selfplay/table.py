"""The simulated table's ground: where each piece stands and which way it faces, measured as a
player with a tape measures, on open ground. Pure (no Flask, no database, no clock, no
``random``): the same pieces always give the same answers.

A table is ``width`` inches across and ``depth`` inches from the first side's edge (y = 0) to the
second's (y = depth). A facing is an angle in degrees: 90 looks from the first side's edge towards
the second's, 270 back. What it leaves out is said in ``docs/foe.md`` (terrain, line of sight,
models' footprints: every piece is a point, the ground is open, nothing blocks sight).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.foe import CANT_TELL


@dataclass
class Spot:
    """Where a piece stands and which way it faces."""

    x: float
    y: float
    facing: float

    def distance(self, other: "Spot") -> float:
        return math.hypot(other.x - self.x, other.y - self.y)

    def bearing(self, other: "Spot") -> float:
        """The angle from this spot to the other, in degrees."""
        return math.degrees(math.atan2(other.y - self.y, other.x - self.x)) % 360

    def off_facing(self, other: "Spot") -> float:
        """How far (0 to 180 degrees) the other spot lies off this piece's facing."""
        turn = abs(self.bearing(other) - self.facing) % 360
        return min(turn, 360 - turn)

    def towards(self, other: "Spot", inches: float, stop_short: float = 0.0) -> "Spot":
        """This piece moved straight at the other, at most ``inches``, halting ``stop_short`` from it;
        it ends facing the other."""
        gap = self.distance(other)
        facing = self.bearing(other) if gap else self.facing
        step = max(0.0, min(inches, gap - stop_short))
        if not gap:
            return Spot(self.x, self.y, facing)
        return Spot(self.x + (other.x - self.x) * step / gap, self.y + (other.y - self.y) * step / gap, facing)

    def ahead(self, inches: float, width: float, depth: float) -> "Spot":
        """This piece moved straight ahead, kept on the table."""
        rad = math.radians(self.facing)
        return Spot(min(width, max(0.0, self.x + math.cos(rad) * inches)),
                    min(depth, max(0.0, self.y + math.sin(rad) * inches)), self.facing)


def arc_of(spot: Spot, other: Spot, front: float = 45.0, rear: float = 135.0) -> str:
    """Which of ``spot``'s arcs the other stands in: "front" within ``front`` degrees of its facing,
    "rear" beyond ``rear``, "side" (a flank) between."""
    off = spot.off_facing(other)
    return "front" if off <= front else "rear" if off > rear else "side"


def band_answer(options: tuple[tuple[str, str], ...], inches: float | None) -> str:
    """The nearest distance band a question offers that holds ``inches`` ("none" when nothing is
    seen): the bands are read from the question itself, so a Foe with other bands is answered
    the same way."""
    values = [v for v, _ in options]
    if inches is None:
        return "none" if "none" in values else CANT_TELL
    for value in values:
        if value.isdigit() and inches <= int(value):
            return value
    return "beyond" if "beyond" in values else CANT_TELL


def mirrored(y: float, depth: float, first_side: bool) -> float:
    """A distance from a side's own edge as a y on the table."""
    return y if first_side else depth - y
