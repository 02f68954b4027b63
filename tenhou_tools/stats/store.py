"""A SQLite file that keeps ``stats`` counters, so new logs are added without re-reading old ones.

Tables (``SCHEMA_VERSION`` 2; a file of version 1, which kept no per-game rows, is refused with
a message to build a new one: dan and rate at each game cannot be recovered without the logs):

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
- ``player_games(game, name, players, type_code, lobby, day, rank, dan, rate, final_points,
  dan_pt, rate_change)``: one row per player per game (``games.GameEntry``): the history, the
  table kinds (dan points, stable dan) and the latest rank and rate are computed from these rows,
  filtered like the counters.

Opening a file checks that it is one of ours, of this version, with our tables and columns and
no triggers; before anything is written to it, also that SQLite finds it sound (``quick_check``)
and that every row holds what this version writes. A file that fails is refused (``StoreError``)
and left as it was; a report from the file alone (``create=False``) never writes to it.

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
from datetime import UTC, date, datetime
from pathlib import Path

from ..errors import TenhouToolsError
from .counters import COUNTERS_VERSION, INT_FIELDS, PlayerCounters, PlayerKey
from .games import GameEntry, entry_dan_pt
from .records import GameFilter, StatsRecord

__all__ = ["APPLICATION", "SCHEMA_VERSION", "AddResult", "StatsStore", "StoreError"]

APPLICATION = "tenhou-tools stats"
SCHEMA_VERSION = 2
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
CREATE TABLE IF NOT EXISTS player_games (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    players INTEGER NOT NULL,
    type_code INTEGER NOT NULL,
    lobby INTEGER NOT NULL,
    day TEXT NOT NULL,
    rank INTEGER NOT NULL,
    dan INTEGER,
    rate REAL,
    final_points INTEGER NOT NULL,
    dan_pt INTEGER,
    rate_change REAL
);
CREATE INDEX IF NOT EXISTS player_games_name ON player_games (name, players);
"""


_DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file can raise (Python decodes SQLite's messages, which may quote the
file's bytes, as UTF-8)."""


class StoreError(TenhouToolsError):
    """The database cannot be used (not ours, another counters version, locked, unreadable)."""


@dataclass(frozen=True, slots=True)
class AddResult:
    added: int
    """Games counted for the first time."""
    known: int
    """Games already in the database (not counted again)."""


class StatsStore:
    """An open stats database. ``create=False`` refuses a file that does not exist yet, and never
    writes (a report from the database alone).

    A file that is not a SQLite database, is another program's database, was written by another
    version, has lost or changed a table, has triggers, or (before anything is written to it)
    fails SQLite's ``quick_check`` or holds values this version cannot read is refused with a
    ``StoreError`` and left exactly as it was."""

    def __init__(self, path: str | Path, *, create: bool = True):
        self.path = Path(path)
        self._name = repr(str(self.path))
        if not create and not self.path.exists():
            raise StoreError(f"no such database: {self._name}")
        if self.path.is_dir():
            raise StoreError(f"{self._name} is a folder, not a database file")
        try:
            self.conn = sqlite3.connect(self.path, timeout=TIMEOUT, isolation_level=None)
        except _DB_ERRORS as exc:
            raise StoreError(f"cannot open {self._name}: {_one_line(exc)}") from None
        self.conn.text_factory = _lenient_text  # damaged text is refused by the checks, not a crash
        try:
            self._prepare(create)
            if not create:
                self.conn.execute("PRAGMA query_only = ON")
        except _DB_ERRORS as exc:
            self.conn.close()
            raise StoreError(f"cannot read {self._name}: {_one_line(exc)}") from None
        except BaseException:
            self.conn.close()
            raise

    # -- opening

    def _prepare(self, create: bool) -> None:
        try:
            objects = self.conn.execute("SELECT type, name FROM sqlite_master").fetchall()
        except _DB_ERRORS as exc:
            raise StoreError(f"{self._name} is not a readable SQLite database ({_one_line(exc)})") from None
        tables = {name for kind, name in objects if kind == "table" and not str(name).startswith("sqlite_")}
        if not objects:
            if not create:
                raise StoreError(f"{self._name} is empty: not a tenhou-tools stats database")
            self._create()
            return
        if "meta" not in tables:
            held = sorted(tables) or sorted(f"{kind} {name}" for kind, name in objects)
            raise StoreError(f"{self._name} is not a tenhou-tools stats database "
                             f"(it has the {'tables' if tables else 'objects'} {_shown(held)})")
        try:
            meta = dict(self.conn.execute("SELECT key, value FROM meta"))
        except (*_DB_ERRORS, ValueError, TypeError):
            raise StoreError(f"{self._name} is not a tenhou-tools stats database "
                             "(its meta table is not ours)") from None
        if meta.get("application") != APPLICATION:
            raise StoreError(f"{self._name} is not a tenhou-tools stats database")
        if meta.get("schema") != str(SCHEMA_VERSION) or meta.get("counters_version") != str(COUNTERS_VERSION):
            raise StoreError(
                f"{self._name} was written by another version of tenhou-tools stats "
                f"(schema {_shown(meta.get('schema'))}, counters {_shown(meta.get('counters_version'))}; "
                f"this one reads {SCHEMA_VERSION}, {COUNTERS_VERSION}): build a new database from the logs"
                + (" (version 2 keeps each player's games, for dan points, stable dan and history)"
                   if meta.get("schema") == "1" else ""))
        for table, columns in _COLUMNS.items():
            found = tuple(row[1] for row in self.conn.execute(f"PRAGMA table_info({table})"))
            if found != columns:
                what = "is missing" if not found else f"has the columns {_shown(list(found))}"
                raise StoreError(f"{self._name} is damaged: table {table} {what}, expected "
                                 f"{_shown(list(columns))}")
        if any(kind == "trigger" for kind, _ in objects):
            raise StoreError(f"{self._name} has triggers, which tenhou-tools does not make: "
                             "not written to")
        if create:
            self._check_contents()

    def _create(self) -> None:
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
        except _DB_ERRORS as exc:
            self._rollback()
            raise StoreError(f"cannot create the stats database {self._name}: {_one_line(exc)}") from None

    def _check_contents(self) -> None:
        """Before anything is written: the file is sound (SQLite's ``quick_check``) and every row
        holds what this version wrote (types, dates, counters JSON with known names and
        integers), so that a run never adds to a damaged file, nor fails after adding."""
        try:
            problems = [row[0] for row in self.conn.execute("PRAGMA quick_check(1)")]
        except _DB_ERRORS as exc:
            raise StoreError(f"{self._name} is damaged ({_one_line(exc)}): not written to") from None
        if problems != ["ok"]:
            raise StoreError(f"{self._name} is damaged (SQLite: {_one_line(problems[0])}): not written to")
        for what, sql, args in _CONTENT_CHECKS:
            try:
                bad = self.conn.execute(sql, args).fetchone()
            except _DB_ERRORS as exc:
                bad = (_one_line(exc),)
            if bad is not None:
                raise StoreError(f"{self._name} is damaged: {what} ({_shown(bad[0])}): not written to")

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
        except _DB_ERRORS as exc:
            raise StoreError(f"cannot read {self._name}: {_one_line(exc)}") from None

    def add(self, records: Iterable[StatsRecord]) -> AddResult:
        """Count the readable records whose game is not in the database yet: one transaction."""
        added = known = 0
        now = datetime.now(UTC).isoformat(timespec="seconds")
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
                self.conn.executemany(
                    "INSERT INTO player_games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r.key, name, players, e.type_code, e.lobby, day, e.rank, e.dan, e.rate,
                      e.final_points, e.dan_pt, e.rate_change) for (name, players), e in r.entries])
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
                    try:
                        games += old[0]
                        counters = PlayerCounters.from_dict(_counters_json(old[1])) + counters
                    except (ValueError, TypeError, AttributeError) as exc:
                        raise StoreError(f"{self._name} holds counters this version cannot read "
                                         f"({_one_line(exc)}): nothing added") from None
                self.conn.execute("INSERT OR REPLACE INTO counters VALUES (?, ?, ?, ?, ?, ?, ?)",
                                  (*row, games, json.dumps(counters.to_dict(), separators=(",", ":"))))
            self.conn.execute("COMMIT")
        except _DB_ERRORS as exc:
            self._rollback()
            raise StoreError(f"cannot write to {self._name}: {_one_line(exc)}") from None
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
                _check_row("", 4, type_code, lobby)
                if games.matches(type_code, lobby, _day(day)):
                    total += n
        except _DB_ERRORS as exc:
            raise StoreError(f"cannot read {self._name}: {_one_line(exc)}") from None
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{self._name} holds games this version cannot read: {_one_line(exc)}") from None
        return total

    def names(self) -> list[str]:
        """Every player name in the database (for ``--player`` matching and suggestions)."""
        try:
            return [name for (name,) in self.conn.execute("SELECT DISTINCT name FROM counters")
                    if isinstance(name, str)]
        except _DB_ERRORS as exc:
            raise StoreError(f"cannot read {self._name}: {_one_line(exc)}") from None

    def totals(self, games: GameFilter | None = None,
               names: Iterable[str] | None = None) -> dict[PlayerKey, PlayerCounters]:
        """Each player's counters summed over the games ``games`` selects (only ``names`` if given)."""
        games = games or GameFilter()
        out: dict[PlayerKey, PlayerCounters] = {}
        for name, players, counters in self._rows(games, names):
            key = (name, players)
            out[key] = out[key] + counters if key in out else counters
        return out

    def entries(self, games: GameFilter | None = None,
                names: Iterable[str] | None = None) -> dict[PlayerKey, list[GameEntry]]:
        """Each player's games (``GameEntry``) that ``games`` selects (only ``names`` if given)."""
        games = games or GameFilter()
        where, args = _where(games, names)
        sql = ("SELECT game, name, players, type_code, lobby, day, rank, dan, rate, final_points, dan_pt, "
               "rate_change FROM player_games")
        if where:
            sql += " WHERE " + " AND ".join(where)
        out: dict[PlayerKey, list[GameEntry]] = {}
        try:
            for game, name, players, type_code, lobby, day, rank, dan, rate, points, dan_pt, change \
                    in self.conn.execute(sql, args):
                _check_row(name, players, type_code, lobby)
                if not (isinstance(game, str) and type(rank) is int and 1 <= rank <= players
                        and type(points) is int and (dan is None or (type(dan) is int and 0 <= dan <= 20))
                        and (dan_pt is None or type(dan_pt) is int)
                        and all(v is None or (isinstance(v, (int, float)) and abs(v) < 1e12)
                                for v in (rate, change))):
                    raise TypeError(f"a game row of {_shown(name)} is not ours")
                if games.matches(type_code, lobby, _day(day)):
                    out.setdefault((name, players), []).append(GameEntry(
                        game, _day(day), type_code, lobby, rank, dan,
                        None if rate is None else float(rate), points,
                        entry_dan_pt(type_code, lobby, _day(day), dan, rank),  # today's tables
                        None if change is None else float(change)))
        except _DB_ERRORS as exc:
            raise StoreError(f"cannot read {self._name}: {_one_line(exc)}") from None
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{self._name} holds games this version cannot read: {_one_line(exc)}") from None
        return out

    def _rows(self, games: GameFilter, names: Iterable[str] | None) -> Iterator[tuple[str, int, PlayerCounters]]:
        where, args = _where(games, names)
        sql = "SELECT name, players, type_code, lobby, day, data FROM counters"
        if where:
            sql += " WHERE " + " AND ".join(where)
        try:
            for name, players, type_code, lobby, day, data in self.conn.execute(sql, args):
                _check_row(name, players, type_code, lobby)
                if games.matches(type_code, lobby, _day(day)):
                    yield name, players, PlayerCounters.from_dict(_counters_json(data))
        except _DB_ERRORS as exc:
            raise StoreError(f"cannot read {self._name}: {_one_line(exc)}") from None
        except (ValueError, TypeError, AttributeError) as exc:
            raise StoreError(f"{self._name} holds counters this version cannot read: {_one_line(exc)}") from None


