"""``validate`` at scale: the local pool and Dask give the in-process report, byte for byte.

Everything goes through click's runner with exact exit codes. The crash tests give the command a
unit of work that fails on one chosen log (``tests/workers.py``): a pool worker that meets it
exits at once, as if it had been killed; a Dask task that meets it raises.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools import batch, validate
from tenhou_tools.batch import InProcessRunner, PoolRunner
from tenhou_tools.cli import cli, validate_cmd
from tenhou_tools.sources.local import iter_logs

from .conftest import FIXTURES, FREE_LOOPBACK_PORT, closed_port, corpus_files
from .workers import EXIT_CODE, exits_on, raises_on, with_work

ELAPSED = re.compile(r'"elapsed_s": [0-9.]+')
SPEED = re.compile(r"^speed +\d+ games/s$", re.M)


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def stable(text: str) -> str:
    """The report without the two numbers that depend on time."""
    return SPEED.sub("speed", ELAPSED.sub('"elapsed_s": 0', text))


def ndjson(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[str]:
    """About 40 logs of our own, clean and broken, some in a zip archive, none with a game id
    in its name and each with its own bytes (so none is deduplicated but the fixtures' copies)."""
    root = tmp_path_factory.mktemp("logs")
    one_hand = (FIXTURES / "one_hand.xml").read_text()
    sanma = (FIXTURES / "sanma_kita.xml").read_text()
    variants = {
        "clean": one_hand,
        "points": one_hand.replace('ten="50,48000,5"', 'ten="50,36000,5"'),
        "fu": one_hand.replace('ten="50,48000,5"', 'ten="40,48000,5"'),
        "sc": one_hand.replace('sc="250,480,250,-480', 'sc="250,470,250,-470'),
        "owari": one_hand.replace('owari="730,83.0', 'owari="730,84.0'),
        "ba": one_hand.replace('ba="0,0"', 'ba="1,0"'),
        "init": one_hand.replace('ten="250,250,250,250"', 'ten="250,250,250,240"'),
        "cut": one_hand[: len(one_hand) // 2],
        "sanma": sanma,
    }
    folder = root / "folder"
    folder.mkdir()
    for i in range(3):
        for name, text in variants.items():
            (folder / f"{i}_{name}.xml").write_text(text + "\n" * i)  # copies, not the same bytes
    for bad in ("empty.mjlog", "not_mjlog.xml", "truncated.mjlog", "one_hand.mjlog"):
        (folder / bad).write_bytes((FIXTURES / bad).read_bytes())
    archive = root / "more.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in variants.items():
            zf.writestr(f"z/{name}.xml", text + "\n" * 3)
    paths = [str(folder), str(archive), str(FIXTURES)]
    assert sum(1 for _ in iter_logs(paths)) >= 36
    return paths


@pytest.fixture(scope="module")
def in_process(logs) -> dict[str, str]:
    """The --jobs 1 reports, the reference for every other runner (at the width the tests pin:
    the text report folds at the terminal's width, and a module's fixture runs before the
    per-test ``COLUMNS`` of conftest)."""
    out = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "120")
        for fmt in ("ndjson", "json", "text"):
            result = run("validate", *logs, "--format", fmt, "--jobs", "1", "--no-progress")
            assert result.exit_code == 1, result.output
            out[fmt] = stable(result.stdout)
    return out


# -- the local pool -------------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [["--jobs", "2"], ["--jobs", "2", "--batch-size", "3"],
                                   ["--jobs", "3", "--batch-size", "1"]])
def test_pool_report_is_byte_identical(logs, in_process, extra):
    for fmt in ("ndjson", "json", "text"):
        result = run("validate", *logs, "--format", fmt, "--no-progress", *extra)
        assert result.exit_code == 1, result.stderr
        assert stable(result.stdout) == in_process[fmt]


