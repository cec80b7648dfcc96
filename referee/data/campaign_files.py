"""The campaigns' data files in ``scenarios/campaigns/``: the Of Oil and Iron example tables (and
any a club adds beside them) and the Hundred Days plan. Read here, in the data layer; the table
layer starts a campaign from what they hold. (The campaigns' rules are the code package
``referee/campaigns/``; a scenario folder is read by system, ``scenarios/<game>/``, so no game's
scenarios are looked for here.)"""
from __future__ import annotations

from pathlib import Path

import yaml

from ..core.errors import DataError
from .blackpowder import ROOT

FOLDER = ROOT / "scenarios" / "campaigns"


def table_files(folder: Path | None = None) -> dict[str, str]:
    """The Of Oil and Iron table files in ``scenarios/campaigns/``: file name -> its label."""
    out = {}
    for p in sorted((folder or FOLDER).glob("*.yaml")):
        raw = yaml.safe_load(p.read_text()) or {}
        if isinstance(raw, dict) and "recovery" in raw:
            out[p.name] = str(raw.get("label", p.stem))
    return out


def read_campaign_file(name: str, folder: Path | None = None) -> dict:
    """One file of ``scenarios/campaigns/`` by its name, as the table it holds (a DataError saying what is
    wrong when there is no such file or it holds no table)."""
    path = (folder or FOLDER) / name
    if "/" in name or not path.is_file():
        raise DataError(f"There is no campaign file “{name}”.")
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        raise DataError(f"{name} is not readable YAML: {e}") from None
    if not isinstance(raw, dict):
        raise DataError(f"{name} does not hold a table.")
    return raw
