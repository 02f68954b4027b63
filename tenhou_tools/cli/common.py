"""Shared CLI pieces: loading a log with CLI errors, consoles."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from ..errors import ParseError
from ..events import Game
from ..formats import load_game as _load
from ..mjlog import log_id_from_name
from ..mjlog.read import read_path


class LogError(click.ClickException):
    """A log that cannot be read: exit code 1 (it counts as a finding), one line on stderr."""

    exit_code = 1


def load_game(path: str | Path) -> Game:
    """The game in a log file: mjlog XML or tenhou.net/6 JSON, plain or gzip (content decides)."""
    p = Path(path)
    try:
        return _load(read_path(p), source=str(p), log_id=log_id_from_name(p.name))
    except ParseError as exc:
        raise LogError(str(exc)) from None


def stdout_console() -> Console:
    """Rich console for data on stdout: colours on a terminal, plain and wide when piped."""
    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=120, color_system=None, soft_wrap=False)


class AtomicOutput:
    """Where a command's report goes: stdout, or a file written atomically.

    With a path to a regular file (or a new one), text goes to a temporary file in the same
    folder, which replaces the target only when the ``with`` block ends normally; on any error
    the temporary file is removed and the target is untouched. The new file gets the mode the
    umask gives (or the replaced file's mode). A path that exists and is not a regular file (a
    device, a FIFO, ``/dev/stdout``) is written directly: it cannot be replaced atomically.
    Write errors (a full disk, a read-only folder) become a one-line ``click.FileError``.
    """

    def __init__(self, path: str | None):
        self.path = Path(path) if path else None
        self._tmp: Path | None = None
        self._fh = None

    def __enter__(self) -> AtomicOutput:
        if self.path is None:
            return self
        import os
        import stat
        import tempfile

        try:
            existing = self.path.stat()
        except FileNotFoundError:
            existing = None
        except OSError as exc:
            raise click.FileError(str(self.path), hint=exc.strerror or str(exc)) from None
        try:
            if existing is not None and not stat.S_ISREG(existing.st_mode):
                self._fh = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
                return self
            fd, name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                        dir=self.path.parent or Path("."))
            self._tmp = Path(name)
            if existing is not None:
                mode = stat.S_IMODE(existing.st_mode)
            else:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(fd, mode)
            self._fh = open(fd, "w", encoding="utf-8")  # noqa: SIM115 - closed in __exit__
        except OSError as exc:
            if self._tmp is not None:
                self._tmp.unlink(missing_ok=True)
            raise click.FileError(str(self.path), hint=exc.strerror or str(exc)) from None
        return self

    def write(self, text: str) -> None:
        if self._fh is None:
            sys.stdout.write(text)
            return
        try:
            self._fh.write(text)
        except OSError as exc:
            self._abandon()
            raise click.FileError(str(self.path), hint=exc.strerror or str(exc)) from None

    def flush(self) -> None:
        (self._fh or sys.stdout).flush()

    def commit(self) -> None:
        """Kept for callers that finish a cut-short report on purpose (the block's normal end
        already commits)."""

    def _abandon(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.path is None:
            sys.stdout.flush()
            return
        if self._fh is None:  # abandoned after a write error
            return
        import os

        if exc_type is not None and not issubclass(exc_type, click.exceptions.Exit):
            self._abandon()
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
            self._abandon()
            raise click.FileError(str(self.path), hint=err.strerror or str(err)) from None