def test_the_report_has_findings_and_parse_errors(in_process):
    lines = ndjson(in_process["ndjson"])
    summary = lines[-1]
    assert summary["type"] == "summary" and summary["games"] == len(lines) - 1
    assert summary["ok"] > 0 and summary["failed"] > 0
    assert {"PARSE_ERROR", "AGARI_POINTS", "OWARI_POINTS"} <= set(summary["findings_by_code"])
    assert any(":z/" in line["path"] for line in lines[:-1])  # zip members are in it too


def test_no_dedupe_flag(corpus):
    files = [str(p) for p in corpus_files("mjlog")[:3]]
    deduped = run("validate", *files, *files, "--format", "ndjson", "--jobs", "2")
    assert deduped.exit_code == 0 and ndjson(deduped.stdout)[-1]["games"] == 3
    assert "3 duplicate game(s) skipped." in deduped.stderr
    every = run("validate", *files, *files, "--format", "ndjson", "--jobs", "2", "--no-dedupe")
    assert every.exit_code == 0 and ndjson(every.stdout)[-1]["games"] == 6
    assert [g["path"] for g in ndjson(every.stdout)[:-1]] == files + files


@pytest.mark.corpus
def test_pool_matches_in_process_on_a_corpus_sample(corpus):
    files = [str(p) for p in corpus_files("mjlog")[::40]]
    broken = corpus / "broken"
    paths = files + ([str(broken)] if broken.is_dir() else [])
    one = run("validate", *paths, "--format", "ndjson", "--jobs", "1", "--no-progress")
    two = run("validate", *paths, "--format", "ndjson", "--jobs", "2", "--no-progress")
    assert one.exit_code == two.exit_code == (1 if broken.is_dir() else 0)
    assert stable(two.stdout) == stable(one.stdout)
    assert ndjson(one.stdout)[-1]["games"] >= len(files)


def test_runner_api_keeps_input_order_and_a_bounded_window():
    """Items are pulled lazily: never more than the window ahead of the consumer."""
    items = list(iter_logs([FIXTURES])) * 10
    pulled = 0

    def source():
        nonlocal pulled
        for item in items:
            pulled += 1
            yield item

    expected = list(InProcessRunner().map(items))
    got = []
    with PoolRunner(2, batch_size=2) as runner:
        window = 2 * batch.WINDOW_PER_SLOT * 2  # slots x batches per slot x batch size
        for record in runner.map(source()):
            got.append(record)
            assert pulled - len(got) <= window
    assert got == expected


class _SyncBackend:
    """A backend that runs each task at once and reports them all at the next ``wait``: the
    worst case for the window (every result arrives before the consumer moves)."""

    def __init__(self, slots: int, fail_on: str | None = None):
        self.slots = slots
        self.fail_on = fail_on
        self.running: list = []
        self.submitted: list = []

    def has_room(self):
        return len(self.running) < self.slots

    def submit(self, task):
        self.submitted.append(task)
        self.running.append(task)

    def busy(self):
        return bool(self.running)

    def wait(self):
        done, self.running = self.running, []
        return [(t, "boom" if any(i.source.endswith(self.fail_on or "\0") for i in t.items)
                 else batch.check_batch(t.items)) for t in done]

    def close(self):
        pass

    def terminate(self):
        pass


@pytest.mark.parametrize("slots,size,window", [(1, 1, 1), (2, 1, 2), (3, 2, 4), (2, 5, 8)])
def test_ordering_core_never_stalls_and_keeps_order(slots, size, window):
    items = list(iter_logs([FIXTURES])) * 7
    ended = []
    backend = _SyncBackend(slots)
    got = list(batch._ordered(items, backend, size, window, on_end=ended.append))
    assert got == list(InProcessRunner().map(items))
    assert ended == [True]


def test_ordering_core_retries_a_failed_batch_log_by_log():
    items = list(iter_logs([FIXTURES])) * 3
    backend = _SyncBackend(2, fail_on="sanma_kita.xml")
    got = list(batch._ordered(items, backend, 4, 4, on_end=lambda ok: None))
    want = list(InProcessRunner().map(items))
    assert [r.path for r in got] == [r.path for r in want]
    for g, w in zip(got, want):
        if g.path.endswith("sanma_kita.xml"):
            assert [f.code.value for f in g.findings] == ["INTERNAL_ERROR"]
            assert g.findings[0].message == "boom"
        else:
            assert g == w
    retried = [t for t in backend.submitted if t.isolated]
    assert retried and all(len(t.items) == 1 for t in retried)


