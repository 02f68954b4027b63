"""Bounded fuzz runs over the I/O edges (``tests/fuzzing/``): containers built in the
test from the repository's fixture logs, then damaged. Every input must end in records and
one-line errors, never an exception, a hang or a file written beside the input.

Longer runs: ``python scripts/fuzz.py --minutes N`` (all paths) or ``--paths zip,sqlite``.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import sqlite3
import struct
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

import pytest

from tenhou_tools.errors import DownloadError
from tenhou_tools.sources import database
from tenhou_tools.sources.http import LogFetcher
from tenhou_tools.sources.local import ReadLimits, count_inputs, iter_logs

from .conftest import FIXTURES, stats_summary
from .fuzzing import common, containers
from .fuzzing.containers import EVIL_NAMES, check_container, fuzz_containers, sqlite_case, zip_case
from .fuzzing.downloads import check_cache, fuzz_downloads
from .fuzzing.logs import tenhou6_seeds
from .fuzzing.server import FuzzServer, Plan, fuzz_game_id
from .fuzzing.store import fuzz_store, stats_database
from .fuzzing.zipwriter import ZipEntry, build_zip

FIXTURE_NAMES = ("one_hand.xml", "sanma_kita.xml", "one_hand.mjlog", "truncated.mjlog",
                 "not_mjlog.xml", "empty.mjlog")
ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()
SANMA = (FIXTURES / "sanma_kita.xml").read_bytes()


def fixture_seeds() -> list[bytes]:
    """The fixtures (good and broken logs) and the two games as tenhou.net/6 JSON."""
    seeds = [(FIXTURES / name).read_bytes() for name in FIXTURE_NAMES]
    return seeds + tenhou6_seeds(seeds[:2])


# --- containers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["zip", "sqlite"])
def test_damaged_containers_end_in_records_and_one_line_errors(kind):
    report = fuzz_containers(fixture_seeds(), iterations=400, rng=random.Random(2030), kinds=(kind,),
                             cli_every=40)
    assert report.tried == 400 and report.by_path == {kind: 400}
    assert report.failures == []
    # both ends were reached: games that were read and replayed, and entries refused with a reason
    assert report.outcomes[f"{kind}:records_with_hands"] > 0
    assert report.outcomes[f"{kind}:error_items"] > 0
    assert len(report.by_mutation) >= 12


def test_the_generators_make_what_they_say():
    rng = random.Random(3)
    seeds = fixture_seeds()
    zips = [zip_case(seeds, rng) for _ in range(200)]
    dbs = [sqlite_case(seeds, rng) for _ in range(100)]
    assert sum(c.data.startswith(b"PK\x03\x04") for c in zips) > 150
    assert sum(c.data.startswith(b"SQLite format 3\x00") for c in dbs) > 80
    kinds = {c.mutation.split(":")[1].split("+")[0] for c in zips}
    assert {"bomb", "overlap", "zip64", "evil_names", "huge_sizes", "truncate"} <= kinds
    assert {c.mutation.split(":")[2] for c in dbs} >= {"flip_bytes", "corrupt_blob", "odd_values", "clean"}


def test_evil_member_names_are_only_shown(tmp_path, monkeypatch):
    """Zip slip: members named ../x, /abs/x, C:\\x and the like are read as logs under their
    (escaped) names, and nothing is written anywhere."""
    work = tmp_path / "deep" / "work"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    archive = work / "evil.zip"
    archive.write_bytes(build_zip([ZipEntry(name, ONE_HAND + b"\n" * i)  # not copies of one log
                                   for i, name in enumerate(EVIL_NAMES)]))
    before = sorted(p for p in tmp_path.rglob("*"))
    counts = check_container(archive, cli=True)
    assert sorted(p for p in tmp_path.rglob("*")) == before
    assert counts["records_with_hands"] >= 10
    sources = [item.source for item in iter_logs([archive], dedupe=False)]
    assert f"{archive}:../x.xml" in sources and f"{archive}:/abs/x.xml" in sources
    assert f"{archive}:x\\x00y.xml" in sources and f"{archive}:line\\x0abreak.xml" in sources
    assert all("\n" not in s and "\x1b" not in s for s in sources)


def test_zip64_offset_past_the_data_is_an_error_item(tmp_path):
    """Found by the fuzzer: a zip64 extra field whose local header offset is 2**63 or more was a
    ValueError from seek() (a traceback, exit 3); an offset past the data is now the member's
    error and the next member is still read."""
    for offset in (2**63, 2**64 - 1, 2**40, 10**6):
        archive = tmp_path / "z64.zip"
        archive.write_bytes(build_zip([
            ZipEntry(b"a.xml", ONE_HAND, zip64=True, zip64_values=(None, None, offset)),
            ZipEntry(b"b.xml", SANMA),
        ]))
        items = list(iter_logs([archive]))
        assert [(i.source.rsplit(":", 1)[1], i.ok) for i in items] == [("a.xml", False), ("b.xml", True)]
        assert items[0].error == "cannot read zip member: its local header lies outside the archive's data"
        assert count_inputs([archive]) == 2


def test_zip64_locator_pointing_anywhere_is_a_clear_error(tmp_path):
    archive = tmp_path / "z64.zip"
    data = bytearray(build_zip([ZipEntry(b"a.xml", ONE_HAND)], zip64_end=True))
    locator = data.rindex(b"PK\x06\x07")
    for where in (2**63, 2**64 - 1, len(data) + 100, locator):
        struct.pack_into("<Q", data, locator + 8, where)
        archive.write_bytes(bytes(data))
        (item,) = iter_logs([archive])
        assert item.error == ("not a readable zip archive: corrupt zip64 end of central directory "
                              "locator")


def test_zip_bombs_and_overlapping_members_stay_small(tmp_path, monkeypatch):
    """64 MiB deflate and 16 MiB bz2 bombs, and up to 200 central entries naming one member: each
    member stops at the cap, so memory stays within a few caps."""
    limits = ReadLimits(log_bytes=100_000)
    rng = random.Random(1)
    cases = [c for c in (zip_case(fixture_seeds(), rng) for _ in range(300))
             if c.mutation in ("zip:bomb", "zip:overlap")]
    assert {c.mutation for c in cases} == {"zip:bomb", "zip:overlap"}
    refused = 0
    tracemalloc.start()
    try:
        for i, case in enumerate(cases):
            path = tmp_path / f"{i}.zip"
            path.write_bytes(case.data)
            check_container(path, limits=limits)
            if case.mutation == "zip:bomb":
                refused += any(not i.ok and "-byte limit" in i.error
                               for i in iter_logs([path], dedupe=False, limits=limits))
            path.unlink()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert refused == sum(c.mutation == "zip:bomb" for c in cases)
    assert peak < 10 * 100_000 + 4_000_000


def make_db(path, schema: str, rows=(), table="logs"):
    conn = sqlite3.connect(path)
    conn.executescript(schema)
    for row in rows:
        conn.execute(f"INSERT INTO {table} VALUES ({', '.join(row)})")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize(("schema", "what"), [
    ("CREATE VIEW logs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
     "SELECT x AS id, x'3c' AS log FROM c", "a view"),
    ("CREATE TABLE t(id TEXT PRIMARY KEY, log BLOB); CREATE VIEW logs AS SELECT id, log FROM t", "a view"),
    ("CREATE VIRTUAL TABLE logs USING fts5(id, log)", "a virtual table"),
])
def test_a_logs_view_or_virtual_table_is_refused(tmp_path, schema, what):
    """Found by the fuzzer: a view named ``logs`` over an endless recursive query was taken for a
    log table, and counting or paging it never ended (a hang). Only a stored table is read."""
    db = make_db(tmp_path / "v.sqlite", schema)
    assert count_inputs([db]) == 1
    (item,) = iter_logs([db])
    assert item.error == f"`logs` is {what}, not a table: not a houou-logs or phoenix-logs database"


def test_text_that_is_not_utf8_is_one_bad_row_not_the_end_of_the_database(tmp_path):
    """Found by the fuzzer: an id stored as text that is not UTF-8 stopped the whole database
    with a decoding error quoting the bytes (newlines too: a multi-line error). Ids are shown
    with replacement characters, keys still page in order, a bad log is that row's error."""
    gz = "x'" + gzip.compress(ONE_HAND, mtime=0).hex() + "'"
    db = make_db(tmp_path / "h.sqlite", "CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB) WITHOUT ROWID", [
        ("'a'", gz), ("CAST(x'62ff0a' AS TEXT)", gz), ("'c'", "CAST(x'ff3c' AS TEXT)"), ("'d'", gz),
    ])
    items = list(iter_logs([db]))
    assert [i.source for i in items] == [f"{db}#a", f"{db}#b\ufffd\\x0a", f"{db}#c", f"{db}#d"]
    assert [i.ok for i in items] == [True, True, True, True]
    assert items[2].data == b"\xff<"  # the parser says what is wrong with it
    # the schema itself damaged: an error item, not a UnicodeDecodeError
    broken = tmp_path / "broken.sqlite"
    data = bytearray(db.read_bytes())
    at = data.index(b"CREATE TABLE logs")
    data[at + 20] = 0xFF
    broken.write_bytes(bytes(data))
    assert count_inputs([broken]) == 1
    (item,) = iter_logs([broken])
    assert not item.ok and "\n" not in item.error


