"""Local inputs -> a lazy stream of log items: files, folders, globs, zip archives, SQLite databases.

``iter_logs(paths)`` turns whatever a user gives ``validate``/``stats`` into ``LogItem``\\ s, one
game at a time, in input order:

- a **file** of any name: its content decides what it is. A SQLite header makes it a database, a
  zip header an archive, a tar header (plain, or inside gzip, bz2 or xz) a tar archive, anything
  else is one log (plain or gzip; the parser sniffs gzip itself);
- ``-``: one log read from standard input (at most ``mjlog.read.MAX_BYTES``; an archive or a
  database must be given by its path, as it cannot be read from a pipe);
- a **folder**, searched recursively in sorted order. Names ending in ``DEFAULT_SUFFIXES`` are
  read as logs (or as an archive, when their content says so); any other file is opened only to
  look at its first bytes, and taken when it is a zip or tar archive or a SQLite database
  (``scraw2014.zip``, ``houou.db``), else skipped and counted in ``SourceStats.ignored``. Hidden
  files and folders are skipped and symlinked folders are not followed;
- a **glob** given as a literal string (``"logs/**/*.gz"``, ``**`` is recursive). A matched file
  counts as named on the command line; a matched folder is searched like a folder;
- a **zip archive**: members are read one at a time and capped at ``mjlog.read.MAX_BYTES``, both
  by the size the archive declares and while decompressing. Member names are only ever shown,
  never used as file system paths, so a ``../evil.xml`` member is harmless;
- a **tar archive** (``.tar``, ``.tar.gz``/``.tgz``, ``.tar.bz2``, ``.tar.xz``), read as a stream
  with the standard ``tarfile`` module, one member at a time: members named like logs are read,
  each capped at ``mjlog.read.MAX_BYTES`` by its declared size;
- a **houou-logs** or older **phoenix-logs** SQLite database, opened strictly read-only and read
  in keyset pages (see ``detect_layout``). Rows with no log (not downloaded yet, or failed) are
  skipped and counted.

The same game is read once (``dedupe``): by its game id when the file or member name or the
database row gives one, else by the SHA-256 of its bytes, so a file copied under another name
counts once (a plain and a gzip-compressed copy of a log without an id are two items here; the
stats database, which keys such a game by the digest of its XML, still counts it once).

Memory stays flat: one log's bytes at a time (a database page of at most ``DB_PAGE_ROWS`` rows
and about ``DB_PAGE_BYTES`` bytes), one folder's sorted list of names at a time, and the set of
log ids (or content digests) seen for deduplication (about 120 bytes a game; ``dedupe=False``
drops it). Zip archives are read by a small streaming reader, one central directory entry at a
time, because ``zipfile.ZipFile`` holds a ZipInfo for every member (about 600 bytes each); tar
archives by ``tarfile`` in stream mode, whose list of members passed is emptied as it goes.

Nothing here raises once iteration has started: an unreadable file, a corrupt archive, a locked
database or an oversized member becomes a ``LogItem`` whose ``error`` says what went wrong (the
caller records it as a ``PARSE_ERROR`` game) and the stream goes on. Only a path that does not
exist at all is refused, up front, by ``resolve_inputs`` (``InputError``). Inputs that hold no
log at all (an empty folder, a folder of other files) yield nothing: ``SourceStats.items`` stays
0, and ``survey_inputs`` says so before anything is read.
"""

from __future__ import annotations

import bz2
import fnmatch
import hashlib
import lzma
import math
import os
import re
import sqlite3
import stat as _stat
import struct
import sys
import tarfile
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal, Union

from ..errors import InputError
from ..mjlog import log_id_from_name
from ..mjlog import read as _read  # ``_read.MAX_BYTES`` is looked up at run time (tests patch it)

__all__ = [
    "DEFAULT_SUFFIXES",
    "STDIN",
    "DbLayout",
    "InputSurvey",
    "LogItem",
    "ResolvedInput",
    "SourceStats",
    "connect_readonly",
    "count_inputs",
    "detect_layout",
    "iter_logs",
    "read_stdin",
    "resolve_inputs",
    "survey_inputs",
]

Kind = Literal["mjlog", "tenhou6"]
PathArg = Union[str, "os.PathLike[str]"]

DEFAULT_SUFFIXES: tuple[str, ...] = (".xml", ".mjlog", ".gz", ".xml.gz", ".mjlog.gz", ".json")
"""Names taken from folders and zip archives (case-insensitive). Files named directly are always
taken, whatever their name."""

STDIN = "-"
"""The input that stands for standard input (one log)."""
STDIN_SOURCE = "<stdin>"
"""How items read from standard input are named."""

SQLITE_MAGIC = b"SQLite format 3\x00"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")  # a local file header; the end record of an empty zip
GZIP_MAGIC = b"\x1f\x8b"
BZ2_MAGIC = b"BZh"
XZ_MAGIC = b"\xfd7zXZ\x00"
TAR_MAGIC_AT, TAR_MAGIC = 257, b"ustar"  # POSIX ustar, GNU and pax headers all carry it
HEAD_BYTES = 2048
"""Bytes read from the start of a file to tell what it is (its container, or the kind of log)."""

DB_PAGE_ROWS = 256
"""Rows per keyset page."""
DB_PAGE_BYTES = 16 * 1024 * 1024
"""A page also ends once the blobs read reach this many bytes, so huge rows cannot pile up."""
DB_TIMEOUT = 5.0
"""Seconds to wait for a database another process has locked before reporting it as an error."""
DB_QUERY_SECONDS = 120.0
"""A statement on a database that runs longer than this is interrupted (a page of rows takes
milliseconds; counting a database of millions of logs, seconds)."""
DB_MAX_VALUE = 64 * 1024 * 1024
"""SQLite's limit on one string or blob (its ``SQLITE_LIMIT_LENGTH``) on a log database: far
above the logs we read (``mjlog.read.MAX_BYTES``), far below SQLite's own 1 GB default."""
MAX_DUPLICATE_EXAMPLES = 100
"""How many duplicates ``SourceStats.duplicate_examples`` keeps (the count is always exact)."""

_ID_COLUMNS = ("id", "log_id")  # houou-logs, phoenix-logs
_LOG_COLUMNS = ("log", "log_content")  # houou-logs (gzip BLOB), phoenix-logs (bz2 bytes)
_ROWID_ALIASES = ("rowid", "_rowid_", "oid")


