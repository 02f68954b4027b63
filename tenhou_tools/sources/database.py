"""houou-logs and phoenix-logs SQLite databases: opened strictly read-only, read in keyset pages.

- houou-logs: ``logs(id TEXT PRIMARY KEY, date, num_players, is_tonpu, is_processed, was_error,
  log BLOB) WITHOUT ROWID``, ``log`` a gzip of the mjlog XML or NULL.
- phoenix-logs: ``logs(log_id text primary key, date, is_tonpusen, is_sanma, is_processed,
  was_error, log_content text, log_hash text)``, ``log_content`` bz2 bytes or ``""``.

Rows with no log (not downloaded yet, or failed) are skipped and counted. A database from
anywhere is read defensively (``connect_readonly``): only a stored ``logs`` table (a view or a
virtual table could compute rows forever), a statement that runs longer than
``DB_QUERY_SECONDS`` is interrupted, values over ``ReadLimits.db_value_bytes`` are refused by
SQLite itself, text that is not UTF-8 is one bad row, and memory holds one page
(``ReadLimits.db_page_rows`` rows, about ``db_page_bytes`` bytes) at a time.
"""

from __future__ import annotations

import bz2
import math
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .items import BZ2_MAGIC, DEFAULT_LIMITS, LogItem, ReadLimits, Unreadable, Walk, printable

__all__ = [
    "DB_QUERY_SECONDS",
    "DB_TIMEOUT",
    "DbLayout",
    "connect_readonly",
    "count_database",
    "database_items",
    "detect_layout",
]

DB_TIMEOUT = 5.0
"""Seconds to wait for a database another process has locked before reporting it as an error."""
DB_QUERY_SECONDS = 120.0
"""A statement on a database that runs longer than this is interrupted (a page of rows takes
milliseconds; counting a database of millions of logs, seconds)."""

_ID_COLUMNS = ("id", "log_id")  # houou-logs, phoenix-logs
_LOG_COLUMNS = ("log", "log_content")  # houou-logs (gzip BLOB), phoenix-logs (bz2 bytes)
_ROWID_ALIASES = ("rowid", "_rowid_", "oid")


@dataclass(frozen=True, slots=True)
class DbLayout:
    """What ``detect_layout`` found in a database's ``logs`` table."""

    name: Literal["houou-logs", "phoenix-logs"]
    id_column: str
    log_column: str
    key: str
    """The column pages are keyed on: a rowid alias, or the id primary key of a WITHOUT ROWID table."""


def connect_readonly(path: str | os.PathLike[str], *,
                     max_value: int = DEFAULT_LIMITS.db_value_bytes) -> sqlite3.Connection:
    """A connection that cannot write (``mode=ro`` URI, plus ``PRAGMA query_only``), hardened for
    a file from anywhere (SQLite's "Defense against the dark arts"): functions with side effects
    are refused in the schema (``trusted_schema = OFF``), no string or blob may grow past
    ``max_value`` bytes (``ReadLimits.db_value_bytes``), cell sizes are checked as pages are
    read, and text that is not UTF-8 is decoded with replacement characters instead of raising."""
    uri = Path(path).resolve().as_uri() + "?mode=ro"  # as_uri() percent-encodes '?', '#', '%'
    conn = sqlite3.connect(uri, uri=True, timeout=DB_TIMEOUT)
    try:
        conn.text_factory = _lenient_text  # a damaged schema is an error item, not a crash
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max_value)
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

    def message(self, exc: sqlite3.Error | UnicodeDecodeError) -> str:
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


def count_database(path: str, limits: ReadLimits = DEFAULT_LIMITS) -> tuple[int, int] | None:
    """``(rows with a log, rows without)`` of a log database, or None when it is not one.
    Raises ``sqlite3.Error`` (or ``UnicodeDecodeError``) when it cannot be read."""
    conn = connect_readonly(path, max_value=limits.db_value_bytes)
    try:
        with _QueryBudget(conn):
            layout = detect_layout(conn)
            if isinstance(layout, str):
                return None
            log = _quote(layout.log_column)
            (n, rows) = conn.execute(
                f"SELECT SUM(CASE WHEN length({log}) > 0 THEN 1 ELSE 0 END), COUNT(*)"
                " FROM logs").fetchone()
        return int(n or 0), int(rows or 0) - int(n or 0)
    finally:
        conn.close()