def test_a_query_that_runs_too_long_is_stopped(tmp_path, monkeypatch):
    db = tmp_path / "big.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE logs(id TEXT, log BLOB)")
    conn.executemany("INSERT INTO logs VALUES (?, x'3c')", ((str(i),) for i in range(30_000)))
    conn.commit()
    conn.close()
    monkeypatch.setattr(database, "DB_QUERY_SECONDS", 0.0)
    assert count_inputs([db]) == 1  # the estimate falls back to one item
    (item,) = iter_logs([db], limits=ReadLimits(db_page_rows=100_000))
    assert item.error == "cannot read SQLite database: a query ran for more than 0 s and was stopped"
    monkeypatch.undo()
    assert sum(1 for _ in iter_logs([db])) == 30_000


def test_a_value_over_the_length_limit_is_never_loaded(tmp_path, monkeypatch):
    """SQLite's per-value limit is lowered to ``ReadLimits.db_value_bytes`` (64 MiB, not
    SQLite's 1 GB): a stored id or key over it is a clear error, never a value held in memory."""
    assert ReadLimits().db_value_bytes < ReadLimits().log_bytes * 100
    limits = ReadLimits(db_value_bytes=100_000)
    gz = "x'" + gzip.compress(ONE_HAND, mtime=0).hex() + "'"
    db = make_db(tmp_path / "h.sqlite", "CREATE TABLE logs(id TEXT, log BLOB)", [
        ("'a'", gz), ("printf('%.*c', 200000, 'x')", gz)])
    items = list(iter_logs([db], limits=limits))
    assert [i.ok for i in items] == [False]
    assert items[0].error == "cannot read SQLite database: string or blob too big"


