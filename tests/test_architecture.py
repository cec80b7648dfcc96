"""Which part of Referee may import which, read from the source with ``ast`` (nothing is imported):

- no import circle among the modules of ``referee`` (imports run when a module loads: those at
  module level, ``if TYPE_CHECKING:`` blocks left out);
- an import inside a function only for a reason listed here (``IMPORTED_INSIDE_A_FUNCTION``);
- no module above 500 lines;
- the rules engines (``referee.blackpowder``, ``referee.oilandiron``) import nothing from the
  data files' readers, the web layer, the table service, Flask or the database, anywhere;
- only the entry points import the app factory (``referee.web.app``);
- the web layer reaches the engines, the data files and the campaigns only through their contract
  (``referee.systems``, ``referee.core.contract``, ``referee.core.board``, ``referee.data.starts``,
  ``referee.campaigns``);
- the serving machinery (``referee.web.serving``) imports no page, view or blueprint;
- the web layer builds no query of its own (no ``select`` from sqlmodel or sqlalchemy): it reads
  rows through the table layer's functions;
- each game's name and label are written in one place, its package's ``name.py`` (the contract,
  ``GameRules.name`` and ``label``, and everything else take them from there);
- the project stands alone: no test, module, benchmark or script names the shared folder
  outside the repository.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee"
MAX_LINES = 500
ENGINES = ("referee.blackpowder", "referee.oilandiron")
ENGINE_MAY_NOT_IMPORT = ("referee.data", "referee.web", "referee.table", "flask", "sqlmodel", "sqlalchemy")
APP_FACTORY = "referee.web.app"
ENTRY_POINTS = {"referee", "referee.__main__", "referee.web.serving.serve"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _base(importer: str, level: int) -> str:
    """The package a relative import of ``level`` dots starts from."""
    parts = importer.split(".")
    package = parts if _is_package(importer) else parts[:-1]
    return ".".join(package[: len(package) - (level - 1)] if level > 1 else package)


def targets(importer: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement loads, by full name (``from . import x`` is module x when
    there is one, else the package's own ``__init__``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = _base(importer, node.level) if node.level else ""
    mod = ".".join(p for p in (base, node.module or "") if p)
    found = []
    for alias in node.names:
        sub = f"{mod}.{alias.name}"
        found.append(sub if sub in MODULES else mod)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def module_level_imports(tree: ast.Module):
    """Import statements that run when the module loads: top level, and inside top-level if/try
    blocks (not functions or classes, not ``if TYPE_CHECKING:``)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                todo.extend(node.body)
            todo.extend(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *[h.body for h in node.handlers]):
                todo.extend(block)
        elif isinstance(node, ast.With):
            todo.extend(node.body)


def all_imports(tree: ast.Module):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}


