"""Shared test fixtures: the repository's own fixtures and the real-log corpus (TENHOU_CORPUS)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"

FREE_LOOPBACK_PORT = "127.0.0.1:0"
"""Where a server a test starts listens: on loopback, at a port the system picks free. The suite
runs in parallel worker processes (pytest-xdist), so a fixed port would be taken by another
worker's server; Dask's scheduler, for one, opens its HTTP server on 8787 unless told (its
``dashboard_address``)."""


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 where nothing listens, for the tests of a refused connection: a socket
    bound to it, and never listening, holds it while the test runs, so that no other server (of
    another test, in another worker) can take it meanwhile; a connection to it is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


settings.register_profile(
    "tenhou-tools", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("tenhou-tools")
"""Every property test, whatever its own ``@settings`` say besides: no deadline and no "too slow"
health check (a loaded machine must not fail a test), and the same examples in every run (a
failure never depends on luck). Loaded here, before any test module makes its settings, which
take what they do not set from this profile (``tests/test_hypothesis_settings.py`` holds it)."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    """Run in parallel (pytest-xdist, ``--dist loadgroup`` in pyproject.toml), a module's tests go
    to one worker process together, as in a serial run: a module's fixtures and its cached corpus
    samples are made once, not once per worker. A test marked ``xdist_group("NAME")`` goes with
    the other tests of that name instead: a costly pass that tests of several modules share
    (``tests/genuine_logs.py``)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


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


@pytest.fixture(scope="session", autouse=True)
def _children_import_this_checkout():
    """Every child process the tests start (``python -m tenhou_tools``, a script, ``-c``) imports
    this checkout's package, whatever folder the suite runs from and whatever else is installed:
    ``PYTHONPATH`` puts the checkout first. A test that wants another copy sets its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        yield


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _fixed_width(monkeypatch):
    """The terminal views take their width from COLUMNS, else the terminal (cli/term.py): pin it,
    so that exact outputs do not depend on where the tests run. Tests of the width set their own."""
    monkeypatch.setenv("COLUMNS", "120")


_CLI_WITH_CTRL_C = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'tenhou-tools'; runpy.run_module('tenhou_tools', run_name='__main__')"
)


def interruptible_cli(*args: object, **popen) -> subprocess.Popen:
    """The checkout's CLI in a child process, ``args`` its arguments, that a SIGINT interrupts as
    a Ctrl-C does (``KeyboardInterrupt``) wherever the tests run: a job started in the background
    of a shell without job control (``cmd &`` in a script, ``nohup``) inherits SIGINT ignored, and
    Python then installs no handler of its own, so the child would go on."""
    env = {**os.environ, **popen.pop("env", {})}  # PYTHONPATH: _children_import_this_checkout
    return subprocess.Popen([sys.executable, "-c", _CLI_WITH_CTRL_C, *map(str, args)], env=env, **popen)


def end_child(proc: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """The child's output once it ends; killed (and reaped) when it has not ended in ``timeout``
    seconds, which a test then reports as a failure (its return code is -9)."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


def stats_summary(stderr: str) -> tuple[str, list[str]]:
    """The summary sentence ``stats`` writes on stderr (``stats: 3 logs read in ...``) whole again
    (``cli.term.folded`` folds it at 80 columns, or the width), and stderr's other lines."""
    lines = stderr.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("stats: "))
    last = next(i for i in range(first, len(lines)) if lines[i].endswith("."))
    sentence = " ".join([lines[first], *(line.removeprefix("  ") for line in lines[first + 1:last + 1])])
    return sentence, lines[:first] + lines[last + 1:]