# --- the downloader ------------------------------------------------------------------------------


@pytest.fixture
def no_proxy(monkeypatch, tmp_path):
    """No proxy between us and 127.0.0.1, no user settings, no writes to the real cache."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
                 "TENHOU_TOOLS_BASE_URL", "TENHOU_TOOLS_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


def test_downloads_from_a_server_that_answers_at_random(no_proxy):
    """Any status, garbage and mutated bodies, wrong lengths and types, unknown encodings, bodies
    cut, trickled and stalled: each fetch is a complete cached log or a one-line error, and the
    cache never holds anything else (``downloads.check_cache`` after every session)."""
    report = fuzz_downloads([ONE_HAND, SANMA], iterations=250, rng=random.Random(2031), cli_every=6)
    assert report.failures == []
    assert report.by_path["download"] >= 250
    out = report.outcomes
    assert out["download:downloaded"] > 10 and out["download:refused"] > 10
    assert out.get("download:stopped", 0) > 0  # 401/403/429: the run stops politely
    assert out.get("download:cli_exit_0", 0) + out.get("download:cli_exit_1", 0) > 0
    assert out["download:requests"] > report.by_path["download"]  # retries happened


def serve_once(script, log=ONE_HAND, **fetcher_options):
    """Fetch one id from a FuzzServer following ``script``; the error and the cache's content."""
    log_id = fuzz_game_id(1)
    with tempfile.TemporaryDirectory() as tmp, \
            FuzzServer({log_id: log}, SANMA, random.Random(0), script=script) as server:
        cache = Path(tmp, "cache")
        options = {"timeout": (30.0, 30.0), "min_interval": 0.0, "jitter": 0.0, "retries": 1,
                   "sleep": lambda s: None, **fetcher_options}
        with LogFetcher(cache, server.url, **options) as fetcher:
            try:
                fetcher.fetch(log_id)
                error = None
            except DownloadError as exc:
                error = str(exc)
        host = server.url.removeprefix("http://")
        return error, check_cache(cache), host, len(server.plans)


