"""The compiled build (mypyc) and the plain Python build: which runs, and that they agree."""

from __future__ import annotations

import ast
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools import native
from tenhou_tools.cli import cli

from .conftest import REPO, corpus_files
from .fuzzing.logs import MUTATIONS

SAME = {m: f"hash-{m}" for m in native.BUILT_MODULES}


def test_decide_compiled_when_every_source_is_the_one_built():
    status = native.decide(SAME, dict(SAME), None, True)
    assert status == native.Status(
        True, f"{len(native.COMPILED_MODULES)} modules and the native core built from the sources on disk")


@pytest.mark.parametrize("value", ["1", "yes"])
def test_decide_plain_when_asked(value):
    assert native.decide(SAME, dict(SAME), value, True) == native.Status(False, "TENHOU_TOOLS_PURE is set")


@pytest.mark.parametrize("value", ["", "0"])
def test_decide_an_empty_or_zero_variable_does_not_ask(value):
    assert native.decide(SAME, dict(SAME), value, True).compiled


def test_decide_plain_when_one_source_changed_since_the_build():
    now = {**SAME, "tenhou_tools.replay.engine": "edited"}
    status = native.decide(SAME, now, None, True)
    assert status == native.Status(
        False, "tenhou_tools.replay.engine changed since the build (reinstall to compile again)")


def test_decide_plain_when_the_native_core_changed_since_the_build():
    status = native.decide(SAME, {**SAME, native.NATIVE_CORE: "edited"}, None, True)
    assert status == native.Status(
        False, "tenhou_tools._core changed since the build (reinstall to compile again)")


def test_decide_plain_for_a_record_from_before_the_native_core():
    older = {m: h for m, h in SAME.items() if m != native.NATIVE_CORE}
    assert not native.decide(older, dict(SAME), None, True).compiled


def test_the_native_core_is_hashed_from_its_c_source():
    assert native.source_path(native.NATIVE_CORE) == Path(native.__file__).parent / "_core.c"
    assert set(native.source_hashes()) == set(native.BUILT_MODULES)


@pytest.mark.parametrize("record, extensions", [(None, True), (SAME, False), (None, False)])
def test_decide_plain_without_a_build(record, extensions):
    status = native.decide(record, dict(SAME), None, extensions)
    assert status == native.Status(False, "this install has no compiled modules")


