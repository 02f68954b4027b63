"""Run ``check_log`` over a stream of logs: in this process, in a local process pool, or on Dask.

``open_runner(jobs=..., scheduler=...)`` gives a ``Runner``; ``runner.map(items)`` turns a stream
of ``LogItem``\\ s into a stream of ``GameRecord``\\ s **in input order**, whichever runner runs
them, so a report is the same byte for byte with one process, a pool or a cluster.

- ``InProcessRunner`` (``--jobs 1``): one log after another, here.
- ``PoolRunner`` (``--jobs N``, the default): ``N`` worker processes of our own: on Linux, forked
  from this process while it runs no other thread (no second interpreter to start, no imports to
  repeat: a third of a second less per run); otherwise ``forkserver`` where the platform has it,
  else ``spawn``. A process that may run threads is never forked: the choice is made again for
  each worker started, so one replacing a dead worker while the progress bar's thread runs comes
  from the fork server.
  Logs go to the workers as bytes, in batches of ``batch_size`` (one pickled message each way per
  batch), and ``GameRecord``\\ s come back.
- ``DaskRunner`` (``--scheduler tcp://HOST:PORT``): the same batches as Dask tasks on a cluster,
  through the optional ``distributed`` package (``pip install 'tenhou-tools[dask]'``).

Memory stays flat however many logs there are: items are pulled from the source only when a batch
can be sent, and at most ``window`` batches (sent, running, or done but waiting for an earlier one)
are held at once. Nothing keeps all the logs or all the records.

A log that breaks the parser or the engine is already a record (``check_log``). Beyond that, when
a worker process dies in the middle of a batch (killed, out of memory, a crash in C code), or a
Dask task fails, each log of that batch is retried on its own; a log whose retry fails too gets an
``INTERNAL_ERROR`` record saying why, and the run goes on.

A log that takes longer than ``timeout`` seconds (``DEFAULT_TIMEOUT``; ``--timeout``) is stopped
and gets an ``INTERNAL_ERROR`` record saying so; the run goes on. In the pool, each worker notes in
a little shared memory which log of its batch it is on and since when (no message, no system
call), and the parent kills a worker that stays on one log too long, starts another, and checks
the rest of that batch again; the log itself is not retried (a hang does not go away). In this
process (``--jobs 1``) a timer signal interrupts the log, which works for anything but a hang
inside C code, and only in the main thread. Dask tasks have no time limit. Stopping early (Ctrl-C,
an error in the consumer, closing the generator) terminates the workers and waits for them: no
process is left behind.

Workers of the local pool start the way ``multiprocessing`` spawns them, which imports the main
module again in each worker: a script that uses ``PoolRunner`` needs the usual
``if __name__ == "__main__":`` guard (the console script and ``python -m tenhou_tools`` are fine).

The work done on each log is ``check_item`` unless a runner is given another ``Work`` (a pair of
module-level functions, so it pickles by reference): ``stats`` runs ``stats.records.STATS_WORK``
through the same pool, windows and retries, and gets its own records back in input order. The
tests give a ``Work`` that crashes or hangs on a chosen log to see a dead or stuck worker handled
(``tests/workers.py``); nothing here knows about them.
"""

from __future__ import annotations

import math
import mmap
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_any
from typing import Any

from ._native import collect_rarely
from .batch_order import Backend as _Backend
from .batch_order import Task as _Task
from .batch_order import TimedOut as _TimedOut
from .batch_order import ordered
from .check import GameRecord, check_log
from .findings import Finding, FindingCode, Severity
from .sources.local import LogItem

__all__ = [
    "DEFAULT_TIMEOUT",
    "BatchError",
    "DaskRunner",
    "InProcessRunner",
    "PoolRunner",
    "Runner",
    "SetupError",
    "Work",
    "WorkerStartError",
    "check_batch",
    "check_item",
    "default_jobs",
    "open_runner",
    "timeout_message",
]

DEFAULT_BATCH_SIZE = 48
"""Logs per batch sent to a local worker: about 50 ms to 0.5 s of work, a few hundred KB."""
DASK_BATCH_SIZE = 128
"""Logs per Dask task: a task costs a few milliseconds of scheduling, so make them bigger."""
WINDOW_PER_SLOT = 4
"""Batches held at once per worker slot (in flight or done but waiting for an earlier one)."""
SMALL_RUN = 16
"""With no ``--jobs`` given, runs of at most this many logs stay in this process (starting workers
would cost more than it saves)."""
MAX_START_FAILURES = 3
"""Workers in a row that die before they are ready: then the pool gives up (``WorkerStartError``)."""
DEFAULT_TIMEOUT = 60.0
"""Seconds one log may take (a real log takes milliseconds, the slowest broken one a second)."""
DASK_CONNECT_TIMEOUT = 10.0
DASK_WORKER_TIMEOUT = 30.0


