"""Rewrite imports of modules that moved when referee/ took a folder per layer (issue 39), so code
written against the old places (a branch merged after the move) imports the new ones.

Run from the repository's root: ``python scripts/follow_moves.py``. It changes only imports (and
dotted names such as ``referee.core.dice`` in tests and docs) whose old target no longer exists, so
running it twice changes nothing. Check the result with ruff and tests/test_architecture.py.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOVES = {  # old module -> where it is now
    "referee.blackpowder.orders": "referee.blackpowder.order_tests",
    "referee.contract": "referee.core.contract", "referee.board": "referee.core.board",
    "referee.changes": "referee.core.changes", "referee.dice": "referee.core.dice",
    "referee.results": "referee.core.results", "referee.errors": "referee.core.errors",
    "referee.docstate": "referee.core.docstate", "referee.records": "referee.core.reading",
    "referee.common": "referee.core.settings_actions", "referee.footprint": "referee.core.footprint",
    "referee.foe": "referee.core.foe", "referee.foe_actions": "referee.core.foe_actions",
    "referee.parse_limits": "referee.core.parse_limits", "referee.replay": "referee.systems.replay",
    "referee.recent": "referee.core.recent", "referee.table.recent_cache": "referee.core.recent",
    "referee.playing": "referee.table.playing",
    "referee.config": "referee.web.serving.config",
    "referee.web.battle_view": "referee.blackpowder.board_view",
    "referee.web.scenario_view": "referee.blackpowder.scenario_view",
    "referee.web.engagement_view": "referee.oilandiron.board_view",
    **{f"referee.web.{m}": f"referee.web.serving.{m}" for m in (
        "compression", "static_files", "quick_poll", "live", "workers", "input_limits", "security",
        "throttle", "serve", "error_pages", "lan", "folds")},
    # names that meant two things: "turns" is the game's turn sequence (blackpowder/turns.py) only
    "referee.table.turns": "referee.table.write_lock", "referee.web.turns": "referee.web.request_lock",
}
LINE = re.compile(r"^(\s*)from (\.+)([\w.]*) import (.*)$")
DOTTED = re.compile(r"(?<![\w.])(" + "|".join(re.escape(m) for m in sorted(MOVES, key=len, reverse=True)) + r")(?!\w)")


def package_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1]


def relative(from_package: list[str], target: str) -> str:
    t = target.split(".")
    c = 0
    while c < min(len(from_package), len(t)) and from_package[c] == t[c]:
        c += 1
    return "." * (len(from_package) - c + 1) + ".".join(t[c:])


def fix_imports(path: Path, text: str) -> str:
    package = package_of(path)
    out = []
    for line in text.split("\n"):
        m = LINE.match(line)
        if m:
            indent, dots, module, names = m.groups()
            base = package[: len(package) - (len(dots) - 1)]
            if module and ".".join(base + [module]) in MOVES:
                line = f"{indent}from {relative(package, MOVES['.'.join(base + [module])])} import {names}"
            elif not module and not names.strip().startswith("("):
                kept, moved = [], []
                for item in (n.strip() for n in names.split(",") if n.strip()):
                    name, _, alias = item.partition(" as ")
                    new = MOVES.get(".".join(base + [name]))
                    if new is None:
                        kept.append(item)
                    else:
                        parent, leaf = new.rsplit(".", 1)
                        bound = alias or name
                        moved.append(f"{indent}from {relative(package, parent)} import "
                                     f"{leaf if leaf == bound else f'{leaf} as {bound}'}")
                if moved:
                    line = "\n".join(([f"{indent}from {dots} import {', '.join(kept)}"] if kept else []) + moved)
        out.append(line)
    return "\n".join(out)


def main() -> None:
    for path in sorted(ROOT.rglob("*")):
        if not path.is_file() or any(p in path.parts for p in (".git", "node_modules", ".hypothesis", "__pycache__")):
            continue
        if path.suffix not in (".py", ".md", ".html", ".js", ".toml") or path.name in (
                "README.md", "performance-history.md", "follow_moves.py"):
            continue
        text = path.read_text(encoding="utf-8")
        new = fix_imports(path, text) if path.suffix == ".py" and path.parts[len(ROOT.parts)] == "referee" else text
        new = DOTTED.sub(lambda m: MOVES[m.group(1)], new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print("followed the moves:", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