# --- public types --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogItem:
    """One game from some input: its bytes, or the reason they could not be read.

    ``source`` is for people (``logs/a.mjlog``, ``archive.zip:2014/x.mjlog``, ``db.sqlite#<id>``);
    ``data`` is the raw log as stored (plain or gzip XML; bz2 is already undone), for
    ``mjlog.parse_game``. Exactly one of ``data`` and ``error`` is set. ``kind`` is ``"tenhou6"``
    for tenhou.net/6 JSON, which the mjlog parser does not read.
    """

    source: str
    log_id: str | None
    data: bytes | None
    error: str | None = None
    kind: Kind = "mjlog"

    def __post_init__(self) -> None:
        if (self.data is None) == (self.error is None):
            raise ValueError("a LogItem carries either data or an error")

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(slots=True)
class SourceStats:
    """Counters filled in while ``iter_logs`` runs (read them once the stream is exhausted).

    ``files``, ``zip_members`` and ``db_rows`` count the entries that hold (or claim to hold) a
    log, duplicates included; ``items`` counts what was yielded, ``errors`` the items among them
    that carry an error instead of bytes.
    """

    inputs: int = 0
    files: int = 0
    zip_archives: int = 0
    zip_members: int = 0
    databases: int = 0
    db_rows: int = 0
    skipped_without_log: int = 0
    """Database rows whose log column is NULL or empty (not downloaded yet, or a failed download)."""
    tar_archives: int = 0
    tar_members: int = 0
    ignored: int = 0
    """Files in folders, zip and tar members skipped because of their name or content (not
    hidden ones)."""
    duplicates: int = 0
    duplicate_examples: list[tuple[str, str]] = field(default_factory=list)
    """``(source, log_id)`` of the first ``MAX_DUPLICATE_EXAMPLES`` duplicates skipped (for a log
    without an id, ``sha256:`` and the first 16 hex digits of its content's digest)."""
    errors: int = 0
    items: int = 0


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


@dataclass(frozen=True, slots=True)
class DbLayout:
    """What ``detect_layout`` found in a database's ``logs`` table."""

    name: Literal["houou-logs", "phoenix-logs"]
    id_column: str
    log_column: str
    key: str
    """The column pages are keyed on: a rowid alias, or the id primary key of a WITHOUT ROWID table."""


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
        elif _GLOB_MAGIC.search(arg):
            if next(_Glob(arg).targets(), None) is None:
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
) -> Iterator[LogItem]:
    """Every log in ``paths``, lazily, in input order.

    The paths are checked at once (``InputError`` before anything is read); the returned
    generator then reads one log at a time. With ``dedupe``, a game whose id was already yielded
    (id from the file or member name, or the database id column) is skipped and counted in
    ``stats``; items without an id are never deduplicated, and error items neither count as
    seen nor get skipped.
    """
    inputs = resolve_inputs(paths)
    run = _Run(stats if stats is not None else SourceStats(), dedupe, suffixes)
    return run.items(inputs)


def count_inputs(paths: PathArg | Iterable[PathArg], *, suffixes: Iterable[str] = DEFAULT_SUFFIXES) -> int:
    """A cheap estimate of how many items ``iter_logs`` will yield, for a progress bar total
    (``survey_inputs(...).total``)."""
    return survey_inputs(paths, suffixes=suffixes).total


def survey_inputs(paths: PathArg | Iterable[PathArg], *,
                  suffixes: Iterable[str] = DEFAULT_SUFFIXES) -> InputSurvey:
    """Count what ``iter_logs`` will read, cheaply: no log is read or parsed.

    Files in folders named like logs are counted by name without being opened; other files in
    folders are opened only to read their first bytes (are they an archive or a database?). Zip
    archives are counted by their member list, databases by ``COUNT(*)`` of rows holding a log,
    a tar archive (which can only be listed by reading it through) as one, standard input as
    one. Duplicates are not subtracted. ``InputError`` for paths that do not exist.
    """
    counter = _Counter(_norm_suffixes(suffixes))
    for inp in resolve_inputs(paths):
        if inp.kind == "stdin":
            counter.total += 1
        elif inp.kind == "file":
            counter.file(inp.arg)
        elif inp.kind == "dir":
            counter.folder(inp.arg)
        else:
            for kind, path, err in _Glob(inp.arg).targets():
                if err:
                    counter.total += 1
                elif kind == "dir":
                    counter.folder(path)
                else:
                    counter.file(path)
    return InputSurvey(counter.total, counter.ignored, counter.without_log)


class _Counter:
    def __init__(self, suffixes: tuple[str, ...]):
        self.suffixes = suffixes
        self.total = self.ignored = self.without_log = 0

    def folder(self, top: str) -> None:
        for path, err in _walk_folder(top):
            if err or _has_suffix(path, self.suffixes):
                self.total += 1
            else:
                self.file(path, only_containers=True)

    def file(self, path: str, *, only_containers: bool = False) -> None:
        """A log counts one; an archive or a database what it holds (or one when that cannot be
        told); with ``only_containers`` (a file in a folder not named like a log) anything else
        counts nothing."""
        try:
            with open(path, "rb") as fh:
                container = _container(fh.read(HEAD_BYTES))
        except OSError:
            if only_containers:
                self.ignored += 1
            else:
                self.total += 1
            return
        if container is None:
            if only_containers:
                self.ignored += 1
            else:
                self.total += 1
            return
        try:
            if container == "zip":
                with _ZipReader(path) as archive:
                    for m in archive.members():
                        base = _member_base(m.name)
                        if base is None:
                            continue
                        if base.lower().endswith(self.suffixes):
                            self.total += 1
                        else:
                            self.ignored += 1
                return
            if container == "sqlite":
                conn = connect_readonly(path)
                try:
                    with _QueryBudget(conn):
                        layout = detect_layout(conn)
                        if isinstance(layout, str):
                            self.total += 1
                            return
                        log = _quote(layout.log_column)
                        (n, rows) = conn.execute(
                            f"SELECT SUM(CASE WHEN length({log}) > 0 THEN 1 ELSE 0 END), COUNT(*)"
                            " FROM logs").fetchone()
                    self.total += int(n or 0)
                    self.without_log += int(rows or 0) - int(n or 0)
                finally:
                    conn.close()
                return
        except (OSError, _Unreadable, sqlite3.Error, UnicodeDecodeError):
            pass
        self.total += 1  # a tar archive, or a container that cannot be listed: one item at least


