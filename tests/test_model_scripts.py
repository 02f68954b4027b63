"""The scripts that measure the discard model (issue 33) run on the corpus and say what the
docs quote: ``scripts/measure_model.py`` writes a data module of the shape the model reads, and
``scripts/measure_judgement.py`` reports the calibration of the verdicts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tenhou_tools.analysis import model_rates

from .conftest import REPO

pytestmark = pytest.mark.corpus


def _run(corpus, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args, "--corpus", str(corpus)], cwd=REPO, capture_output=True,
                          text=True, timeout=600, check=False)


def test_measure_model_writes_the_tables_the_model_reads(corpus, tmp_path):
    counts, table = tmp_path / "counts.json", tmp_path / "rates.txt"
    done = _run(corpus, "scripts/measure_model.py", "--sample", "400", "--out", str(counts))
    assert done.returncode == 0, done.stderr
    assert "opponent tenpai without riichi" in done.stdout and "ron points" in done.stdout
    data = json.loads(counts.read_text())
    assert data.get("games|4", 0) + data.get("games|3", 0) > 0
    done = subprocess.run([sys.executable, "scripts/measure_model.py", "--from", str(counts), "--table", str(table)],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    measured = model_rates.read_tables(table.read_text(encoding="utf-8"))
    for name in model_rates.NAMES:
        written, shipped = measured[name], getattr(model_rates, name)
        assert written and {len(k) for k in written} == {len(k) for k in shipped}, name
        assert set(written) <= set(shipped), name  # a sample's cells are among the whole corpus's


def test_measure_judgement_reports_the_calibration(corpus):
    done = _run(corpus, "scripts/measure_judgement.py", "--sample", "300")
    assert done.returncode == 0, done.stderr
    assert "choices of 7-dan+ players" in done.stdout
    assert "impossible: none" in done.stdout
    assert "genbutsu deal-ins: 0" in done.stdout


def test_bench_judge_times_the_analysis_of_games(corpus):
    done = _run(corpus, "scripts/bench_judge.py", "--sample", "200", "--limit", "2", "--fresh")
    assert done.returncode == 0, done.stderr
    assert "4-player games" in done.stdout and "a game:    median" in done.stdout and "verdicts: " in done.stdout


def test_page_sizes_measures_replay_pages(corpus):
    done = _run(corpus, "scripts/page_sizes.py", "--every", "400")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("replay pages: ") and " four-player East-South games, median " in done.stdout
