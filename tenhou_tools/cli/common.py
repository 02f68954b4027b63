"""Shared CLI pieces: what the command line names (``-``, ``@FILE``, ids), loading a log,
consoles. The library's errors are left to reach the command group (``errors``: one line and
the exit code)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import InputError
from ..events import Game
from ..sources.lists import LIST_PREFIX, STDIN, read_list
from .output import AtomicOutput  # noqa: F401 - re-exported: commands import it from here
from .term import make_console, visible

if TYPE_CHECKING:
    from rich.console import Console


class InputProblem(click.ClickException):
    """Input named on the command line that the command line itself cannot use (standard input
    named twice, a list of several games for a command that reads one): one line on stderr,
    exit 2. What the library refuses is its own ``InputError`` (``errors``)."""

    exit_code = 2


def load_game(path: str | Path, *, require_complete: bool = True) -> Game:
    """The game in a log file: mjlog XML or tenhou.net/6 JSON, plain or gzip (content decides).
    ``require_complete=False`` reads a log that stops early up to where it stops. ``ParseError``
    when it cannot be read (exit 1: it counts as a finding)."""
    from ..sources.files import read_game  # here: it imports every kind of source

    return read_game(path, require_complete=require_complete)


# -- sources: `-`, @FILE, paths and game ids ----------------------------------------------------


def expand_sources(args: Iterable[str], *, cached_ids: bool = False) -> list[str]:
    """The command line's sources with every ``@FILE`` replaced by the entries it lists.

    A list holds one path (or game id, or viewer URL) a line; surrounding blanks are stripped,
    blank lines and lines starting with ``#`` are skipped; relative paths are taken from the
    current folder, as on the command line; lists do not nest. ``@-`` reads the list from
    standard input; ``-`` (one log on standard input) is kept as it is, and standard input may
    be named once only. With ``cached_ids`` (``validate``, ``stats``, ``convert``, which read
    local files) a game id or viewer URL that is not an existing path stands for its log in the
    download cache (``$TENHOU_TOOLS_CACHE_DIR``, else the XDG cache), and one that is not there
    is an error. A listed path that does not exist (or a glob that matches nothing) is an error
    that names the list and the line (``ids.txt:3: no such file or directory: 'x.xml'``).
    Problems raise ``InputError`` or ``InputProblem`` (one line, exit 2).
    """
    return _checked(_expand(args, cached_ids))


def _expand(args: Iterable[str], cached_ids: bool) -> list[tuple[str, str]]:
    """``(where, source)``: ``expand_sources`` before the listed paths are checked; ``where`` is
    ``FILE:LINE`` for an entry of a list, empty for an argument."""
    out: list[tuple[str, str]] = []
    stdin_by: str | None = None
    for arg in args:
        if arg.startswith(LIST_PREFIX) and len(arg) > len(LIST_PREFIX):
            name = arg[len(LIST_PREFIX):]
            if name == STDIN:
                stdin_by = _claim_stdin(stdin_by, arg)
            entries = read_list(name)
        else:
            entries = [("", arg)]
        for where, text in entries:
            if text == STDIN:
                if where:
                    raise InputProblem(f"{where}: `-` (standard input) cannot be listed in a file")
                stdin_by = _claim_stdin(stdin_by, arg)
            elif cached_ids:
                text = _cached_log(text, where)
            out.append((where, text))
    return out


def _checked(entries: list[tuple[str, str]]) -> list[str]:
    """The sources, once every listed one is known to be there (``InputError`` naming the list
    and line of each that is not)."""
    missing = []
    for where, text in entries:
        problem = _listed_path_problem(text) if where else None
        if problem is not None:
            missing.append(f"{where}: {problem}")
    if missing:
        raise InputError("; ".join(missing))
    return [text for _, text in entries]


def _listed_path_problem(text: str) -> str | None:
    """Why a listed entry cannot be read as a path (it does not exist, or a glob matches
    nothing), as ``sources.local.resolve_inputs`` says it; None when it can, or when it is a game
    id or viewer URL (``show`` and ``replay`` fetch it)."""
    if os.path.lexists(text):
        return None
    from ..ids import parse_ref
    from ..sources.local import resolve_inputs

    try:
        if parse_ref(text) is not None:
            return None
    except InputError:
        return None  # a malformed id: said when it is read
    try:
        resolve_inputs([text])
    except InputError as exc:
        return str(exc)
    return None


def single_source(source: str) -> str:
    """The one source a ``show`` or ``replay`` argument names: ``@FILE`` must list exactly one."""
    if not (source.startswith(LIST_PREFIX) and len(source) > len(LIST_PREFIX)):
        return source
    entries = _expand([source], cached_ids=False)
    if len(entries) != 1:
        raise InputProblem(f"{source}: lists {len(entries)} entries; this command reads one game "
                           "(validate, stats and convert read many)")
    return _checked(entries)[0]


def _claim_stdin(previous: str | None, arg: str) -> str:
    if previous is not None:
        raise InputProblem(f"standard input can be read once only ({previous!r} and {arg!r} both name it)")
    return arg


def _cached_log(text: str, where: str) -> str:
    """A path as it is; a game id or viewer URL (not an existing path): its cached log's path."""
    if os.path.lexists(text):
        return text
    from ..ids import parse_ref

    prefix = f"{where}: " if where else ""
    try:
        ref = parse_ref(text)
    except InputError as exc:
        raise InputError(f"{prefix}{exc}") from None
    if ref is None:
        return text  # a missing path: reported with the others when the inputs are resolved
    from ..sources.cache import LogCache

    cache = LogCache()
    path = cache.get(ref.log_id)
    if path is None:
        raise InputError(f"{prefix}game {ref.log_id} is not in the download cache ({cache.root}): "
                           f"download it first (tenhou-tools download {ref.log_id})")
    return str(path)