def read_stdin() -> bytes:
    """One log from standard input, at most ``mjlog.read.MAX_BYTES``; ``InputError`` when it
    cannot be read, is too large, or holds an archive or a database (those are read by path)."""
    cap = _read.MAX_BYTES
    try:
        data = sys.stdin.buffer.read(cap + 1)
    except (OSError, AttributeError, ValueError) as exc:
        raise InputError(f"cannot read standard input: {exc}") from None
    if len(data) > cap:
        raise InputError(f"standard input holds over {cap} bytes, over the limit for one log")
    container = _container(data[:HEAD_BYTES])
    if container is not None:
        what = {"sqlite": "a SQLite database", "zip": "a zip archive"}.get(
            container, "a tar archive or compressed data")
        raise InputError(f"standard input holds {what}: give its path instead (`-` reads one log)")
    return data


def connect_readonly(path: PathArg) -> sqlite3.Connection:
    """A connection that cannot write (``mode=ro`` URI, plus ``PRAGMA query_only``), hardened for
    a file from anywhere (SQLite's "Defense against the dark arts"): functions with side effects
    are refused in the schema (``trusted_schema = OFF``), no string or blob may grow past
    ``DB_MAX_VALUE`` bytes, cell sizes are checked as pages are read, and text that is not UTF-8
    is decoded with replacement characters instead of raising."""
    uri = Path(path).resolve().as_uri() + "?mode=ro"  # as_uri() percent-encodes '?', '#', '%'
    conn = sqlite3.connect(uri, uri=True, timeout=DB_TIMEOUT)
    try:
        conn.text_factory = _lenient_text  # a damaged schema is an error item, not a crash
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, DB_MAX_VALUE)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA trusted_schema = OFF")
        conn.execute("PRAGMA cell_size_check = ON")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


class _QueryBudget:
    """Interrupts a statement that runs longer than ``DB_QUERY_SECONDS`` (a broken or hostile
    database), through SQLite's progress handler; ``with budget:`` around each statement."""

    def __init__(self, conn: sqlite3.Connection):
        self.deadline = math.inf
        self.fired = False
        conn.set_progress_handler(self._check, 10_000)

    def _check(self) -> int:
        if time.monotonic() > self.deadline:
            self.fired = True
            return 1
        return 0

    def __enter__(self) -> _QueryBudget:
        self.deadline = time.monotonic() + DB_QUERY_SECONDS
        self.fired = False
        return self

    def __exit__(self, *exc: object) -> None:
        self.deadline = math.inf

    def message(self, exc: sqlite3.Error) -> str:
        if self.fired:
            return f"a query ran for more than {DB_QUERY_SECONDS:g} s and was stopped"
        return _db_message(exc)


