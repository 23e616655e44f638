"""The package's structure, drawn from its imports: a few top-level units in layers, and no import circle.

Every ``import`` of every module counts, those inside functions too (a lazy import is still an
arrow). A unit may import the units below it in :data:`LAYERS`, never one above it or beside it in the
same layer; inside a unit, modules may import each other but never in a circle.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "unosim"

#: the top-level units of ``unosim``, highest first; units in one tuple are independent of each other
LAYERS = (
    ("__main__",),
    ("cli",),
    ("explore",),
    ("strategies", "design"),
    ("reporting",),
    ("analysis",),
    ("pipeline",),
    ("play",),
    ("engine", "reference"),
    ("store",),
    ("game",),
)
MAX_UNITS = 13   # design search (unosim.design) made it 13: a concept of its own, beside strategies
#: the modules of ``unosim.store``, highest first: the reader above integrity, integrity above what it checks
#: (the manifest's seal, the ledger's records, the parts the writer wrote), all above the dataset's layout
STORE_LAYERS = (("reader", "resume"), ("integrity",), ("manifest", "writer", "proofs"), ("ledger", "growth"),
                ("layout", "columns", "consolidate", "interop", "lock", "table_store"), ("atomic",))

#: the rooms of ``unosim.engine``, highest first: the core over the mechanisms' wings over the policies
#: over the game record; the build switches (``features``) under them and the build machinery (never
#: compiled, imported by every kernel module for its ``njit``) at the bottom
ENGINE_LAYERS = (("core",), ("mechanics",), ("policies",), ("record",), ("features",), ("compiler",))
MAX_ENGINE_ROOMS = 8


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """module -> the unosim modules it imports (a name imported from a package counts as its module
    when it is one, else as the package)."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                for alias in node.names:
                    targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base)
        graph[module] = {t for t in targets if t in paths and t != module}
    return graph


def _unit(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def _rank(unit: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if unit in layer)


def test_unosim_has_at_most_thirteen_top_level_units_and_each_sits_in_a_layer():
    units = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()}
    assert len(units) <= MAX_UNITS, sorted(units)
    assert units == {u for layer in LAYERS for u in layer}


def back_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Arrows from a unit to one above it or beside it in its layer."""
    return sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if _unit(m) and _unit(t) and _unit(m) != _unit(t) and _rank(_unit(t)) <= _rank(_unit(m)))


def circles(graph: dict[str, set[str]]) -> list[str]:
    """Every import circle a depth-first walk meets (``unosim`` itself, the package's face, excepted)."""
    state: dict[str, int] = {}
    found = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if target == "unosim":
                continue
            if state.get(target) == 1:
                found.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found


def test_no_unit_imports_a_unit_above_it_or_beside_it():
    assert back_arrows(import_graph()) == []


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_the_store_is_layered_with_the_reader_above_integrity():
    graph = import_graph()
    rank = {f"unosim.store.{name}": i for i, layer in enumerate(STORE_LAYERS) for name in layer}
    assert {m for m in graph if m.startswith("unosim.store.")} == set(rank)
    upward = sorted(f"{m} -> {t}" for m in rank for t in graph[m] if t in rank and rank[t] <= rank[m])
    assert upward == []


def _engine_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["unosim", "engine"] else None


def engine_back_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Arrows between the engine's rooms that run up :data:`ENGINE_LAYERS` or across one layer."""
    rank = {room: i for i, layer in enumerate(ENGINE_LAYERS) for room in layer}
    return sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if _engine_room(m) and _engine_room(t) and _engine_room(m) != _engine_room(t)
                  and rank[_engine_room(t)] <= rank[_engine_room(m)])


def test_the_engine_is_a_stack_of_at_most_eight_rooms_without_a_back_arrow():
    engine = PACKAGE / "engine"
    rooms = {p.stem if p.is_file() else p.name for p in engine.iterdir()
             if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()}
    assert len(rooms) + 1 <= MAX_ENGINE_ROOMS   # the package's face is a room too
    assert rooms == {room for layer in ENGINE_LAYERS for room in layer}
    graph = import_graph()
    assert engine_back_arrows(graph) == []
    graph["unosim.engine.record.piles"] = graph["unosim.engine.record.piles"] | {"unosim.engine.mechanics.spin"}
    assert engine_back_arrows(graph) == ["unosim.engine.record.piles -> unosim.engine.mechanics.spin"]


