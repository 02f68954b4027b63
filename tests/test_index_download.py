"""``download`` by selection from the index, against the loopback stand-in: into a houou-logs
database, the cache or a folder, from a pipe; Ctrl-C and resume; the database's rows."""

from __future__ import annotations

import functools
import gzip
import json
import sqlite3
from datetime import datetime

from tenhou_tools.cli import download_cmd
from tenhou_tools.ids import JST
from tenhou_tools.mjlog import parse_game
from tenhou_tools.sources.http import LogFetcher
from tenhou_tools.sources.local import iter_logs
from tenhou_tools.sources.logstore import LogDatabase, LogRow

from .download_support import _isolated_env  # noqa: F401 - the autouse fixture, by name
from .index_support import ONE_HAND, clock, db_rows, fetchers, run, site, small_site  # noqa: F401 - fixtures, found by name

# --- download by selection -------------------------------------------------------------------------



def test_download_a_selection_into_a_houou_logs_database(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache, db = tmp_path / "cache", tmp_path / "houou.db"
    result = run("download", "--since", "2026-11-15", "--db", str(db), site=site, cache_dir=cache)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "3 games in 3 day files from tenhou.net's index (3 fetched, 0 unchanged since an earlier run).",
        *(f"{games[k].log_id}: downloaded" for k in "efg"),
        "3 ids: 3 downloaded, 0 already had, 0 failed.",
    ]
    assert db_rows(db) == [
        (games["e"].log_id, "2026-11-15T00:30", 4, 0, 1, 0, 1),
        (games["f"].log_id, "2026-11-15T01:05", 3, 0, 1, 0, 1),
        (games["g"].log_id, "2026-11-16T01:59", 4, 1, 1, 0, 1),
    ]
    with sqlite3.connect(db) as conn:
        schema = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'logs'").fetchone()[0]
        blob = conn.execute("SELECT log FROM logs WHERE id = ?", (games["e"].log_id,)).fetchone()[0]
        assert [r[1] for r in conn.execute("PRAGMA index_list(logs)") if r[3] == "c"] == ["idx_logs_status_filter"]
    assert "WITHOUT ROWID" in schema and "CHECK(num_players IN (4, 3))" in schema
    assert gzip.decompress(blob) == ONE_HAND
    assert [item.log_id for item in iter_logs([db])] == [games[k].log_id for k in "efg"]
    assert not any((cache / f"{games[k].log_id}.mjlog").exists() for k in "efg")  # the database keeps them
    # a second run: no request at all (the lists are fresh, the files unchanged, the logs stored)
    before = len(site.requests)
    again = run("download", "--since", "2026-11-15", "--db", str(db), site=site, cache_dir=cache)
    assert again.exit_code == 0 and len(site.requests) == before
    assert again.stderr.splitlines()[-1] == "3 ids: 0 downloaded, 3 already had, 0 failed."
    validate = run("validate", str(db), "--format", "ndjson", "--jobs", "1")
    summary = json.loads(validate.stdout.splitlines()[-1])
    assert validate.exit_code == 0 and summary["games"] == 3 and summary["failed"] == 0