class BatchError(Exception):
    """A runner cannot run. ``str()`` is one line."""


class SetupError(BatchError):
    """The user's setup is wrong: Dask not installed, scheduler unreachable, no workers (exit 2)."""


class WorkerStartError(BatchError):
    """Local worker processes die before they can take work (exit 3)."""


# --- the unit of work ----------------------------------------------------------------------------


def check_item(item: LogItem) -> GameRecord:
    """One ``LogItem`` -> its record. Never raises an ``Exception``."""
    try:
        return check_log(item.data, path=item.source, log_id=item.log_id, error=item.error)
    except Exception as exc:  # noqa: BLE001 - check_log should not raise; if it does, one record
        return _internal_error(item, f"checking the log failed: {type(exc).__name__}: {exc}",
                               traceback.format_exc())


def check_batch(items: Sequence[LogItem], work: Work | None = None,
                starting: Callable[[int], None] | None = None) -> list[Any]:
    """Records for a batch of items, in order (what a worker or a Dask task runs): ``work.run``
    of each (``None``: ``check_item``). ``starting(i)`` is told before each item (a pool worker's
    progress)."""
    run = check_item if work is None else work.run
    out = []
    for index, item in enumerate(items):
        if starting is not None:
            starting(index)
        out.append(run(item))
    return out


def timeout_message(seconds: float) -> str:
    """The finding of a log that was stopped for taking too long."""
    return (f"checking the log took longer than {seconds:g} s and was stopped "
            "(a hang in the parser or the engine?)")


def _internal_error(item: LogItem, message: str, detail: str | None = None) -> GameRecord:
    finding = Finding(FindingCode.INTERNAL_ERROR, Severity.ERROR, message, detail=detail)
    return GameRecord(item.source, item.log_id, 0, (), (finding,))


@dataclass(frozen=True, slots=True)
class Work:
    """What a runner does with each log: ``run(item)`` gives its record and never raises;
    ``failed(item, message)`` is the record of a log whose worker died or whose task failed.
    Both must be module-level functions (they are pickled by reference to the workers)."""

    run: Callable[[LogItem], Any]
    failed: Callable[[LogItem, str], Any]


CHECK = Work(check_item, _internal_error)
"""``validate``'s work: a ``GameRecord`` per log."""


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# --- runners -------------------------------------------------------------------------------------


class Runner:
    """Turns ``LogItem``\\ s into ``GameRecord``\\ s in input order. Use it as a context manager."""

    name = "runner"
    workers = 1

    def map(self, items: Iterable[LogItem], *, total: int | None = None) -> Generator[Any, None, None]:
        raise NotImplementedError

    def close(self) -> None:
        """Release workers or connections (idempotent)."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcessRunner(Runner):
    """``--jobs 1``: no pool, no pickling. With a ``timeout``, each log runs under a timer signal
    (``SIGALRM``) when this is the main thread: a log that takes too long is interrupted (unless it
    is stuck inside C code) and gets the ``failed`` record."""

    name = "in-process"

    def __init__(self, *, work: Work = CHECK, timeout: float | None = None):
        self.work = work
        self.timeout = timeout or None
        self._undo_gc: Callable[[], None] | None = collect_rarely()

    def close(self) -> None:
        """Give the process back its garbage collector's settings (idempotent)."""
        if self._undo_gc is not None:
            self._undo_gc()
            self._undo_gc = None

    def map(self, items: Iterable[LogItem], *, total: int | None = None) -> Generator[Any, None, None]:
        run = self.work.run
        if (self.timeout is None or not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):
            for item in items:
                yield run(item)
            return
        for item in items:
            yield self._run_timed(run, item)

    def _run_timed(self, run: Callable[[LogItem], Any], item: LogItem) -> Any:
        assert self.timeout is not None
        previous = signal.signal(signal.SIGALRM, _alarm)
        try:
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
            try:
                return run(item)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _LogTimeout:
            return self.work.failed(item, timeout_message(self.timeout))
        finally:
            signal.signal(signal.SIGALRM, previous)


