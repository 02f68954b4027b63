"""What ships is runtime code only: the package imports no test tooling (the fuzzers live in
``tests/fuzzing/``), and no test steers it through a hook of its own (tests inject a unit of work
instead, ``tests/workers.py``)."""

from __future__ import annotations

import ast

from .conftest import REPO

PACKAGE = REPO / "tenhou_tools"
TEST_TOOLING = ("tests", "pytest", "hypothesis", "_pytest")


def runtime_modules() -> list:
    return sorted(PACKAGE.rglob("*.py"))


def imported_names(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            out += [(node.lineno, module)] + [(node.lineno, f"{module}.{a.name}") for a in node.names]
    return out


def test_the_package_imports_no_test_tooling():
    modules = runtime_modules()
    assert len(modules) > 10
    found = []
    for path in modules:
        for line, name in imported_names(ast.parse(path.read_text(encoding="utf-8"))):
            if name.lstrip(".").split(".")[0] in TEST_TOOLING or "fuzz" in name:
                found.append(f"{path.relative_to(REPO)}:{line}: {name}")
    assert found == []


def test_no_fuzzer_ships_in_the_package():
    assert not [p for p in PACKAGE.rglob("*fuzz*")], "the fuzzers belong in tests/fuzzing/"
    assert (REPO / "tests" / "fuzzing" / "logs.py").is_file()


def test_the_package_reads_no_test_hook():
    hooks = [f"{path.relative_to(REPO)}:{n}" for path in runtime_modules()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "TENHOU_TOOLS_TEST" in line]
    assert hooks == []