def no_logs_found(paths: Sequence[str], *, ignored: int = 0, rows_without_log: int = 0) -> InputError:
    """The one-line error for inputs that hold no log at all (exit 2)."""
    shown = ", ".join(repr(p) for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    notes = []
    if ignored:
        notes.append(f"{ignored} other file{'s' if ignored != 1 else ''} skipped")
    if rows_without_log:
        notes.append(f"{rows_without_log} database row{'s' if rows_without_log != 1 else ''} "
                     "without a log (not downloaded yet?)")
    looked = "looked for .xml, .mjlog, .gz and .json logs, zip and tar archives and SQLite log databases"
    return InputError(f"no logs found in {shown} ({'; '.join([looked, *notes])})")


def tell_not_logs(count: int, examples: Sequence[tuple[str, str]]) -> None:
    """On stderr, a line for each file that was skipped as not a Tenhou log
    (``SourceStats.not_logs``): ``PATH: skipped: not a Tenhou log (what it is)``, and how many more."""
    for source, what in examples:
        click.echo(f"{visible(source)}: skipped: not a Tenhou log ({what})", err=True)
    if count > len(examples):
        click.echo(f"... and {count - len(examples)} more file(s) skipped: not Tenhou logs", err=True)


DUPLICATES_NAMED = 5
"""How many of the skipped copies ``tell_duplicates`` names (a copy is harmless: the count says
the rest)."""


def tell_duplicates(count: int, examples: Sequence[tuple[str, str]]) -> None:
    """On stderr, the first skipped copies of a game read before (``SourceStats.duplicates``):
    ``PATH: skipped: the same game as a log read before (KEY)``, then the count of them all."""
    for source, key in examples[:DUPLICATES_NAMED]:
        click.echo(f"{visible(source)}: skipped: the same game as a log read before ({visible(key)})", err=True)
    if count:
        click.echo(f"{count} duplicate game(s) skipped.", err=True)


def stdout_console() -> Console:
    """Rich console for data on stdout: colours on a terminal, the width of ``term.output_width``,
    and never markup (``term.make_console``)."""
    return make_console()