@pytest.mark.parametrize(("plan", "message", "requests"), [
    # found by the fuzzer: requests decodes Location as UTF-8 even when redirects are not followed
    (Plan(status=302, extra=[("Location", "\xff\xfe/x")]),
     "{host} sent a malformed response (UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff "
     "in position 0: invalid start byte)", 1),
    (Plan(length="two"), "{host} sent a malformed response (Content-Length contained multiple "
                         "unmatching values (740, 370))", 1),
    (Plan(raw_head=b"NOT HTTP\r\n\r\n"),
     "{host} sent a malformed response (no valid HTTP status line or chunk), after 2 attempts", 2),
    (Plan(status=304), "unexpected HTTP 304 from {host}", 1),  # was "redirected to ?"
    (Plan(status=301), "unexpected HTTP 301 from {host}", 1),
    (Plan(body="encoded_bomb", encoding="gzip"), "the response is larger than the 4194304-byte limit", 1),
    # found by the fuzzer: reading the body of a redirect it does not follow, requests let a raw
    # urllib3 ProtocolError through (a traceback)
    (Plan(status=301, length="long", encoding="gzip, gzip", extra=[("Location", "/0/log/?x")], close=True),
     "the connection to {host} dropped in the middle of the response, after 2 attempts", 2),
    (Plan(body="gzip_bomb"), "the response is not a complete mjlog (", 1),
])
def test_malformed_responses_are_one_clear_line(no_proxy, plan, message, requests):
    error, cached, host, sent = serve_once([plan])
    expected = f"{fuzz_game_id(1)}: " + message.format(host=host)
    assert error == expected or (expected.endswith("(") and error.startswith(expected))
    assert cached == 0 and sent == requests


def test_a_poisoned_connection_is_retried_on_a_new_one(no_proxy):
    """A response longer than its Content-Length leaves bytes on a kept-alive connection, which
    the next request on it may read as its status line: that log still downloads."""
    log_id = fuzz_game_id(1)
    with tempfile.TemporaryDirectory() as tmp, \
            FuzzServer({log_id: ONE_HAND, fuzz_game_id(2): ONE_HAND}, SANMA, random.Random(0),
                       script=[Plan(length="short"), Plan()]) as server:
        with LogFetcher(Path(tmp), server.url, timeout=30.0, min_interval=0, jitter=0, retries=2,
                        sleep=lambda s: None) as fetcher:
            with pytest.raises(DownloadError, match="the response is not a complete mjlog"):
                fetcher.fetch(log_id)
            assert fetcher.fetch_result(fuzz_game_id(2)).downloaded
        assert check_cache(Path(tmp)) == 1