def test_the_checks_find_a_planted_back_arrow_and_circle():
    """The checks themselves: the old dataset <-> integrity circle, and a store module importing the
    pipeline, planted into the real graph, are both reported."""
    graph = import_graph()
    assert "unosim.store.integrity" in graph["unosim.store.reader"]
    graph["unosim.store.integrity"] = graph["unosim.store.integrity"] | {"unosim.store.reader"}
    graph["unosim.store.lock"] = graph["unosim.store.lock"] | {"unosim.pipeline.runner"}
    assert any("unosim.store.integrity" in c and "unosim.store.reader" in c for c in circles(graph))
    assert back_arrows(graph) == ["unosim.store.lock -> unosim.pipeline.runner"]


def _package_layers() -> list[set[str]]:
    return [set(layer) for layer in LAYERS if layer != ("__main__",)]


def test_the_architecture_page_lists_every_unit_in_its_layer():
    page = (PACKAGE.parent / "docs" / "concepts" / "architecture.md").read_text()
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", page, flags=re.MULTILINE)
    assert [int(number) for number, _ in rows] == list(range(1, len(rows) + 1))
    assert [set(re.findall(r"`unosim\.(\w+)`", cell)) for _, cell in rows] == _package_layers()


def test_contributing_lists_every_unit_in_its_layer():
    text = " ".join((PACKAGE.parent / "CONTRIBUTING.md").read_text().split())
    chain = re.search(r"in layers \(`docs/concepts/architecture\.md`\): (.+?) \(`tests/project/test_structure\.py`", text)
    assert chain is not None, "CONTRIBUTING.md's 'Where code goes' names the units in layers"
    layers = [{unit.strip(" `") for unit in layer.split("|")} for layer in chain.group(1).split("→")]
    assert layers == _package_layers()


def test_the_api_index_lists_the_units_in_their_layers():
    sys.path.insert(0, str(PACKAGE.parent / "docs" / "gen"))
    import api_reference

    ranks = [_rank(unit) for unit in api_reference.UNITS]
    assert ranks == sorted(ranks) and set(api_reference.UNITS) == set().union(*_package_layers())


def test_numba_code_lives_where_the_architecture_page_says():
    """Compiled functions are the engine's kernels and the card-value fit's one loop; a new place must be
    documented. (Importing numba for its settings, as the pipeline's worker does, compiles nothing.)"""
    compilers = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "stencil", "jitclass"}
    page = " ".join((PACKAGE.parent / "docs" / "concepts" / "architecture.md").read_text().split())
    places = page[page.index("**Where numba code lives**"):page.index("* **The engine**")]
    compiling = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 and (node.module or "").split(".")[0] == "numba" for alias in node.names}
        names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                  and isinstance(node.value, ast.Name) and node.value.id == "numba"}
        if names & compilers:
            compiling.append(path.relative_to(PACKAGE.parent).as_posix())
    assert any(path.startswith("unosim/engine/") for path in compiling)
    for path in compiling:
        if not path.startswith("unosim/engine/"):
            assert f"`{path}`" in places, f"{path} compiles numba code: say so in docs/concepts/architecture.md"


MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
#: offenders in units other engineers are reshaping (issue 46); this list only shrinks and must end empty:
#: an entry that no longer offends fails the test, so it is removed as soon as its file is split
OVERSIZED_FILES = set()
OVERSIZED_FUNCTIONS = set()
#: the decorators that compile a function with numba (the engine's own ``njit`` wraps numba's): a
#: compiled kernel is one loop the compiler sees whole, so the function limit does not apply to it
COMPILERS = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "stencil"}


def _compiled(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in COMPILERS:
            return True
    return False


def oversized(package: Path = PACKAGE) -> tuple[set[str], set[str]]:
    """(files over MAX_FILE_LINES lines, ``file:function`` over MAX_FUNCTION_LINES lines, compiled kernels
    excepted), paths relative to the checkout."""
    files, functions = set(), set()
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(package.parent).as_posix()
        if len(text.splitlines()) > MAX_FILE_LINES:
            files.add(name)
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _compiled(node)
                    and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES):
                functions.add(f"{name}:{node.name}")
    return files, functions


