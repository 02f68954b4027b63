"""Every read of an input that may wait, in one place, so that a signal (Ctrl-C) ends any of them
at once: files, FIFOs, pipes and devices named as inputs, standard input (``-``), list files
(``@FILE``, ``@-``, ``download --from-file``), and the opening of a FIFO.

Why a primitive of its own: Python acts on a signal only between steps of its own code. A system
call that is waiting when the signal lands is interrupted and Python acts on it; but a signal that
lands after Python last looked and before the call begins, or that the kernel hands to another
thread, is only noted as pending, and the call waits on, for ever when nothing comes (``open`` of
a FIFO that no one writes, a ``read`` of a pipe whose writer sends nothing: about one
``validate`` in seven hung so).

The design:

- ``open_input(path)`` opens a file for reading without waiting. On Linux it opens with
  ``O_NONBLOCK``, which does not wait for a FIFO's writer; the descriptor is then made blocking
  again, and the wait for the writer happens in ``read_upto``'s ``poll``: on Linux a FIFO opened
  so reports neither bytes nor an end until a writer has come (and, for the end, gone), which is
  what a blocking ``open`` and ``read`` give. Elsewhere ``O_NONBLOCK`` does not promise that, and
  ``open_input`` is ``open(path, "rb")``. A folder raises ``IsADirectoryError`` as ``open`` does.
- ``read_upto(fh, size)`` reads up to ``size`` bytes (``None``: to the end). A regular file, or
  a file object without a descriptor (a test's ``io.BytesIO``), is read in one call. Anything
  else (pipe, FIFO, device, terminal) waits for bytes with ``poll`` in steps of
  ``POLL_SECONDS``, then reads what is there with ``os.read``; between two steps Python acts on a
  pending signal (the loop's jump back is where it looks). So a signal, whenever it lands, is
  acted on within one step, and at once when it lands during the wait.
- ``read_stdin_bytes()`` is ``read_upto`` of standard input.

The file object's own buffer is not used for a pipe or a device: it is read through its
descriptor only (nothing reads it before these functions do).
"""

from __future__ import annotations

import io
import os
import select
import stat
import sys
from typing import Any, BinaryIO

__all__ = ["POLL_SECONDS", "open_input", "read_stdin_bytes", "read_upto"]

POLL_SECONDS = 0.25
"""How long one wait for bytes lasts before Python may act on a pending signal."""

_CHUNK = 1 << 16
_OPEN_WITHOUT_WAITING = sys.platform.startswith("linux") and hasattr(os, "O_NONBLOCK")


def open_input(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, without waiting for a FIFO's writer (Linux; see
    the module's text). Raises what ``open`` raises (``FileNotFoundError``,
    ``IsADirectoryError``, ``PermissionError``...)."""
    if not _OPEN_WITHOUT_WAITING:
        return open(path, "rb")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, os.strerror(21), os.fspath(path))
        os.set_blocking(fd, True)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    return fh


def _descriptor(fh: BinaryIO) -> int | None:
    try:
        return fh.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def read_upto(fh: BinaryIO, size: int | None, *, regular: bool | None = None) -> bytes:
    """Up to ``size`` bytes of an open file (``None``: all to its end), fewer only at its end.
    ``regular`` (from the caller's ``fstat``, else looked up): a regular file is read in one
    call; a pipe, FIFO or device waits in ``poll`` steps (the module's text)."""
    fd = _descriptor(fh)
    if fd is None:
        return fh.read(size) if size is not None else fh.read()
    if regular is None:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    if regular or not hasattr(select, "poll"):
        return fh.read(size) if size is not None else fh.read()
    waiting = select.poll()
    waiting.register(fd, select.POLLIN)
    chunks = []
    left = size
    while left is None or left > 0:
        while not waiting.poll(POLL_SECONDS * 1000):
            pass  # Python acts on a pending signal here, at the loop's jump back
        try:
            chunk = os.read(fd, _CHUNK if left is None else min(left, _CHUNK))
        except BlockingIOError:  # a descriptor left non-blocking, emptied by someone else
            continue
        if not chunk:
            break
        chunks.append(chunk)
        if left is not None:
            left -= len(chunk)
    return b"".join(chunks)


def read_stdin_bytes(size: int | None = None) -> bytes:
    """Up to ``size`` bytes of standard input (``None``: all), through ``read_upto``."""
    stdin: Any = sys.stdin
    if stdin is None:
        raise ValueError("there is no standard input")
    return read_upto(stdin.buffer if hasattr(stdin, "buffer") else stdin, size)