def test_a_404_in_a_selection_outside_the_2010_2025_era_is_not_found(site, clock, fetchers, tmp_path):
    """Games of 2026 the server answers 404 for are not blamed on tenhou.net's 2010-2025 policy
    (tests/test_download_fetch.py and test_download_cli.py have those): they fail as "not
    found", are not recorded (neither in the cache nor as houou-logs' was_error), and the next
    run asks again."""
    games = small_site(site)
    site.not_served = {games["a"].log_id, games["c"].log_id}
    cache, db = tmp_path / "cache", tmp_path / "h.db"
    result = run("download", "--since", "2026-11-10", "--until", "2026-11-11", "--lobby", "houou", "--db", str(db),
                 site=site, cache_dir=cache)  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:] == [
        f"Error: {games['a'].log_id}: not found on {site.host} (HTTP 404)",
        f"{games['b'].log_id}: downloaded",
        f"Error: {games['c'].log_id}: not found on {site.host} (HTTP 404)",
        "3 ids: 1 downloaded, 0 already had, 2 failed (2 not found).",
    ]
    assert [(row[0], row[5]) for row in db_rows(db)] == [(games["b"].log_id, 0)]  # no was_error row
    before = len(site.log_requests())
    again = run("download", "--since", "2026-11-10", "--until", "2026-11-11", "--lobby", "houou", "--db", str(db),
                site=site, cache_dir=cache)  # fmt: skip
    assert len(site.log_requests()) == before + 2  # asked again: nothing was recorded
    assert again.stderr.splitlines()[-1] == "3 ids: 0 downloaded, 1 already had, 2 failed (2 not found)."
    assert not (cache / "not-served.tsv").exists()
    # replay says it in one line
    replay = run("replay", games["a"].log_id, site=site, cache_dir=cache)
    assert replay.exit_code == 1
    assert replay.stderr == f"Error: {games['a'].log_id}: not found on {site.host} (HTTP 404)\n"


def test_download_a_selection_into_the_cache_and_a_folder_and_from_a_pipe(site, clock, fetchers, tmp_path):
    games = small_site(site)
    cache, out = tmp_path / "cache", tmp_path / "out"
    result = run("download", "--since", "2026-11-16", "--out", str(out), site=site, cache_dir=cache)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{out / games['g'].log_id}.mjlog\n"
    listing = run("index", "--since", "2026-11-15", site=site, cache_dir=cache)
    piped = run("download", "-", site=site, cache_dir=cache, input=listing.stdout)
    assert piped.exit_code == 0
    assert piped.stderr.splitlines() == [
        f"{games['e'].log_id}: downloaded", f"{games['f'].log_id}: downloaded",
        f"{games['g'].log_id}: already cached, skipped", "3 ids: 2 downloaded, 1 already cached, 0 failed.",
    ]  # fmt: skip
    ids = tmp_path / "ids.txt"
    ids.write_text(f"# mine\n{games['e'].log_id}\n")
    at = run("download", f"@{ids}", site=site, cache_dir=cache)
    assert at.exit_code == 0 and at.stderr.splitlines()[-1] == "1 id: 0 downloaded, 1 already cached, 0 failed."
    both = run("download", games["e"].log_id, "--since", "2026-11-15", site=site, cache_dir=cache)
    assert both.exit_code == 2 and "not both" in both.stderr
    clash = run("download", "--since", "2026-11-15", "--out", str(out), "--db", str(tmp_path / "x.db"), cache_dir=cache)
    assert clash.exit_code == 2 and "--out and --db cannot be used together" in clash.stderr


def test_ctrl_c_leaves_a_consistent_database_and_the_next_run_resumes(site, clock, fetchers, tmp_path, monkeypatch):
    games = small_site(site)
    cache, db = tmp_path / "cache", tmp_path / "h.db"

    class Interrupting(LogFetcher):
        def download(self, log_id):
            if log_id == games["c"].log_id:
                raise KeyboardInterrupt
            return super().download(log_id)

    keywords = dict(download_cmd.LogFetcher.keywords)
    monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(Interrupting, **keywords))
    stopped = run("download", "--since", "2026-11-10", "--db", str(db), site=site, cache_dir=cache)
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines()[-1] == "Interrupted. So far: 7 ids: 2 downloaded, 0 already had, 0 failed."
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert [row[0] for row in db_rows(db)] == [games["a"].log_id, games["b"].log_id]
    monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(LogFetcher, **keywords))
    before = site.log_requests()
    resumed = run("download", "--since", "2026-11-10", "--db", str(db), site=site, cache_dir=cache)
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stderr.splitlines()[-1] == "7 ids: 5 downloaded, 2 already had, 0 failed."
    assert site.log_requests()[len(before):] == [f"/0/log/?{games[k].log_id}" for k in "cdefg"]