def detect_layout(conn: sqlite3.Connection) -> DbLayout | str:
    """The layout of a log database, or a sentence saying why it is not one.

    - houou-logs: ``logs(id TEXT PRIMARY KEY, date, num_players, is_tonpu, is_processed,
      was_error, log BLOB) WITHOUT ROWID``, ``log`` a gzip of the mjlog XML or NULL.
    - phoenix-logs: ``logs(log_id text primary key, date, is_tonpusen, is_sanma, is_processed,
      was_error, log_content text, log_hash text)``, ``log_content`` bz2 bytes or ``""``.

    Only the id and log columns are required, so copies with other columns still work; each
    blob's codec is told by its magic bytes (gzip ``1f 8b``, bz2 ``BZh``, else plain).
    """
    kinds = conn.execute(
        "SELECT type = 'view', type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        " FROM sqlite_master WHERE name = 'logs' COLLATE NOCASE").fetchall()
    info = conn.execute("PRAGMA table_info(logs)").fetchall()  # (cid, name, type, notnull, dflt, pk)
    if not info or not kinds:
        return "SQLite database has no `logs` table: not a houou-logs or phoenix-logs database"
    # A view or a virtual table may compute endless rows: only a stored table is read.
    is_view, is_table = kinds[0]
    if not is_table:
        what = "a view" if is_view else "a virtual table"
        return f"`logs` is {what}, not a table: not a houou-logs or phoenix-logs database"
    by_lower = {row[1].lower(): row for row in info}
    id_col = next((by_lower[c] for c in _ID_COLUMNS if c in by_lower), None)
    log_col = next((by_lower[c] for c in _LOG_COLUMNS if c in by_lower), None)
    if id_col is None or log_col is None:
        names = ", ".join(row[1] for row in info)
        return (f"table `logs` has no {'id' if id_col is None else 'log'} column ({names}): "
                "not a houou-logs or phoenix-logs database")
    key = _rowid_alias(conn, set(by_lower))
    if key is None:
        pk = [row for row in info if row[5]]
        if len(pk) != 1:
            return "table `logs` has neither a rowid nor a one-column primary key to page through"
        key = pk[0][1]
    name: Literal["houou-logs", "phoenix-logs"] = (
        "houou-logs" if log_col[1].lower() == "log" else "phoenix-logs"
    )
    return DbLayout(name, id_col[1], log_col[1], key)


# --- the walk ------------------------------------------------------------------------------------


class _Unreadable(Exception):
    """One entry cannot be read; the message becomes the item's ``error``."""


class _Run:
    def __init__(self, stats: SourceStats, dedupe: bool, suffixes: Iterable[str]):
        self.stats = stats
        self.seen: set[str] | None = set() if dedupe else None
        self.seen_content: set[bytes] | None = set() if dedupe else None
        """SHA-256 digests of the logs yielded without a game id."""
        self.suffixes = _norm_suffixes(suffixes)

    def items(self, inputs: list[ResolvedInput]) -> Iterator[LogItem]:
        self.stats.inputs += len(inputs)
        for inp in inputs:
            if inp.kind == "stdin":
                yield from self._stdin()
            elif inp.kind == "file":
                yield from self._path(inp.arg)
            elif inp.kind == "dir":
                yield from self._folder(inp.arg)
            else:
                for kind, path, err in _Glob(inp.arg).targets():
                    if err is not None:
                        yield self._error(path, None, err)
                    elif kind == "dir":
                        yield from self._folder(path)
                    else:
                        yield from self._path(path)

    # -- bookkeeping

    def _ok(self, source: str, log_id: str | None, data: bytes, name: str,
            start: bytes | None = None) -> Iterator[LogItem]:
        """The item of a log read, unless it is a copy of one yielded before (no game id: the
        same content)."""
        if self.seen is not None and log_id is not None:
            self.seen.add(log_id)
        elif self.seen_content is not None and log_id is None:
            digest = _content_digest(data)
            if digest in self.seen_content:
                self._count_duplicate(source, "sha256:" + digest.hex()[:16])
                return
            self.seen_content.add(digest)
        self.stats.items += 1
        yield LogItem(source, log_id, data, None, _sniff_kind(data, name, start))

    def _error(self, source: str, log_id: str | None, message: str) -> LogItem:
        self.stats.items += 1
        self.stats.errors += 1
        return LogItem(source, log_id, None, message, "mjlog")

    def _duplicate(self, log_id: str | None, source: str) -> bool:
        if self.seen is None or log_id is None or log_id not in self.seen:
            return False
        self._count_duplicate(source, log_id)
        return True

    def _count_duplicate(self, source: str, what: str) -> None:
        self.stats.duplicates += 1
        if len(self.stats.duplicate_examples) < MAX_DUPLICATE_EXAMPLES:
            self.stats.duplicate_examples.append((source, what))

    # -- standard input, folders and files

    def _stdin(self) -> Iterator[LogItem]:
        self.stats.files += 1
        try:
            data = read_stdin()
        except InputError as exc:
            yield self._error(STDIN_SOURCE, None, str(exc))
            return
        yield from self._ok(STDIN_SOURCE, None, data, "")

    def _folder(self, top: str) -> Iterator[LogItem]:
        for path, err in _walk_folder(top):
            if err is not None:
                yield self._error(path, None, err)
            elif _has_suffix(path, self.suffixes):
                yield from self._path(path)
            else:
                yield from self._path(path, only_containers=True)

    def _path(self, path: str, *, only_containers: bool = False) -> Iterator[LogItem]:
        """A file of any name: a database, a zip or tar archive, or one log. With
        ``only_containers`` (a file in a folder whose name is not a log's) only an archive or a
        database is taken; anything else, or a file that cannot be opened, is skipped."""
        name = os.path.basename(path)
        log_id = log_id_from_name(name)
        cap = _read.MAX_BYTES
        data = b""
        counted = False
        try:
            with open(path, "rb") as fh:
                head = fh.read(HEAD_BYTES)
                container, start = _classify(head)
                if container is None:
                    if only_containers:
                        self.stats.ignored += 1
                        return
                    self.stats.files += 1
                    counted = True
                    if self._duplicate(log_id, path):
                        return
                    st = os.fstat(fh.fileno())
                    want = cap + 1  # for a pipe or a device; read(n) allocates n bytes up front
                    if _stat.S_ISREG(st.st_mode):
                        if st.st_size > cap:
                            raise _Unreadable(f"file is {st.st_size} bytes, over the {cap}-byte limit")
                        want = st.st_size + 1
                    data = head + fh.read(max(want - len(head), 1))
                    if len(data) >= want and want <= cap:  # the file grew while being read
                        data += fh.read(cap + 1 - len(data))
                    if len(data) > cap:
                        raise _Unreadable(f"file is over the {cap}-byte limit")
        except _Unreadable as exc:
            yield self._error(path, log_id, str(exc))
            return
        except OSError as exc:
            if only_containers:
                self.stats.ignored += 1
                return
            if not counted:
                self.stats.files += 1
            yield self._error(path, log_id, _os_message(exc))
            return
        if container == "sqlite":
            yield from self._database(path)
        elif container == "zip":
            yield from self._zip(path)
        elif container is not None:
            yield from self._tar(path, container)
        else:
            yield from self._ok(path, log_id, data, name, start)

    # -- zip archives

    def _zip(self, path: str) -> Iterator[LogItem]:
        self.stats.zip_archives += 1
        try:
            archive = _ZipReader(path)
        except (_Unreadable, OSError) as exc:
            msg = str(exc) if isinstance(exc, _Unreadable) else _os_message(exc)
            yield self._error(path, None, f"not a readable zip archive: {msg}")
            return
        with archive:
            members = archive.members()
            while True:
                try:
                    member = next(members, None)
                except (_Unreadable, OSError) as exc:
                    msg = str(exc) if isinstance(exc, _Unreadable) else _os_message(exc)
                    yield self._error(path, None, f"not a readable zip archive: {msg}")
                    return
                if member is None:
                    return
                base = _member_base(member.name)
                if base is None:
                    continue
                if not base.lower().endswith(self.suffixes):
                    self.stats.ignored += 1
                    continue
                source = f"{path}:{_printable(member.name)}"
                log_id = log_id_from_name(base)
                self.stats.zip_members += 1
                if self._duplicate(log_id, source):
                    continue
                try:
                    data = archive.read(member, _read.MAX_BYTES)
                except _Unreadable as exc:
                    yield self._error(source, log_id, str(exc))
                    continue
                except OSError as exc:
                    yield self._error(source, log_id, _os_message(exc))
                    continue
                yield from self._ok(source, log_id, data, base)

    # -- tar archives

    def _tar(self, path: str, container: str) -> Iterator[LogItem]:
        """Members of a (compressed) tar archive, read as a stream: one member at a time, each
        capped by its declared size; ``tarfile`` never extracts anything to disk here."""
        self.stats.tar_archives += 1
        try:
            archive = tarfile.open(path, mode="r|*")
        except _TAR_ERRORS as exc:
            if container == "compressed":  # bz2 or xz, and not a tar inside
                yield self._error(path, log_id_from_name(os.path.basename(path)),
                                  "bz2 or xz-compressed data that is not a tar archive: logs are "
                                  "read plain or gzip-compressed")
            else:
                yield self._error(path, None, f"not a readable tar archive: {_tar_message(exc)}")
            return
        # Passing a member means reading through its data: in a compressed archive, decompressing
        # it. A member over the cap there ends the archive (a bomb would take hours to skip).
        compressed = getattr(archive.fileobj, "comptype", "tar") != "tar"
        with archive:
            while True:
                try:
                    member = archive.next()
                except _TAR_ERRORS as exc:
                    yield self._error(path, None, f"not a readable tar archive: {_tar_message(exc)}")
                    return
                if member is None:
                    return
                archive.members.clear()  # a stream needs no index of what it has passed
                if not member.isfile():
                    continue
                cap = _read.MAX_BYTES
                base = _member_base(member.name)
                named_like_a_log = base is not None and base.lower().endswith(self.suffixes)
                source = f"{path}:{_printable(member.name)}"
                if member.size > cap and compressed:
                    yield self._error(source, log_id_from_name(base) if base else None,
                                      f"member is {member.size} bytes, over the {cap}-byte limit: the "
                                      "compressed archive is not read past it")
                    return
                if base is None:
                    continue
                if not named_like_a_log:
                    self.stats.ignored += 1
                    continue
                log_id = log_id_from_name(base)
                self.stats.tar_members += 1
                if self._duplicate(log_id, source):
                    continue
                if member.size > cap:
                    yield self._error(source, log_id, f"member is {member.size} bytes, over the {cap}-byte limit")
                    continue
                try:
                    handle = archive.extractfile(member)
                    data = handle.read(cap + 1) if handle is not None else b""
                except _TAR_ERRORS as exc:
                    yield self._error(source, log_id, f"cannot read tar member: {_tar_message(exc)}")
                    return  # the stream cannot go on past a member it could not read
                if len(data) != member.size:
                    yield self._error(source, log_id, "cannot read tar member: the archive is truncated")
                    return
                yield from self._ok(source, log_id, data, base)

    # -- SQLite databases

    def _database(self, path: str) -> Iterator[LogItem]:
        self.stats.databases += 1
        try:
            conn = connect_readonly(path)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            yield self._error(path, None, f"cannot open SQLite database: {_db_message(exc)}")
            return
        try:
            budget = _QueryBudget(conn)
            try:
                with budget:
                    layout = detect_layout(conn)
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                yield self._error(path, None, f"cannot read SQLite database: {budget.message(exc)}")
                return
            if isinstance(layout, str):
                yield self._error(path, None, layout)
                return
            # Text comes back as the stored bytes: an id or log that is not valid UTF-8 is one
            # bad row, not a decoding error that ends the database.
            conn.text_factory = bytes
            last: tuple[object, bool] | None = None
            while True:
                cap = _read.MAX_BYTES
                try:
                    with budget:
                        rows = _fetch_page(conn, layout, last, cap)
                except (sqlite3.Error, UnicodeDecodeError) as exc:
                    where = "" if last is None else f" after {layout.key} {_printable(repr(last[0]))}"
                    yield self._error(path, None, f"cannot read SQLite database{where}: {budget.message(exc)}")
                    return
                if not rows:
                    return
                newest = _page_key(rows[-1])
                if newest == last:  # keys that do not move on (a corrupt index): stop, never loop
                    yield self._error(path, None, f"cannot read SQLite database after {layout.key} "
                                                  f"{_printable(repr(newest[0]))}: its keys do not advance")
                    return
                last = newest
                rows.reverse()  # pop() from the end releases each row as it goes
                while rows:
                    key, _key_type, raw_id, length, blob = rows.pop()
                    if not length:  # NULL or empty: not downloaded, or the download failed
                        self.stats.skipped_without_log += 1
                        continue
                    self.stats.db_rows += 1
                    log_id = _text(raw_id)
                    shown = _text(key)
                    source = f"{path}#{_printable(log_id) if log_id else f'{layout.key}={_printable(shown or str(key))}'}"
                    if self._duplicate(log_id, source):
                        continue
                    try:
                        data = _blob_bytes(blob, length, cap)
                    except _Unreadable as exc:
                        yield self._error(source, log_id, str(exc))
                        continue
                    yield from self._ok(source, log_id, data, "")
        finally:
            conn.close()


# --- helpers -------------------------------------------------------------------------------------


def _as_list(paths: PathArg | Iterable[PathArg]) -> list[str]:
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    return [os.fsdecode(p) for p in paths]


def _norm_suffixes(suffixes: Iterable[str]) -> tuple[str, ...]:
    if isinstance(suffixes, str):
        suffixes = [suffixes]
    return tuple(s.lower() for s in suffixes)


def _has_suffix(path: str, suffixes: tuple[str, ...]) -> bool:
    return os.path.basename(path).lower().endswith(suffixes)


def _hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


def _container(head: bytes) -> Literal["sqlite", "zip", "tar", "compressed"] | None:
    """What the first bytes of a file say it is: a database, a zip archive, a tar archive (plain
    or gzip-compressed), bz2 or xz-compressed data (a tar archive, or nothing we read), or None
    (a log, or something that is not one: the parser tells)."""
    return _classify(head)[0]


def _classify(head: bytes) -> tuple[Literal["sqlite", "zip", "tar", "compressed"] | None, bytes]:
    """``_container`` and the first bytes of the content (for ``_sniff_kind``), gunzipped once.

    A log starts with ``<`` or ``{`` (after blanks), a tar archive with a member's name: only
    content that does not start like a log is gunzipped further, to the tar header's magic."""
    if head.startswith(SQLITE_MAGIC):
        return "sqlite", b""
    if head.startswith(ZIP_MAGICS):
        return "zip", b""
    if head.startswith((BZ2_MAGIC, XZ_MAGIC)):
        return "compressed", b""
    start = _peek(head, 64)
    if start.lstrip(_BLANKS).startswith((b"<", b"{")):
        return None, start
    return ("tar" if _is_tar_header(_peek(head)) else None), start


_BLANKS = b" \t\r\n\xef\xbb\xbf"


def _peek(head: bytes, size: int = 512) -> bytes:
    """The first ``size`` bytes of the content: gunzipped when it is gzip (a corrupt or short
    gzip gives what could be decompressed)."""
    if not head.startswith(GZIP_MAGIC):
        return head[:size]
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, size)
    except zlib.error:
        return b""