def test_default_jobs_keeps_tiny_runs_in_process(logs):
    assert isinstance(batch.open_runner(total=3), InProcessRunner)
    assert isinstance(batch.open_runner(jobs=1), InProcessRunner)
    with batch.open_runner(jobs=2) as runner:
        assert isinstance(runner, PoolRunner) and len(runner.worker_pids()) == 2


# -- a worker that dies ---------------------------------------------------------------------------


def test_a_killed_worker_costs_one_log_not_the_run(logs, in_process, monkeypatch):
    victim = "1_fu.xml"
    with_work(validate, monkeypatch, exits_on(victim))
    result = run("validate", *logs, "--format", "ndjson", "--jobs", "2", "--batch-size", "4",
                 "--no-progress")
    assert result.exit_code == 1
    got, want = ndjson(result.stdout), ndjson(in_process["ndjson"])
    assert [g.get("path") for g in got] == [g.get("path") for g in want]
    for g, w in zip(got[:-1], want[:-1]):
        if Path(g["path"]).name == victim:
            assert g["ok"] is False and g["hands"] == 0
            (finding,) = g["findings"]
            assert finding["code"] == "INTERNAL_ERROR"
            assert finding["message"] == f"the worker process died while checking it (exit code {EXIT_CODE})"
        else:
            assert g == w  # its batch neighbours were retried one by one and are unharmed
    summary = got[-1]
    assert summary["games"] == want[-1]["games"]
    assert summary["findings_by_code"]["INTERNAL_ERROR"] == 1


def test_a_worker_that_dies_on_every_try_is_one_finding_at_the_runner(logs):
    """The runner itself, without the command: the log whose worker dies, and dies again when it
    is retried alone, gets ``work.failed``'s record; every other record is the usual one."""
    items = list(iter_logs(logs))
    victim = "2_points.xml"
    with PoolRunner(2, batch_size=3, work=exits_on(victim)) as runner:
        got = list(runner.map(items))
    want = list(InProcessRunner().map(items))
    assert [r.path for r in got] == [r.path for r in want]
    (died,) = [r for r in got if Path(r.path).name == victim]
    assert [(f.code.value, f.message) for f in died.findings] == [
        ("INTERNAL_ERROR", f"the worker process died while checking it (exit code {EXIT_CODE})")]
    assert [r for r in got if r is not died] == [r for r in want if Path(r.path).name != victim]


def test_a_crash_in_a_small_batch(tmp_path, monkeypatch):
    """The victim named by its full path; the log's batch neighbour is retried and clean."""
    with_work(validate, monkeypatch, exits_on(str(tmp_path / "3.xml")))
    for i in range(6):
        one_hand = (FIXTURES / "one_hand.xml").read_bytes()
        (tmp_path / f"{i}.xml").write_bytes(one_hand + b"\n" * i)  # copies, each its own bytes
    result = run("validate", tmp_path, "--format", "ndjson", "--jobs", "2", "--batch-size", "2",
                 "--no-progress")
    lines = ndjson(result.stdout)
    assert result.exit_code == 1
    assert [line["ok"] for line in lines[:-1]] == [True, True, True, False, True, True]
    assert lines[-1]["findings_by_code"] == {"INTERNAL_ERROR": 1}


