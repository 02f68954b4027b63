"""Every script in ``scripts/`` runs: each says how it is used (``--help``), and each that is cheap
to run on a small input does so (a benchmark on one game, a check on a few): a script the code
moved away from fails here, not when someone needs it. They run as people run them (``python
scripts/NAME.py``), in another folder, with this checkout first on ``PYTHONPATH``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import FIXTURES, REPO

SCRIPTS = sorted(p.name for p in (REPO / "scripts").glob("*.py") if not p.name.startswith("_"))
"""The scripts (``_corpus.py`` is a module the others import)."""

CORPUS_RUNS = {
    "bench_core.py": ["--sample", "2000"],
    "bench_judge.py": ["--sample", "4000", "--limit", "1"],
    "bench_replay.py": ["--every", "4000", "--limit", "1"],
    "check_formats.py": ["{corpus}", "--step", "4100", "--jobs", "1"],
    "check_wall.py": ["{corpus}", "--limit", "2", "--jobs", "1", "--source", "parser"],
    "fuzz.py": ["--iterations", "5"],
    "measure_danger.py": ["--sample", "4000", "--limit", "1"],
    "page_sizes.py": ["--every", "4000"],
}
"""A small run of each script that reads the corpus (``--corpus`` is added unless the corpus is
a positional argument): one to a few games, seconds each."""

FIXTURE_RUNS = {
    "check_scoring.py": [str(FIXTURES / "one_hand.mjlog"), str(FIXTURES / "sanma_kita.xml")],
}
"""A small run of each script that reads the shipped fixtures."""

HELP_ONLY = {
    "bench.py": "minutes, and a virtual environment of jansou",
    "bench_analysis.py": "the mahjong package's shanten on every discard and fresh interpreters: 15 s for one game",
    "bench_callgrind.py": "needs valgrind; 20 s for one game",
    "make_suit_table.py": "a minute; tests/test_shanten.py compares its table with the programme",
    "measure_judgement.py": "tests/test_model_scripts.py runs it on the corpus",
    "measure_model.py": "tests/test_model_scripts.py runs it on the corpus",
    "test_plain.py": "runs the whole suite",
}
"""The scripts only asked for ``--help``, and why."""


def _run(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO / "scripts" / script), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=900, check=False)


def test_every_script_is_run_here_or_says_why_not():
    assert sorted([*CORPUS_RUNS, *FIXTURE_RUNS, *HELP_ONLY]) == SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_says_how_it_is_used(script, tmp_path):
    done = _run(script, "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout and done.stderr == ""


@pytest.mark.parametrize("script", sorted(FIXTURE_RUNS))
def test_a_script_runs_on_the_fixtures(script, tmp_path):
    done = _run(script, *FIXTURE_RUNS[script], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran


@pytest.mark.corpus
@pytest.mark.parametrize("script", sorted(CORPUS_RUNS))
def test_a_script_runs_on_a_few_games_of_the_corpus(script, corpus, tmp_path):
    args = [a.replace("{corpus}", str(corpus)) for a in CORPUS_RUNS[script]]
    if "{corpus}" not in CORPUS_RUNS[script]:
        args += ["--corpus", str(corpus)]
    done = _run(script, *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_child_process_imports_this_checkout_from_any_folder(tmp_path):
    """``conftest._children_import_this_checkout``: not another install of the package."""
    done = subprocess.run([sys.executable, "-c", "import tenhou_tools; print(tenhou_tools.__file__)"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True)
    assert Path(done.stdout.strip()).parent == REPO / "tenhou_tools"
