"""Shared test fixtures: the repository's own fixtures and the real-log corpus (TENHOU_CORPUS)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


def corpus_root() -> Path:
    """The corpus folder, absolute: ``TENHOU_CORPUS`` may be relative (``.ci/run`` gives
    ``../shared/corpus``), and tests hand its paths to processes run in other folders."""
    return Path(os.environ.get("TENHOU_CORPUS", REPO.parent / "shared" / "corpus")).resolve()


@pytest.fixture(scope="session")
def corpus() -> Path:
    root = corpus_root()
    if not (root / "mjlog").is_dir():
        pytest.skip(f"corpus not found at {root} (set TENHOU_CORPUS)")
    return root


def corpus_files(kind: str = "mjlog", pattern: str = "*.gz") -> list[Path]:
    root = corpus_root() / kind
    return sorted(root.glob(f"*/{pattern}")) if root.is_dir() else []


GENUINE = ("mjlog", "flagged")
"""The corpus folders of complete, genuine games, which a correct validator finds clean:
``mjlog/``, and ``flagged/``, games an earlier engine got wrong (issue 24)."""


def genuine_files() -> list[Path]:
    """Every genuine game of the corpus (``GENUINE``)."""
    return [path for kind in GENUINE for path in corpus_files(kind)]


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _fixed_width(monkeypatch):
    """The terminal views take their width from COLUMNS, else the terminal (cli/term.py): pin it,
    so that exact outputs do not depend on where the tests run. Tests of the width set their own."""
    monkeypatch.setenv("COLUMNS", "120")
