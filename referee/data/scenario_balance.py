"""Each Waterloo scenario's balance when Referee plays both sides equally, as the scenario picker
shows it beside the strengths: measured by ``python -m referee selfplay ... --write-balance``
(``referee/selfplay/``) and kept in ``scenarios/balance/blackpowder.json``, never typed in."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import DataError
from .root import ROOT

BALANCE_FILE = ROOT / "scenarios" / "balance" / "blackpowder.json"


class _Measured(BaseModel):
    model_config = ConfigDict(extra="forbid")
    battles: int
    wins: dict[str, int]
    draws: int
    mean_turns: float
    mean_losses: list[float]
    measured_by: str


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scenarios: dict[str, _Measured]


@dataclass(frozen=True)
class Balance:
    """How often each side won in ``battles`` self-played games with equal Foes."""

    battles: int
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    mean_turns: float = 0.0
    measured_by: str = ""

    def share(self, side: str) -> str:
        return f"{100 * self.wins.get(side, 0) / self.battles:.0f}%" if self.battles else ""

    def words(self) -> str:
        drawn = f", {100 * self.draws / self.battles:.0f}% drawn" if self.draws else ""
        return f"{self.battles} games, {self.mean_turns:g} turns on average{drawn}"


@lru_cache(maxsize=4)
def balances(path: Path = BALANCE_FILE) -> dict[str, Balance]:
    """The measured balance by scenario id; none when nothing has been measured yet."""
    if not path.exists():
        return {}
    try:
        data = _File.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise DataError(f"{path.name}: not a balance file written by the selfplay command ({exc}).") from None
    return {key: Balance(m.battles, dict(m.wins), m.draws, m.mean_turns, m.measured_by)
            for key, m in data.scenarios.items()}