def database_items(walk: Walk, path: str) -> Iterator[LogItem]:
    """The logs of a houou-logs or phoenix-logs database, a keyset page at a time; a database
    that cannot be read ends in one error item."""
    walk.stats.databases += 1
    limits = walk.limits
    try:
        conn = connect_readonly(path, max_value=limits.db_value_bytes)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        yield walk.error(path, None, f"cannot open SQLite database: {_db_message(exc)}")
        return
    try:
        budget = _QueryBudget(conn)
        try:
            with budget:
                layout = detect_layout(conn)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            yield walk.error(path, None, f"cannot read SQLite database: {budget.message(exc)}")
            return
        if isinstance(layout, str):
            yield walk.error(path, None, layout)
            return
        # Text comes back as the stored bytes: an id or log that is not valid UTF-8 is one
        # bad row, not a decoding error that ends the database.
        conn.text_factory = bytes
        last: tuple[object, bool] | None = None
        while True:
            cap = limits.log_bytes
            try:
                with budget:
                    rows = _fetch_page(conn, layout, last, limits)
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                where = "" if last is None else f" after {layout.key} {printable(repr(last[0]))}"
                yield walk.error(path, None, f"cannot read SQLite database{where}: {budget.message(exc)}")
                return
            if not rows:
                return
            newest = _page_key(rows[-1])
            if newest == last:  # keys that do not move on (a corrupt index): stop, never loop
                yield walk.error(path, None, f"cannot read SQLite database after {layout.key} "
                                             f"{printable(repr(newest[0]))}: its keys do not advance")
                return
            last = newest
            rows.reverse()  # pop() from the end releases each row as it goes
            while rows:
                key, _key_type, raw_id, length, blob = rows.pop()
                if not length:  # NULL or empty: not downloaded, or the download failed
                    walk.stats.skipped_without_log += 1
                    continue
                walk.stats.db_rows += 1
                log_id = _text(raw_id)
                shown = _text(key)
                source = f"{path}#{printable(log_id) if log_id else f'{layout.key}={printable(shown or str(key))}'}"
                if walk.duplicate(log_id, source):
                    continue
                try:
                    data = _blob_bytes(blob, length, cap)
                except Unreadable as exc:
                    yield walk.error(source, log_id, str(exc))
                    continue
                yield from walk.ok(source, log_id, data, "")
    finally:
        conn.close()


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
                limits: ReadLimits) -> list[tuple]:
    """One keyset page: ``(key, key is text, id, length, log-or-NULL-if-over-the-cap)``, bounded
    in rows and bytes (``limits``), after the key ``last`` (its value, and whether it is text).

    The cursor is closed before the rows are handed out, so no read lock is held while the
    caller works through them. With ``text_factory = bytes`` a text key comes back as bytes; it
    is given back as text (``CAST(? AS TEXT)`` when it is not valid UTF-8), so that the next page
    starts exactly after it.
    """
    key, ident, log = _quote(layout.key), _quote(layout.id_column), _quote(layout.log_column)
    params: tuple[object, ...]
    cap, page_rows = limits.log_bytes, limits.db_page_rows
    if last is None:
        where, params = "", (cap, page_rows)
    else:
        value, is_text = last
        if is_text and isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError:
                where, params = f" WHERE {key} > CAST(? AS TEXT)", (cap, value, page_rows)
            else:
                where, params = f" WHERE {key} > ?", (cap, value, page_rows)
        else:
            where, params = f" WHERE {key} > ?", (cap, value, page_rows)
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
            if total >= limits.db_page_bytes:
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
    return printable(" ".join(text.split())) or type(exc).__name__


def _blob_bytes(blob: bytes | str | int | float | None, length: int, cap: int) -> bytes:
    if blob is None:
        raise Unreadable(f"stored log is {length} bytes, over the {cap}-byte limit")
    if isinstance(blob, str):
        blob = blob.encode("utf-8")
    elif not isinstance(blob, bytes):
        raise Unreadable(f"log column holds a {type(blob).__name__}, not a log")
    if blob.startswith(BZ2_MAGIC):
        return _bunzip(blob, cap)
    return blob  # gzip or plain XML: the parser sniffs gzip and caps its output itself


def _bunzip(blob: bytes, cap: int) -> bytes:
    d = bz2.BZ2Decompressor()
    try:
        out = d.decompress(blob, cap + 1)
    except (OSError, ValueError, EOFError) as exc:
        raise Unreadable(f"bz2 data is corrupt ({exc})") from None
    if len(out) > cap:
        raise Unreadable(f"decompressed size exceeds the {cap}-byte limit")
    if not d.eof:
        raise Unreadable("bz2 data is truncated")
    return out