def import_graph(within: str = "referee", deferred: bool = False) -> dict[str, set[str]]:
    """Who imports whom among the modules under ``within``; with ``deferred``, the imports made
    inside functions count too."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES if name == within or name.startswith(within + ".")}
    for name in graph:
        tree = TREES[name]
        for node in (all_imports(tree) if deferred else module_level_imports(tree)):
            graph[name].update(t for t in targets(name, node) if t in graph and t != name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# --- the reader itself, on small made-up cases ------------------------------------------------

def test_relative_imports_are_read_as_python_reads_them():
    pkg, mod = "referee.blackpowder", "referee.blackpowder.combat"
    assert _base(pkg, 1) == "referee.blackpowder" and _base(mod, 1) == "referee.blackpowder"
    assert _base(mod, 2) == "referee"
    [node] = ast.parse("from . import model").body
    assert targets(mod, node) == ["referee.blackpowder.model"]
    [node] = ast.parse("from .model import Battle").body
    assert targets(mod, node) == ["referee.blackpowder.model"]
    [node] = ast.parse("from ..core.errors import RuleError").body
    assert targets(mod, node) == ["referee.core.errors"]
    [node] = ast.parse("from .. import table").body
    assert targets("referee.web.app", node) == ["referee.table"]


def test_the_circle_finder_finds_a_circle_and_only_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_imports_inside_functions_and_type_checking_do_not_count_as_loading():
    tree = ast.parse("import a\nif TYPE_CHECKING:\n    import b\ntry:\n    import c\nexcept ImportError:\n"
                     "    import d\ndef f():\n    import e\n")
    assert [n.names[0].name for n in module_level_imports(tree)] == ["a", "c", "d"]


# --- the rules --------------------------------------------------------------------------------

def test_no_import_circle_in_referee():
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" → ".join(c) for c in found)


def test_no_circle_closes_through_an_import_inside_a_function():
    """A module split along a seam needs no import inside a function to dodge a circle: counting
    those imports too, no two modules of the package need each other."""
    found = circles(import_graph(deferred=True))
    assert not found, "import circles: " + "; ".join(" → ".join(c) for c in found)


# The imports made inside a function, each for a reason other than a circle (which the test above
# refuses). The list is exact (the test below fails when an import leaves it or joins it), so it
# can only shrink: an import is written at the top of its module unless one of these reasons holds.
IMPORTED_INSIDE_A_FUNCTION = {
    # ``import referee`` (the engines live in this package) loads no Flask and no database
    ("referee", "referee.web.app"),
    # the server's entry point makes the app, waitress and the checkpointer only when it runs;
    # workers.py and the tests read its settings without them; ctypes only where glibc is
    ("referee.web.serving.serve", "referee"), ("referee.web.serving.serve", "waitress"),
    ("referee.web.serving.serve", "referee.table.db"), ("referee.web.serving.serve", "ctypes"),
    ("referee.web.serving.serve", "referee.web.serving.keep_alive"),  # waitress's task, as waitress
    # gunicorn's settings module: every name at its top is read as a possible setting
    ("referee.web.serving.workers", "sys"), ("referee.web.serving.workers", "referee.web.serving.serve"),
}


def imported_inside_functions() -> set[tuple[str, str]]:
    return {(name, target) for name, tree in TREES.items() for f in ast.walk(tree)
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(f) if isinstance(node, (ast.Import, ast.ImportFrom))
            for target in targets(name, node)}


def test_imports_inside_functions_are_the_few_with_a_reason():
    found = imported_inside_functions()
    assert found <= IMPORTED_INSIDE_A_FUNCTION, (
        "imports inside functions: write them at the top of the module: "
        + "; ".join(f"{m} imports {t}" for m, t in sorted(found - IMPORTED_INSIDE_A_FUNCTION)))
    assert IMPORTED_INSIDE_A_FUNCTION <= found, f"no longer imported inside a function: {sorted(IMPORTED_INSIDE_A_FUNCTION - found)}"


def private_names_taken() -> list[str]:
    """Every ``from x import _name`` of a private name from another module of the package."""
    taken = []
    for name, tree in TREES.items():
        for node in all_imports(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            for alias, target in zip(node.names, targets(name, node)):
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and target.startswith("referee") and target != name:
                    taken.append(f"{name} (line {node.lineno}) takes {alias.name} from {target}")
    return taken


def test_the_private_name_finder_finds_one():
    tree = ast.parse("from .combat import _check_round, plans_for\n")
    assert tree and [a.name for a in tree.body[0].names if a.name.startswith("_")] == ["_check_round"]


def test_no_private_name_crosses_a_module():
    """What two modules share is public: a name with a leading underscore stays in its file."""
    taken = private_names_taken()
    assert not taken, "\n".join(taken)


def test_no_circle_in_the_web_layer_even_through_imports_inside_functions():
    """A blueprint imports the request's session from web/db.py, never the app factory, so
    the app factory importing the blueprints closes no circle, deferred or not."""
    found = circles(import_graph("referee.web", deferred=True))
    assert not found, "import circles: " + "; ".join(" → ".join(c) for c in found)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_above_500_lines(name):
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(ROOT)} has {lines} lines"


def test_the_engines_import_no_data_reader_web_table_flask_or_database():
    wrong = []
    for name, tree in TREES.items():
        if not name.startswith(ENGINES):
            continue
        for node in all_imports(tree):
            for target in targets(name, node):
                if target.startswith(ENGINE_MAY_NOT_IMPORT) and (
                        target in ENGINE_MAY_NOT_IMPORT or target.startswith(tuple(f"{p}." for p in ENGINE_MAY_NOT_IMPORT))):
                    wrong.append(f"{name} (line {node.lineno}) imports {target}")
    assert not wrong, "\n".join(wrong)


# The layers, lowest first, as docs/architecture.md draws them: a module imports only from its own
# layer or one below (imports inside functions counted). A layer is a folder (its sub-folders in it
# unless named on their own); the entry points may import the app factory from the top.
LAYERS = (
    ("referee.core",),
    ("referee.blackpowder", "referee.oilandiron"),
    ("referee.systems",),
    ("referee.campaigns", "referee.data"),
    ("referee.lists", "referee.reference"),
    ("referee.table",),
    ("referee.migrations",),
    ("referee.web.serving",),
    ("referee.web",),
    ("referee", "referee.__main__"),
)


def layer_of(name: str) -> int:
    """The layer a module sits in: the one naming its longest enclosing package."""
    best, depth = None, -1
    for i, folders in enumerate(LAYERS):
        for folder in folders:
            if (name == folder or name.startswith(folder + ".")) and folder.count(".") > depth:
                best, depth = i, folder.count(".")
    assert best is not None, f"{name} is in no layer"
    return best


def test_each_module_imports_only_its_own_layer_or_those_below():
    upward = []
    for name, tree in TREES.items():
        for node in all_imports(tree):
            for target in targets(name, node):
                if target not in MODULES or (name in ENTRY_POINTS and target in ("referee", APP_FACTORY)):
                    continue
                if layer_of(target) > layer_of(name):
                    upward.append(f"{name} (line {node.lineno}) imports {target}, a layer above it")
    assert not upward, "\n".join(upward)


def test_the_layer_reader_finds_an_import_upward():
    assert layer_of("referee.reference.names") < layer_of("referee.table.db")
    assert layer_of("referee.web.serving.live") < layer_of("referee.web.games")
    assert layer_of("referee.campaigns.views") > layer_of("referee.systems")


CAMPAIGNS_MAY_NOT_IMPORT = ENGINE_MAY_NOT_IMPORT + ("referee.lists", "referee.reference", "referee.migrations")


def test_the_campaigns_are_pure_rules_no_files_web_table_or_database():
    """The campaigns' rules, like a game's engine, take a document and facts and give a result:
    no data reader, web, table, Flask or database, and no file opened."""
    wrong = []
    for name, tree in TREES.items():
        if not name.startswith("referee.campaigns"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                wrong += [f"{name} (line {node.lineno}) imports {t}" for t in targets(name, node)
                          if t.startswith(CAMPAIGNS_MAY_NOT_IMPORT)]
            elif isinstance(node, ast.Call) and (
                    (isinstance(node.func, ast.Name) and node.func.id == "open") or
                    (isinstance(node.func, ast.Attribute) and node.func.attr in ("read_text", "read_bytes", "open"))):
                wrong.append(f"{name} (line {node.lineno}) reads a file")
    assert not wrong, "\n".join(wrong)


# The top of the package holds folders, one per layer, and the package's two entry modules.
TOP_LEVEL = {"referee", "referee.__main__"}


def test_every_module_sits_in_the_folder_of_its_layer():
    loose = sorted(name for name in MODULES if name.count(".") == 1 and not _is_package(name))
    assert set(loose) <= TOP_LEVEL, f"modules loose at the top of referee/: {sorted(set(loose) - TOP_LEVEL)}"


def test_only_the_entry_points_import_the_app_factory():
    importers = {name for name, tree in TREES.items()
                 for node in all_imports(tree) if APP_FACTORY in targets(name, node)}
    assert importers <= ENTRY_POINTS, importers - ENTRY_POINTS


def test_the_project_reads_nothing_outside_the_repository():
    needles = ("../" + "shared", "/work/" + "shared")  # spelled apart so this file does not match
    found = []
    for folder in ("tests", "referee", "bench", "scripts"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".sqlite"):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            found += [f"{path.relative_to(ROOT)}: {n}" for n in needles if n in text]
    assert not found, "\n".join(found)


# --- the Foe: Referee playing one side is as pure as the engines -------------------------------

FOE_MAY_NOT_IMPORT = ENGINE_MAY_NOT_IMPORT + ("random", "secrets", "time", "datetime", "os", "pathlib")


def foe_modules() -> list[str]:
    """The Foe's shared modules and every game's own Foe modules (``foe*.py`` in a game's package)."""
    return sorted(name for name in MODULES if name in ("referee.core.foe", "referee.core.foe_actions")
                  or (name.startswith(ENGINES) and name.rsplit(".", 1)[-1].startswith("foe")))


def test_there_is_a_foe_for_each_game():
    found = foe_modules()
    for engine in ENGINES:
        assert any(name.startswith(engine + ".") for name in found), engine


@pytest.mark.parametrize("name", foe_modules())
def test_the_foe_is_pure_no_web_table_database_files_clock_or_random(name):
    wrong = []
    for node in all_imports(TREES[name]):
        for target in targets(name, node):
            if any(target == p or target.startswith(p + ".") for p in FOE_MAY_NOT_IMPORT):
                wrong.append(f"{name} (line {node.lineno}) imports {target}")
    calls = {n.func.id for n in ast.walk(TREES[name]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    wrong += [f"{name} calls {c}()" for c in ("open", "__import__", "eval", "exec") if c in calls]
    assert not wrong, "\n".join(wrong)


def test_the_foe_reader_catches_an_impure_foe():
    tree = ast.parse("import random\nfrom ..web import app\n")
    hits = [t for node in all_imports(tree) for t in targets("referee.blackpowder.foe", node)
            if any(t == p or t.startswith(p + ".") for p in FOE_MAY_NOT_IMPORT)]
    assert hits == ["random", "referee.web.app"]


# --- the web layer meets the games through their contract ----------------------------------------

WEB = "referee.web"
# The engines, the data files' readers and the campaigns, which the web layer may not reach into.
GAME_INTERNALS = ("referee.blackpowder", "referee.oilandiron", "referee.data", "referee.campaigns")
# ... but through these: each game's contract and board view come from ``referee.systems`` (with
# ``referee.core.contract`` and ``referee.core.board``, which are not internals); the data files through
# the data layer's one face, its package (``referee.data``, re-exporting ``referee.data.starts``); the campaigns through their package (its kinds and the views of a
# campaign's document, as a game's pages ask its board view).
WEB_ENTRY_POINTS = {"referee.data", "referee.campaigns"}


def is_under(target: str, prefixes: tuple[str, ...]) -> bool:
    return any(target == p or target.startswith(p + ".") for p in prefixes)


def web_reaching_in() -> list[str]:
    wrong = []
    for name, tree in TREES.items():
        if not is_under(name, (WEB,)):
            continue
        for node in all_imports(tree):
            for target in targets(name, node):
                if is_under(target, GAME_INTERNALS) and target not in WEB_ENTRY_POINTS:
                    wrong.append(f"{name} (line {node.lineno}) imports {target}")
    return wrong


def test_the_web_layer_imports_no_engine_or_data_internals():
    """A page asks the game's contract (``system_for(name)``: its actions, offers, odds, and its board
    view, ``GAME.board``) and the data layer's face (the ``referee.data`` package), never an engine module."""
    wrong = web_reaching_in()
    assert not wrong, "\n".join(wrong)


def test_the_web_reader_catches_a_page_reaching_into_an_engine():
    for source, hit in (("from ..blackpowder.model import Battle\n", "referee.blackpowder.model"),
                        ("from ..data.scenarios import list_scenarios\n", "referee.data.scenarios"),
                        ("from ..data.starts import list_scenarios\n", "referee.data.starts"),
                        ("from ..oilandiron import GAME\n", "referee.oilandiron")):
        [node] = ast.parse(source).body
        found = [t for t in targets("referee.web.games", node)
                 if is_under(t, GAME_INTERNALS) and t not in WEB_ENTRY_POINTS]
        assert found == [hit], source
    [node] = ast.parse("from ..data import list_scenarios\n").body
    assert targets("referee.web.games", node) == ["referee.data"]


SERVING = "referee.web.serving"


def above_serving(target: str) -> bool:
    """A page, a view or a blueprint: anything of ``referee.web`` outside ``referee.web.serving``."""
    return is_under(target, (WEB,)) and not is_under(target, (SERVING,))


def serving_reaching_up() -> list[str]:
    return [f"{name} (line {node.lineno}) imports {target}"
            for name, tree in TREES.items() if is_under(name, (SERVING,))
            for node in all_imports(tree) for target in targets(name, node) if above_serving(target)]


def test_the_serving_machinery_imports_no_page_or_view():
    """How the app is served (workers, headers, compression, the live parts, the quick poll, what a
    tablet with folded brigades is sent) knows no page: the blueprints and views import it, never
    the other way round."""
    wrong = serving_reaching_up()
    assert not wrong, "\n".join(wrong)


def test_the_serving_reader_catches_serving_reaching_into_a_view():
    [node] = ast.parse("from ..views import render_game\n").body
    assert [t for t in targets("referee.web.serving.quick_poll", node) if above_serving(t)] == ["referee.web.views"]
    [node] = ast.parse("from .folds import named\n").body
    assert not [t for t in targets("referee.web.serving.quick_poll", node) if above_serving(t)]


# --- each game's name is written in one place -----------------------------------------------------

# Each game's name (stored with its games, lists and data folders) and label (what a person reads),
# written once, in its package's ``name.py``: the engine's own modules import them from there, the
# rest of the app asks ``referee.systems``.
NAMES_BY_MODULE = {
    "referee.blackpowder.name": ("blackpowder", "Black Powder Epic Battles"),
    "referee.oilandiron.name": ("oilandiron", "Of Oil and Iron"),
}
NAMED_IN = set(NAMES_BY_MODULE)
GAME_NAMES = tuple(n for names in NAMES_BY_MODULE.values() for n in names)


def names_written(tree: ast.AST, names: tuple[str, ...]) -> list[int]:
    """The lines where ``tree`` writes one of ``names`` as a whole string."""
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in names]


def game_names_written(names: tuple[str, ...] = GAME_NAMES) -> dict[str, list[int]]:
    """The modules writing one of ``names`` as a whole string, with the lines where they do."""
    found: dict[str, list[int]] = {}
    for name, tree in TREES.items():
        if name.startswith("referee.migrations"):
            continue  # a migration is history: it names the games as they were
        lines = names_written(tree, names)
        if lines:
            found[name] = lines
    return found


def test_each_game_is_named_in_one_place():
    found = game_names_written()
    wrong = {name: lines for name, lines in found.items() if name not in NAMED_IN}
    assert not wrong, "game names written outside their name.py (import them, from referee.systems outside the engine): " + "; ".join(
        f"{name} (lines {lines})" for name, lines in sorted(wrong.items()))
    for module, names in NAMES_BY_MODULE.items():
        for one in names:
            assert len(game_names_written((one,)).get(module, [])) == 1, f"{module} writes “{one}” once"


def test_the_name_finder_finds_a_name_written_as_a_whole_string():
    tree = ast.parse('SYSTEM = "blackpowder"\nPATH = "armylists/blackpowder"\nKEYS = {("oilandiron", "perks"): 1}\n')
    assert names_written(tree, GAME_NAMES) == [1, 3]


# The web layer reads rows only through the table layer's functions (a game's log, a campaign's
# players, whether the table holds a game): it builds no query of its own.
DATABASE = ("sqlmodel", "sqlalchemy")


def selects_in(tree: ast.Module) -> list[int]:
    """The lines where a module takes ``select`` from sqlmodel or sqlalchemy (any sub-module, any
    alias, ``*``) or calls it through the package (``sqlmodel.select``, ``sa.select``)."""
    packages = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names if alias.name.split(".")[0] in DATABASE}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in DATABASE:
            if any(alias.name in ("select", "*") for alias in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "select":
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in packages:
                lines.append(node.lineno)
    return sorted(lines)


def test_the_web_layer_builds_no_query_of_its_own():
    wrong = [f"{name} (lines {lines})" for name, tree in TREES.items() if is_under(name, (WEB,))
             for lines in [selects_in(tree)] if lines]
    assert not wrong, "the web layer selects rows itself (ask a function of referee.table): " + "; ".join(wrong)


def test_the_query_reader_finds_select_however_it_is_taken():
    for source in ("from sqlmodel import select\n", "from sqlalchemy import select as pick\n",
                   "from sqlalchemy.sql import select\n", "from sqlmodel import *\n",
                   "import sqlalchemy as sa\nrows = sa.select(1)\n", "import sqlmodel\nrows = sqlmodel.select(1)\n",
                   "import sqlalchemy.sql\nrows = sqlalchemy.sql.select(1)\n"):
        assert selects_in(ast.parse(source)), source
    for source in ("from sqlalchemy.exc import IntegrityError\n", "from .lists import select\n",
                   "import selectors\nselectors.select\n", "rows = things.select(1)\n"):
        assert not selects_in(ast.parse(source)), source
