"""The example lists shipped in ``armylists/lists/`` (export files, so they also show the format)."""
from __future__ import annotations

from pathlib import Path

from ..data.blackpowder import ROOT
from .problems import ListFileError
from .travel import ListModel, import_text

FOLDER = ROOT / "armylists" / "lists"


def example_files(folder: Path | None = None) -> list[Path]:
    return sorted((folder or FOLDER).glob("*.json"))


def example_lists(folder: Path | None = None) -> dict[str, ListModel]:
    """Every shipped example list by file stem; a broken file raises ListFileError naming it."""
    out = {}
    for path in example_files(folder):
        try:
            out[path.stem] = import_text(path.read_bytes())
        except ListFileError as e:
            raise ListFileError(f"{path.name}: {e}") from None
    return out
