"""Fuzzing of the ``stats --db`` store: ``stats --db FILE`` on a damaged database (truncated, bytes
flipped or overwritten, another SQLite schema, missing or altered tables, bad counters, not SQLite
at all): a one-line error and exit 2, or a report (exit 0/1); the file is changed only by a run
that succeeded, and never when the command fails (``fuzz_store``; ``scripts/fuzz.py`` path
``store``)."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from .common import Failure, attempt
from .containers import Case, flip, is_wal, sqlite_case
from .logs import FuzzReport, spent
from .zipwriter import ZipEntry, build_zip


def stats_database(seeds: Sequence[bytes], path: Path) -> int:
    """A good ``stats --db`` file at ``path``, of the seed logs that count (each under a few game
    ids, on a few days). Returns the number of games in it."""
    from tenhou_tools.sources.local import LogItem
    from tenhou_tools.stats.records import stats_item
    from tenhou_tools.stats.store import StatsStore

    records = []
    for i, data in enumerate(seeds):
        for day in (1, 2, 3):
            three = b'type="185"' in data
            log_id = f"201401{day:02d}{i % 24:02d}gm-{'00b9' if three else '00a9'}-0000-{i * 7 + day:08x}"
            record = stats_item(LogItem(f"seed{i}", log_id, data))
            if record.key is not None:
                records.append(record)
    with StatsStore(path) as store:
        store.add(records)
    return len(records)


def _sql_edit(path: Path, rng: random.Random) -> str:
    """Change a good stats database in one of the ways a user, another program or a bad disk
    might; returns what was done."""
    edits = [
        ("drop_games", "DROP TABLE games"),
        ("drop_counters", "DROP TABLE counters"),
        ("drop_meta", "DROP TABLE meta"),
        ("meta_other_columns",
         "DROP TABLE meta; CREATE TABLE meta(k, v); INSERT INTO meta VALUES ('application', 'tenhou-tools stats')"),
        ("meta_no_rows", "DELETE FROM meta"),
        ("meta_other_app", "UPDATE meta SET value = 'something else' WHERE key = 'application'"),
        ("meta_other_schema", "UPDATE meta SET value = '2' WHERE key = 'schema'"),
        ("meta_empty", "UPDATE meta SET value = '' WHERE key = 'schema'"),
        ("meta_blob", "UPDATE meta SET value = x'ff00' WHERE key = 'application'"),
        ("counters_bad_json",
         "UPDATE counters SET data = '{\"games\": 1,' WHERE name IN (SELECT name FROM counters LIMIT 1)"),
        ("counters_not_object", "UPDATE counters SET data = '[1, 2, 3]'"),
        ("counters_unknown_key", "UPDATE counters SET data = json_set(data, '$.bogus', 1)"),
        ("counters_string_value", "UPDATE counters SET data = json_set(data, '$.games', 'x')"),
        ("counters_huge_value", "UPDATE counters SET data = json_set(data, '$.games', 1e300)"),
        ("counters_do_not_add_up",
         "UPDATE counters SET data = json_set(data, '$.wins', json_extract(data, '$.hands') + 5)"),
        ("counters_negative", "UPDATE counters SET data = json_set(data, '$.hands', -3)"),
        ("counters_negative_wins", "UPDATE counters SET data = json_set(data, '$.wins', -2)"),
        ("counters_bad_yaku", "UPDATE counters SET data = json_set(data, '$.yaku', json('{\"x\": \"y\"}'))"),
        ("counters_empty_data", "UPDATE counters SET data = ''"),
        ("counters_blob_data", "UPDATE counters SET data = x'ff7b7d'"),
        ("counters_text_numbers", "UPDATE counters SET players = players || 'p', games = 'many'"),
        ("games_bad_day", "UPDATE games SET day = 'yesterday'"),
        ("games_blob_day", "UPDATE games SET day = x'ff'"),
        ("games_text_type", "UPDATE games SET type_code = 'houou', lobby = x'00'"),
        ("counters_bad_day", "UPDATE counters SET day = day || '-13-45'"),
        ("extra_column", "ALTER TABLE games ADD COLUMN extra TEXT"),
        ("renamed_column", "ALTER TABLE counters RENAME COLUMN data TO payload"),
        ("extra_table", "CREATE TABLE mine(x); INSERT INTO mine VALUES (1)"),
        ("trigger", "CREATE TRIGGER t BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no'); END"),
        ("trigger_delete", "CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM counters; END"),
        ("view", "CREATE VIEW v AS SELECT * FROM games"),
        ("index", "CREATE INDEX i ON games(day)"),
        ("wal", "PRAGMA journal_mode = WAL"),
        ("empty_tables", "DELETE FROM games; DELETE FROM counters"),
    ]
    name, sql = rng.choice(edits)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.executescript(sql)
    finally:
        conn.close()
    return name


def store_case(good: bytes, seeds: Sequence[bytes], rng: random.Random, tmp: Path) -> Case:
    """A damaged stats database: its bytes changed, its tables changed, or not one at all."""
    kind = rng.choice(["flip_bytes", "flip_bytes", "truncate", "zero_page", "header_field",
                       "random_after_magic", "sql_edit", "sql_edit", "sql_edit", "other_sqlite",
                       "not_sqlite", "clean"])
    data = good
    page = int.from_bytes(good[16:18], "big") or 65536
    if kind == "flip_bytes":
        data = flip(good, rng, lo=rng.choice([0, 100, page]))
    elif kind == "truncate":
        data = good[: rng.choice([rng.randrange(len(good)), page * rng.randrange(max(len(good) // page, 1)), 100])]
    elif kind == "zero_page":
        p = rng.randrange(max(len(good) // page, 1))
        data = good[: p * page] + bytes(page) + good[(p + 1) * page:]
    elif kind == "header_field":
        off, size = rng.choice([(16, 2), (18, 1), (19, 1), (20, 1), (28, 4), (32, 4), (36, 4),
                                (40, 4), (44, 4), (52, 4), (56, 4), (64, 4), (96, 4)])
        value = rng.choice([0, 1, 2, 3, 255, 65535, 2**31, 2**32 - 1, rng.randrange(2**32)])
        data = good[:off] + (value & ((1 << 8 * size) - 1)).to_bytes(size, "big") + good[off + size:]
    elif kind == "random_after_magic":
        data = good[:rng.choice([16, 100])] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))
    elif kind == "sql_edit":
        path = tmp / "edit.sqlite"
        path.write_bytes(good)
        kind = f"sql_edit:{_sql_edit(path, rng)}"
        data = path.read_bytes()
        path.unlink()
    elif kind == "other_sqlite":
        other = sqlite_case(seeds, rng)  # a log database, or another layout
        data = other.data
    elif kind == "not_sqlite":
        data = rng.choice([b"", b"hello\n", gzip.compress(good[:1000]), build_zip([ZipEntry(b"a.xml", good[:100])]),
                           bytes(rng.randrange(256) for _ in range(rng.randint(1, 5000))),
                           b"SQLite format 3", b"SQLite format 3\x00"])
        kind = f"not_sqlite:{min(len(data), 100)}"
    return Case(f"store:{kind}", data, ".sqlite")


def check_store_run(path: Path, logs_dir: Path | None, extra: Sequence[str] = ()) -> str:
    """``stats [LOGS] --db FILE`` on a (damaged) database: exit 0/1 with a report, or exit 2 with
    one line; the file is unchanged unless the run succeeded in adding logs, and then it is a
    consistent stats database. Returns how it ended."""
    from click.testing import CliRunner

    from tenhou_tools.cli import cli
    from tenhou_tools.stats.store import StatsStore, StoreError

    folder = path.parent
    before = path.read_bytes()
    output = folder.parent / f"{folder.name}-report.json"  # (beside the folder, which is checked)
    others = sorted(set(os.listdir(folder)) - {path.name})
    args = ["stats", *([str(logs_dir)] if logs_dir else []), "--db", str(path), "--jobs", "1",
            "--no-progress", "--format", "json", "-o", str(output), *extra]
    # (the report goes to a file: click's test runner keeps every run's output alive)
    result = CliRunner().invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise Failure(f"stats raised {type(result.exception).__name__}: {result.exception}")
    if "Traceback" in result.output or "Internal error" in result.output:
        raise Failure(f"stats printed an internal error: {result.stderr[-400:]}")
    after = path.read_bytes() if path.exists() else None
    if after is None:
        raise Failure("the database file is gone")
    left = sorted(set(os.listdir(folder)) - {path.name} - set(others))
    if left and not (left == [f"{path.name}-shm", f"{path.name}-wal"] and is_wal(path)):
        raise Failure(f"stats left files beside the database: {left}")
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("Error: "):
            raise Failure(f"exit 2 without one error line: {result.stderr[-400:]!r}")
        if after != before:
            raise Failure(f"a failed run changed the database ({lines[0]})")
        if output.exists():
            raise Failure("a failed run wrote a report")
        return "refused"
    if result.exit_code not in (0, 1):
        raise Failure(f"stats exited {result.exit_code}: {result.stderr[-400:]}")
    try:
        json.loads(output.read_text(encoding="utf-8"))
        output.unlink()
    except (OSError, ValueError):
        raise Failure("stats exited 0/1 without a JSON report") from None
    if logs_dir is None and after != before:
        raise Failure("a report from the database alone changed it")
    if after != before:  # logs were added: it must still be a store
        try:
            with StatsStore(path, create=False) as store:
                store.totals()
                store.game_count()
        except StoreError as exc:
            raise Failure(f"a run that succeeded left a database that does not open: {exc}") from None
        return "added"
    return "reported"


def fuzz_store(seeds: Sequence[bytes], *, iterations: int | None = None, seconds: float | None = None,
               rng: random.Random | None = None, per_input_limit_s: float = 10.0,
               report: FuzzReport | None = None) -> FuzzReport:
    """``stats --db FILE`` on damaged databases (``store_case``), alone or adding seed logs."""
    rng = rng or random.Random(0)
    report = report or FuzzReport()
    start = time.monotonic()
    n = 0
    with tempfile.TemporaryDirectory(prefix="tenhou-fuzz-store-") as tmp:
        root = Path(tmp)
        stats_database(seeds, root / "good.sqlite")
        good = (root / "good.sqlite").read_bytes()
        logs_dir = root / "logs"
        logs_dir.mkdir()
        for i, data in enumerate(seeds):  # some games already in the database, some new
            (logs_dir / f"2014010{1 + i % 3}{i % 24:02d}gm-00a9-0000-{i * 7 + 1:08x}.xml").write_bytes(data)
            (logs_dir / f"new{i}.xml").write_bytes(data)
        while not spent(n, iterations, start, seconds):
            n += 1
            case = store_case(good, seeds, rng, root)
            folder = root / f"s{n}"
            folder.mkdir()
            path = folder / "stats.sqlite"
            path.write_bytes(case.data)
            with_logs = rng.random() < 0.6
            extra = rng.choice([(), (), ("--player", "Alice"), ("--lobby", "houou"),
                                ("--since", "2014-01-02"), ("--min-games", "2")])
            report.tried += 1
            report.by_path["store"] = report.by_path.get("store", 0) + 1
            report.by_mutation[case.mutation] = report.by_mutation.get(case.mutation, 0) + 1
            where = f" (with logs: {with_logs}, {' '.join(extra)})"
            with attempt(report, "store", case.mutation, case.data, per_input_limit_s,
                         where=lambda where=where: where):
                outcome = check_store_run(path, logs_dir if with_logs else None, extra)
                report.outcomes[f"store:{outcome}"] = report.outcomes.get(f"store:{outcome}", 0) + 1
            shutil.rmtree(folder, ignore_errors=True)
    return report