# --- the stats store -----------------------------------------------------------------------------


def test_stats_db_on_damaged_files_fails_cleanly_and_keeps_the_file():
    """``stats [LOGS] --db FILE`` on damaged databases: a report (exit 0/1) or one error line
    (exit 2); a failed run leaves the file byte for byte as it was, a report from the file alone
    never writes, a run that adds logs leaves a database that opens (``store.check_store_run``)."""
    seeds = fixture_seeds()[:4]
    report = fuzz_store(seeds, iterations=500, rng=random.Random(2032))
    assert report.failures == []
    out = report.outcomes
    assert out["store:refused"] > 100 and out["store:added"] > 20 and out["store:reported"] > 20
    assert len(report.by_mutation) > 30


def stats_cli(*args):
    from click.testing import CliRunner

    from tenhou_tools.cli import cli

    return CliRunner().invoke(cli, ["stats", *map(str, args), "--jobs", "1", "--no-progress",
                                    "--format", "json"])


@pytest.fixture
def stats_db(tmp_path):
    """A good stats database of the fixture games, and a folder of logs to add to it."""
    db = tmp_path / "stats.sqlite"
    assert stats_database(fixture_seeds()[:2], db) == 6
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "new.xml").write_bytes(ONE_HAND)
    return db, logs


def edit(db, *statements):
    conn = sqlite3.connect(db, isolation_level=None)
    for sql in statements:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize(("statements", "message"), [
    # found by the fuzzer, each was a traceback (exit 3)
    (["DROP TABLE meta", "CREATE TABLE meta(k, v)"],
     "is not a tenhou-tools stats database (its meta table is not ours)"),
    (["UPDATE counters SET data = '{\"games\": 1,'"], "is damaged: a counters row that is not ours ("),
    (["UPDATE games SET day = 'yesterday'"], "is damaged: a game row that is not ours ("),
    (["UPDATE counters SET data = json_set(data, '$.games', 1e300)"],
     "is damaged: counters this version cannot read ("),
    (["UPDATE counters SET players = players || 'p'"], "is damaged: a counters row that is not ours ("),
    (["UPDATE counters SET data = json_set(data, '$.wins', -2)"], "is damaged: the counters of "),
    # changed by hand or by another program: refused before anything is written
    (["ALTER TABLE games ADD COLUMN extra TEXT"], "is damaged: table games has the columns ["),
    (["CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM counters; END"],
     "has triggers, which tenhou-tools does not make: not written to"),
])
def test_a_damaged_stats_db_is_refused_and_left_as_it_was(stats_db, statements, message):
    """Adding logs checks the whole file first (the message given); a report from the file alone
    reads only what it reports and fails on the first bad row it meets (some one-line error)."""
    db, logs = stats_db
    edit(db, *statements)
    before = db.read_bytes()
    for args in ([logs, "--db", db], ["--db", db]):
        result = stats_cli(*args)
        assert result.exit_code == 2, (args, result.output)
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"Error: {str(db)!r} {message if args[0] == logs else ''}"), line
        assert db.read_bytes() == before


def test_a_damaged_page_is_found_before_anything_is_written(stats_db):
    """A file that opens but whose pages are damaged (SQLite's quick_check) is not added to."""
    db, logs = stats_db
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page * 2 + 8: page * 2 + 12] = b"\xff\xff\xff\xff"  # a b-tree page header of a table
    db.write_bytes(bytes(data))
    result = stats_cli(logs, "--db", db)
    assert result.exit_code == 2
    assert re.fullmatch(rf"Error: {re.escape(repr(str(db)))} is (damaged \(SQLite: .*\): not written to"
                        r"|not a readable SQLite database \(.*\))\n", result.stderr)
    assert db.read_bytes() == bytes(data)