def _is_tar_header(block: bytes) -> bool:
    return block[TAR_MAGIC_AT:TAR_MAGIC_AT + len(TAR_MAGIC)] == TAR_MAGIC


def _sniff_kind(data: bytes, name: str, start: bytes | None = None) -> Kind:
    """``tenhou6`` for JSON, ``mjlog`` otherwise: by content when it says, else by name.
    ``start`` is the content's first bytes when the caller has them (``_classify``)."""
    if start is None:
        start = _peek(data[:HEAD_BYTES], 64)
    start = start[:64].lstrip(_BLANKS)
    if start.startswith(b"{"):
        return "tenhou6"
    if start.startswith(b"<"):
        return "mjlog"
    return "tenhou6" if name.lower().endswith((".json", ".json.gz")) else "mjlog"


def _content_digest(data: bytes) -> bytes:
    """SHA-256 of a log's bytes as stored (a copy of a file is the same game; a plain and a
    gzip-compressed copy are not told apart here, which would cost a gunzip per log)."""
    return hashlib.sha256(data).digest()


_TAR_ERRORS = (tarfile.TarError, OSError, EOFError, zlib.error, ValueError, lzma.LZMAError)


def _tar_message(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return _printable(text[:200])


def _os_message(exc: OSError) -> str:
    return f"cannot read: {exc.strerror or exc}"


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _printable(text: str) -> str:
    """Names from archives and databases are untrusted: escape control characters for display."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _member_base(name: str) -> str | None:
    """The last part of a member's name; None for folders and hidden or ``__MACOSX`` entries."""
    if name.endswith(("/", "\\")):
        return None
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    if not parts or any(_hidden(p) or p == "__MACOSX" for p in parts):
        return None
    return parts[-1]


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _rowid_alias(conn: sqlite3.Connection, columns: set[str]) -> str | None:
    """A name that reaches the table's rowid, or None for a WITHOUT ROWID table."""
    for alias in _ROWID_ALIASES:
        if alias in columns:
            continue  # a real column shadows this alias
        try:
            conn.execute(f"SELECT {alias} FROM logs LIMIT 0").fetchall()
        except sqlite3.OperationalError as exc:
            if "no such column" in str(exc):
                return None  # a WITHOUT ROWID table
            raise
        return alias
    return None


def _fetch_page(conn: sqlite3.Connection, layout: DbLayout, last: tuple[object, bool] | None,
                cap: int) -> list[tuple]:
    """One keyset page: ``(key, key is text, id, length, log-or-NULL-if-over-cap)``, bounded in
    rows and bytes, after the key ``last`` (its value, and whether it is text).

    The cursor is closed before the rows are handed out, so no read lock is held while the
    caller works through them. With ``text_factory = bytes`` a text key comes back as bytes; it
    is given back as text (``CAST(? AS TEXT)`` when it is not valid UTF-8), so that the next page
    starts exactly after it.
    """
    key, ident, log = _quote(layout.key), _quote(layout.id_column), _quote(layout.log_column)
    if last is None:
        where, params = "", (cap, DB_PAGE_ROWS)
    else:
        value, is_text = last
        if is_text and isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError:
                where, params = f" WHERE {key} > CAST(? AS TEXT)", (cap, value, DB_PAGE_ROWS)
            else:
                where, params = f" WHERE {key} > ?", (cap, value, DB_PAGE_ROWS)
        else:
            where, params = f" WHERE {key} > ?", (cap, value, DB_PAGE_ROWS)
    sql = (
        f"SELECT {key}, typeof({key}) = 'text', {ident}, length({log}),"
        f" CASE WHEN length({log}) <= ? THEN {log} END"
        f" FROM logs{where} ORDER BY {key} LIMIT ?"
    )
    rows: list[tuple] = []
    total = 0
    cur = conn.execute(sql, params)
    try:
        for row in cur:
            rows.append(row)
            total += row[3] or 0
            if total >= DB_PAGE_BYTES:
                break
    finally:
        cur.close()
    return rows


def _page_key(row: tuple) -> tuple[object, bool]:
    return row[0], bool(row[1])


def _text(value: object) -> str | None:
    """An id or key from the database as text (bytes are stored text or a blob)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _db_message(exc: BaseException) -> str:
    """SQLite's message on one line, control characters escaped (it may quote stored text, and
    when that is not UTF-8 Python's decoding of the message fails: it is decoded leniently)."""
    text = str(exc)
    if isinstance(exc, UnicodeDecodeError) and isinstance(exc.object, bytes):
        text = exc.object.decode("utf-8", "replace")
    return _printable(" ".join(text.split())) or type(exc).__name__


def _blob_bytes(blob: bytes | str | int | float | None, length: int, cap: int) -> bytes:
    if blob is None:
        raise _Unreadable(f"stored log is {length} bytes, over the {cap}-byte limit")
    if isinstance(blob, str):
        blob = blob.encode("utf-8")
    elif not isinstance(blob, bytes):
        raise _Unreadable(f"log column holds a {type(blob).__name__}, not a log")
    if blob.startswith(BZ2_MAGIC):
        return _bunzip(blob, cap)
    return blob  # gzip or plain XML: the parser sniffs gzip and caps its output itself


def _bunzip(blob: bytes, cap: int) -> bytes:
    d = bz2.BZ2Decompressor()
    try:
        out = d.decompress(blob, cap + 1)
    except (OSError, ValueError, EOFError) as exc:
        raise _Unreadable(f"bz2 data is corrupt ({exc})") from None
    if len(out) > cap:
        raise _Unreadable(f"decompressed size exceeds the {cap}-byte limit")
    if not d.eof:
        raise _Unreadable("bz2 data is truncated")
    return out


def _walk_folder(top: str) -> Iterator[tuple[str, str | None]]:
    """``(path, None)`` for every file under ``top``, or ``(folder, error)`` for an unreadable one.

    Depth first, names sorted; hidden files and folders are skipped, symlinked folders are not
    followed (no loops), symlinked files are taken.
    """
    try:
        entries = _list_folder(top, follow_dirs=False, keep_hidden=False)
    except OSError as exc:
        yield top, f"cannot list folder: {exc.strerror or exc}"
        return
    for name, kind in entries:
        path = os.path.join(top, name)
        if kind == _DIR:
            yield from _walk_folder(path)
        else:
            yield path, None


_FILE, _DIR, _DIR_LINK = 1, 2, 3


def _list_folder(folder: str, *, follow_dirs: bool, keep_hidden: bool) -> list[tuple[str, int]]:
    """``(name, kind)`` of a folder's files and folders, sorted by name.

    Only names and a small int are kept (not ``os.DirEntry`` objects), so a folder of a million
    logs costs about 150 bytes a name while it is being walked. Symlinked folders are ``_DIR_LINK``
    when ``follow_dirs``, else left out; other kinds of entries (sockets, broken links) are left out.
    """
    kept: list[tuple[str, int]] = []
    with os.scandir(folder) as it:
        for entry in it:
            if not keep_hidden and _hidden(entry.name):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    kept.append((entry.name, _DIR))
                elif entry.is_file():
                    kept.append((entry.name, _FILE))
                elif follow_dirs and entry.is_dir():
                    kept.append((entry.name, _DIR_LINK))
            except OSError:
                continue
    kept.sort()
    return kept


# --- zip archives, streamed ----------------------------------------------------------------------
#
# ``zipfile.ZipFile`` reads the whole central directory into ZipInfo objects when it opens an
# archive (about 600 bytes a member: 600 MB for a million logs). This reader walks the central
# directory one entry at a time instead, and inflates one member at a time with its output capped.
# Layout from PKWARE's APPNOTE.TXT (sections 4.3.7, 4.3.12, 4.3.14-16, 4.5.3).

_EOCD = struct.Struct("<4s4H2LH")  # end of central directory record, 22 bytes
_EOCD64_LOCATOR = struct.Struct("<4sLQL")  # zip64 end of central directory locator, 20 bytes
_EOCD64 = struct.Struct("<4sQ2H2L4Q")  # zip64 end of central directory record, 56 bytes
_CENTRAL = struct.Struct("<4s4B4H3L5H2L")  # central directory file header, 46 bytes
_LOCAL = struct.Struct("<4s2B4H3L2H")  # local file header, 30 bytes
_EOCD_SIG, _EOCD64_LOCATOR_SIG, _EOCD64_SIG = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"
_CENTRAL_SIG, _LOCAL_SIG = b"PK\x01\x02", b"PK\x03\x04"
_STORED, _DEFLATED, _BZIP2 = 0, 8, 12
_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class _Member:
    name: str
    flags: int
    method: int
    crc: int
    compressed_size: int
    size: int
    offset: int


class _ZipReader:
    """Members of a zip archive, read lazily. Raises ``_Unreadable`` for a broken archive."""

    def __init__(self, path: str):
        self._cd = open(path, "rb")  # walks the central directory sequentially
        self._data: BinaryIO | None = None  # a second handle for member data, opened on first read
        self._path = path
        try:
            self._entries, self._cd_offset, self._cd_size = self._end_record()
        except BaseException:
            self._cd.close()
            raise

    def __enter__(self) -> _ZipReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self._cd.close()
        if self._data is not None:
            self._data.close()

    def _end_record(self) -> tuple[int, int, int]:
        fh = self._cd
        size = fh.seek(0, os.SEEK_END)
        tail_start = max(0, size - _EOCD.size - 0xFFFF)
        fh.seek(tail_start)
        tail = fh.read()
        at = _find_end_record(tail)
        if at is None:
            raise _Unreadable("no end of central directory record (truncated or not a zip)")
        _sig, disk, cd_disk, _n_here, entries, cd_size, cd_offset, _comment = _EOCD.unpack_from(tail, at)
        eocd_at = tail_start + at
        if eocd_at >= _EOCD64_LOCATOR.size:  # a zip64 archive has a locator just before
            fh.seek(eocd_at - _EOCD64_LOCATOR.size)
            loc = fh.read(_EOCD64_LOCATOR.size)
            if loc[:4] == _EOCD64_LOCATOR_SIG:
                _sig, _disk, eocd64_at, disks = _EOCD64_LOCATOR.unpack(loc)
                if eocd64_at > eocd_at - _EOCD64_LOCATOR.size - _EOCD64.size:  # not before the locator
                    raise _Unreadable("corrupt zip64 end of central directory locator")
                fh.seek(eocd64_at)
                rec = fh.read(_EOCD64.size)
                if len(rec) != _EOCD64.size or rec[:4] != _EOCD64_SIG:
                    raise _Unreadable("corrupt zip64 end of central directory record")
                (_sig, _len, _made, _need, disk, cd_disk, _n_here, entries, cd_size,
                 cd_offset) = _EOCD64.unpack(rec)
                if disks > 1:
                    disk = disks
        if disk or cd_disk:
            raise _Unreadable("multi-disk (spanned) zip archives are not supported")
        if cd_offset + cd_size > eocd_at:
            raise _Unreadable("central directory lies outside the archive (truncated?)")
        return entries, cd_offset, cd_size

    def members(self) -> Iterator[_Member]:
        """Central directory entries in archive order, one at a time."""
        fh = self._cd
        fh.seek(self._cd_offset)
        for index in range(self._entries):
            head = fh.read(_CENTRAL.size)
            if len(head) != _CENTRAL.size or head[:4] != _CENTRAL_SIG:
                raise _Unreadable(f"corrupt central directory at entry {index + 1}")
            (_sig, _made, _system, _need, _sys2, flags, method, _time, _date, crc, csize, size,
             name_len, extra_len, comment_len, disk, _iattr, _eattr, offset) = _CENTRAL.unpack(head)
            raw_name = fh.read(name_len)
            extra = fh.read(extra_len)
            if comment_len:
                fh.seek(comment_len, os.SEEK_CUR)
            if len(raw_name) != name_len or len(extra) != extra_len:
                raise _Unreadable(f"corrupt central directory at entry {index + 1}")
            if 0xFFFFFFFF in (size, csize, offset):
                size, csize, offset = _zip64_extra(extra, size, csize, offset)
            name = raw_name.decode("utf-8" if flags & 0x800 else "cp437", "replace")
            yield _Member(name, flags, method, crc, csize, size, offset)

    def read(self, m: _Member, cap: int) -> bytes:
        """One member's bytes, never more than ``cap`` of them, checked against size and CRC."""
        if m.size > cap:
            raise _Unreadable(f"member is {m.size} bytes uncompressed, over the {cap}-byte limit")
        if m.flags & 0x1:
            raise _Unreadable("cannot read zip member: it is encrypted")
        if m.method not in (_STORED, _DEFLATED, _BZIP2):
            raise _Unreadable(f"cannot read zip member: compression method {m.method} is not supported")
        if m.offset > self._cd_offset - _LOCAL.size:  # (a 64-bit offset may not even be seekable)
            raise _Unreadable("cannot read zip member: its local header lies outside the archive's data")
        if self._data is None:
            self._data = open(self._path, "rb")
        fh = self._data
        fh.seek(m.offset)
        head = fh.read(_LOCAL.size)
        if len(head) != _LOCAL.size or head[:4] != _LOCAL_SIG:
            raise _Unreadable("cannot read zip member: bad local file header")
        name_len, extra_len = _LOCAL.unpack(head)[-2:]
        fh.seek(m.offset + _LOCAL.size + name_len + extra_len)
        out = _inflate(fh, m, cap)
        if len(out) > cap:
            raise _Unreadable(f"member is over the {cap}-byte limit")
        if len(out) != m.size:
            raise _Unreadable(f"cannot read zip member: {len(out)} bytes, the archive says {m.size}")
        if zlib.crc32(out) != m.crc:
            raise _Unreadable("cannot read zip member: bad CRC-32")
        return bytes(out)


def _find_end_record(tail: bytes) -> int | None:
    """Where the end of central directory record starts in the last 64 KiB of the archive.

    The record is followed only by the archive comment, so prefer the candidate whose comment
    length reaches exactly the end of the file (a comment may itself contain the signature);
    else take the last complete one.
    """
    fallback = None
    at = tail.rfind(_EOCD_SIG)
    while at >= 0:
        if at + _EOCD.size <= len(tail):
            (comment_len,) = struct.unpack_from("<H", tail, at + _EOCD.size - 2)
            if at + _EOCD.size + comment_len == len(tail):
                return at
            if fallback is None:
                fallback = at
        at = tail.rfind(_EOCD_SIG, 0, at)
    return fallback


def _zip64_extra(extra: bytes, size: int, csize: int, offset: int) -> tuple[int, int, int]:
    """The 64-bit values of the fields set to 0xFFFFFFFF, from the zip64 extra field (id 1)."""
    at = 0
    while at + 4 <= len(extra):
        kind, length = struct.unpack_from("<2H", extra, at)
        body = extra[at + 4 : at + 4 + length]
        if kind == 0x0001:
            values = [v for (v,) in struct.iter_unpack("<Q", body[: len(body) // 8 * 8])]
            try:
                if size == 0xFFFFFFFF:
                    size = values.pop(0)
                if csize == 0xFFFFFFFF:
                    csize = values.pop(0)
                if offset == 0xFFFFFFFF:
                    offset = values.pop(0)
            except IndexError:
                raise _Unreadable("corrupt zip64 extra field") from None
            return size, csize, offset
        at += 4 + length
    raise _Unreadable("zip64 sizes are missing their extra field")


def _inflate(fh: BinaryIO, m: _Member, cap: int) -> bytearray:
    """Read ``m.compressed_size`` bytes and decompress them, stopping past ``cap`` bytes of output."""
    limit = cap + 1
    out = bytearray()
    left = m.compressed_size
    if m.method == _STORED:
        data = fh.read(min(left, limit))
        if len(data) < min(left, limit):
            raise _Unreadable("cannot read zip member: the archive is truncated")
        return bytearray(data)
    d = zlib.decompressobj(-zlib.MAX_WBITS) if m.method == _DEFLATED else bz2.BZ2Decompressor()
    try:
        while left > 0 and not d.eof and len(out) < limit:
            chunk = fh.read(min(left, _CHUNK))
            if not chunk:
                raise _Unreadable("cannot read zip member: the archive is truncated")
            left -= len(chunk)
            # max_length bounds each step's output: a bomb stops at cap + 1 bytes.
            out += d.decompress(chunk, limit - len(out))
            if isinstance(d, bz2.BZ2Decompressor):
                while not d.eof and not d.needs_input and len(out) < limit:
                    out += d.decompress(b"", limit - len(out))
    except (zlib.error, OSError, EOFError, ValueError) as exc:
        raise _Unreadable(f"cannot read zip member: corrupt compressed data ({exc})") from None
    if len(out) < limit and not d.eof:
        raise _Unreadable("cannot read zip member: compressed data ends early")
    return out


# --- globs ---------------------------------------------------------------------------------------

_GLOB_MAGIC = re.compile(r"[*?[]")


class _Glob:
    """A shell glob matched while walking the tree in sorted order (no list of all matches).

    Follows ``glob.glob(pattern, recursive=True)``: ``**`` as a whole component spans any number
    of folders, wildcards do not match names starting with ``.`` unless the pattern component
    does, and ``**`` does not enter hidden folders. A trailing separator matches folders only.
    """

    def __init__(self, pattern: str):
        seps = "/" + (os.sep if os.sep != "/" else "") + (os.altsep or "")
        parts = re.split(f"[{re.escape(seps)}]+", pattern)
        i = 0
        while i < len(parts) and not _GLOB_MAGIC.search(parts[i]):
            i += 1
        self.root = "/".join(parts[:i]) or ("/" if i else "")  # ["", "abs"] -> "/abs", [""] -> "/"
        self.dirs_only = pattern.endswith(tuple(seps))
        self.pattern: tuple[tuple[str, re.Pattern[str] | None], ...] = tuple(
            (p, None if p == "**" else re.compile(fnmatch.translate(p))) for p in parts[i:] if p
        )

    def _component(self, pat: tuple[str, re.Pattern[str] | None], name: str) -> bool:
        text, regex = pat
        if _hidden(name) and not text.startswith("."):
            return False
        return regex is not None and regex.match(name) is not None

    def _match(self, pat: tuple, parts: tuple[str, ...]) -> bool:
        if not pat:
            return not parts
        if pat[0][1] is None:  # **
            if self._match(pat[1:], parts):
                return True
            return bool(parts) and not _hidden(parts[0]) and self._match(pat, parts[1:])
        return bool(parts) and self._component(pat[0], parts[0]) and self._match(pat[1:], parts[1:])

    def _may_contain(self, pat: tuple, parts: tuple[str, ...]) -> bool:
        """Could something below the folder ``parts`` match?"""
        if not parts:
            return bool(pat)
        if not pat:
            return False
        if pat[0][1] is None:
            if self._may_contain(pat[1:], parts):
                return True
            return not _hidden(parts[0]) and self._may_contain(pat, parts[1:])
        return self._component(pat[0], parts[0]) and self._may_contain(pat[1:], parts[1:])

    def _display(self, parts: tuple[str, ...]) -> str:
        return os.path.join(self.root, *parts) if self.root else os.path.join(*parts)

    def targets(self) -> Iterator[tuple[Literal["file", "dir", "error"], str, str | None]]:
        """``("file", path, None)``, ``("dir", path, None)`` or ``("error", folder, message)``."""
        start = self.root or os.curdir
        if not os.path.isdir(start):
            return
        if self._match(self.pattern, ()):  # "logs/**" is the folder itself
            yield "dir", start, None
            return
        yield from self._walk(start, ())

    def _walk(self, folder: str, parts: tuple[str, ...]) -> Iterator[tuple]:
        try:
            entries = _list_folder(folder, follow_dirs=True, keep_hidden=True)
        except OSError as exc:
            yield "error", folder, f"cannot list folder: {exc.strerror or exc}"
            return
        for name, kind in entries:
            sub = parts + (name,)
            if kind == _FILE:
                if not self.dirs_only and self._match(self.pattern, sub):
                    yield "file", self._display(sub), None
            elif self._match(self.pattern, sub):
                yield "dir", self._display(sub), None
            elif kind == _DIR and self._may_contain(self.pattern, sub):  # never down a symlink
                yield from self._walk(os.path.join(folder, name), sub)