def test_a_houou_logs_database_is_filled_in_and_a_phoenix_one_refused(site, clock, fetchers, tmp_path):
    games = small_site(site)
    db = tmp_path / "houou-logs.db"
    with sqlite3.connect(db) as conn:  # what houou-logs' fetch leaves: rows listed, not downloaded
        conn.execute(
            "CREATE TABLE logs (id TEXT PRIMARY KEY, date TEXT NOT NULL, num_players INTEGER NOT NULL CHECK(num_players IN (4, 3)), "
            "is_tonpu INTEGER NOT NULL CHECK(is_tonpu IN (0, 1)), is_processed INTEGER NOT NULL CHECK(is_processed IN (0, 1)), "
            "was_error INTEGER NOT NULL CHECK(was_error IN (0, 1)), log BLOB) WITHOUT ROWID"
        )
        conn.execute("CREATE TABLE file_index (file TEXT PRIMARY KEY, size INTEGER NOT NULL CHECK(size > 0)) WITHOUT ROWID")
        for k in "ab":
            conn.execute("INSERT INTO logs VALUES (?, ?, ?, 0, 0, 0, NULL)",
                         (games[k].log_id, "2026-11-10T00:00", len(games[k].results)))  # fmt: skip
    result = run("download", "--db", str(db), site=site, cache_dir=tmp_path / "cache")
    assert result.exit_code == 0, result.output
    assert [row[4:] for row in db_rows(db)] == [(1, 0, 1), (1, 0, 1)]
    assert [row[1] for row in db_rows(db)] == ["2026-11-10T00:00"] * 2  # houou-logs' dates are kept
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM file_index").fetchone() == (0,)
    phoenix = tmp_path / "phoenix.db"
    with sqlite3.connect(phoenix) as conn:
        conn.execute("CREATE TABLE logs (log_id text primary key, date text, is_tonpusen int, is_sanma int, "
                     "is_processed int, was_error int, log_content text)")  # fmt: skip
    refused = run("download", games["a"].log_id, "--db", str(phoenix), site=site, cache_dir=tmp_path / "cache")
    assert refused.exit_code == 2 and "phoenix-logs database without houou-logs' columns" in refused.stderr
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert run("download", games["a"].log_id, "--db", str(text)).exit_code == 2
    assert text.read_text() == "hello"


def test_log_rows():
    assert LogRow.of("2026111523gm-00b9-0000-00000001") == LogRow("2026111523gm-00b9-0000-00000001", "2026-11-15T23:00", 3, False)
    assert LogRow.of("2009020100gm-00e1-0000-00000002", datetime(2009, 2, 1, 0, 7, tzinfo=JST)).date == "2009-02-01T00:07"
    assert LogRow.of("2009020100gm-00e1-0000-00000002").is_tonpu


def test_the_database_is_written_one_log_per_transaction(tmp_path):
    path = tmp_path / "h.db"
    with LogDatabase(path) as db:
        row = LogRow.of("2026111523gm-00a9-0000-00000001")
        db.store(row, gzip.compress(ONE_HAND))
        db.record_not_served(row)  # a log already there is never replaced by a failure
        assert db.status([row.log_id, "2026111523gm-00a9-0000-00000002"]) == {row.log_id: "stored"}
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT was_error, log IS NOT NULL FROM logs").fetchall() == [(0, 1)]
    assert parse_game(gzip.decompress(next(iter_logs([path])).data)).header.ruleset.type_code == 169


def test_a_database_the_run_created_and_left_empty_is_removed_one_the_user_had_is_kept(tmp_path):
    """download --db NEW whose every log failed leaves no empty database behind (issue 34, item
    7); a database that was there before is never removed, empty or not."""
    new = tmp_path / "new.db"
    LogDatabase(new).close()
    assert not new.exists()
    had = tmp_path / "had.db"
    sqlite3.connect(had).close()  # an empty SQLite file the user made
    LogDatabase(had).close()
    assert had.exists()
    kept = tmp_path / "kept.db"
    with LogDatabase(kept) as db:
        db.record_not_served(LogRow.of("2026111523gm-00a9-0000-00000001"))
    assert kept.exists()
