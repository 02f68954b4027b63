"""What the I/O fuzzers share: the paths they drive, a failed check (``Failure``), one fuzz input
run and timed (``attempt``), and the memory of this process."""

from __future__ import annotations

import contextlib
import os
import time
import traceback
from collections.abc import Callable, Iterator

from .logs import FuzzReport

IO_PATHS: tuple[str, ...] = ("zip", "sqlite", "download", "store")
"""What ``scripts/fuzz.py --paths`` can drive besides ``logs.PATHS``."""

MAX_ITEMS = 20_000
"""A container that yields more items than this is a failure (nothing we build comes close)."""


class Failure(Exception):
    """A check of the fuzzer failed (not an exception of the code under test)."""


def one_line(message: str, what: str) -> None:
    if not message or "\n" in message or "\r" in message:
        raise Failure(f"{what} is not one line: {message!r}")


@contextlib.contextmanager
def attempt(report: FuzzReport, path: str, mutation: str, data: bytes, limit_s: float, *,
            where: Callable[[], str] = lambda: "", what: str = "") -> Iterator[None]:
    """One fuzz input: a ``Failure`` or any other exception (the traceback kept) becomes one of
    ``report``'s failures, tagged ``[path]`` and followed by ``where()``; the time it took is
    recorded for ``path``, and taking longer than ``limit_s`` is a failure too."""
    t0 = time.monotonic()
    try:
        yield
    except Failure as failure:
        report.failures.append((mutation, f"[{path}] {failure}{where()}", data))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - that is exactly what we are looking for
        report.failures.append((mutation, f"[{path}] {type(exc).__name__}: {exc}{where()}\n"
                                + traceback.format_exc(), data))
    elapsed = time.monotonic() - t0
    report.slowest_s = max(report.slowest_s, elapsed)
    report.slowest_by_path[path] = max(report.slowest_by_path.get(path, 0.0), elapsed)
    if elapsed > limit_s:
        report.failures.append((mutation, f"[{path}] {what}took {elapsed:.1f} s", data))


def peak_rss_bytes() -> int:
    """The peak resident set size of this process so far: Linux's ``VmHWM``, the high-water mark
    of this process's own memory. Not ``ru_maxrss``: Linux carries that across ``exec``, so a
    script started by a large process (pytest, late in the suite) would report its parent's size.
    Elsewhere, ``ru_maxrss``."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        pass
    import resource  # pragma: no cover - not Linux

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # pragma: no cover


def rss_bytes() -> int:
    """The current resident set size of this process (Linux ``/proc``; else the peak)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return peak_rss_bytes()
