"""The package's layers hold (DESIGN.md, docs/development.md): data flows one way, so

- nothing below ``cli/`` imports ``cli`` (only the entry point ``__main__`` does);
- ``mjlog/`` (bytes in, a ``Game`` out) and ``rules/`` (pure functions) do no I/O: they import
  nothing from ``sources/`` (directly or through another module), no HTTP or database client,
  and open, read or write no file;
- the package has no import circle.

The import graph is computed from the source files with ``ast`` (every ``import``, also inside
functions and under ``TYPE_CHECKING``: a circle of lazy imports is a circle all the same), so
the test needs nothing to run and cannot be fooled by what happens to be imported already.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from .conftest import REPO

PACKAGE = REPO / "tenhou_tools"
NAME = PACKAGE.name

IO_MODULES = frozenset({"requests", "urllib3", "urllib.request", "http", "socket", "sqlite3", "zipfile",
                        "tarfile", "shutil", "tempfile", "pathlib", "glob", "fcntl", "subprocess"})
"""Modules whose import means I/O (or a path to it) in a module that must do none."""
IO_CALLS = frozenset({"open", "read_bytes", "read_text", "write_bytes", "write_text", "scandir", "listdir",
                      "stat", "fdopen"})
"""Names whose call reads or writes a file (``open(...)``, ``path.read_bytes()``, ``os.scandir``...)."""

KNOWN_CIRCLES: frozenset[frozenset[str]] = frozenset()
"""Circles being taken apart elsewhere (issue 25). The test fails on any other circle, and on
one of these that is gone (then delete its line)."""


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every import in the file: a module of the package as the module
    (or package) it names, anything else by its full dotted name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield node.lineno, sub if sub in known else target


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {m for _, m in imports(name, path, known) if m in known and m != name}
            for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def closure(edges: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo += edges[v]
    return seen


def in_layer(name: str, layer: str) -> bool:
    return name == f"{NAME}.{layer}" or name.startswith(f"{NAME}.{layer}.")


def test_the_graph_sees_the_package():
    edges = graph()
    assert len(edges) > 50
    assert f"{NAME}.mjlog._parse" in edges[f"{NAME}.mjlog"]  # a package's face names its modules
    assert f"{NAME}.ids" in edges[f"{NAME}.sources.http"]  # ``from ..ids import ...``
    assert f"{NAME}.sources.files" in edges[f"{NAME}.cli.common"]  # an import inside a function


def test_nothing_below_the_cli_imports_it():
    edges = graph()
    up = sorted(f"{v} -> {w}" for v, ws in edges.items() for w in ws
                if in_layer(w, "cli") and not in_layer(v, "cli") and v != f"{NAME}.__main__")
    assert up == []


def test_the_parser_and_the_rules_do_no_io():
    known = modules()
    edges = graph()
    found = []
    for name, path in known.items():
        if not (in_layer(name, "mjlog") or in_layer(name, "rules")):
            continue
        found += [f"{name} reaches {m}" for m in sorted(closure(edges, name)) if in_layer(m, "sources")]
        for line, module in imports(name, path, known):
            if module in IO_MODULES or module.split(".")[0] in IO_MODULES:
                found.append(f"{name}:{line} imports {module}")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if called in IO_CALLS:
                    found.append(f"{name}:{node.lineno} calls {called}()")
    assert found == []


def test_the_package_has_no_import_circle():
    found = circles(graph())
    new = [sorted(c) for c in found if c not in KNOWN_CIRCLES]
    assert new == [], "import circles"
    gone = [sorted(c) for c in KNOWN_CIRCLES if c not in found]
    assert gone == [], "these circles are gone: delete them from KNOWN_CIRCLES"


def test_the_circle_finder_finds_circles():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(edges) == [frozenset({"a", "b", "c"})]
    assert circles({"a": {"b"}, "b": set()}) == []


LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "tiles", "events", "ids", "serialize", "rounding", "_build", "_native"),
    ("mjlog",),
    ("rules",),
    ("findings",),
    ("replay",),
    ("analysis", "formats", "crossgame", "check", "convert"),
    ("sources",),
    ("batch", "batch_order", "validate"),
    ("stats",),
    ("documents",),
    ("views",),
    ("cli", "__main__"),
)
"""The package's modules and sub-packages from the bottom up, as data flows (DESIGN.md): a module
imports only from its own layer or those below. Every top-level name of the package is in one."""


def layer_of(module: str) -> int:
    top = module.split(".")[1]
    return next(i for i, names in enumerate(LAYERS) if top in names)


def test_every_import_runs_down_the_layers():
    """No arrow from a lower layer up (``farm-studio look`` draws the same floors): the
    cross-game pass importing ``stats`` to ask whether a game is ranked was one."""
    edges = graph()
    tops = {name.split(".")[1] for name in edges if name != NAME}
    assert tops <= {top for names in LAYERS for top in names}, "a module of the package is in no layer"
    up = sorted(f"{v} -> {w}" for v, ws in edges.items() for w in ws
                if v != NAME and w != NAME and layer_of(w) > layer_of(v))
    assert up == []
