"""Squadron tiers and formations for the builder, keyed by tier. The file and its validation
live in :mod:`referee.data.oilandiron` (one source for the engine and the builder)."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from ..data.oilandiron import Formation, Tier, load_formations

__all__ = ["Formation", "Tier", "formation", "load_tiers"]


@cache
def load_tiers(path: Path | None = None) -> dict[str, Tier]:
    return {t.key: t for t in load_formations(path).tiers}


def formation(tier: str, key: str) -> Formation | None:
    t = load_tiers().get(tier)
    return next((f for f in t.formations if f.key == key), None) if t else None
