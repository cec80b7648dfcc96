"""Squadron tiers and formations, read from ``armylists/oilandiron/formations.yaml``."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..data.oilandiron import ARMYLISTS, WEIGHT_CLASSES, DataError

FILE = ARMYLISTS / "formations.yaml"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Formation(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    light: int = Field(ge=0)
    medium: int = Field(ge=0)
    heavy: int = Field(ge=0)
    colossal: int = Field(ge=0)

    def counts(self) -> dict[str, int]:
        return {w: getattr(self, w) for w in WEIGHT_CLASSES}

    def describe(self) -> str:
        return ", ".join(f"{n} {w.title()}" for w, n in self.counts().items() if n)


class Tier(_Model):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    formations: list[Formation] = Field(min_length=1)


class FormationFile(_Model):
    tiers: list[Tier] = Field(min_length=1)


@cache
def load_tiers(path: Path | None = None) -> dict[str, Tier]:
    path = path or FILE
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        data = FormationFile.model_validate(raw)
    except yaml.YAMLError as e:
        raise DataError(f"{path.name}: not valid YAML: {e}") from None
    except ValidationError as e:
        err = e.errors()[0]
        raise DataError(f"{path.name}: {'.'.join(str(x) for x in err['loc'])}: {err['msg']}") from None
    tiers: dict[str, Tier] = {}
    seen: set[str] = set()
    for t in data.tiers:
        if t.key in tiers:
            raise DataError(f"{path.name}: tier “{t.key}” appears twice")
        for f in t.formations:
            if f.key in seen:
                raise DataError(f"{path.name}: formation “{f.key}” appears twice")
            seen.add(f.key)
        tiers[t.key] = t
    return tiers


def formation(tier: str, key: str) -> Formation | None:
    t = load_tiers().get(tier)
    return next((f for f in t.formations if f.key == key), None) if t else None
