"""Where a command's output goes, and what happens when it cannot be written.

- :class:`AtomicOutput`: stdout, or a ``-o FILE`` written atomically.
- :func:`refuse_input_as_output`: an output file that is one of the inputs is refused.
- :func:`guarded_stdout`: while the command line runs (its ``--help`` and ``--version`` too),
  ``sys.stdout`` is wrapped so that a write that fails (a full disk, a stdout closed before the
  command started) is one line, ``Error: cannot write to stdout: ...``, and exit code 1 — never
  a traceback or an internal error, whichever command or library (click, rich) did the writing.
  A pipe whose reader has gone (``| head``) ends the command quietly with ``EXIT_CLOSED_PIPE``,
  as git and grep end. Text the stream's encoding cannot hold is written with ``?`` instead of
  failing.

Exit codes (DESIGN.md): output that cannot be written is 1; ``-o`` into a folder that does not
exist, or onto one of the inputs, is 2 (a usage error: the path is wrong); a closed pipe is 141.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import click

OUTPUT_ERRNOS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO,
                           errno.EBADF, errno.ECONNRESET})
"""``OSError``\\ s that mean "the output cannot be written" when they reach the command line."""


class OutputError(click.ClickException):
    """The output cannot be written: one line on stderr, exit code 1."""

    exit_code = 1


class OutputPathError(click.ClickException):
    """``-o`` names a file that cannot be made or opened (its folder does not exist or cannot be
    written, the file cannot be opened), or one of the inputs: one line, exit code 2, before any
    work — as click's own check of an existing file that cannot be written."""

    exit_code = 2


EXIT_CLOSED_PIPE = 141
"""The exit code when the reader of stdout's pipe has gone (``tenhou-tools index | head -3``):
what a shell reports for git or grep, which the signal SIGPIPE ends (128 + 13). Nothing is
printed: the reader has what it wanted."""


class PipeClosed(click.exceptions.Exit):
    """stdout is a pipe whose reader has gone: the command stops quietly with
    ``EXIT_CLOSED_PIPE`` (what is still buffered goes nowhere)."""

    def __init__(self) -> None:
        super().__init__(EXIT_CLOSED_PIPE)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


# -- stdout ---------------------------------------------------------------------------------------