def _where(games: GameFilter, names: Iterable[str] | None) -> tuple[list[str], list[object]]:
    """The SQL conditions (and their arguments) for ``names`` and the date bounds of ``games``."""
    where: list[str] = []
    args: list[object] = []
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
    return where, args


def _day(text: str) -> date | None:
    return date.fromisoformat(text) if text else None


_MAX_COUNT = 2**62


def _check_row(name: object, players: object, type_code: object, lobby: object) -> None:
    """``TypeError`` unless a row's key columns hold what this version writes."""
    if not (isinstance(name, str) and players in (3, 4) and type(type_code) is int and type(lobby) is int):
        raise TypeError(f"a row keyed {_shown((name, players, type_code, lobby))} is not ours")


def _counters_json(data: object) -> dict:
    """The counters JSON of a row: an object of integers (and the yaku), else ``ValueError``."""
    raw = json.loads(data)  # type: ignore[arg-type]
    if not isinstance(raw, dict) or not all(
            k == "yaku" or (type(v) is int and -_MAX_COUNT < v < _MAX_COUNT) for k, v in raw.items()):
        raise ValueError("counters that are not whole numbers")
    return raw


def _lenient_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _one_line(value: object) -> str:
    if isinstance(value, UnicodeDecodeError) and isinstance(value.object, bytes):
        value = value.object.decode("utf-8", "replace")  # SQLite's message, quoting the file's bytes
    return " ".join(str(value).split())


