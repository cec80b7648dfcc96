"""Where Referee's data files live: the repository's root (its ``armylists/``, ``scenarios/`` and
campaign files), or ``REFEREE_DATA_ROOT`` when an installed copy is pointed at another copy of them."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("REFEREE_DATA_ROOT") or Path(__file__).resolve().parents[2])