class _LogTimeout(BaseException):
    """Raised by the timer signal in a log that runs too long (a ``BaseException``, so that the
    ``except Exception`` around the parser and the engine lets it through)."""


def _alarm(signum: int, frame: Any) -> None:
    raise _LogTimeout


class _BatchedRunner(Runner):
    """Shared by the pool and Dask: batches, a bounded window, input order, retries."""

    default_batch_size = DEFAULT_BATCH_SIZE

    def __init__(self, batch_size: int | None, work: Work = CHECK):
        if batch_size is not None and batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.batch_size = batch_size
        self.work = work
        self.timeout: float | None = None
        self._backend: _Backend | None = None

    def _open_backend(self) -> _Backend:
        raise NotImplementedError

    def _effective_batch_size(self, total: int | None, slots: int) -> int:
        size = self.batch_size or self.default_batch_size
        if self.batch_size is None and total:
            # Small runs: smaller batches, so every worker gets some (never below 1).
            size = min(size, max(1, math.ceil(total / (slots * WINDOW_PER_SLOT))))
        return size

    def map(self, items: Iterable[LogItem], *, total: int | None = None) -> Generator[Any, None, None]:
        if self._backend is None:
            self._backend = self._open_backend()
        backend = self._backend
        size = self._effective_batch_size(total, backend.slots)
        return _ordered(items, backend, size, backend.slots * WINDOW_PER_SLOT, on_end=self._ended,
                        on_failure=self.work.failed)

    def _ended(self, ok: bool) -> None:
        backend, self._backend = self._backend, None
        if backend is None:
            return
        if ok:
            backend.close()
        else:
            backend.terminate()

    def close(self) -> None:
        self._ended(True)


class PoolRunner(_BatchedRunner):
    """``--jobs N``: ``N`` local worker processes, started at once (before any progress thread)."""

    name = "process pool"

    def __init__(self, jobs: int, *, batch_size: int | None = None, work: Work = CHECK,
                 timeout: float | None = None):
        super().__init__(batch_size, work)
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.workers = jobs
        self.timeout = timeout or None
        self._backend = self._open_backend()

    def _open_backend(self) -> _Backend:
        return _PoolBackend(self.workers, self.work, self.timeout)

    def worker_pids(self) -> list[int]:
        backend = self._backend
        return backend.pids() if isinstance(backend, _PoolBackend) else []


