"""The strength table of ``docs/scenarios.md``, written from the scenario files themselves:
``python -m referee.data.scenario_doc`` rewrites it, ``--check`` says whether it is current (the
test suite checks the same)."""
from __future__ import annotations

import sys

from .blackpowder import ROOT
from .scenario_strength import BEGIN, END, markdown
from .scenarios import load_scenarios

DOC = ROOT / "docs" / "scenarios.md"


def with_table(text: str, table: str) -> str:
    """``text`` with the part between the markers replaced by ``table``."""
    head, sep, rest = text.partition(BEGIN)
    if not sep or END not in rest:
        raise ValueError(f"docs/scenarios.md has no strength table between “{BEGIN}” and “{END}”")
    return head + table + rest.partition(END)[2]


def current_doc() -> str:
    return with_table(DOC.read_text(encoding="utf-8"), markdown(load_scenarios()))


def main(argv: list[str]) -> int:
    text, new = DOC.read_text(encoding="utf-8"), current_doc()
    if "--check" in argv:
        print("docs/scenarios.md matches the scenario files" if new == text else "docs/scenarios.md is out of date")
        return 0 if new == text else 1
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