def test_an_empty_file_is_not_made_a_database_by_a_report(tmp_path):
    """A report from the database alone never writes: an empty file stays empty (it was given the
    stats tables). Adding logs to an empty file makes it a stats database, as before."""
    db = tmp_path / "empty.sqlite"
    db.write_bytes(b"")
    result = stats_cli("--db", db)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {str(db)!r} is empty: not a tenhou-tools stats database\n"
    assert db.read_bytes() == b""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.xml").write_bytes(ONE_HAND)
    assert stats_cli(tmp_path / "logs", "--db", db).exit_code == 0
    assert db.read_bytes().startswith(b"SQLite format 3\x00")


def test_sqlite_messages_that_are_not_utf8_are_one_line(tmp_path):
    """Found by the fuzzer: SQLite's message about a damaged schema quotes the file's bytes, and
    Python's decoding of it raised UnicodeDecodeError (a traceback)."""
    db = tmp_path / "odd.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB)")
    conn.commit()
    conn.close()
    data = bytearray(db.read_bytes())
    at = data.index(b"CREATE TABLE logs")
    data[at + 7: at + 12] = b"\xb6\xb6\xb6\xb6\xb6"  # "CREATE \xb6..." no longer parses
    db.write_bytes(bytes(data))
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "one.xml").write_bytes(ONE_HAND)
    for args in (["--db", db], [tmp_path / "logs", "--db", db]):
        result = stats_cli(*args)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.output
        assert "is not a readable SQLite database (malformed database schema" in result.stderr
    (item,) = iter_logs([db])
    assert item.error.startswith("cannot read SQLite database: malformed database schema")


# --- the long run's script, and memory -----------------------------------------------------------


def test_the_fuzz_script_covers_every_path_and_reports_peak_memory(tmp_path, no_proxy):
    """``scripts/fuzz.py`` drives the log paths and the I/O paths and measures the peak resident
    set size of its process: a short run (the fixtures only) stays far below a loose bound."""
    script = FIXTURES.parent / "scripts" / "fuzz.py"
    result = subprocess.run(
        [sys.executable, str(script), "--iterations", "40", "--minutes", "30", "--seed", "3",
         "--corpus", str(tmp_path / "no-corpus"), "--max-rss-mib", "2048",
         "--save", str(tmp_path / "failing")],
        capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(FIXTURES.parent)})
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for path in ("validate", "stats", "convert", "replay"):
        assert f"'{path}': 40" in out
    for phase, what in (("zip", "archives"), ("sqlite", "databases"), ("download", "ids"),
                        ("store", "stats databases")):
        assert re.search(rf"^{phase}: \d+ {what}, \d+ kinds of damage", out, re.M), phase
    assert out.count("  failures: 0") == 5 and out.rstrip().endswith("failures: 0")
    peak = re.search(r"^memory: peak RSS (\d+) MiB; RSS after each path: start \d+ MiB, logs \d+ MiB, "
                     r"zip \d+ MiB, sqlite \d+ MiB, download \d+ MiB, store \d+ MiB$", out, re.M)
    assert peak, out
    assert 0 < int(peak.group(1)) < 512
    assert not (tmp_path / "failing").exists()


