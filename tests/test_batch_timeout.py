"""A log that hangs does not hang the run (``--timeout``, ``batch.DEFAULT_TIMEOUT``).

The hang is injected as the runners' unit of work (``work=``, ``tests/workers.py``): ``stuck.xml``
sleeps for an hour (stuck in C code: only killing its worker helps) or spins in a Python loop
(what an engine bug would do); every other log is checked as usual. No assertion is about how
long anything took.

Nor does a test depend on it: the limit is the default (``LIMIT``, a minute), which no good log
comes near however loaded the machine, and the stuck log does not wait that long. It announces
that it hangs (``workers.hangs_announced``: its process id in a file), and the pool's parent is
made to see the announced worker as on its log since ``LIMIT`` ago (``overdue_when_announced``),
looking every ``LOOK_SECONDS``; in this process, the hang sets the runner's own timer to go off
at once. So each test takes about as long as its good logs, and a slow good log is never stopped.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from tenhou_tools import batch, validate
from tenhou_tools.batch import InProcessRunner, PoolRunner, check_item, open_runner, timeout_message
from tenhou_tools.cli import cli
from tenhou_tools.sources.local import iter_logs
from tenhou_tools.stats import collect
from tenhou_tools.stats.records import STATS_WORK

from .conftest import FIXTURES, stats_summary
from .workers import hangs_announced, with_work

STUCK = "stuck.xml"
LIMIT = batch.DEFAULT_TIMEOUT
"""The time limit of every run here: the default; the stuck log is found overdue without waiting it."""
LOOK_SECONDS = 0.05
"""How often the pool's parent looks for an announced hang (its own wait otherwise lasts until the
first deadline, up to ``LIMIT``)."""


@pytest.fixture
def announced(tmp_path_factory, monkeypatch):
    """The file a hanging log writes its process id to; while the test runs, the pool's parent
    sees the worker of that id as on its log since ``LIMIT`` ago (``overdue_when_announced``)."""
    marker = tmp_path_factory.mktemp("announce") / "hung"
    overdue_when_announced(monkeypatch, marker)
    return str(marker)


def overdue_when_announced(monkeypatch, marker: Path) -> None:
    real_on, real_time_left = batch._Worker.on, batch._PoolBackend._time_left

    def on(worker):
        index, since = real_on(worker)
        try:
            hung = int(marker.read_text())
        except (FileNotFoundError, ValueError):
            return index, since
        return (index, since - LIMIT) if hung == worker.process.pid else (index, since)

    def time_left(backend):
        left = real_time_left(backend)
        return left if left is None else min(left, LOOK_SECONDS)

    monkeypatch.setattr(batch._Worker, "on", on)
    monkeypatch.setattr(batch._PoolBackend, "_time_left", time_left)


@pytest.fixture
def folder(tmp_path) -> Path:
    """Eight logs, the third of which hangs: with batches of three it sits inside a batch."""
    one_hand = (FIXTURES / "one_hand.xml").read_bytes()
    sanma = (FIXTURES / "sanma_kita.xml").read_bytes()
    for i in range(8):
        name = STUCK if i == 2 else f"{i}.xml"
        (tmp_path / name).write_bytes((sanma if i % 2 else one_hand) + b"\n" * i)  # each its own bytes
    return tmp_path


def check_records(records, reference, seconds):
    """The stuck log has the timeout finding; every other record is the usual one."""
    assert [r.path for r in records] == [r.path for r in reference]
    for got, want in zip(records, reference):
        if os.path.basename(got.path) == STUCK:
            assert got.ok is False and got.hands == 0
            (finding,) = got.findings
            assert finding.code.value == "INTERNAL_ERROR"
            assert finding.message == timeout_message(seconds)
            assert finding.message == (f"checking the log took longer than {seconds:g} s and was "
                                       "stopped (a hang in the parser or the engine?)")
        else:
            assert got == want


@pytest.mark.parametrize("how", ["sleep", "spin"])
@pytest.mark.parametrize("batch_size", [3, 1, 8])
def test_a_stuck_worker_is_replaced_and_its_log_becomes_a_finding(folder, announced, batch_size, how):
    items = list(iter_logs([folder]))
    reference = [check_item(item) for item in items]
    records, pids = [], set()
    with PoolRunner(2, batch_size=batch_size, work=hangs_announced(STUCK, announced, how), timeout=LIMIT) as runner:
        pids.update(runner.worker_pids())
        for record in runner.map(items):
            records.append(record)
            pids.update(runner.worker_pids())
    check_records(records, reference, LIMIT)
    assert len(pids) == 3  # the stuck worker was killed and one more started


def test_a_python_loop_in_this_process_is_interrupted(folder, announced):
    items = list(iter_logs([folder]))
    reference = [check_item(item) for item in items]
    records = list(InProcessRunner(work=hangs_announced(STUCK, announced, "alarm"), timeout=LIMIT).map(items))
    check_records(records, reference, LIMIT)


def test_the_parent_wakes_when_the_first_busy_worker_is_due(monkeypatch):
    """What the tests above replace (``overdue_when_announced`` looks every ``LOOK_SECONDS``): the
    parent's wait lasts until the first busy worker's log is due, counted from the worker's note
    for its current task, else from when the task was sent; a worker without a task counts not."""
    monkeypatch.setattr(batch, "time", SimpleNamespace(monotonic=lambda: 100.0))
    noted = batch._Worker(None, None, progress=[7, 2, 95.0])  # on its task 7, log 2, since 95
    noted.task, noted.task_id, noted.sent = batch._Task(0, 0, []), 7, 90.0
    stale = batch._Worker(None, None, progress=[3, 1, 80.0])  # a note from an earlier task
    stale.task, stale.task_id, stale.sent = batch._Task(1, 0, []), 4, 92.0
    idle = batch._Worker(None, None, progress=[2, 0, 10.0])
    backend = object.__new__(batch._PoolBackend)
    backend.timeout = 10.0
    backend._workers = [noted, stale, idle]
    assert (noted.on(), stale.on()) == ((2, 95.0), (0, 92.0))
    assert backend._time_left() == 2.0  # the stale one: sent at 92, due at 102
    stale.task = None
    assert backend._time_left() == 5.0
    noted.task = None
    assert backend._time_left() is None


def test_a_task_is_timed_from_before_it_is_sent():
    """A worker may take its task, check a log and note that it is on the next one before
    ``send`` returns in the parent. The task's clock must start before the send: with a later
    one, the worker's note looked stale, the worker seemed still on its first log, and a timeout
    on the second one was reported for the first (a good log) under load."""

    class Conn:
        def send(self, message):
            self.delivered_at = time.monotonic()
            time.sleep(0.01)  # the parent is slow to get back from the send

    class Process:
        pid = 0

    worker = batch._Worker(Process(), Conn())
    worker.ready = True
    backend = object.__new__(batch._PoolBackend)  # its bookkeeping only, no processes
    backend._workers, backend._queue, backend._task_ids = [worker], deque([batch._Task(0, 0, [])]), 0
    backend._dispatch()
    assert worker.task is not None and worker.task_id == 1
    assert worker.sent <= worker.conn.delivered_at


def test_no_limit_means_no_timer():
    assert open_runner(jobs=1, timeout=0).timeout is None
    assert open_runner(jobs=1, timeout=None).timeout is None
    assert open_runner(jobs=1).timeout == batch.DEFAULT_TIMEOUT == 60.0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_reports_the_stuck_log_and_goes_on(folder, announced, monkeypatch, jobs):
    """Through the command: the NDJSON contract holds (a game line per log, in input order, then
    the summary), the stuck log is an INTERNAL_ERROR finding, the exit code is 1."""
    with_work(validate, monkeypatch, hangs_announced(STUCK, announced, "sleep" if jobs == "2" else "alarm"))
    result = CliRunner().invoke(cli, ["validate", str(folder), "--format", "ndjson", "--jobs", jobs,
                                      "--batch-size", "3", "--timeout", f"{LIMIT:g}", "--no-progress"])
    assert result.exit_code == 1, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert [Path(g["path"]).name for g in games] == sorted(p.name for p in folder.iterdir())
    stuck = [g for g in games if Path(g["path"]).name == STUCK]
    assert stuck == [{"type": "game", "path": str(folder / STUCK), "log_id": None, "ok": False,
                      "hands": 0, "checks": {}, "findings": [{
                          "code": "INTERNAL_ERROR", "severity": "error", "hand": None, "label": None,
                          "event_index": None, "message": timeout_message(LIMIT),
                          "expected": None, "actual": None}]}]
    assert all(g["ok"] for g in games if g not in stuck)
    assert summary["type"] == "summary" and summary["games"] == 8 and summary["failed"] == 1
    assert summary["findings_by_code"] == {"INTERNAL_ERROR": 1}


def test_stats_counts_the_stuck_log_as_unreadable(folder, announced, monkeypatch):
    with_work(collect, monkeypatch, hangs_announced(STUCK, announced, "sleep", STATS_WORK))
    result = CliRunner().invoke(cli, ["stats", str(folder), "--format", "json", "--jobs", "2",
                                      "--batch-size", "3", "--timeout", f"{LIMIT:g}", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert "; 1 unreadable;" in stats_summary(result.stderr)[0]
    assert f"  unreadable: {folder / STUCK}: {timeout_message(LIMIT)}" in result.stderr.splitlines()
    assert {row["games"] for row in json.loads(result.stdout)} == {3, 4}  # 7 games counted