class DaskRunner(_BatchedRunner):
    """``--scheduler tcp://HOST:PORT``: batches as tasks on a Dask cluster."""

    name = "Dask"
    default_batch_size = DASK_BATCH_SIZE

    def __init__(self, address: str, *, batch_size: int | None = None,
                 connect_timeout: float | None = None, work: Work = CHECK):
        super().__init__(batch_size, work)
        self.address = address
        self._connect_timeout = connect_timeout or DASK_CONNECT_TIMEOUT
        self._client: Any = None
        self._connect()
        self._backend = self._open_backend()

    def _connect(self) -> None:
        try:
            import distributed
        except ImportError:
            raise SetupError("--scheduler needs Dask, which is not installed: "
                             "pip install 'tenhou-tools[dask]'") from None
        _probe(self.address, self._connect_timeout)
        try:
            client = distributed.Client(self.address, timeout=self._connect_timeout,
                                        set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise SetupError(f"cannot connect to the Dask scheduler at {self.address}: "
                             f"{_one_line(exc)}") from None
        try:
            _check_cluster(client, self.address)
        except BaseException:
            client.close()
            raise
        self._client = client
        self.workers = max(1, sum(client.nthreads().values()))

    def _open_backend(self) -> _Backend:
        if self._client is None:
            self._connect()
        return _DaskBackend(self._client, self.workers, self.work)

    def close(self) -> None:
        super().close()
        client, self._client = self._client, None
        if client is not None:
            client.close()


def _probe(address: str, timeout: float) -> None:
    """Refuse at once a ``tcp://HOST:PORT`` where nothing listens: Dask's client would keep
    trying for its whole connect timeout (10 s) on a refused connection. Other schemes, and an
    address this cannot read, are left to Dask."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else "tcp://" + address)
    try:
        port = parts.port
    except ValueError:
        return
    if parts.scheme != "tcp" or not parts.hostname or port is None:
        return
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            pass
    except ConnectionRefusedError:
        raise SetupError(f"cannot connect to the Dask scheduler at {address}: the connection was refused "
                         "(is a scheduler running there?)") from None
    except OSError as exc:
        raise SetupError(f"cannot connect to the Dask scheduler at {address}: {_one_line(exc)}") from None


def open_runner(*, jobs: int | None = None, scheduler: str | None = None,
                batch_size: int | None = None, total: int | None = None,
                work: Work = CHECK, timeout: float | None = DEFAULT_TIMEOUT) -> Runner:
    """The runner for the options given: Dask with ``scheduler``, else a pool unless one job.

    With ``jobs`` None: all cores, except that a run of at most ``SMALL_RUN`` logs (``total``)
    stays in this process. ``work`` is what is done with each log (``validate``'s checks by
    default); ``timeout`` the seconds one log may take (``None`` or 0: no limit; not on Dask).
    Raises ``SetupError`` (Dask missing or unreachable). The garbage collector is set for a long
    run (``_native.collect_rarely``) in each pool worker, and in this process by the in-process
    runner until it closes: a library caller's process keeps its own settings after the run.
    """
    if scheduler:
        return DaskRunner(scheduler, batch_size=batch_size, work=work)
    if jobs is None:
        jobs = 1 if total is not None and total <= SMALL_RUN else default_jobs()
    if jobs <= 1:
        return InProcessRunner(work=work, timeout=timeout)
    return PoolRunner(jobs, batch_size=batch_size, work=work, timeout=timeout)


# --- ordering, windows and retries (shared by the pool and Dask: batch_order) --------------------


def _ordered(items: Iterable[LogItem], backend: _Backend, batch_size: int, window: int,
             on_end, on_failure: Callable[[LogItem, str], Any] = _internal_error) -> Generator[Any, None, None]:
    """Records in input order, with at most ``window`` batches between source and consumer
    (``batch_order.ordered``)."""
    return ordered(items, backend, batch_size, window, on_end=on_end, on_failure=on_failure)


# --- the local pool ------------------------------------------------------------------------------


def _mp_context(threads: int | None = None) -> Any:
    """How to start the next worker: ``fork`` on Linux when this process runs one thread
    (``threads``: the count to go by, by default ``threading.active_count()``), else ``forkserver``
    (workers forked from a clean server that imported us once), else ``spawn``. (A context: typed
    ``Any``, as typeshed's ``BaseContext`` has no ``Process``.)"""
    methods = multiprocessing.get_all_start_methods()
    if threads is None:
        threads = threading.active_count()
    if threads == 1 and sys.platform.startswith("linux") and "fork" in methods:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["tenhou_tools.batch"])
        return ctx
    return multiprocessing.get_context("spawn")  # pragma: no cover - not POSIX


def _shared_progress(ctx: Any) -> Any:
    """Three doubles a worker writes and the parent reads (``_worker_main``, ``_Worker.on``). A
    forked worker inherits an anonymous shared mapping, read and written as doubles through a
    ``memoryview``; a worker from the fork server or spawned gets a ``RawArray``, which pickles
    (and costs the imports of ``ctypes`` and ``multiprocessing.sharedctypes``: 11 M instructions,
    about 2.5 ms, of each run that needs it)."""
    if ctx.get_start_method() == "fork":
        return memoryview(mmap.mmap(-1, 3 * 8)).cast("d")
    return ctx.RawArray("d", 3)


def _worker_main(conn, work: Work | None = None, progress=None) -> None:
    """A pool worker: ``(task_id, items)`` in, ``(task_id, records)`` out, ``None`` to stop.
    ``progress`` (shared with the parent): the task id, the index of the log being checked, and
    since when (``time.monotonic()``, one clock for all processes)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    collect_rarely()
    starting = None
    if progress is not None:
        clock = time.monotonic

        def starting(index: int) -> None:
            progress[1] = index
            progress[2] = clock()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task_id, items = message
        if progress is not None:
            progress[0] = task_id
        conn.send((task_id, check_batch(items, work, starting)))


class _Worker:
    __slots__ = ("conn", "process", "progress", "ready", "sent", "task", "task_id")

    def __init__(self, process, conn, progress=None):
        self.process = process
        self.conn = conn
        self.task: _Task | None = None
        self.task_id = 0
        self.ready = False
        self.sent = 0.0
        """When the task was sent (``time.monotonic()``)."""
        self.progress = progress
        """Shared with the worker: task id, index of the log it is on, since when."""

    def on(self) -> tuple[int, float]:
        """Which log of its task the worker is on, and since when (as far as the parent can tell:
        the values are written without a lock, and are only trusted for the current task)."""
        p = self.progress
        if p is not None and int(p[0]) == self.task_id and p[2] >= self.sent:
            return int(p[1]), p[2]
        return 0, self.sent


class _PoolBackend:
    def __init__(self, jobs: int, work: Work = CHECK, timeout: float | None = None):
        self.slots = jobs
        self.timeout = timeout
        self._work = None if work is CHECK else work  # validate's workers get exactly what they did
        self._workers: list[_Worker] = []
        self._queue: deque[_Task] = deque()
        self._done: list[tuple[_Task, list[Any] | str | _TimedOut]] = []
        self._task_ids = 0
        self._start_failures = 0
        self._closed = False
        try:
            for _ in range(jobs):
                self._start_worker()
        except BaseException:
            self.terminate()
            raise

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers]

    def _start_worker(self) -> None:
        ctx = _mp_context()
        parent, child = ctx.Pipe(duplex=True)
        progress = _shared_progress(ctx) if self.timeout is not None else None
        process = ctx.Process(target=_worker_main,
                                    args=(child, self._work, progress),
                                    name="tenhou-tools-worker", daemon=True)
        try:
            process.start()
        except OSError as exc:
            parent.close()
            raise WorkerStartError(f"cannot start a worker process: {exc}") from None
        finally:
            child.close()
        self._workers.append(_Worker(process, parent, progress))

    # -- the _Backend protocol

    def has_room(self) -> bool:
        busy = sum(1 for w in self._workers if w.task is not None)
        return busy + len(self._queue) < self.slots

    def submit(self, task: _Task) -> None:
        self._queue.append(task)
        self._dispatch()

    def busy(self) -> bool:
        return bool(self._queue or self._done or any(w.task is not None for w in self._workers)
                    or any(not w.ready for w in self._workers))

    def wait(self) -> list[tuple[_Task, list[Any] | str | _TimedOut]]:
        if not self._done:
            waitables: dict[Any, _Worker] = {}
            for w in self._workers:
                waitables[w.conn] = w
                waitables[w.process.sentinel] = w
            ready = wait_any(list(waitables), timeout=self._time_left())
            seen: list[_Worker] = []
            for obj in ready:
                w = waitables[obj]
                if w not in seen:
                    seen.append(w)
            for w in seen:
                self._service(w)
            self._stop_overdue()
            self._dispatch()
        done, self._done = self._done, []
        return done

    def close(self) -> None:
        """Stop the workers once they are idle (they are, when the run has ended)."""
        if self._closed:
            return
        self._closed = True
        for w in self._workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        for w in self._workers:
            w.process.join(timeout=5)
        self._stop_all()

    def terminate(self) -> None:
        """Stop the workers now, whatever they are doing."""
        if self._closed:
            return
        self._closed = True
        self._stop_all()

    # -- internals

    def _time_left(self) -> float | None:
        """Seconds until the first busy worker is overdue (``None``: no limit, nobody busy)."""
        if self.timeout is None:
            return None
        deadlines = [w.on()[1] + self.timeout for w in self._workers if w.task is not None]
        if not deadlines:
            return None
        return max(0.0, min(deadlines) - time.monotonic())

    def _stop_overdue(self) -> None:
        """Kill each worker that has been on one log for longer than the timeout; its task
        ends as ``_TimedOut`` on that log, and another worker takes its place."""
        if self.timeout is None:
            return
        for w in list(self._workers):
            if w not in self._workers or w.task is None or time.monotonic() - w.on()[1] < self.timeout:
                continue
            self._service(w)  # its result may have arrived in the meantime
            if w not in self._workers or w.task is None:
                continue
            index, since = w.on()
            if time.monotonic() - since < self.timeout:
                continue
            task = w.task
            w.task = None  # not a death to report: a timeout
            w.process.kill()
            self._reap(w)
            self._done.append((task, _TimedOut(index, timeout_message(self.timeout))))

    def _stop_all(self) -> None:
        for w in self._workers:
            if w.process.is_alive():
                w.process.terminate()
        for w in self._workers:
            w.process.join(timeout=5)
            if w.process.is_alive():  # pragma: no cover - ignored SIGTERM
                w.process.kill()
                w.process.join()
            w.conn.close()
            w.process.close()
        self._workers = []

    def _dispatch(self) -> None:
        for w in list(self._workers):
            if not self._queue:
                return
            if w.ready and w.task is None:
                task = self._queue.popleft()
                self._task_ids += 1
                # The clock starts before the send: the worker may note its progress before
                # ``send`` returns here, and a note older than ``sent`` is taken as stale (``on``).
                sent = time.monotonic()
                try:
                    w.conn.send((self._task_ids, task.items))
                except OSError:  # it died meanwhile: the task was never delivered
                    self._queue.appendleft(task)
                    self._reap(w)
                    continue
                w.task, w.task_id, w.sent = task, self._task_ids, sent

    def _service(self, w: _Worker) -> None:
        """Read what a worker sent; replace it if it died."""
        try:
            while w.conn.poll():
                message = w.conn.recv()
                if message[0] == "ready":
                    w.ready = True
                    self._start_failures = 0
                elif w.task is not None and message[0] == w.task_id:
                    self._done.append((w.task, message[1]))
                    w.task = None
        except (EOFError, OSError):
            pass
        except Exception:  # noqa: BLE001 - a message cut short or garbled: do not trust this worker
            w.process.kill()
        if not w.process.is_alive():
            self._reap(w)

    def _reap(self, w: _Worker) -> None:
        w.process.join(timeout=5)
        cause = _exit_cause(w.process.exitcode)
        self._workers.remove(w)
        w.conn.close()
        w.process.close()
        if w.task is not None:
            self._done.append((w.task, f"the worker process died while checking it ({cause})"))
        if not w.ready:  # tasks only go to ready workers, so this one had none
            self._start_failures += 1
            if self._start_failures >= MAX_START_FAILURES:
                raise WorkerStartError(f"worker processes exit before they are ready ({cause})")
        if not self._closed:
            self._start_worker()


def _exit_cause(code: int | None) -> str:
    if code is None:
        return "exit status unknown"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


# --- Dask ----------------------------------------------------------------------------------------


def _dask_task(items: list[LogItem], work: Work | None = None) -> list[Any]:
    """A Dask task: one batch."""
    return check_batch(items, work)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _check_cluster(client: Any, address: str) -> None:
    """Workers present, and the same tenhou-tools on them as here (else tasks cannot even load)."""
    from . import __version__

    try:
        client.wait_for_workers(1, timeout=DASK_WORKER_TIMEOUT)
    except (TimeoutError, OSError) as exc:
        raise SetupError(f"no Dask worker joined the scheduler at {address} within "
                         f"{DASK_WORKER_TIMEOUT:.0f} s ({_one_line(exc)})") from None
    versions = client.get_versions(packages=["tenhou-tools"])
    bad = []
    for addr, info in sorted(versions.get("workers", {}).items()):
        theirs = info.get("packages", {}).get("tenhou-tools")
        if theirs != __version__:
            bad.append(f"{addr} has {theirs or 'no tenhou-tools'}")
    if bad:
        raise SetupError(f"the Dask workers need tenhou-tools {__version__} installed: "
                         + "; ".join(bad))


class _DaskBackend:
    def __init__(self, client: Any, slots: int, work: Work = CHECK):
        from distributed import as_completed

        self.slots = slots
        self._client = client
        self._work = None if work is CHECK else work
        self._pending: dict[Any, _Task] = {}
        self._completed = as_completed(loop=client.loop)
        self._run = uuid.uuid4().hex[:12]
        self._n = 0
        self._closed = False

    def has_room(self) -> bool:
        return len(self._pending) < self.slots

    def submit(self, task: _Task) -> None:
        self._n += 1
        future = self._client.submit(_dask_task, task.items, self._work, pure=False,
                                     key=f"tenhou-tools-{self._run}-{self._n}")
        self._pending[future] = task
        self._completed.add(future)

    def busy(self) -> bool:
        return bool(self._pending)

    def wait(self) -> list[tuple[_Task, list[Any] | str | _TimedOut]]:
        futures = [next(self._completed)]
        futures += self._completed.next_batch(block=False)
        out: list[tuple[_Task, list[Any] | str | _TimedOut]] = []
        for future in futures:
            task = self._pending.pop(future)
            if future.status == "finished":
                out.append((task, future.result()))
            elif future.status == "cancelled":
                out.append((task, "the Dask task was cancelled"))
            else:
                exc = future.exception()
                out.append((task, f"the Dask task failed: {type(exc).__name__}: {_one_line(exc)}"))
            future.release()
        return out

    def close(self) -> None:
        self._closed = True
        self._pending.clear()

    def terminate(self) -> None:
        if self._closed:
            return
        self._closed = True
        futures = list(self._pending)
        self._pending.clear()
        if futures:
            try:
                self._client.cancel(futures)
            except Exception:  # noqa: BLE001 - the client may already be gone
                pass