def test_setup_compiles_exactly_the_modules_native_lists():
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    listed = next(node.value for node in tree.body
                  if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "MODULES")
    paths = ast.literal_eval(listed)
    assert tuple(p[:-3].replace("/", ".") for p in paths) == native.COMPILED_MODULES
    core = next(node.value for node in tree.body
                if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CORE_SOURCE")
    assert ast.literal_eval(core) == f"tenhou_tools/{native.NATIVE_CORE_SOURCE}"


@pytest.mark.skipif(not os.environ.get("TENHOU_TOOLS_EXPECT_COMPILED"),
                    reason="TENHOU_TOOLS_EXPECT_COMPILED is not set (.ci/run sets it)")
def test_ci_installs_the_compiled_build():
    """The build falls back to plain Python when mypyc refuses a module (a type error) or there is
    no compiler; CI must notice that instead of testing the plain build only."""
    assert native.status().compiled, native.status().line()


def test_version_names_the_build():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"tenhou-tools 0.1.0\nbuild: {native.status().line()}\n"


def _run(code: str, *, env: dict[str, str] | None = None, path: Path | None = None) -> str:
    environment = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    environment.update(env or {})
    if path is not None:
        environment["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                          cwd=path or REPO, check=True, timeout=120)
    return done.stdout


WHICH = ("import tenhou_tools, tenhou_tools.native as n, tenhou_tools.replay.engine as e, "
         "tenhou_tools.events as ev; print(n.status().line()); print(e.__file__); print(ev.__file__)")

compiled_only = pytest.mark.skipif(not native.status().compiled,
                                   reason=f"this process runs the plain build ({native.status().reason})")


@compiled_only
def test_the_variable_runs_every_module_from_its_source():
    lines = _run(WHICH, env={native.PURE_ENV: "1"}).splitlines()
    assert lines[0] == "plain Python: TENHOU_TOOLS_PURE is set"
    assert lines[1].endswith("engine.py") and lines[2].endswith("events.py")
    lines = _run(WHICH).splitlines()
    assert lines[0].startswith("compiled (mypyc)")
    assert not lines[1].endswith(".py") and not lines[2].endswith(".py")


@compiled_only
def test_the_native_core_runs_only_in_the_compiled_build():
    code = ("import tenhou_tools.native as n, tenhou_tools.mjlog.scan as s, tenhou_tools.rules.wall as w; "
            "print(n.core() is None, s._CORE is None, w._CORE is None)")
    assert _run(code, env={native.PURE_ENV: "1"}) == "True True True\n"
    assert _run(code) == "False False False\n"


@compiled_only
def test_an_edited_source_runs_as_plain_python(tmp_path):
    """A copy of the installed package (its extension files and the build record included) with
    one compiled source edited: every compiled module runs from its source, not only that one."""
    package = Path(native.__file__).parent
    shutil.copytree(package, tmp_path / "tenhou_tools", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in package.parent.glob("*__mypyc*"):  # mypyc's shared library, beside the package
        shutil.copy(shared, tmp_path / shared.name)
    lines = _run(WHICH, path=tmp_path).splitlines()
    assert lines[0].startswith("compiled (mypyc)"), lines
    engine = tmp_path / "tenhou_tools" / "replay" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    lines = _run(WHICH, path=tmp_path).splitlines()
    assert lines == [
        "plain Python: tenhou_tools.replay.engine changed since the build (reinstall to compile again)",
        str(engine), str(tmp_path / "tenhou_tools" / "events.py"),
    ]


def test_a_partial_build_runs_as_plain_python(tmp_path):
    """Extension files for only some of the modules (a build that stopped half-way, or an older
    build before a module joined the list): none of them loads, every module runs from source."""
    package = Path(native.__file__).parent
    shutil.copytree(package, tmp_path / "tenhou_tools", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in package.parent.glob("*__mypyc*"):
        shutil.copy(shared, tmp_path / shared.name)
    missing = sorted((tmp_path / "tenhou_tools").glob("tiles.*.so"))
    if not missing:
        pytest.skip("this install has no extension files")
    for path in missing:
        path.unlink()
    lines = _run(WHICH, path=tmp_path).splitlines()
    assert lines == ["plain Python: this install has no compiled modules",
                     str(tmp_path / "tenhou_tools" / "replay" / "engine.py"),
                     str(tmp_path / "tenhou_tools" / "events.py")]


def _ndjson(paths: list[Path], pure: bool) -> list[dict]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-m", "tenhou_tools", "validate", "--format", "ndjson",
                           "--no-progress", "--jobs", "2", *map(str, paths)],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    for record in records:
        record.pop("elapsed_s", None)
    return records


def _mutants(folder: Path, seeds: list[Path], count: int) -> list[Path]:
    """Broken variants of real logs (the fuzzer's mutations), written as files."""
    rng = random.Random(20261121)
    names = sorted(MUTATIONS)
    out = []
    for i in range(count):
        seed = seeds[i % len(seeds)]
        xml = gzip.decompress(seed.read_bytes())
        for _ in range(rng.randint(1, 3)):
            xml = MUTATIONS[rng.choice(names)](xml, rng)
        path = folder / f"mutant{i:03d}.xml"
        path.write_bytes(xml)
        out.append(path)
    return out


@compiled_only
@pytest.mark.corpus
def test_both_builds_give_the_same_report(corpus, tmp_path):
    """Every finding (messages, expected and actual values, tracebacks' absence) and every check
    count, over the fixtures, a sample of real logs of every year and 300 broken variants of them:
    the compiled build checks its arguments' types at run time, so broken input is where the two
    builds could part."""
    real = corpus_files()[::20]
    paths = sorted(p for p in (REPO / "fixtures").rglob("*") if p.is_file()) + real
    paths += _mutants(tmp_path, real, 300)
    compiled, plain = _ndjson(paths, pure=False), _ndjson(paths, pure=True)
    assert len(compiled) > 500
    assert compiled == plain
    codes = {f["code"] for r in compiled for f in r.get("findings", [])}
    assert "PARSE_ERROR" in codes and len(codes) > 5, codes
    assert "INTERNAL_ERROR" not in codes


SIGNATURES = """
import dataclasses, importlib, inspect
from tenhou_tools import native
assert not native.status().compiled
checked = []
for module in native.COMPILED_MODULES:
    for cls in vars(importlib.import_module(module)).values():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module
                and not cls.__dataclass_params__.init):
            continue
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        fields = dataclasses.fields(cls)
        assert [p.name for p in params] == [f.name for f in fields], cls
        empty = inspect.Parameter.empty
        assert [p.default for p in params] == [
            empty if f.default is dataclasses.MISSING else f.default for f in fields], cls
        checked.append(cls.__name__)
print(" ".join(sorted(checked)))
"""


def test_hand_written_inits_take_exactly_their_fields():
    """A frozen dataclass with its own __init__ takes its fields, in order, with the same
    defaults, as the decorator's __init__ would (checked on the sources, in the plain build)."""
    names = _run(SIGNATURES, env={native.PURE_ENV: "1"}).split()
    assert {"Agari", "Call", "Hand", "HandWall", "Init", "Meld", "Riichi", "ScoredHand",
            "WinContext"} <= set(names)


def test_a_value_with_a_hand_written_init_stays_frozen():
    import dataclasses

    from tenhou_tools.events import CallKind, Meld

    meld = Meld(CallKind.PON, (0, 1, 2), 2, 1, None, 1234)
    assert dataclasses.replace(meld, code=5) == Meld(CallKind.PON, (0, 1, 2), 2, 1, None, 5)
    assert Meld(kind=CallKind.PON, tiles=(0, 1, 2), called=2, from_seat=1, added=None, code=1234) == meld
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.code = 7  # type: ignore[misc]
    assert meld.code == 1234 and hash(meld) == hash(Meld(CallKind.PON, (0, 1, 2), 2, 1, None, 1234))


def test_hand_written_inits_in_the_plain_build():
    code = ("import dataclasses; from tenhou_tools import native; from tenhou_tools.events import Meld, CallKind\n"
            "m = Meld(CallKind.CHI, (0, 4, 8), 0, 3, None, 99)\n"
            "try:\n    m.code = 1\nexcept dataclasses.FrozenInstanceError:\n    print('frozen')\n"
            "print(native.status().compiled, m.code, m == dataclasses.replace(m))")
    assert _run(code, env={native.PURE_ENV: "1"}).splitlines() == ["frozen", "False 99 True"]