def _silence(stream) -> None:
    """Point the stream's file descriptor at /dev/null, so that the interpreter's last flush
    of the text still buffered does not fail again (and print "Exception ignored ...")."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


class _GuardedStdout:
    """``sys.stdout`` while a command runs: the real stream, with write errors made one line."""

    def __init__(self, stream):
        self._stream = stream
        self.error: OutputError | PipeClosed | None = None

    def _failed(self, exc: OSError) -> OutputError | PipeClosed:
        if exc.errno == errno.EPIPE:
            self.error = PipeClosed()
            self.silence()  # the interpreter's last flush must not fail again
        else:
            self.error = OutputError(f"cannot write to stdout: {_reason(exc)}")
        return self.error

    def write(self, text):
        if self.error is not None:  # once failed, always failed: nothing is lost silently
            raise self.error
        if isinstance(text, str) and not text:
            return 0
        try:
            return self._stream.write(text)
        except UnicodeEncodeError:
            encoding = getattr(self._stream, "encoding", None) or "ascii"
            text = text.encode(encoding, "replace").decode(encoding)
        except OSError as exc:
            raise self._failed(exc) from None
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise self._failed(exc) from None

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.error is not None:
            raise self.error
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._failed(exc) from None

    def silence(self) -> None:
        """After the failure is reported: what is still buffered goes nowhere."""
        _silence(self._stream)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class _ClosedStdout:
    """``sys.stdout`` when the process started with file descriptor 1 closed (``>&-``)."""

    encoding = "utf-8"
    errors = "strict"
    closed = False

    def write(self, text) -> int:
        if isinstance(text, bytes | bytearray):
            raise TypeError("write() argument must be str")  # a text stream, as click expects
        if text:
            raise OutputError("cannot write to stdout: it is closed")
        return 0

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "stdout is closed")


@contextmanager
def guarded_stdout() -> Iterator[None]:
    """Wrap ``sys.stdout`` for the time of a command (see the module's docstring); inside
    another ``guarded_stdout`` (the group's ``main`` and a command's ``invoke``), nothing more."""
    original = sys.stdout
    if isinstance(original, _GuardedStdout | _ClosedStdout):
        yield
        return
    guard = _ClosedStdout() if original is None else _GuardedStdout(original)
    sys.stdout = guard
    try:
        yield
    finally:
        if isinstance(guard, _GuardedStdout) and guard.error is not None:
            guard.silence()  # reported (or a closed pipe): what is still buffered goes nowhere
        if sys.stdout is guard:
            sys.stdout = original


def flush_stdout() -> None:
    """Flush stdout now, while a failure can still be reported (raises ``OutputError``)."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
    except OSError as exc:  # stdout not guarded (``guarded_stdout`` raises its own error)
        if exc.errno == errno.EPIPE:
            _silence(stream)
            raise PipeClosed() from None
        raise OutputError(f"cannot write to stdout: {_reason(exc)}") from None


def output_os_error(exc: OSError) -> OutputError | None:
    """The ``OutputError`` for an ``OSError`` that reached the command line while writing, or
    ``None`` when it does not look like one (then it is an internal error). A closed pipe
    raises ``PipeClosed`` (a quiet exit)."""
    if exc.errno in OUTPUT_ERRNOS:
        _silence(sys.stdout)
        if exc.errno == errno.EPIPE:
            raise PipeClosed() from None
        return OutputError(f"cannot write the output: {_reason(exc)}")
    return None


# -- -o FILE ---------------------------------------------------------------------------------------


def check_output_path(path: str | None) -> None:
    """Refuse, before any work, a ``-o`` path in a folder that does not exist (exit 2)."""
    if not path:
        return
    parent = Path(path).parent
    if not parent.is_dir():
        what = "is not a folder" if parent.exists() else "does not exist"
        raise OutputPathError(f"cannot write {str(path)!r}: the folder {str(parent)!r} {what}")


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new hidden file in ``target``'s folder (``.NAME.XXXX.tmp``), open: what an atomic write
    fills and renames. ``tempfile`` is imported here, when a file is written, not with the
    module: with ``shutil``, ``random``, ``bz2`` and ``lzma`` it is about 3 ms of a command's
    start (``-X importtime``, installed build), and a report to stdout needs none of it."""
    import tempfile

    return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or Path("."))


def check_writable(path: str | None) -> None:
    """Before any work: a file can be made beside ``path`` (its folder is writable), else the
    error ``AtomicOutput`` would give at the end (``OutputPathError``, exit 2) is given now: a
    long run is not spent on a report that cannot be written."""
    if not path:
        return
    check_output_path(path)
    target = Path(path)
    try:
        fd, name = _temporary_beside(target)
    except OSError as exc:
        raise _cannot_open(path, exc, in_folder=True) from None
    os.close(fd)
    Path(name).unlink(missing_ok=True)


def _cannot_open(path: str | os.PathLike[str], exc: OSError, *, in_folder: bool = False) -> OutputPathError:
    """The ``-o`` file cannot be made or opened: a usage error (exit 2), as an existing file that
    cannot be written is by click's own check of the option. ``in_folder``: the file written
    first beside it (to replace it whole) could not be made."""
    if in_folder:
        folder = str(Path(path).parent)
        return OutputPathError(f"cannot write {str(path)!r}: no file can be made in its folder {folder!r} "
                               f"({_reason(exc)})")
    return OutputPathError(f"cannot write {str(path)!r}: {_reason(exc)}")


def refuse_input_as_output(output: str | os.PathLike[str] | None, sources: Iterable[str], *,
                           option: str = "-o") -> None:
    """Refuse, before any work, an output file that is one of the inputs (exit 2): the same
    file as a log, archive, database or ``@FILE`` list the command reads (``sources``: its
    command-line arguments, and what they expand to), also through a symlink or a second name
    (``sources.overlap``). Writing the report there would replace what it is a report of."""
    if output is None or os.fspath(output) in ("", "-"):
        return
    from ..sources.overlap import inputs_among

    target = os.fspath(output)
    held = inputs_among([target], sources).get(target)
    if held is not None:
        same = "" if held == target else f" (the same file as {held!r})"
        raise OutputPathError(f"{option} {target!r} is one of the inputs{same}: writing there would "
                              "replace it; nothing was written")


def refuse_inputs_in_folder(folder: Path, suffix: str, sources: Iterable[str], *, option: str = "--out") -> None:
    """Refuse (exit 2, before any work) a folder to write ``*suffix`` files into that already
    holds such a file the command reads: a file written there could replace an input."""
    try:
        names = [name for name in os.listdir(folder) if name.lower().endswith(suffix)]
    except OSError:  # not there yet (it is made later), or unreadable: nothing in it to replace
        return
    if not names:
        return
    from ..sources.overlap import inputs_among

    held = inputs_among([os.path.join(folder, name) for name in sorted(names)], sources)
    if held:
        target, source = next(iter(held.items()))
        same = "" if source == target else f" (the same file as {source!r})"
        raise OutputPathError(f"{option} {str(folder)!r} holds {target!r}, one of the inputs{same}: a "
                              f"{suffix} file written there could replace it; choose another folder")


def make_output_folder(path: Path) -> None:
    """Create the folder a command writes its files into (``convert --out``), with its parents;
    one that cannot be made is a usage error (exit 2)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.UsageError(f"--out {str(path)!r}: {exc.strerror or exc}") from None


class AtomicOutput:
    """Where a command's report goes: stdout, or a file written atomically.

    With a path to a regular file (or a new one), text goes to a temporary file in the same
    folder, which replaces the target only when the ``with`` block ends normally; on any error
    (or after :meth:`abandon`) the temporary file is removed and the target is untouched. The
    new file gets the mode the umask gives (or the replaced file's mode). A path that exists and
    is not a regular file (a device, a FIFO, ``/dev/stdout``) is written directly: it cannot be
    replaced atomically. A folder that does not exist and a file that cannot be made or opened are
    an ``OutputPathError`` (exit 2, before anything is written); a file that cannot be written
    once open an ``OutputError`` (exit 1); one line each.

    When the file is written and stderr is a terminal, a line on stderr says where.
    """

    def __init__(self, path: str | None, *, announce: bool = True):
        self.path = Path(path) if path else None
        self.announce = announce
        self._tmp: Path | None = None
        self._fh: TextIO | None = None
        self.written = False

    def __enter__(self) -> AtomicOutput:
        if self.path is None:
            return self
        check_output_path(str(self.path))
        try:
            existing = self.path.stat()
        except FileNotFoundError:
            existing = None
        except OSError as exc:
            raise _cannot_open(self.path, exc) from None
        try:
            if existing is not None and not stat.S_ISREG(existing.st_mode):
                self._fh = open(self.path, "w", encoding="utf-8")
                return self
            fd, name = _temporary_beside(self.path)
            self._tmp = Path(name)
            if existing is not None:
                mode = stat.S_IMODE(existing.st_mode)
            else:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(fd, mode)
            self._fh = open(fd, "w", encoding="utf-8")
        except OSError as exc:
            made = self._tmp is not None
            if self._tmp is not None:
                self._tmp.unlink(missing_ok=True)
            raise _cannot_open(self.path, exc, in_folder=not made and self._fh is None
                               and (existing is None or stat.S_ISREG(existing.st_mode))) from None
        return self

    def _write_failed(self, exc: OSError) -> OutputError:
        self.abandon()
        return OutputError(f"cannot write {str(self.path)!r}: {_reason(exc)}")

    def write(self, text: str) -> None:
        if self.path is None:
            sys.stdout.write(text)
            return
        if self._fh is None:
            return  # abandoned
        try:
            self._fh.write(text)
        except OSError as exc:
            raise self._write_failed(exc) from None

    def flush(self) -> None:
        if self.path is None:
            sys.stdout.flush()
            return
        if self._fh is None:
            return
        try:
            self._fh.flush()
        except OSError as exc:
            raise self._write_failed(exc) from None

    def commit(self) -> None:
        """Kept for callers that finish a cut-short report on purpose (the block's normal end
        already commits)."""

    def abandon(self) -> None:
        """Write nothing: the temporary file goes, the target stays as it was."""
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None

    _abandon = abandon

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.path is None:
            if exc_type is None or issubclass(exc_type, click.exceptions.Exit):
                sys.stdout.flush()
            return
        if self._fh is None:  # abandoned
            return
        if exc_type is not None and not issubclass(exc_type, click.exceptions.Exit):
            self.abandon()
            return
        try:
            self._fh.flush()
            if self._tmp is not None:
                os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None
            if self._tmp is not None:
                os.replace(self._tmp, self.path)
                self._tmp = None
        except OSError as err:
            raise self._write_failed(err) from None
        self.written = True
        if self.announce and _stderr_is_terminal():
            click.echo(f"Wrote {self.path}.", err=True)


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
