"""Shared CLI pieces: loading a log with CLI errors, consoles."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from ..errors import ParseError
from ..events import Game
from ..mjlog import parse_file


class LogError(click.ClickException):
    """A log that cannot be read: exit code 1 (it counts as a finding), one line on stderr."""

    exit_code = 1


def load_game(path: str | Path) -> Game:
    try:
        return parse_file(path)
    except ParseError as exc:
        raise LogError(str(exc)) from None


def stdout_console() -> Console:
    """Rich console for data on stdout: colours on a terminal, plain and wide when piped."""
    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=120, color_system=None, soft_wrap=False)


class AtomicOutput:
    """Where a command's report goes: stdout, or a file written atomically.

    With a path, text is written to a temporary file in the same folder, which replaces the
    target only when the ``with`` block ends normally (or ``commit()`` was called, for a report
    cut short on purpose); on any error the temporary file is removed and the target untouched.
    """

    def __init__(self, path: str | None):
        self.path = Path(path) if path else None
        self._tmp: Path | None = None
        self._fh = None
        self._committed = False

    def __enter__(self) -> AtomicOutput:
        if self.path is not None:
            import tempfile

            try:
                fd, name = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                            dir=self.path.parent or Path("."))
            except OSError as exc:
                raise click.FileError(str(self.path), hint=exc.strerror or str(exc)) from None
            self._tmp = Path(name)
            self._fh = open(fd, "w", encoding="utf-8")  # noqa: SIM115 - closed in __exit__
        return self

    def write(self, text: str) -> None:
        if self._fh is None:
            sys.stdout.write(text)
        else:
            self._fh.write(text)

    def flush(self) -> None:
        (self._fh or sys.stdout).flush()

    def commit(self) -> None:
        self._committed = True

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._fh is None:
            sys.stdout.flush()
            return
        import os

        ok = exc_type is None or (self._committed and exc_type is click.exceptions.Exit)
        try:
            if ok:
                self._fh.flush()
                os.fsync(self._fh.fileno())
            self._fh.close()
            if ok:
                os.replace(self._tmp, self.path)
                return
        except OSError as err:
            self._tmp.unlink(missing_ok=True)
            raise click.FileError(str(self.path), hint=err.strerror or str(err)) from None
        self._tmp.unlink(missing_ok=True)
