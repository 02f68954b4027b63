"""Where ``download`` keeps logs besides the cache: a houou-logs SQLite database, and the record of
the games tenhou.net no longer serves.

**The database** has houou-logs' schema (Apricot-S/houou-logs ``db.py``; ``sources.local`` reads
it), so a houou-logs user's database and ours are interchangeable::

    logs(id TEXT PRIMARY KEY, date TEXT NOT NULL,
         num_players INTEGER NOT NULL CHECK(num_players IN (4, 3)),
         is_tonpu INTEGER NOT NULL CHECK(is_tonpu IN (0, 1)),
         is_processed INTEGER NOT NULL CHECK(is_processed IN (0, 1)),
         was_error INTEGER NOT NULL CHECK(was_error IN (0, 1)),
         log BLOB) WITHOUT ROWID
    INDEX idx_logs_status_filter ON logs(is_processed, was_error, num_players, is_tonpu, id)

``date`` is ``YYYY-MM-DDTHH:MM`` (JST: the id's date with the index's start time, or ``HH:00``
for an id without an index line); ``log`` is the gzip-compressed XML, NULL until downloaded. A
stored log has ``is_processed = 1, was_error = 0``; a game tenhou.net no longer serves has
``is_processed = 1, was_error = 1`` and no log, as houou-logs records a failed download. Rows
houou-logs listed but has not downloaded (``is_processed = 0``) are filled in. houou-logs' own
bookkeeping tables (``fetch_state``, ``file_index``) are left alone; houou-logs creates them
when it opens the file. Each log is one transaction, so Ctrl-C leaves the file consistent.

**The not-served record** ``<cache>/not-served.tsv``: one ``<id><TAB><YYYY-MM-DD><TAB><server>``
line per game of the years tenhou.net no longer serves (``http.NOT_SERVED_YEARS``) whose
download answered 404, so that later runs do not ask that server again; ``<server>`` is the base
URL asked (``https://tenhou.net``), so a run against another server asks all the same. (Lines
of an older version, without a server, are not used.)
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..errors import InputError
from ..ids import JST, GameRef, validate_log_id
from .cache import default_cache_dir
from .database import detect_layout
from .items import SQLITE_MAGIC

DB_TIMEOUT = 10.0
"""Seconds to wait for a database another process is writing."""

_CREATE_LOGS = """
CREATE TABLE IF NOT EXISTS logs (
    id TEXT PRIMARY KEY,
    date TEXT NOT NULL,
    num_players INTEGER NOT NULL CHECK(num_players IN (4, 3)),
    is_tonpu INTEGER NOT NULL CHECK(is_tonpu IN (0, 1)),
    is_processed INTEGER NOT NULL CHECK(is_processed IN (0, 1)),
    was_error INTEGER NOT NULL CHECK(was_error IN (0, 1)),
    log BLOB
) WITHOUT ROWID
"""
_CREATE_INDEX = """
CREATE INDEX IF NOT EXISTS idx_logs_status_filter
ON logs (is_processed, was_error, num_players, is_tonpu, id)
"""
_COLUMNS = ("id", "date", "num_players", "is_tonpu", "is_processed", "was_error", "log")
_CHUNK = 500


@dataclass(frozen=True, slots=True)
class LogRow:
    """What a ``logs`` row says about a game besides its log."""

    log_id: str
    date: str
    num_players: int
    is_tonpu: bool

    @classmethod
    def of(cls, log_id: str, start: datetime | None = None) -> LogRow:
        """The row of a game id; ``start`` (JST) gives the minutes when the index gave them."""
        ref = GameRef(validate_log_id(log_id))
        when = start.astimezone(JST) if start is not None else ref.date
        players = 3 if ref.type_code & 0x10 else 4
        return cls(log_id, when.strftime("%Y-%m-%dT%H:%M"), players, not ref.type_code & 0x08)


class LogDatabase:
    """A houou-logs database opened for writing (created with its schema when new).

    ``InputError`` when the file is not SQLite, is locked too long, or has a ``logs`` table that
    is not houou-logs' (a phoenix-logs database is never written to). A database it created and
    that holds no row when it is closed (every download failed, say) is removed: a run leaves no
    empty database behind.
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path).expanduser()
        self.created = not self.path.exists()
        if self.path.is_dir():
            raise InputError(f"{self.path} is a folder, not a database file")
        if self.path.exists():
            try:
                with open(self.path, "rb") as fh:
                    head = fh.read(len(SQLITE_MAGIC))
            except OSError as exc:
                raise InputError(f"cannot read {self.path}: {exc.strerror or exc}") from None
            if head and head != SQLITE_MAGIC:
                raise InputError(f"{self.path} is not a SQLite database; it is left as it is")
        elif not self.path.parent.is_dir():
            raise InputError(f"cannot create {self.path}: the folder {self.path.parent} does not exist")
        try:
            self.conn = sqlite3.connect(self.path, timeout=DB_TIMEOUT)
        except sqlite3.Error as exc:
            raise InputError(f"cannot open {self.path}: {exc}") from None
        try:
            self._setup()
        except sqlite3.Error as exc:
            self.conn.close()
            raise InputError(f"cannot use {self.path} as a log database: {exc}") from None
        except InputError:
            self.conn.close()
            raise

    def _setup(self) -> None:
        conn = self.conn
        conn.execute("PRAGMA trusted_schema = OFF")
        exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'logs' COLLATE NOCASE").fetchone()
        if exists:
            layout = detect_layout(conn)
            if isinstance(layout, str):
                raise InputError(f"{self.path}: {layout}; it is left as it is")
            columns = {row[1].lower() for row in conn.execute("PRAGMA table_info(logs)")}
            missing = [c for c in _COLUMNS if c not in columns]
            if layout.name != "houou-logs" or missing:
                raise InputError(
                    f"{self.path} is a {layout.name} database without houou-logs' columns "
                    f"({', '.join(missing) or 'another layout'}); it is left as it is"
                )
        with conn:
            conn.execute(_CREATE_LOGS)
            conn.execute(_CREATE_INDEX)

    def status(self, log_ids: Iterable[str]) -> dict[str, str]:
        """For each id with a row: ``stored`` (a log is there) or ``failed`` (``was_error``);
        ids without a row, or with a row not yet processed, are left out."""
        found: dict[str, str] = {}
        ids = list(log_ids)
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT id, was_error, log IS NOT NULL AND length(log) > 0 FROM logs WHERE id IN ({marks})",  # noqa: S608
                chunk,
            )
            for log_id, was_error, has_log in rows:
                if was_error:
                    found[log_id] = "failed"
                elif has_log:
                    found[log_id] = "stored"
        return found

    def pending(self) -> list[str]:
        """The ids houou-logs (or anyone) listed but nobody downloaded yet, in id order."""
        rows = self.conn.execute("SELECT id FROM logs WHERE is_processed = 0 AND was_error = 0 ORDER BY id")
        return [r[0] for r in rows]

    def store(self, row: LogRow, log_gz: bytes) -> None:
        """Store one downloaded log (gzip-compressed XML) and commit."""
        with self.conn:
            self.conn.execute(
                "INSERT INTO logs (id, date, num_players, is_tonpu, is_processed, was_error, log) "
                "VALUES (?, ?, ?, ?, 1, 0, ?) "
                "ON CONFLICT(id) DO UPDATE SET is_processed = 1, was_error = 0, log = excluded.log",
                (row.log_id, row.date, row.num_players, int(row.is_tonpu), log_gz),
            )

    def record_not_served(self, row: LogRow) -> None:
        """Record that tenhou.net does not serve this game (unless a log is already there)."""
        with self.conn:
            self.conn.execute(
                "INSERT INTO logs (id, date, num_players, is_tonpu, is_processed, was_error, log) "
                "VALUES (?, ?, ?, ?, 1, 1, NULL) "
                "ON CONFLICT(id) DO UPDATE SET is_processed = 1, was_error = 1 WHERE log IS NULL",
                (row.log_id, row.date, row.num_players, int(row.is_tonpu)),
            )

    def close(self) -> None:
        try:
            empty = self.created and self.conn.execute("SELECT 1 FROM logs LIMIT 1").fetchone() is None
        except sqlite3.Error:
            empty = False
        self.conn.close()
        if empty:
            for leftover in (self.path, self.path.with_name(self.path.name + "-journal")):
                leftover.unlink(missing_ok=True)

    def __enter__(self) -> LogDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


