"""Local inputs -> a lazy stream of log items: files, folders, globs, zip and tar archives, SQLite
databases, standard input. This module walks the inputs and keeps the books (counts, duplicates);
each kind of source has its own module: ``files`` (files, folders, globs), ``zip``, ``tar``,
``database``, ``lists`` (standard input and ``@FILE`` lists), ``items`` (what they share).

``iter_logs(paths)`` turns whatever a user gives ``validate``/``stats`` into ``LogItem``\\ s, one
game at a time, in input order:

- a **file** of any name: its content decides what it is. A SQLite header makes it a database, a
  zip header an archive, a tar header (plain, or inside gzip, bz2 or xz) a tar archive, anything
  else is one log (plain or gzip; the parser sniffs gzip itself);
- ``-``: one log read from standard input (at most ``ReadLimits.log_bytes``; an archive or a
  database must be given by its path, as it cannot be read from a pipe);
- a **folder**, searched recursively in sorted order. Names ending in ``DEFAULT_SUFFIXES`` are
  read as logs (or as an archive, when their content says so); any other file is opened only to
  look at its first bytes, and taken when it is a zip or tar archive or a SQLite database
  (``scraw2014.zip``, ``houou.db``), else skipped and counted in ``SourceStats.ignored``. Hidden
  files and folders are skipped and symlinked folders are not followed;
- a **glob** given as a literal string (``"logs/**/*.gz"``, ``**`` is recursive). A matched file
  counts as named on the command line; a matched folder is searched like a folder;
- a **zip archive**: members are read one at a time and capped at ``ReadLimits.log_bytes``, both
  by the size the archive declares and while decompressing. Member names are only ever shown,
  never used as file system paths, so a ``../evil.xml`` member is harmless;
- a **tar archive** (``.tar``, ``.tar.gz``/``.tgz``, ``.tar.bz2``, ``.tar.xz``), read as a stream
  with the standard ``tarfile`` module, one member at a time: members named like logs are read,
  each capped at ``ReadLimits.log_bytes`` by its declared size;
- a **houou-logs** or older **phoenix-logs** SQLite database, opened strictly read-only and read
  in keyset pages (see ``detect_layout``). Rows with no log (not downloaded yet, or failed) are
  skipped and counted.

The same game is read once (``dedupe``): by its game id when the file or member name or the
database row gives one, else by the SHA-256 of its bytes, so a file copied under another name
counts once (a plain and a gzip-compressed copy of a log without an id are two items here; the
stats database, which keys such a game by the digest of its XML, still counts it once).

Memory stays flat: one log's bytes at a time (a database page of at most
``ReadLimits.db_page_rows`` rows and about ``db_page_bytes`` bytes), one folder's sorted list of
names at a time, and the set of log ids (or content digests) seen for deduplication (about 120
bytes a game; ``dedupe=False`` drops it). Zip archives are read by a small streaming reader, one
central directory entry at a time (``zip``: why not ``zipfile``); tar archives by ``tarfile`` in
stream mode, whose list of members passed is emptied as it goes.

Nothing here raises once iteration has started: an unreadable file, a corrupt archive, a locked
database or an oversized member becomes a ``LogItem`` whose ``error`` says what went wrong (the
caller records it as a ``PARSE_ERROR`` game) and the stream goes on. Only a path that does not
exist at all is refused, up front, by ``resolve_inputs`` (``InputError``). Inputs that hold no
log at all (an empty folder, a folder of other files) yield nothing: ``SourceStats.items`` stays
0, and ``survey_inputs`` says so before anything is read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, Union

from ..errors import InputError
from .files import GLOB_MAGIC, Glob, file_items, folder_items, walk_folder
from .items import (
    DEFAULT_LIMITS,
    HEAD_BYTES,
    MAX_DUPLICATE_EXAMPLES,
    SQLITE_MAGIC,
    LogFormat,
    LogItem,
    ReadLimits,
    SourceStats,
    Unreadable,
    container,
    found_not_a_log,
    game_keys,
    peek,
    sniff_format,
)
from .lists import STDIN, STDIN_SOURCE, read_stdin
from .reads import open_input, read_upto

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_SUFFIXES",
    "SQLITE_MAGIC",
    "STDIN",
    "STDIN_SOURCE",
    "InputSurvey",
    "LogFormat",
    "LogItem",
    "ReadLimits",
    "ResolvedInput",
    "SourceStats",
    "count_inputs",
    "iter_logs",
    "read_stdin",
    "resolve_inputs",
    "survey_inputs",
]

PathArg = Union[str, "os.PathLike[str]"]

DEFAULT_SUFFIXES: tuple[str, ...] = (".xml", ".mjlog", ".gz", ".xml.gz", ".mjlog.gz", ".json")
"""Names taken from folders and zip archives (case-insensitive). Files named directly are always
taken, whatever their name."""


@dataclass(frozen=True, slots=True)
class ResolvedInput:
    """A command-line path checked to exist: ``kind`` is ``file``, ``dir`` or ``glob``; or
    ``stdin`` for ``-``."""

    arg: str
    kind: Literal["file", "dir", "glob", "stdin"]


@dataclass(frozen=True, slots=True)
class InputSurvey:
    """What ``survey_inputs`` found without reading any log."""

    total: int
    """About how many items ``iter_logs`` will yield (duplicates not subtracted); 0 exactly when
    it will yield none (unless files change in between)."""
    ignored: int = 0
    """Files in folders and zip members that are not logs, archives or databases."""
    rows_without_log: int = 0
    """Database rows whose log is not there (not downloaded yet, or a failed download)."""


# --- entry points --------------------------------------------------------------------------------


def resolve_inputs(paths: PathArg | Iterable[PathArg]) -> list[ResolvedInput]:
    """Check every path up front; ``InputError`` names all that do not exist (CLI exit 2).

    A path that does not exist but contains ``*``, ``?`` or ``[`` is a glob, and is fine when it
    matches at least one file or folder.
    """
    resolved: list[ResolvedInput] = []
    problems: list[str] = []
    for arg in _as_list(paths):
        if arg == STDIN:
            resolved.append(ResolvedInput(arg, "stdin"))
        elif os.path.isdir(arg):
            resolved.append(ResolvedInput(arg, "dir"))
        elif os.path.exists(arg):
            resolved.append(ResolvedInput(arg, "file"))
        elif GLOB_MAGIC.search(arg):
            if next(Glob(arg).targets(), None) is None:
                problems.append(f"no file matches {arg!r}")
            else:
                resolved.append(ResolvedInput(arg, "glob"))
        else:
            problems.append(f"no such file or directory: {arg!r}")
    if problems:
        raise InputError("; ".join(problems))
    return resolved


def iter_logs(
    paths: PathArg | Iterable[PathArg],
    *,
    dedupe: bool = True,
    stats: SourceStats | None = None,
    suffixes: Iterable[str] = DEFAULT_SUFFIXES,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Iterator[LogItem]:
    """Every log in ``paths``, lazily, in input order.

    The paths are checked at once (``InputError`` before anything is read); the returned
    generator then reads one log at a time. With ``dedupe``, a game whose id was already yielded
    (id from the file or member name, or the database id column) is skipped and counted in
    ``stats``; items without an id are never deduplicated, and error items neither count as
    seen nor get skipped. ``limits``: how much is read at most (``ReadLimits``); a log (a file,
    an archive member, a database row) over them is an error item.
    """
    inputs = resolve_inputs(paths)
    run = _Run(stats if stats is not None else SourceStats(), dedupe, suffixes, limits)
    return run.items(inputs)


def count_inputs(paths: PathArg | Iterable[PathArg], *, suffixes: Iterable[str] = DEFAULT_SUFFIXES) -> int:
    """A cheap estimate of how many items ``iter_logs`` will yield, for a progress bar total
    (``survey_inputs(...).total``)."""
    return survey_inputs(paths, suffixes=suffixes).total


def survey_inputs(paths: PathArg | Iterable[PathArg], *, suffixes: Iterable[str] = DEFAULT_SUFFIXES,
                  limits: ReadLimits = DEFAULT_LIMITS) -> InputSurvey:
    """Count what ``iter_logs`` will read, cheaply: no log is read or parsed.

    Files in folders named like logs are counted by name without being opened; other files in
    folders are opened only to read their first bytes (are they an archive or a database?). Zip
    archives are counted by their member list, databases by ``COUNT(*)`` of rows holding a log,
    a tar archive (which can only be listed by reading it through) as one, standard input as
    one. Duplicates are not subtracted. ``InputError`` for paths that do not exist.
    """
    counter = _Counter(_norm_suffixes(suffixes), limits)
    for inp in resolve_inputs(paths):
        if inp.kind == "stdin":
            counter.total += 1
        elif inp.kind == "file":
            counter.file(inp.arg)
        elif inp.kind == "dir":
            counter.folder(inp.arg)
        else:
            for kind, path, err in Glob(inp.arg).targets():
                if err:
                    counter.total += 1
                elif kind == "dir":
                    counter.folder(path)
                else:
                    counter.file(path)
    return InputSurvey(counter.total, counter.ignored, counter.without_log)


class _Counter:
    def __init__(self, suffixes: tuple[str, ...], limits: ReadLimits):
        self.suffixes = suffixes
        self.limits = limits
        self.total = self.ignored = self.without_log = 0

    def folder(self, top: str) -> None:
        for path, err in walk_folder(top):
            if err or os.path.basename(path).lower().endswith(self.suffixes):
                self.total += 1
            else:
                self.file(path, only_containers=True)

    def file(self, path: str, *, only_containers: bool = False) -> None:
        """A log counts one; an archive or a database what it holds (or one when that cannot be
        told); with ``only_containers`` (a file in a folder not named like a log) anything else
        counts nothing."""
        try:
            with open_input(path) as fh:
                what = container(read_upto(fh, HEAD_BYTES))
        except OSError:
            what = None
        if what is None:
            if only_containers:
                self.ignored += 1
            else:
                self.total += 1
            return
        import sqlite3  # with the readers, only when a container is found (``files.file_items``)

        from .database import count_database
        from .zip import count_zip

        try:
            if what == "zip":
                logs, ignored = count_zip(path, self.suffixes)
                self.total += logs
                self.ignored += ignored
                return
            if what == "sqlite":
                counts = count_database(path, self.limits)
                if counts is None:
                    self.total += 1
                else:
                    self.total += counts[0]
                    self.without_log += counts[1]
                return
        except (OSError, Unreadable, sqlite3.Error, UnicodeDecodeError):
            pass
        self.total += 1  # a tar archive, or a container that cannot be listed: one item at least


# --- the walk ------------------------------------------------------------------------------------


class _Run:
    """One walk over the inputs: counts what it sees and drops duplicates (``items.Walk``)."""

    def __init__(self, stats: SourceStats, dedupe: bool, suffixes: Iterable[str],
                 limits: ReadLimits = DEFAULT_LIMITS):
        self.stats = stats
        self.limits = limits
        self.seen: set[str] | None = set() if dedupe else None
        """The keys (``items.game_keys``: game id, shuffle seed, or digest) of the logs yielded."""
        self.suffixes = _norm_suffixes(suffixes)

    def items(self, inputs: list[ResolvedInput]) -> Iterator[LogItem]:
        self.stats.inputs += len(inputs)
        for inp in inputs:
            if inp.kind == "stdin":
                yield from self._stdin()
            elif inp.kind == "file":
                yield from file_items(self, inp.arg)
            elif inp.kind == "dir":
                yield from folder_items(self, inp.arg)
            else:
                for kind, path, err in Glob(inp.arg).targets():
                    if err is not None:
                        yield self.error(path, None, err)
                    elif kind == "dir":
                        yield from folder_items(self, path)
                    else:
                        yield from file_items(self, path)

    def ok(self, source: str, log_id: str | None, data: bytes, name: str,
           start: bytes | None = None, *, found: bool = False) -> Iterator[LogItem]:
        """The item of a log read, unless it is a copy of one yielded before (no game id: the
        same content) or, ``found`` in a folder or an archive, not a log at all."""
        if found:
            if start is None:  # its first bytes, looked at once for both questions
                start = peek(data)
            what = found_not_a_log(data, start)
            if what is not None:
                self.stats.not_logs += 1
                if len(self.stats.not_log_examples) < MAX_DUPLICATE_EXAMPLES:
                    self.stats.not_log_examples.append((source, what))
                return
        if self.seen is not None:
            keys = game_keys(data, log_id, start)
            known = next((k for k in keys if k in self.seen), None)
            self.seen.update(keys)  # a copy's other keys name the same game
            if known is not None:
                self._count_duplicate(source, _shown_key(known))
                return
        self.stats.items += 1
        yield LogItem(source, log_id, data, None, sniff_format(data, name, start))

    def error(self, source: str, log_id: str | None, message: str) -> LogItem:
        self.stats.items += 1
        self.stats.errors += 1
        return LogItem(source, log_id, None, message, "mjlog")

    def duplicate(self, log_id: str | None, source: str) -> bool:
        if self.seen is None or log_id is None or "id:" + log_id not in self.seen:
            return False
        self._count_duplicate(source, log_id)
        return True

    def _count_duplicate(self, source: str, what: str) -> None:
        self.stats.duplicates += 1
        if len(self.stats.duplicate_examples) < MAX_DUPLICATE_EXAMPLES:
            self.stats.duplicate_examples.append((source, what))

    def _stdin(self) -> Iterator[LogItem]:
        self.stats.files += 1
        try:
            data = read_stdin(max_bytes=self.limits.log_bytes)
        except InputError as exc:
            yield self.error(STDIN_SOURCE, None, str(exc))
            return
        yield from self.ok(STDIN_SOURCE, None, data, "")


def _shown_key(key: str) -> str:
    """A game key (``items.game_keys``) as a duplicate's example shows it: the game id itself,
    else ``seed:`` (its random part) or ``sha256:`` and 16 characters."""
    kind, _, value = key.partition(":")
    if kind == "id":
        return value
    return f"{kind}:{value.split(',', 1)[-1][:16]}"  # a seed less its generator's name


def _as_list(paths: PathArg | Iterable[PathArg]) -> list[str]:
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsdecode(p) for p in paths]


def _norm_suffixes(suffixes: Iterable[str]) -> tuple[str, ...]:
    if isinstance(suffixes, str):
        suffixes = [suffixes]
    return tuple(s.lower() for s in suffixes)
