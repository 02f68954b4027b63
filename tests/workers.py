"""Units of work that go wrong on purpose, for the runners' ``work`` parameter (``batch.Work``):
a worker process that dies, a task that raises, a log that hangs. The chosen log (its file name or
its full source) gets the fault; every other log gets the real work (``validate``'s check by
default, or the ``Work`` given, such as ``stats``'). They are ``functools.partial``\\ s of
module-level functions, so they pickle by reference to pool workers and Dask tasks.

``with_work`` makes a command (``validate``, ``stats``) open its runner with such a unit of work,
so the tests see the command's own output and exit code.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from tenhou_tools.batch import CHECK, Work
from tenhou_tools.sources.local import LogItem

EXIT_CODE = 70
"""The exit status of a worker that dies on its log (``os._exit``)."""


def is_victim(item: LogItem, victim: str) -> bool:
    return item.source == victim or os.path.basename(item.source) == victim


def _exit_on(victim: str, run: Callable[[LogItem], Any], item: LogItem) -> Any:
    if is_victim(item, victim):
        if multiprocessing.parent_process() is None:  # never end the test run itself
            raise RuntimeError(f"exits_on({victim!r}) ran outside a worker process")
        os._exit(EXIT_CODE)
    return run(item)


def _raise_on(victim: str, run: Callable[[LogItem], Any], item: LogItem) -> Any:
    if is_victim(item, victim):
        raise RuntimeError(f"injected failure on {item.source}")
    return run(item)


def _sleep_on(victim: str, run: Callable[[LogItem], Any], item: LogItem) -> Any:
    if is_victim(item, victim):
        time.sleep(3600)  # stuck in C code: only killing the worker helps
    return run(item)


def _spin_on(victim: str, run: Callable[[LogItem], Any], item: LogItem) -> Any:
    if is_victim(item, victim):
        while True:  # what an engine bug would do
            pass
    return run(item)


def _hang_announced(marker: str, how: str, victim: str, run: Callable[[LogItem], Any], item: LogItem) -> Any:
    if is_victim(item, victim):
        tmp = f"{marker}.{os.getpid()}"
        with open(tmp, "w") as fh:
            fh.write(str(os.getpid()))
        os.replace(tmp, marker)  # whole or absent: the parent never reads half a pid
        if how == "alarm":  # in this process (--jobs 1): the runner's timer, due at once
            signal.setitimer(signal.ITIMER_REAL, 1e-6)
        if how == "sleep":
            time.sleep(3600)  # stuck in C code: only killing the worker helps
        while True:  # what an engine bug would do
            pass
    return run(item)


def _faulty(fault: Callable[..., Any], victim: str, work: Work) -> Work:
    return Work(functools.partial(fault, victim, work.run), work.failed)


def exits_on(victim: str, work: Work = CHECK) -> Work:
    """The pool worker that meets ``victim`` exits at once, as if it had been killed (in the test
    process itself, e.g. a Dask worker thread, it raises instead)."""
    return _faulty(_exit_on, victim, work)


def raises_on(victim: str, work: Work = CHECK) -> Work:
    """``victim``'s work raises ``RuntimeError`` (a Dask task that fails)."""
    return _faulty(_raise_on, victim, work)


def sleeps_on(victim: str, work: Work = CHECK) -> Work:
    """``victim``'s work sleeps for an hour."""
    return _faulty(_sleep_on, victim, work)


def spins_on(victim: str, work: Work = CHECK) -> Work:
    """``victim``'s work loops forever in Python."""
    return _faulty(_spin_on, victim, work)


def with_work(module: Any, monkeypatch: Any, work: Work) -> None:
    """Make the run loop of ``module`` (``tenhou_tools.validate``, ``tenhou_tools.stats.collect``)
    open its runner with ``work`` instead of its own."""
    real = module.open_runner
    monkeypatch.setattr(module, "open_runner", lambda **kw: real(**{**kw, "work": work}))


def hangs_announced(victim: str, marker: str, how: str, work: Work = CHECK) -> Work:
    """``victim``'s work writes its process id to the file ``marker``, then hangs: ``sleep``
    (an hour, in C code), ``spin`` (a Python loop), or ``alarm`` (a Python loop, after setting
    this process's timer to go off at once: ``--jobs 1``'s runner then finds the log overdue as
    soon as it spins, whatever its timeout). ``overdue_when_announced`` (``test_batch_timeout``)
    makes the pool's parent see an announced worker as overdue, so a test needs no short
    timeout, which a loaded machine could make a good log exceed."""
    return _faulty(functools.partial(_hang_announced, marker, how), victim, work)
