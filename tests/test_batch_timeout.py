"""A log that hangs does not hang the run (``--timeout``, ``batch.DEFAULT_TIMEOUT``).

The hang is injected as the runners' unit of work (``work=``, ``tests/workers.py``): ``stuck.xml``
sleeps for an hour (stuck in C code: only killing its worker helps) or spins in a Python loop
(what an engine bug would do); every other log is checked as usual. No assertion is about how
long anything took.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools import batch, validate
from tenhou_tools.batch import InProcessRunner, PoolRunner, check_item, open_runner, timeout_message
from tenhou_tools.cli import cli
from tenhou_tools.sources.local import iter_logs
from tenhou_tools.stats import collect
from tenhou_tools.stats.records import STATS_WORK

from .conftest import FIXTURES
from .workers import sleeps_on, spins_on, with_work

STUCK = "stuck.xml"
SLEEPS = sleeps_on(STUCK)
SPINS = spins_on(STUCK)
STATS_SLEEPS = sleeps_on(STUCK, STATS_WORK)


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


@pytest.mark.parametrize("batch_size", [3, 1, 8])
def test_a_stuck_worker_is_replaced_and_its_log_becomes_a_finding(folder, batch_size):
    items = list(iter_logs([folder]))
    reference = [check_item(item) for item in items]
    records, pids = [], set()
    with PoolRunner(2, batch_size=batch_size, work=SLEEPS, timeout=1.0) as runner:
        pids.update(runner.worker_pids())
        for record in runner.map(items):
            records.append(record)
            pids.update(runner.worker_pids())
    check_records(records, reference, 1.0)
    assert len(pids) == 3  # the stuck worker was killed and one more started


def test_a_python_loop_in_this_process_is_interrupted(folder):
    items = list(iter_logs([folder]))
    reference = [check_item(item) for item in items]
    records = list(InProcessRunner(work=SPINS, timeout=0.5).map(items))
    check_records(records, reference, 0.5)


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
def test_validate_reports_the_stuck_log_and_goes_on(folder, monkeypatch, jobs):
    """Through the command: the NDJSON contract holds (a game line per log, in input order, then
    the summary), the stuck log is an INTERNAL_ERROR finding, the exit code is 1."""
    with_work(validate, monkeypatch, SLEEPS if jobs == "2" else SPINS)
    result = CliRunner().invoke(cli, ["validate", str(folder), "--format", "ndjson", "--jobs", jobs,
                                      "--batch-size", "3", "--timeout", "1", "--no-progress"])
    assert result.exit_code == 1, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert [Path(g["path"]).name for g in games] == sorted(p.name for p in folder.iterdir())
    stuck = [g for g in games if Path(g["path"]).name == STUCK]
    assert stuck == [{"type": "game", "path": str(folder / STUCK), "log_id": None, "ok": False,
                      "hands": 0, "checks": {}, "findings": [{
                          "code": "INTERNAL_ERROR", "severity": "error", "hand": None, "label": None,
                          "event_index": None, "message": timeout_message(1.0),
                          "expected": None, "actual": None}]}]
    assert all(g["ok"] for g in games if g not in stuck)
    assert summary["type"] == "summary" and summary["games"] == 8 and summary["failed"] == 1
    assert summary["findings_by_code"] == {"INTERNAL_ERROR": 1}


def test_stats_counts_the_stuck_log_as_unreadable(folder, monkeypatch):
    with_work(collect, monkeypatch, STATS_SLEEPS)
    result = CliRunner().invoke(cli, ["stats", str(folder), "--format", "json", "--jobs", "2",
                                      "--batch-size", "3", "--timeout", "1", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert "; 1 unreadable;" in result.stderr
    assert f"  unreadable: {folder / STUCK}: {timeout_message(1.0)}" in result.stderr.splitlines()
    assert {row["games"] for row in json.loads(result.stdout)} == {3, 4}  # 7 games counted
