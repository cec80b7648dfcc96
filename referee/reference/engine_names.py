"""Every rule name the engines can put in a result's modifiers, read from their source: the names
the reference must lead to an entry (its test) and the rule links its benchmark times.

The engines write a modifier as ``Modifier(amount, rule, applies_to)``. The rule is a string
literal, a module constant, a dict of labels looked up by key, an f-string, or a choice between
such; this walks the source (no engine code runs) and spells out every name it can produce.
An f-string part that is not a label table (a unit's or weapon's name, a number) becomes
``PLACEHOLDER``, so "Heavy Cavalry ({unit.name}, D3 rolled {d.value})" is checked as
"Heavy Cavalry (Xx, D3 rolled Xx)".
"""
from __future__ import annotations

import ast
from pathlib import Path

from ..systems import BLACK_POWDER, OIL_AND_IRON

PACKAGE = Path(__file__).resolve().parents[1]
# Each game's engine is the package named after it.
ENGINES = {game: PACKAGE / game for game in (BLACK_POWDER, OIL_AND_IRON)}
PLACEHOLDER = "Xx"


class Unresolvable(Exception):
    pass


def _constants(tree: ast.Module) -> dict[str, ast.AST]:
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out[node.target.id] = node.value
    return out


def _imported(tree: ast.Module, folder: Path) -> dict[str, tuple[Path, str]]:
    """Names imported from sibling modules (``from .morale import LANCERS``)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            path = folder / (node.module.replace(".", "/") + ".py")
            for alias in node.names:
                out[alias.asname or alias.name] = (path, alias.name)
    return out


class _Module:
    cache: dict[Path, "_Module"] = {}

    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(), str(path))
        self.consts = _constants(self.tree)
        self.imports = _imported(self.tree, path.parent)

    @classmethod
    def get(cls, path: Path) -> "_Module":
        if path not in cls.cache:
            cls.cache[path] = cls(path)
        return cls.cache[path]

    def lookup(self, name: str) -> ast.AST:
        if name in self.consts:
            return self.consts[name]
        if name in self.imports:
            path, real = self.imports[name]
            if path.exists():
                return _Module.get(path).lookup(real)
        raise Unresolvable(name)

    def strings(self, node: ast.AST) -> list[str]:
        """Every string ``node`` can evaluate to."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.Name):
            try:
                return self.strings(self.lookup(node.id))
            except Unresolvable:
                return [PLACEHOLDER]
        if isinstance(node, ast.IfExp):
            return self.strings(node.body) + self.strings(node.orelse)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return [a + b for a in self.strings(node.left) for b in self.strings(node.right)]
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            try:
                table = self.lookup(node.value.id)
            except Unresolvable:
                return [PLACEHOLDER]
            if isinstance(table, ast.Dict):
                return [s for v in table.values for s in self.strings(v)]
            return [PLACEHOLDER]
        if isinstance(node, ast.JoinedStr):
            out = [""]
            for part in node.values:
                if isinstance(part, ast.Constant):
                    out = [o + part.value for o in out]
                else:
                    options = self.strings(part.value)
                    out = [o + p for o in out for p in options]
            return out
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            # ``m.rule`` of another modifier: a wrapper, the inner name is checked where it is made.
            return [PLACEHOLDER]
        return [PLACEHOLDER]


def modifier_rule_names() -> dict[str, list[tuple[str, str]]]:
    """{game: [(rule name, "file:line"), ...]} for every Modifier(...) call in the engines."""
    found: dict[str, list[tuple[str, str]]] = {}
    for game, folder in ENGINES.items():
        rows = found.setdefault(game, [])
        for path in sorted(folder.glob("*.py")):
            module = _Module.get(path)
            for node in ast.walk(module.tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Modifier"
                        and len(node.args) >= 2):
                    for name in module.strings(node.args[1]):
                        rows.append((name, f"{path.name}:{node.lineno}"))
    return found


def is_wrapper(name: str) -> bool:
    """A name made only of placeholders ("Xx: Xx"): it wraps another modifier's rule."""
    return name.replace(PLACEHOLDER, "").strip(" :()") == ""
