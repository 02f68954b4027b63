"""A SQLite file that keeps ``stats`` counters, so new logs are added without re-reading old ones.

Tables (``SCHEMA_VERSION`` 1):

- ``meta(key, value)``: ``application`` = ``tenhou-tools stats``, ``schema`` and
  ``counters_version`` (``counters.COUNTERS_VERSION``). A file written by another version of the
  counters is refused (``StoreError``): its rows would silently lack the newer counters.
- ``games(key, log_id, source, players, type_code, lobby, day, added)``: one row per game
  counted, keyed by its log id (or ``sha256:<hex>`` of the XML for a log without id). A game
  whose key is present is never counted again.
- ``counters(name, players, type_code, lobby, day, games, data)``: the sum of the
  ``PlayerCounters`` of one player over the games of one table kind (``GO type``, lobby number)
  on one day (``''`` when the game has no dated id), ``data`` being ``PlayerCounters.to_dict()``
  as JSON. Because counters add up, a report is the sum of the rows its filters select
  (``--player``, ``--lobby``, ``--since``/``--until``), and adding a game is adding to a few rows.

``add(records)`` is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``): the games and their
counters go in together or not at all, so the file is consistent whenever it is read, also after
Ctrl-C or a crash in the middle of a run. Only the process that writes holds the lock, for the
length of one batch; readers (``totals``) see the state of the last commit.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path

from ..errors import TenhouToolsError
from .counters import COUNTERS_VERSION, PlayerCounters, PlayerKey
from .records import GameFilter, StatsRecord

__all__ = ["APPLICATION", "SCHEMA_VERSION", "AddResult", "StatsStore", "StoreError"]

APPLICATION = "tenhou-tools stats"
SCHEMA_VERSION = 1
TIMEOUT = 30.0
"""Seconds to wait for another process's write transaction."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    log_id TEXT,
    source TEXT NOT NULL,
    players INTEGER NOT NULL,
    type_code INTEGER NOT NULL,
    lobby INTEGER NOT NULL,
    day TEXT NOT NULL,
    added TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (
    name TEXT NOT NULL,
    players INTEGER NOT NULL,
    type_code INTEGER NOT NULL,
    lobby INTEGER NOT NULL,
    day TEXT NOT NULL,
    games INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (name, players, type_code, lobby, day)
) WITHOUT ROWID;
"""


class StoreError(TenhouToolsError):
    """The database cannot be used (not ours, another counters version, locked, unreadable)."""


@dataclass(frozen=True, slots=True)
class AddResult:
    added: int
    """Games counted for the first time."""
    known: int
    """Games already in the database (not counted again)."""


class StatsStore:
    """An open stats database. ``create=False`` refuses a file that does not exist yet."""

    def __init__(self, path: str | Path, *, create: bool = True):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise StoreError(f"no such database: {str(self.path)!r}")
        if self.path.is_dir():
            raise StoreError(f"{str(self.path)!r} is a folder, not a database file")
        try:
            self.conn = sqlite3.connect(self.path, timeout=TIMEOUT, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {str(self.path)!r}: {exc}") from None
        try:
            self._prepare(create)
        except BaseException:
            self.conn.close()
            raise

    # -- opening

    def _prepare(self, create: bool) -> None:
        try:
            tables = {row[0] for row in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{str(self.path)!r} is not a SQLite database ({exc})") from None
        if "meta" in tables:
            meta = dict(self.conn.execute("SELECT key, value FROM meta"))
            if meta.get("application") != APPLICATION:
                raise StoreError(f"{str(self.path)!r} is not a tenhou-tools stats database")
            if meta.get("schema") != str(SCHEMA_VERSION) or meta.get("counters_version") != str(COUNTERS_VERSION):
                raise StoreError(
                    f"{str(self.path)!r} was written by another version of tenhou-tools stats "
                    f"(schema {meta.get('schema')}, counters {meta.get('counters_version')}; this one "
                    f"reads {SCHEMA_VERSION}, {COUNTERS_VERSION}): build a new database from the logs")
            return
        if tables:
            raise StoreError(f"{str(self.path)!r} is not a tenhou-tools stats database "
                             f"(it has the tables {', '.join(sorted(tables))})")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                ("application", APPLICATION), ("schema", str(SCHEMA_VERSION)),
                ("counters_version", str(COUNTERS_VERSION)),
            ])
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise StoreError(f"cannot create the stats database {str(self.path)!r}: {exc}") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> StatsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:  # pragma: no cover - the connection is gone
                pass

    # -- writing

    def has_game(self, key: str) -> bool:
        try:
            return self.conn.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone() is not None
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {str(self.path)!r}: {exc}") from None

    def add(self, records: Iterable[StatsRecord]) -> AddResult:
        """Count the readable records whose game is not in the database yet: one transaction."""
        added = known = 0
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        sums: dict[tuple[str, int, int, int, str], tuple[int, PlayerCounters]] = {}
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            for r in records:
                if r.key is None:
                    continue
                day = r.day.isoformat() if r.day else ""
                cur = self.conn.execute(
                    "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (r.key, r.log_id, r.source, r.players, r.type_code, r.lobby, day, now))
                if cur.rowcount == 0:
                    known += 1
                    continue
                added += 1
                for (name, players), counters in r.counters:
                    row = (name, players, r.type_code, r.lobby, day)
                    if row in sums:
                        games, total = sums[row]
                        sums[row] = (games + counters.games, total + counters)
                    else:
                        sums[row] = (counters.games, counters)
            for row, (games, counters) in sums.items():
                old = self.conn.execute(
                    "SELECT games, data FROM counters WHERE name = ? AND players = ? AND type_code = ? "
                    "AND lobby = ? AND day = ?", row).fetchone()
                if old is not None:
                    games += old[0]
                    counters = PlayerCounters.from_dict(json.loads(old[1])) + counters
                self.conn.execute("INSERT OR REPLACE INTO counters VALUES (?, ?, ?, ?, ?, ?, ?)",
                                  (*row, games, json.dumps(counters.to_dict(), separators=(",", ":"))))
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise StoreError(f"cannot write to {str(self.path)!r}: {exc}") from None
        except BaseException:
            self._rollback()
            raise
        return AddResult(added, known)

    # -- reading

    def game_count(self, games: GameFilter | None = None) -> int:
        """Games in the database that ``games`` selects."""
        games = games or GameFilter()
        total = 0
        try:
            rows = self.conn.execute(
                "SELECT type_code, lobby, day, COUNT(*) FROM games GROUP BY type_code, lobby, day")
            for type_code, lobby, day, n in rows:
                if games.matches(type_code, lobby, _day(day)):
                    total += n
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {str(self.path)!r}: {exc}") from None
        return total

    def totals(self, games: GameFilter | None = None,
               names: Iterable[str] | None = None) -> dict[PlayerKey, PlayerCounters]:
        """Each player's counters summed over the games ``games`` selects (only ``names`` if given)."""
        games = games or GameFilter()
        out: dict[PlayerKey, PlayerCounters] = {}
        for name, players, counters in self._rows(games, names):
            key = (name, players)
            out[key] = out[key] + counters if key in out else counters
        return out

    def _rows(self, games: GameFilter, names: Iterable[str] | None) -> Iterator[tuple[str, int, PlayerCounters]]:
        where, args = [], []
        if names is not None:
            names = list(names)
            where.append(f"name IN ({', '.join('?' * len(names))})")
            args += names
        if games.since is not None or games.until is not None:
            where.append("day != ''")
        if games.since is not None:
            where.append("day >= ?")
            args.append(games.since.isoformat())
        if games.until is not None:
            where.append("day <= ?")
            args.append(games.until.isoformat())
        sql = "SELECT name, players, type_code, lobby, day, data FROM counters"
        if where:
            sql += " WHERE " + " AND ".join(where)
        try:
            for name, players, type_code, lobby, day, data in self.conn.execute(sql, args):
                if games.matches(type_code, lobby, _day(day)):
                    yield name, players, PlayerCounters.from_dict(json.loads(data))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {str(self.path)!r}: {exc}") from None
        except ValueError as exc:
            raise StoreError(f"{str(self.path)!r} holds counters this version cannot read: {exc}") from None


def _day(text: str) -> date | None:
    return date.fromisoformat(text) if text else None
