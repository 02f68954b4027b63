"""The one place that maps what the library raises to an exit code and a message.

The library says what went wrong with an exception (``errors.InputError``, ``ParseError``,
``DownloadError``, ``batch.SetupError``, ``stats.store.StoreError``...); a command lets it
reach the command group (``cli._Group``), which prints it here: ``Error: <message>``, a line
for each line of the message, and exits with the code of ``EXIT_CODES`` (DESIGN.md):

- 1: a log that cannot be read (it counts as a finding) or downloaded;
- 2: input that cannot be used (a path, an id, an option's value, a database, a cache), or a
  runner that cannot start (Dask missing or unreachable);
- 3: worker processes that cannot run at all (and any other exception: an internal error);
- 130: interrupted.

A command that has more to say after the error (what was done before it) calls ``fail``.
"""

from __future__ import annotations

from typing import NoReturn

import click

__all__ = ["EXIT_FINDINGS", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "exit_code", "fail",
           "library_error"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
"""The exit codes (DESIGN.md); the commands import them from the ``cli`` package."""


def _codes() -> tuple[tuple[type[BaseException], int], ...]:
    """``(exception class, exit code)``, the first that matches wins (imported when an error
    happens, so that starting a command imports nothing for it)."""
    from ..batch import BatchError, SetupError
    from ..errors import DownloadError, InputError, ParseError, TenhouToolsError

    return (
        (KeyboardInterrupt, EXIT_INTERRUPTED),
        (SetupError, EXIT_USAGE),  # Dask missing or unreachable
        (BatchError, EXIT_INTERNAL),  # worker processes cannot run
        (ParseError, EXIT_FINDINGS),  # a log that cannot be read
        (DownloadError, EXIT_FINDINGS),  # a log that cannot be downloaded
        (InputError, EXIT_USAGE),  # a path, id, value, cache or database that cannot be used
        (TenhouToolsError, EXIT_USAGE),  # the stats database (StoreError), an export conflict
    )


def library_error(exc: BaseException) -> bool:
    """Whether ``exc`` is an error the library raises on purpose (it has an exit code here)."""
    from ..batch import BatchError
    from ..errors import TenhouToolsError

    return isinstance(exc, (TenhouToolsError, BatchError))


def exit_code(exc: BaseException) -> int:
    """The exit code of an exception (``EXIT_INTERNAL`` for one the library does not raise on
    purpose)."""
    for kind, code in _codes():
        if isinstance(exc, kind):
            return code
    return EXIT_INTERNAL


def fail(exc: BaseException, *after: str) -> NoReturn:
    """Print ``Error: <message>`` (a line each), then the lines ``after`` (what was done before
    it), and exit with the error's code."""
    for line in str(exc).splitlines() or [type(exc).__name__]:
        click.echo(f"Error: {line}", err=True)
    for line in after:
        click.echo(line, err=True)
    raise click.exceptions.Exit(exit_code(exc))
