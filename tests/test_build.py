"""The build: what is compiled, that it matches the sources, and that it changes nothing.

``tenhou_tools/_build.py`` lists what a compiled install builds; ``setup.py`` reads that list and
records each built source's SHA-256, size and time. The package checks the record at import
(``use_sources_if_stale``); these tests check it too. A compiled source edited after the install
fails ``test_the_build_is_from_the_sources_on_disk`` (run ``pip install -e .`` again). With
``TENHOU_TOOLS_EXPECT_COMPILED=1`` (``.ci/run``) a plain install is a failure, not a skip.
"""

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

from tenhou_tools import _build
from tenhou_tools.cli import cli

from .conftest import REPO, corpus_files
from .fuzzing.logs import MUTATIONS

EXPECT_COMPILED = bool(os.environ.get("TENHOU_TOOLS_EXPECT_COMPILED"))
COMPILED_LOADED = all(_build.loaded_natively(m) for m in (*_build.COMPILED, _build.SPEEDUPS))
compiled_only = pytest.mark.skipif(not COMPILED_LOADED and not EXPECT_COMPILED,
                                   reason="this install runs plain Python (TENHOU_TOOLS_PURE=1 or no compiler)")


def test_ci_installs_the_compiled_build():
    """The build falls back to plain Python when mypyc refuses a module or there is no compiler;
    CI must notice that instead of testing the plain build only."""
    if not EXPECT_COMPILED:
        pytest.skip("TENHOU_TOOLS_EXPECT_COMPILED is not set (.ci/run sets it)")
    missing = [m for m in (*_build.COMPILED, _build.SPEEDUPS) if not _build.loaded_natively(m)]
    assert not missing, f"not compiled: {', '.join(missing)} ({_build.status()})"


@compiled_only
def test_the_build_is_from_the_sources_on_disk():
    record = _build.read_record()
    assert record is not None, "the compiled install has no build record: run pip install -e . again"
    changed = _build.stale(record, _build.source_hashes())
    assert not changed, f"{', '.join(changed)} changed since the build: run pip install -e . again"


def test_stale_names_each_changed_source():
    now = {"a": "1", "b": "2", "c": "3"}
    assert _build.stale(dict(now), now) == []
    assert _build.stale({"a": "1", "b": "old"}, now) == ["b", "c"]
    assert _build.stale({"a": {"sha256": "1"}, "b": {"sha256": "old"}, "c": "3"}, now) == ["b"]


def test_a_source_is_read_only_when_its_size_or_time_changed(tmp_path):
    """``changed_sources``: a source with the size and modification time of the record is not
    read (here its recorded hash is wrong, and it still counts as unchanged); a touched one is
    hashed and unchanged when its content is; an edit of the same size is seen by its time; an
    older build's record (hashes only) hashes every source."""
    package = tmp_path / "tenhou_tools"
    for module in (*_build.COMPILED, _build.SPEEDUPS):
        path = _build.source_path(module, package)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {module}\n", encoding="utf-8")
    record = {m: _build.record_entry(_build.source_path(m, package)) for m in (*_build.COMPILED, _build.SPEEDUPS)}
    assert _build.changed_sources(record, package) == []
    skipped, touched, edited = _build.COMPILED[:3]
    record[skipped]["sha256"] = "0" * 64
    assert _build.changed_sources(record, package) == []
    for module in (touched, edited):
        path = _build.source_path(module, package)
        text = path.read_text(encoding="utf-8")
        path.write_text(text if module == touched else text.upper(), encoding="utf-8")
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, record[module]["mtime_ns"] + 1))
    assert _build.changed_sources(record, package) == [edited]
    hashes_only = {m: entry["sha256"] for m, entry in record.items()}
    assert _build.changed_sources(hashes_only, package) == sorted([skipped, edited])