NOT_SERVED_NAME = "not-served.tsv"


class NotServedRecord:
    """``<cache>/not-served.tsv``: the games a server answered 404 for in the years tenhou.net no
    longer serves, by server."""

    def __init__(self, cache_dir: str | os.PathLike[str] | None = None):
        root = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
        self.path = root / NOT_SERVED_NAME

    def load(self, server: str) -> dict[str, str]:
        """id -> the day it was recorded, for the games ``server`` (a base URL) did not serve;
        lines that are not ``<id>\\t<day>\\t<server>`` are ignored (a line cut short by a crash,
        or written by an older version without the server)."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return {}
        return {log_id: day for log_id, day, where in self._entries(text) if where == server}

    @staticmethod
    def _entries(text: str) -> Iterator[tuple[str, str, str]]:
        for line in text.splitlines():
            log_id, day, server = (line.split("\t") + ["", ""])[:3]
            try:
                validate_log_id(log_id)
            except InputError:
                continue
            if len(day) == 10 and server:
                yield log_id, day, server

    def add(self, log_id: str, server: str, when: datetime | None = None) -> None:
        """Record that ``server`` (a base URL) did not serve the game: one line, appended
        (``O_APPEND``: a whole line at a time)."""
        day = (when or datetime.now(JST)).strftime("%Y-%m-%d")
        if not server or any(ch.isspace() for ch in server):
            raise ValueError(f"not a server: {server!r}")
        line = f"{validate_log_id(log_id)}\t{day}\t{server}\n".encode()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