def test_no_file_over_500_lines_and_no_function_over_80_outside_the_compiled_kernels():
    files, functions = oversized()
    assert files == OVERSIZED_FILES, "a file over 500 lines (split it), or one of the allow-list shrank"
    assert functions == OVERSIZED_FUNCTIONS, "a function over 80 lines (split it), or one of the allow-list shrank"


def test_the_size_check_finds_a_long_function_and_excepts_a_compiled_one(tmp_path):
    package = tmp_path / "unosim"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    (package / "long.py").write_text(f"def plain():\n{body}\n\n@njit(cache=True)\ndef kernel():\n{body}"
                                     + "\n" * MAX_FILE_LINES)
    assert oversized(package) == ({"unosim/long.py"}, {"unosim/long.py:plain"})


# ---- each mechanism in a few package files ---------------------------------------------------------------
#: each mechanism's identifiers (a Python name matching the pattern names the mechanism: its module, switch,
#: card kinds, columns, events, rules' constants). Rule names in text (``"n_blank"`` in a docstring) do not count.
MECHANISM_IDENTIFIERS = {
    "spin": r"(?i)spin",
    "minions": r"(?i)minion|dumb_?fu|^SE_WINDOW$|pose_window",
    "seven_o": r"(?i)seven_o|swaps_?7|passes_?0",
    "blank": r"(?i)blank",
    "stacking": r"(?i)stacking",
    "no_mercy": r"(?i)no_mercy|roulette|discard_all",
    "flip": r"(?i)flip",
}
#: the policy modules: a mechanism's policy decisions live there besides its ≤ 8 files
POLICY_MODULES = re.compile(r"^(engine/policies/|reference/(policy|policies|weighted)\.py$|game/policies\.py$)")
MAX_MECHANISM_FILES = 8


def mechanism_files(pattern: str) -> list[str]:
    """The package files (relative to ``unosim/``) outside the policy modules with a Python name matching
    ``pattern``."""
    rx = re.compile(pattern)
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not POLICY_MODULES.match(rel) and any(rx.search(name) for name in names_in(path)):
            found.append(rel)
    return found


def names_in(path: Path) -> set[str]:
    """The Python names (NAME tokens: not the words of strings and comments) of a module."""
    import io
    import tokenize
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME}


@pytest.mark.parametrize("mechanism", MECHANISM_IDENTIFIERS)
def test_each_mechanism_sits_in_at_most_eight_package_files_besides_its_policy_decisions(mechanism):
    files = mechanism_files(MECHANISM_IDENTIFIERS[mechanism])
    assert len(files) <= MAX_MECHANISM_FILES, files


def test_the_mechanism_count_finds_a_mechanism_s_own_files():
    assert {"engine/mechanics/flip.py", "reference/mechanics/flip.py", "game/cards.py"} <= set(
        mechanism_files(MECHANISM_IDENTIFIERS["flip"]))
    assert "engine/policies/dispatch.py" not in mechanism_files(MECHANISM_IDENTIFIERS["spin"])


#: the hook tables: they name each wing (they are the one place that lists them), but a wing's columns are
#: its own to write, so no hook names one
HOOK_TABLES = ("engine/core/hooks.py", "reference/hooks.py")


def wing_column_constants() -> set[str]:
    """The protocol constants of the wings' round- and seat-table columns (``RC_FLIPS``, ``SC_WHEEL_LOST`` …)."""
    from unosim.game import protocol as L
    names = {f"RC_{f.name}" for f in L.wing_fields("rounds")} | {f"SC_{f.name}" for f in L.wing_fields("seats")}
    assert names and all(hasattr(L, name) for name in names), names
    return names


@pytest.mark.parametrize("hooks", HOOK_TABLES)
def test_the_hooks_name_no_column_of_a_wing(hooks):
    columns = wing_column_constants()
    assert {"RC_FLIPS", "SC_WHEEL_GAINED"} <= columns   # the check knows a wing's columns when it sees them
    assert names_in(PACKAGE / hooks) & columns == set()


def test_every_family_with_a_wing_of_its_own_is_counted():
    """A new family's mechanism (CONTRIBUTING.md: "Add a variant") cannot escape the count by being left out of
    MECHANISM_IDENTIFIERS."""
    from unosim.game.protocol import FAMILIES, MECHANISMS

    assert {family for family in FAMILIES if family in MECHANISMS} <= set(MECHANISM_IDENTIFIERS)