# -- Ctrl-C ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_with_the_summary_so_far(logs, monkeypatch, jobs):
    seen = []
    real_fails = validate_cmd.fails

    def interrupt_on_third(record, fail_on):
        seen.append(record)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real_fails(record, fail_on)

    runners = []
    real_open = validate.open_runner

    def spy(**kwargs):
        runner = real_open(**kwargs)
        runners.append((runner, runner.worker_pids() if isinstance(runner, PoolRunner) else []))
        return runner

    monkeypatch.setattr(validate_cmd, "fails", interrupt_on_third)
    monkeypatch.setattr(validate, "open_runner", spy)
    result = run("validate", *logs, "--format", "ndjson", "--jobs", jobs, "--no-progress")
    assert result.exit_code == 130
    lines = ndjson(result.stdout)
    assert [line["type"] for line in lines] == ["game", "game", "game", "summary"]
    assert lines[-1]["games"] == 3  # the third was written and counted, then Ctrl-C came
    assert "Interrupted after 3 games." in result.stderr
    (runner, pids), = runners
    if jobs == "2":
        assert len(pids) == 2
        for pid in pids:  # terminated and reaped: no worker, no zombie
            assert not Path(f"/proc/{pid}").exists()
        assert runner.worker_pids() == []


def test_ctrl_c_with_an_output_file_keeps_the_partial_report(logs, monkeypatch, tmp_path):
    def interrupt(record, fail_on):
        raise KeyboardInterrupt

    monkeypatch.setattr(validate_cmd, "fails", interrupt)
    out = tmp_path / "r.ndjson"
    result = run("validate", *logs, "--format", "ndjson", "--jobs", "2", "-o", out)
    assert result.exit_code == 130 and result.stdout == ""
    lines = ndjson(out.read_text())
    assert [line["type"] for line in lines] == ["game", "summary"] and lines[-1]["games"] == 1


# -- Dask -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=FREE_LOOPBACK_PORT) as cluster:
        yield cluster.scheduler_address


def test_dask_report_is_byte_identical(logs, in_process, dask_scheduler):
    for fmt in ("ndjson", "json", "text"):
        result = run("validate", *logs, "--format", fmt, "--scheduler", dask_scheduler,
                     "--batch-size", "5")
        assert result.exit_code == 1, result.output
        assert stable(result.stdout) == in_process[fmt]


def test_dask_scheduler_from_the_environment(logs, in_process, dask_scheduler):
    result = run("validate", *logs, "--format", "ndjson",
                 env={"TENHOU_TOOLS_SCHEDULER": dask_scheduler})
    assert result.exit_code == 1
    assert stable(result.stdout) == in_process["ndjson"]


def test_dask_failed_task_costs_one_log(logs, in_process, dask_scheduler, monkeypatch):
    with_work(validate, monkeypatch, raises_on("2_sc.xml"))
    result = run("validate", *logs, "--format", "ndjson", "--scheduler", dask_scheduler,
                 "--batch-size", "4")
    assert result.exit_code == 1
    got, want = ndjson(result.stdout), ndjson(in_process["ndjson"])
    assert len(got) == len(want)
    for g, w in zip(got[:-1], want[:-1]):
        if Path(g["path"]).name == "2_sc.xml":
            assert [f["code"] for f in g["findings"]] == ["INTERNAL_ERROR"]
            assert g["findings"][0]["message"] == ("the Dask task failed: RuntimeError: injected "
                                                   f"failure on {g['path']}")
        else:
            assert g == w


@pytest.mark.corpus
def test_dask_matches_in_process_on_a_corpus_sample(corpus, dask_scheduler):
    files = [str(p) for p in corpus_files("mjlog")[5::150]]
    one = run("validate", *files, "--format", "ndjson", "--jobs", "1")
    dask = run("validate", *files, "--format", "ndjson", "--scheduler", dask_scheduler)
    assert one.exit_code == dask.exit_code == 0
    assert stable(dask.stdout) == stable(one.stdout)