def _shown(value: object) -> str:
    """A value from the file, for a message: one line, at most 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


_COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "games": ("key", "log_id", "source", "players", "type_code", "lobby", "day", "added"),
    "counters": ("name", "players", "type_code", "lobby", "day", "games", "data"),
    "player_games": ("game", "name", "players", "type_code", "lobby", "day", "rank", "dan", "rate",
                     "final_points", "dan_pt", "rate_change"),
}
"""The columns of each table, in order (``add`` writes rows by position)."""

_DAY_OK = "(typeof(day) = 'text' AND (day = '' OR date(day) IS day))"
_INT = "typeof({}) = 'integer'"
_CONTENT_CHECKS: tuple[tuple[str, str, tuple], ...] = (
    ("a game row that is not ours",
     f"SELECT key FROM games WHERE NOT (typeof(key) = 'text' AND players IN (3, 4) AND "
     f"{_INT.format('type_code')} AND {_INT.format('lobby')} AND {_DAY_OK}) LIMIT 1", ()),
    ("a counters row that is not ours",
     f"SELECT name FROM counters WHERE NOT (typeof(name) = 'text' AND players IN (3, 4) AND "
     f"{_INT.format('type_code')} AND {_INT.format('lobby')} AND {_INT.format('games')} AND {_DAY_OK} "
     "AND typeof(data) = 'text' AND json_valid(data) AND json_type(data) = 'object') LIMIT 1", ()),
    ("counters this version cannot read",
     "SELECT c.name FROM counters AS c, json_each(c.data) AS j WHERE CASE WHEN j.key = 'yaku' "
     "THEN j.type NOT IN ('object', 'null') ELSE j.type != 'integer' OR j.key NOT IN "
     "(SELECT value FROM json_each(?)) END LIMIT 1", (json.dumps(INT_FIELDS),)),
    ("a player's game row that is not ours",
     f"SELECT name FROM player_games WHERE NOT (typeof(game) = 'text' AND typeof(name) = 'text' AND "
     f"players IN (3, 4) AND {_INT.format('type_code')} AND {_INT.format('lobby')} AND {_DAY_OK} AND "
     f"{_INT.format('rank')} AND rank BETWEEN 1 AND players AND {_INT.format('final_points')} AND "
     "(dan IS NULL OR (typeof(dan) = 'integer' AND dan BETWEEN 0 AND 20)) AND "
     "typeof(dan_pt) IN ('integer', 'null') AND "
     "(rate IS NULL OR (typeof(rate) IN ('real', 'integer') AND abs(rate) < 1e12)) AND "
     "(rate_change IS NULL OR (typeof(rate_change) IN ('real', 'integer') AND abs(rate_change) < 1e12))) "
     "LIMIT 1", ()),
    ("yaku counts this version cannot read",
     "SELECT c.name FROM counters AS c, json_each(c.data, '$.yaku') AS y "
     "WHERE json_type(c.data, '$.yaku') = 'object' AND (y.type != 'integer' OR y.key = '' "
     "OR y.key GLOB '*[^0-9]*') LIMIT 1", ()),
)
"""(what is wrong, a query giving a row that has it) for ``_check_contents``."""