def _package_copy(root: Path) -> Path:
    """A copy of the installed package (with whatever this install compiled, and mypyc's shared
    library beside it) under ``root``; its package folder."""
    shutil.copytree(REPO / "tenhou_tools", root / "tenhou_tools", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in REPO.glob("*__mypyc*"):
        shutil.copy2(shared, root / shared.name)
    return root / "tenhou_tools"


def _run_copy(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != _build.STALE_NOTICE_VARIABLE}
    env["PYTHONPATH"] = str(root)
    return subprocess.run([sys.executable, "-m", "tenhou_tools", *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600)


def test_an_edited_rule_takes_effect_on_the_next_run(tmp_path):
    """An edit runs: a rule edited after the build (here to raise) takes effect at once, and one
    line says the build is stale. In a plain install the copy is given a record of its unedited
    sources, as a compiled build writes it, so the same path is taken."""
    package = _package_copy(tmp_path)
    if _build.read_record(package) is None:
        (package / _build.RECORD).write_text(json.dumps(_build.source_hashes(package)), encoding="utf-8")
    fixture = str(REPO / "fixtures" / "one_hand.mjlog")
    before = _run_copy(tmp_path, "validate", fixture)
    assert (before.returncode, before.stderr) == (0, "")
    verdict, *warning = before.stdout.splitlines()  # the fixture, hand-written, warns of no id and no seed
    assert verdict.startswith("1 game, all clean; ") and verdict.endswith(" checks.")
    assert warning and warning[0].startswith("warning: 1 game holds claims that cannot be checked: ")
    payments = package / "rules" / "payments.py"
    text = payments.read_text(encoding="utf-8")
    signature = "def ron_payment(base: int, *, dealer: bool) -> int:\n"
    assert signature in text
    payments.write_text(text.replace(signature, signature + '    raise RuntimeError("an edited rule")\n', 1),
                        encoding="utf-8")
    after = _run_copy(tmp_path, "validate", fixture)
    assert after.returncode == 1
    assert "INTERNAL_ERROR" in after.stdout and "RuntimeError: an edited rule" in after.stdout
    assert after.stderr == ("tenhou-tools: rules/payments.py changed since the compiled build: running the plain "
                            "Python sources (slower) until `pip install -e .` compiles them again\n")
    version = _run_copy(tmp_path, "--version")
    assert "build: plain Python (STALE build: tenhou_tools.rules.payments changed since it; run pip install -e . " \
           "again to compile)" in version.stdout


def test_a_failed_compile_stops_the_install_and_says_how_to_go_on(tmp_path):
    """A compile that fails is a failed install (pip shows its output), not a quiet plain one:
    here mypyc itself fails, as a missing compiler makes it."""
    shutil.copy2(REPO / "setup.py", tmp_path / "setup.py")
    shutil.copy2(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copy2(REPO / "README.md", tmp_path / "README.md")
    shutil.copytree(REPO / "tenhou_tools", tmp_path / "tenhou_tools",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", _build.RECORD))
    fake = tmp_path / "fake" / "mypyc"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("", encoding="utf-8")
    (fake / "build.py").write_text("def mypycify(*args, **kwargs):\n    raise RuntimeError('no C compiler here')\n",
                                   encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "TENHOU_TOOLS_PURE"}
    env["PYTHONPATH"] = str(tmp_path / "fake")
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode != 0
    assert "tenhou-tools: compiling the native modules failed (RuntimeError: no C compiler here)." in run.stderr
    assert "TENHOU_TOOLS_PURE=1 pip install" in run.stderr
    assert not list((tmp_path / "tenhou_tools").rglob("*.so"))
    assert not (tmp_path / "tenhou_tools" / _build.RECORD).exists()


def test_setup_builds_the_list_in_build_py_and_no_other():
    """setup.py executes _build.py for the list: it names no module of its own."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert "_build.py" in strings
    built = {*_build.COMPILED, _build.SPEEDUPS}
    named = {m.replace(".", "/") + ".py" for m in built} | built | {_build.SPEEDUPS_SOURCE}
    assert not [s for s in strings if any(name in s for name in named)]
    namespace: dict = {"__name__": "check", "__file__": str(REPO / "tenhou_tools" / "_build.py")}
    exec(compile((REPO / "tenhou_tools" / "_build.py").read_text(encoding="utf-8"), "_build.py", "exec"), namespace)
    assert namespace["COMPILED"] == _build.COMPILED and namespace["SPEEDUPS"] == _build.SPEEDUPS


def test_what_is_compiled_exists():
    for module in (*_build.COMPILED, _build.SPEEDUPS):
        assert _build.source_path(module).is_file(), module
    assert _build.source_path(_build.SPEEDUPS).name == "_speedups.c"
    assert _build.SPEEDUPS.rsplit(".", 1)[1].startswith("_")


def _value_classes(source: str) -> list[str]:
    """Classes a module defines that are values: a dataclass, an enum, an exception, a named
    tuple counts as a tuple and is allowed (mypyc keeps it a Python class)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        decorators = [ast.unparse(d) for d in node.decorator_list]
        bases = [ast.unparse(b) for b in node.bases]
        if any("dataclass" in d for d in decorators) or any(
                b.endswith(("Enum", "Error", "Exception", "Warning")) for b in bases):
            found.append(node.name)
    return found


def test_no_value_type_is_defined_in_a_compiled_module():
    """A class defined in a compiled module becomes a native class: ``_native.build`` falls back
    to calling it (its slots are not the dataclass's) and it pickles differently. Values live in
    plain modules and the compiled ones import them (docs/development.md)."""
    defined = {module: _value_classes(_build.source_path(module).read_text(encoding="utf-8"))
               for module in _build.COMPILED}
    assert {module: names for module, names in defined.items() if names} == {}
    plain = _value_classes((REPO / "tenhou_tools" / "rules" / "values.py").read_text(encoding="utf-8"))
    assert {"ScoredHand", "WinContext", "HandWall", "WallSeedError", "Furiten", "Limit"} <= set(plain)


def test_the_c_source_ships_with_the_package():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"_speedups.c"' in pyproject and '"py.typed"' in pyproject and '"static/*.js"' in pyproject
    assert "tenhou_tools/" + _build.RECORD in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_version_names_the_build():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"tenhou-tools 0.1.0\nbuild: {_build.status()}\n"
    if COMPILED_LOADED:
        assert _build.status() == f"compiled ({len(_build.COMPILED)} modules + _speedups)"
    else:
        assert _build.status().startswith("plain Python (")


def test_importing_the_package_reads_the_record_and_no_unchanged_source():
    """At import the package checks its build (``_build.use_sources_if_stale``): it reads the
    build record and no built source whose size and time are the record's (an audit hook sees
    every file opened)."""
    code = ("import sys\n"
            "opened = []\n"
            "sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == 'open' else None)\n"
            "import tenhou_tools.cli, tenhou_tools.check\n"
            "names = [p.rsplit('/', 1)[-1] for p in opened if p.endswith(('.json', '.c'))]\n"
            "print(sorted(names))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          check=True)
    assert done.stdout == f"{[_build.RECORD]}\n"


# -- the compiled install and the plain sources give the same answers ----------------------------


PLAIN_STUB = 'raise ImportError("a plain copy of the sources: no C extension")\n'
"""``_native/_speedups.py`` in a plain copy: a module missing from the copy would be found in the
checkout by the editable install's finder, which Python asks after ``PYTHONPATH``."""


def plain_copy(folder: Path) -> Path:
    """The package's ``.py`` sources only (no extension module), where ``PYTHONPATH`` finds them
    before the install."""
    package = Path(_build.__file__).parent
    shutil.copytree(package, folder / "tenhou_tools",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "_build_record.json"))
    (folder / "tenhou_tools" / "_native" / "_speedups.py").write_text(PLAIN_STUB, encoding="utf-8")
    return folder


def run_validate(paths: list[Path], plain_root: Path | None) -> list[dict]:
    env = dict(os.environ)
    if plain_root is not None:
        env["PYTHONPATH"] = str(plain_root)
    # --no-dedupe: a broken variant keeps its original's shuffle seed, so it would be a copy
    done = subprocess.run([sys.executable, "-m", "tenhou_tools", "validate", "--format", "ndjson",
                           "--no-progress", "--no-dedupe", "--jobs", "2", *map(str, paths)],
                          capture_output=True, text=True, env=env, cwd=plain_root or REPO, timeout=900)
    assert done.returncode in (0, 1), done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    for record in records:
        record.pop("elapsed_s", None)
        record.pop("wall_s", None)
    return records


def mutants(folder: Path, seeds: list[Path], count: int) -> list[Path]:
    """Broken variants of real logs (the fuzzer's mutations), written as files."""
    rng = random.Random(20261121)
    names = sorted(MUTATIONS)
    out = []
    for i in range(count):
        xml = gzip.decompress(seeds[i % len(seeds)].read_bytes())
        for _ in range(rng.randint(1, 3)):
            xml = MUTATIONS[rng.choice(names)](xml, rng)
        path = folder / f"mutant{i:03d}.xml"
        path.write_bytes(xml)
        out.append(path)
    return out


@compiled_only
def test_the_plain_copy_runs_no_extension_module(tmp_path):
    root = plain_copy(tmp_path)
    code = ("import tenhou_tools._build as b, tenhou_tools.mjlog._parse as p; "
            "print(p.__file__); print(b.status())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                          env={**os.environ, "PYTHONPATH": str(root)}, cwd=root)
    where, status = done.stdout.splitlines()
    assert where == str(root / "tenhou_tools" / "mjlog" / "_parse.py")
    assert status.startswith("plain Python (")


@compiled_only
@pytest.mark.corpus
def test_compiled_and_plain_give_the_same_report(corpus, tmp_path):
    """Every finding (messages, expected and actual values) and every check count, over the
    fixtures, a sample of real logs of every year and 300 broken variants of them: compiled code
    checks its arguments' types at run time, so broken input is where the two could part."""
    real = corpus_files()[::20]
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    paths = sorted(p for p in (REPO / "fixtures").rglob("*") if p.is_file()) + real
    paths += mutants(inputs, real, 300)
    compiled = run_validate(paths, None)
    plain = run_validate(paths, plain_copy(tmp_path / "plain"))
    assert len(compiled) > 500
    assert compiled == plain
    codes = {f["code"] for r in compiled for f in r.get("findings", [])}
    assert "PARSE_ERROR" in codes and len(codes) > 5, codes
    assert "INTERNAL_ERROR" not in codes