def test_dask_ctrl_c_exits_130_with_the_summary_so_far(logs, in_process, monkeypatch, dask_scheduler):
    seen = []

    def interrupt_on_fifth(record, fail_on):
        seen.append(record)
        if len(seen) == 5:
            raise KeyboardInterrupt
        return False

    monkeypatch.setattr(validate_cmd, "fails", interrupt_on_fifth)
    result = run("validate", *logs, "--format", "ndjson", "--scheduler", dask_scheduler,
                 "--batch-size", "2")
    assert result.exit_code == 130
    lines = ndjson(result.stdout)
    assert [line["type"] for line in lines] == ["game"] * 5 + ["summary"]
    assert lines[-1]["games"] == 5
    # the cluster is still usable afterwards: the cancelled run left nothing behind
    again = run("validate", *logs, "--format", "ndjson", "--scheduler", dask_scheduler)
    assert again.exit_code == 0  # the patched `fails` says no from now on
    assert ndjson(again.stdout)[-1]["games"] == ndjson(in_process["ndjson"])[-1]["games"]


def test_missing_dask_is_one_line_and_exit_2(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    result = run("validate", FIXTURES, "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == ("Error: --scheduler needs Dask, which is not installed: "
                             "pip install 'tenhou-tools[dask]'\n")


def test_unreachable_scheduler_is_exit_2(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(batch, "DASK_CONNECT_TIMEOUT", 0.5)
    result = run("validate", FIXTURES, "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: cannot connect to the Dask scheduler at tcp://127.0.0.1:9")
    assert result.stderr.count("\n") == 1


def test_a_refused_scheduler_address_is_named_at_once():
    """Nothing listening on the port (a real closed port): the connection is refused and the run
    says so, without Dask's connect timeout (issue 34, item 7)."""

    pytest.importorskip("distributed")
    with closed_port() as port:
        result = run("validate", FIXTURES, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"Error: cannot connect to the Dask scheduler at tcp://127.0.0.1:{port}: the connection "
                             "was refused (is a scheduler running there?)\n")


# -- the progress bar -----------------------------------------------------------------------------


def test_progress_on_a_terminal_keeps_data_on_stdout(logs):
    """With stderr a terminal the bar is drawn there, and a redirected stdout still gets every
    record (rich must not route stdout through the bar's console)."""

    master, slave = pty.openpty()
    drawn = bytearray()

    def drain():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            drawn.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")} | {"TERM": "xterm"}
    proc = subprocess.run([sys.executable, "-m", "tenhou_tools", "validate", *logs, "--jobs", "2",
                           "--format", "ndjson"], stdout=subprocess.PIPE, stderr=slave,
                          stdin=subprocess.DEVNULL, env=env, timeout=300)
    os.close(slave)
    reader.join(timeout=10)
    os.close(master)
    lines = ndjson(proc.stdout.decode())
    assert proc.returncode == 1
    assert lines[-1]["type"] == "summary" and lines[-1]["games"] == len(lines) - 1 > 35
    assert b"validate" in drawn  # the bar was drawn on the terminal
    assert b'"type": "game"' not in drawn


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked only on Linux")
def test_workers_are_forked_only_from_a_single_threaded_process():
    assert batch._mp_context(threads=1).get_start_method() == "fork"
    assert batch._mp_context(threads=2).get_start_method() == "forkserver"
    assert batch._mp_context().get_start_method() == (
        "fork" if threading.active_count() == 1 else "forkserver")


def _parent_pid(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _worker_parents(paths: list[str]) -> tuple[list[bool], set[int]]:
    oks, parents = [], set()
    with PoolRunner(2) as runner:
        for record in runner.map(iter_logs(paths)):  # the workers run until the last record
            oks.append(record.ok)
            parents |= {_parent_pid(pid) for pid in runner.worker_pids()}
    return oks, parents


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_pool_opened_while_another_thread_runs_is_not_forked_from_it():
    """Workers come from this process only while it runs one thread; with another thread (a
    progress bar's, a caller's) they come from the fork server, and check the logs all the same."""
    paths = [str(FIXTURES / "one_hand.mjlog"), str(FIXTURES / "sanma_kita.xml")]
    if threading.active_count() == 1:
        oks, parents = _worker_parents(paths)
        assert oks == [True, True] and parents == {os.getpid()}
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        oks, parents = _worker_parents(paths)
    finally:
        stop.set()
        thread.join()
    assert oks == [True, True]
    assert parents and os.getpid() not in parents
