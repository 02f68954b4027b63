"""Batches out, records back in input order: the window, the order and the retries that the
local pool and Dask share (``batch.PoolRunner``, ``batch.DaskRunner``).

``ordered(items, backend, batch_size, window, ...)`` cuts the stream of items into batches,
submits them to a backend (anything with the ``Backend`` methods: the pool's worker processes, a
Dask client) while at most ``window`` batches are between the source and the caller, and yields
the records in input order. A batch whose worker died or whose task failed is retried one log at
a time; a log whose retry fails too, or that a worker was stopped on (``TimedOut``), gets the
``on_failure`` record. Nothing here knows what the work is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, Protocol

from .sources.local import LogItem

__all__ = ["Backend", "Task", "TimedOut", "ordered"]


@dataclass(slots=True)
class Task:
    slot: int
    """Which batch of the input this belongs to (batches are yielded in slot order)."""
    offset: int
    """Where ``items`` start inside that batch."""
    items: list[LogItem]
    isolated: bool = False
    """A retry of one log on its own, after its batch failed."""


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The outcome of a task whose worker was stopped on its log ``index``."""

    index: int
    message: str


class Backend(Protocol):
    slots: int
    """Tasks that can run at once."""

    def has_room(self) -> bool: ...
    def submit(self, task: Task) -> None: ...
    def busy(self) -> bool: ...
    def wait(self) -> list[tuple[Task, list[Any] | str | TimedOut]]: ...
    def close(self) -> None: ...
    def terminate(self) -> None: ...


def ordered(items: Iterable[LogItem], backend: Backend, batch_size: int, window: int, *,
            on_end: Callable[[bool], None], on_failure: Callable[[LogItem, str], Any]) -> Generator[Any, None, None]:
    """Records in input order, with at most ``window`` batches between source and consumer."""
    source = iter(items)
    pending: dict[int, list[Any | None]] = {}  # slot -> its records so far
    missing: dict[int, int] = {}
    retries: deque[Task] = deque()
    next_slot = next_out = 0
    exhausted = False
    ok = False
    try:
        while True:
            while backend.has_room():
                if retries:
                    backend.submit(retries.popleft())
                    continue
                if exhausted or next_slot - next_out >= window:
                    break
                batch = list(islice(source, batch_size))
                if not batch:
                    exhausted = True
                    break
                pending[next_slot] = [None] * len(batch)
                missing[next_slot] = len(batch)
                backend.submit(Task(next_slot, 0, batch))
                next_slot += 1
            if next_out in pending and missing[next_out] == 0:
                records = pending.pop(next_out)
                del missing[next_out]
                next_out += 1
                yield from records
                continue  # the window moved: send more before waiting
            if exhausted and next_out == next_slot:
                ok = True
                return
            if not backend.busy():  # pragma: no cover - a logic error, not a user error
                raise RuntimeError("batch runner stalled with work left")
            for task, outcome in backend.wait():
                if isinstance(outcome, TimedOut):
                    # The stuck log gets its record; the others lost theirs (a batch reports at
                    # its end) and are checked again, in the batches before and after it.
                    at = outcome.index
                    stuck = [on_failure(task.items[at], outcome.message)]
                    pending[task.slot][task.offset + at:task.offset + at + 1] = stuck
                    missing[task.slot] -= 1
                    for start, part in ((0, task.items[:at]), (at + 1, task.items[at + 1:])):
                        if part:
                            retries.append(Task(task.slot, task.offset + start, part, task.isolated))
                    continue
                if isinstance(outcome, str):
                    if task.isolated or len(task.items) == 1:
                        outcome = [on_failure(item, outcome) for item in task.items]
                    else:
                        retries.extend(Task(task.slot, task.offset + i, [item], isolated=True)
                                       for i, item in enumerate(task.items))
                        continue
                records = pending[task.slot]
                records[task.offset:task.offset + len(outcome)] = outcome
                missing[task.slot] -= len(outcome)
    finally:
        on_end(ok)