def test_scores_beyond_any_real_game_are_not_counted(tmp_path):
    """A log whose scores run to 30 or 400 digits: counting it made the report's floats overflow
    (an internal error, exit 3) and, with --db, left a row the database could not be read back
    with. In an mjlog such scores are now a parse error (``mjlog/_parse.py`` bounds ``sc`` and
    ``ten``); a tenhou.net/6 JSON's result deltas are not bounded by its reader, so stats refuses
    the game itself."""
    from tenhou_tools.formats.tenhou6 import write_tenhou6
    from tenhou_tools.mjlog import parse_game

    folder = tmp_path / "logs"
    folder.mkdir()
    for digits in (30, 400):
        (folder / f"huge{digits}.xml").write_bytes(ONE_HAND.replace(
            b'sc="250,480,250,-480', b'sc="250,' + b"9" * digits + b',250,-480'))
    as_json = write_tenhou6(parse_game(ONE_HAND))
    as_json["log"][0][-1][1] = [10**31, -(10**31), 0, 0]
    (folder / "huge.json").write_text(json.dumps(as_json), encoding="utf-8")
    (folder / "fine.xml").write_bytes(SANMA)
    db = tmp_path / "stats.sqlite"
    for args in ([folder], [folder, "--db", db]):
        result = stats_cli(*args)
        assert result.exit_code == 1, result.output
        assert "; 3 unreadable;" in stats_summary(result.stderr)[0]
        for digits in (30, 400):
            assert (f"  unreadable: {folder / f'huge{digits}.xml'}: element 8 <AGARI>: attribute 'sc' has a "
                    "value outside ±1000000 (hundreds of points)") in result.stderr
        assert f"  unreadable: {folder / 'huge.json'}: win_balance of about 10**31 is beyond any real game: " \
               "not counted" in result.stderr
        assert {row["name"] for row in json.loads(result.stdout)} == {"Alice", "Bob", "Carol"}
    again = stats_cli("--db", db)
    assert again.exit_code == 0 and len(json.loads(again.stdout)) == 3


# --- the harness itself notices a failure ----------------------------------------------------------


def test_a_crash_a_broken_promise_and_a_slow_input_are_each_reported(monkeypatch):
    """A fuzzer that cannot fail proves nothing: break the reading on purpose and see it counted."""
    def crash(path, *, cli=False):
        raise RuntimeError("reader exploded")

    monkeypatch.setattr(containers, "check_container", crash)
    report = fuzz_containers(fixture_seeds(), iterations=3, rng=random.Random(1), kinds=("zip",))
    assert len(report.failures) == 3
    assert all(f[1].startswith("[zip] RuntimeError: reader exploded\n") and "Traceback" in f[1]
               for f in report.failures)

    def broken_promise(path, *, cli=False):
        raise common.Failure("a record without findings")

    monkeypatch.setattr(containers, "check_container", broken_promise)
    report = fuzz_containers(fixture_seeds(), iterations=2, rng=random.Random(1), kinds=("sqlite",))
    assert [f[1] for f in report.failures] == ["[sqlite] a record without findings"] * 2

    monkeypatch.setattr(containers, "check_container", lambda path, *, cli=False: {})
    report = fuzz_containers(fixture_seeds(), iterations=2, rng=random.Random(1), kinds=("zip",),
                             per_input_limit_s=-1.0)  # every input is "too slow"
    assert len(report.failures) == 2 and all(re.fullmatch(r"\[zip\] took \d+\.\d s", f[1])
                                             for f in report.failures)
    assert report.slowest_by_path["zip"] >= 0.0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux's /proc")
def test_the_peak_memory_is_the_scripts_own_not_its_parents():
    """A script started by a large process reports its own peak: Linux carries ``ru_maxrss``
    across ``exec``, so the fuzz script run late in the suite once reported pytest's size."""
    ballast = bytearray(256 * 1024 * 1024)
    ballast[:: 4096] = b"\x01" * len(range(0, len(ballast), 4096))  # touch every page: resident
    code = "from tests.fuzzing.common import peak_rss_bytes; print(peak_rss_bytes())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=FIXTURES.parent, env={**os.environ, "PYTHONPATH": str(FIXTURES.parent)})
    child_peak = int(done.stdout)
    assert 0 < child_peak < len(ballast) // 2, (child_peak, len(ballast))
    assert common.peak_rss_bytes() > len(ballast)  # this process's own peak counts its ballast
    del ballast
