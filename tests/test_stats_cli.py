"""``tenhou-tools stats``: sources, filters, formats, exit codes and the SQLite store."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import zipfile

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.mjlog import parse_game
from tenhou_tools.sources.local import iter_logs
from tenhou_tools.stats import collect, game_counters
from tenhou_tools.stats.records import GameFilter, LobbySpec, stats_item
from tenhou_tools.stats.store import StatsStore, StoreError

from .conftest import FIXTURES, FREE_LOOPBACK_PORT, stats_summary
from .stats_games import GAME_A, GAME_B, GAME_C, GAME_D, game_a, game_b, game_c, game_d

ID_A = "2020010112gm-00a9-0000-0000000a"
ID_B = "2021060112gm-0089-0000-0000000b"
ID_C = "2022030112gm-00b9-0000-0000000c"


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


@pytest.fixture
def logs(tmp_path):
    """Games A (Houou, 2020), B (Joukyuu, 2021), C (three-player Houou, 2022), D (no id)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / f"{ID_A}.xml").write_bytes(game_a())
    (folder / f"{ID_B}.xml").write_bytes(game_b().replace(b'type="169"', b'type="137"'))
    (folder / f"{ID_C}.xml").write_bytes(game_c())
    (folder / "handmade.xml").write_bytes(game_d())
    return folder


def rows(result) -> dict:
    assert result.exit_code == 0, result.stderr
    return {(r["name"], r["players"]): r for r in json.loads(result.stdout)}


def test_json_over_a_folder(logs):
    got = rows(run("stats", logs, "--format", "json", "--jobs", "1"))
    assert set(got) == {("Ann", 4), ("Ben", 4), ("Cat", 4), ("Dov", 4), ("Ann", 3), ("Ben", 3), ("Eve", 3),
                        ("NoName", 4), ("X", 4), ("Y", 4)}
    ann = got[("Ann", 4)]
    counters = {k: v for k, v in ann["counters"].items() if v}
    want = {k: GAME_A["Ann"].get(k, 0) + GAME_B["Ann"].get(k, 0) for k in counters}
    assert counters == want
    assert ann["games"] == 2 and ann["rank_counts"] == [0, 1, 0, 1]
    assert got[("Ann", 3)]["games"] == 1 and got[("Ann", 3)]["rank_counts"] == [1, 0, 0]
    assert got[("NoName", 4)]["games"] == 2


def test_pool_gives_the_same_report(logs):
    one = run("stats", logs, "--format", "json", "--jobs", "1")
    two = run("stats", logs, "--format", "json", "--jobs", "2", "--batch-size", "1")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_zip_archive_is_a_source(logs, tmp_path):
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in sorted(logs.iterdir()):
            z.write(path, path.name)
    assert rows(run("stats", archive, "--format", "json")) == rows(run("stats", logs, "--format", "json"))


def test_player_filter(logs):
    got = rows(run("stats", logs, "--format", "json", "--player", "Ann", "--player", "Eve"))
    assert set(got) == {("Ann", 4), ("Ann", 3), ("Eve", 3)}
    for fmt in ("json", "csv", "text"):  # not an empty report that exits 0
        result = run("stats", logs, "--format", fmt, "--player", "Nobody")
        assert (result.exit_code, result.stdout) == (2, ""), fmt
        assert result.stderr.splitlines()[-1] == "stats: no games of player 'Nobody'."
    out = logs.parent / "report.html"
    result = run("stats", logs, "--html", out, "--player", "Nobody")
    assert result.exit_code == 2 and not out.exists()


@pytest.mark.parametrize("lobby,games", [
    ("houou", {"a", "c", "d"}), ("HOUOU", {"a", "c", "d"}), ("joukyuu", {"b"}), ("137", {"b"}),
    ("0x89", {"b"}), ("四上南喰赤", {"b"}), ("三鳳南喰赤", {"c"}), ("L0", {"a", "b", "c", "d"}),
])
def test_lobby_filter(logs, lobby, games):
    got = rows(run("stats", logs, "--format", "json", "--lobby", lobby))
    assert _games_seen(got) == games


@pytest.mark.parametrize("args,games", [
    (["--since", "2021-01-01"], {"b", "c"}),
    (["--until", "2020-12-31"], {"a"}),
    (["--since", "2021-06-01", "--until", "2021-06-01"], {"b"}),
    (["--since", "2021-06-02", "--lobby", "houou"], {"c"}),
])
def test_date_filter_uses_the_game_id(logs, args, games):
    assert _games_seen(rows(run("stats", logs, "--format", "json", *args))) == games


def _games_seen(got: dict) -> set[str]:
    """Which hand-made games a report covers, told by who played (Eve only in C, Dov in A/B...)."""
    seen = set()
    if ("Eve", 3) in got:
        seen.add("c")
    if ("X", 4) in got:
        seen.add("d")
    dov = got.get(("Dov", 4), {}).get("hands", 0)
    seen |= {4: {"a"}, 7: {"b"}, 11: {"a", "b"}}.get(dov, set())
    return seen


def test_bad_options_exit_2(logs, tmp_path):
    assert run("stats", logs, "--lobby", "moon").exit_code == 2
    assert run("stats", logs, "--since", "2021-13-01").exit_code == 2
    assert run("stats", logs, "--since", "2022-01-01", "--until", "2021-01-01").exit_code == 2
    result = run("stats", tmp_path / "missing")
    assert result.exit_code == 2 and "no such file" in result.stderr
    assert run("stats").exit_code == 2  # neither PATHS nor --db


def test_unreadable_logs_are_counted_never_a_traceback(logs):
    shutil.copy(FIXTURES / "truncated.mjlog", logs / "truncated.mjlog")
    (logs / "garbage.xml").write_bytes(b"<mjloggm><GO type='169'/><INIT/></mjloggm>")
    result = run("stats", logs, "--format", "json", "--jobs", "2")
    assert result.exit_code == 1
    assert len(json.loads(result.stdout)) == 10  # the readable games are all there
    assert "; 2 unreadable;" in stats_summary(result.stderr)[0]
    assert "unreadable: " in result.stderr and "truncated" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_text_and_csv(logs):
    result = run("stats", logs, "--player", "Ann")
    assert result.exit_code == 0
    assert "Ann · 4-player · 2 games, 11 hands" in result.stdout
    assert "Ann · 3-player · 1 game, 2 hands" in result.stdout
    assert "Win rate (of hands)" in result.stdout and "2/11" in result.stdout
    assert "18.2%" in result.stdout  # 2/11
    brief = run("stats", logs, "--brief")
    assert brief.exit_code == 0 and "Statistic" not in brief.stdout and "NoName" in brief.stdout
    result = run("stats", logs, "--format", "csv", "--player", "Ann")
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["name"], r["players"], r["games"]) for r in table] == [("Ann", "4", "2"), ("Ann", "3", "1")]
    assert table[1]["rank4"] == "" and table[0]["win_rate"] == str(round(2 / 11, 4))


def test_min_games_and_output_file(logs, tmp_path):
    out = tmp_path / "report.json"
    result = run("stats", logs, "--format", "json", "--min-games", "2", "-o", out)
    assert result.exit_code == 0 and result.stdout == ""
    got = {(r["name"], r["players"]) for r in json.loads(out.read_text())}
    assert got == {("Ann", 4), ("Ben", 4), ("Cat", 4), ("Dov", 4), ("NoName", 4)}


# -- the SQLite store -----------------------------------------------------------------------------


def test_db_adds_each_game_once_and_reports_without_logs(logs, tmp_path):
    db = tmp_path / "stats.sqlite"
    first = run("stats", logs / f"{ID_A}.xml", "--db", db, "--format", "json")
    assert first.exit_code == 0 and "1 game added to the database, 0 already in it" in stats_summary(first.stderr)[0]
    again = run("stats", logs, "--db", db, "--format", "json")
    assert again.exit_code == 0 and "3 games added to the database, 1 already in it" in stats_summary(again.stderr)[0]
    # a copy of the id-less game under another name is the same game (content hash)
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(logs / "handmade.xml", copy / "other-name.xml")
    third = run("stats", copy, "--db", db, "--format", "json")
    assert "0 games added to the database, 1 already in it" in stats_summary(third.stderr)[0]
    from_db = run("stats", "--db", db, "--format", "json")
    in_memory = run("stats", logs, "--format", "json")
    assert from_db.exit_code == 0 and from_db.stdout == in_memory.stdout == again.stdout
    assert " read in " not in from_db.stderr
    assert "4 games and 10 player rows reported" in stats_summary(from_db.stderr)[0]
    for args in (["--player", "Ann"], ["--lobby", "houou"], ["--since", "2021-01-01"], ["--until", "2020-12-31"],
                 ["--lobby", "joukyuu", "--player", "Ben"], ["--min-games", "2"]):
        assert run("stats", "--db", db, "--format", "json", *args).stdout == \
            run("stats", logs, "--format", "json", *args).stdout, args


def test_db_store_sums_rows_like_memory(logs, tmp_path):
    records = [stats_item(item) for item in iter_logs([logs])]
    with StatsStore(tmp_path / "s.sqlite") as store:
        assert store.add(records[:2]).added == 2
        result = store.add(records)
        assert (result.added, result.known) == (2, 2)
        totals = store.totals()
        assert store.game_count() == 4
        assert store.game_count(GameFilter((LobbySpec.parse("houou"),))) == 3
    memory = {}
    for r in records:
        for key, c in r.counters:
            memory[key] = memory[key] + c if key in memory else c
    assert totals == memory


def test_db_transaction_is_all_or_nothing(logs, tmp_path):
    records = [stats_item(item) for item in iter_logs([logs])]
    path = tmp_path / "s.sqlite"
    with StatsStore(path) as store:
        store.add(records[:1])
        before = (store.game_count(), store.totals())

        def interrupted():
            yield records[1]
            yield records[2]
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            store.add(interrupted())
        assert (store.game_count(), store.totals()) == before
    with StatsStore(path) as store:  # and so it is on disk
        assert (store.game_count(), store.totals()) == before


def test_db_errors_exit_2(logs, tmp_path):
    assert run("stats", "--db", tmp_path / "none.sqlite").exit_code == 2  # nothing to report from
    foreign = tmp_path / "houou.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE logs (id TEXT PRIMARY KEY, log BLOB)")
    conn.commit()
    conn.close()
    result = run("stats", logs, "--db", foreign)
    assert result.exit_code == 2 and "not a tenhou-tools stats database" in result.stderr
    db = tmp_path / "s.sqlite"
    StatsStore(db).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '999' WHERE key = 'counters_version'")
    conn.commit()
    conn.close()
    result = run("stats", "--db", db)
    assert result.exit_code == 2 and "another version" in result.stderr
    with pytest.raises(StoreError):
        StatsStore(tmp_path)  # a folder


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_database_consistent(logs, tmp_path, monkeypatch, jobs):
    """Ctrl-C inside a transaction: it is rolled back, the records already computed go in with
    one more transaction, and the run exits 130 with its summary."""
    monkeypatch.setattr(collect, "FLUSH_RECORDS", 1)
    real_add = StatsStore.add
    calls = []

    def add(self, records):
        calls.append(1)
        if len(calls) == 2:
            def cut():
                yield from records
                raise KeyboardInterrupt
            return real_add(self, cut())
        return real_add(self, records)

    monkeypatch.setattr(StatsStore, "add", add)
    db = tmp_path / "s.sqlite"
    result = run("stats", logs, "--db", db, "--jobs", jobs, "--format", "json")
    assert result.exit_code == 130
    assert "Interrupted" in result.stderr and "2 games added to the database" in stats_summary(result.stderr)[0]
    conn = sqlite3.connect(db)
    games = conn.execute("SELECT COUNT(*), SUM(players) FROM games").fetchone()
    seats = conn.execute("SELECT SUM(games) FROM counters").fetchone()[0]
    conn.close()
    assert games[0] == 2 and seats == games[1]  # every game's players counted, nothing else


def test_a_database_reports_dan_points_by_todays_tables(logs, tmp_path):
    """The database keeps each game's placement, rank and kind; the dan points are worked out
    again when it is read, so a file written when three-player games had no table (their
    dan_pt NULL) reports them now: Eve, 3rd of three in game C at 初段 (Houou East-South),
    loses 3·15 = 45."""
    db = tmp_path / "s.sqlite"
    assert run("stats", logs, "--db", db).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("UPDATE player_games SET dan_pt = NULL WHERE players = 3")
    conn.commit()
    conn.close()
    result = run("stats", "--db", db, "--player", "Eve", "--format", "json")
    (eve,) = json.loads(result.stdout)
    assert [h["dan_pt"] for h in eve["history"]] == [-45] and eve["tables"][0]["dan_pt_per_game"] == -45.0


def _ctrl_c_after_the_first_log(monkeypatch) -> None:
    """Ctrl-C while the second log is being read (in this process: --jobs 1)."""
    real = collect.iter_logs

    def iter_logs_then_ctrl_c(*args, **kwargs):
        items = real(*args, **kwargs)
        yield next(items)
        raise KeyboardInterrupt

    monkeypatch.setattr(collect, "iter_logs", iter_logs_then_ctrl_c)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_ctrl_c_prints_no_json_or_csv_of_part_of_the_games(logs, monkeypatch, fmt):
    """A JSON array or CSV table of the games read before Ctrl-C would look like the whole
    report: none is printed (a file or page is not written either), and the exit code is 130."""
    full = run("stats", logs, "--format", fmt, "--jobs", "1")
    assert full.exit_code == 0 and full.stdout
    _ctrl_c_after_the_first_log(monkeypatch)
    result = run("stats", logs, "--format", fmt, "--jobs", "1")
    assert (result.exit_code, result.stdout) == (130, "")
    assert result.stderr.splitlines()[-1] == ("Interrupted. No report: one of part of the games would look like the "
                                              "whole (the text report says so).")
    page = run("stats", logs, "--html", "-", "--jobs", "1")
    assert (page.exit_code, page.stdout) == (130, "")


def test_ctrl_c_marks_the_text_report_as_validate_does(logs, monkeypatch):
    _ctrl_c_after_the_first_log(monkeypatch)
    result = run("stats", logs, "--brief", "--jobs", "1", env={"COLUMNS": "80"})
    assert result.exit_code == 130
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Interrupted after 1 game read: this report covers only those.",
                         "4 player rows over 1 game"]
    assert result.stderr.splitlines()[-1] == "Interrupted."
    out = logs.parent / "report.txt"
    to_file = run("stats", logs, "--jobs", "1", "-o", out)
    assert to_file.exit_code == 130 and not out.exists()
    assert to_file.stderr.splitlines()[-1] == f"Interrupted. {out} was not written."


def test_sigint_during_a_transaction_waits_for_its_end():
    import os
    import signal

    done = []
    with pytest.raises(KeyboardInterrupt), collect._sigint_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        done.append("the transaction finished")
    assert done == ["the transaction finished"]


def test_fixture_logs_in_a_report():
    result = run("stats", FIXTURES / "one_hand.xml", "--format", "json")
    (alice,) = [r for r in json.loads(result.stdout) if r["name"] == "Alice"]
    assert alice["wins"] == 1 and alice["avg_win_points"] == 48000
    assert alice["yaku"] == [{"id": 39, "name": "daisangen", "count": 1}]


def test_counters_of_games_c_and_d_match_the_worked_values():
    """Sanity link between the CLI fixtures and the worked-out expectations."""
    assert game_counters(parse_game(game_c()))[("Eve", 3)].to_dict() == GAME_C["Eve"]
    assert game_counters(parse_game(game_d()))[("X", 4)].to_dict() == GAME_D["X"]


# -- the batch machinery shared with validate -----------------------------------------------------


def test_a_worker_that_dies_costs_one_log(logs, monkeypatch):
    from tenhou_tools.stats.records import STATS_WORK

    from .workers import exits_on, with_work

    want = rows(run("stats", logs, "--format", "json", "--jobs", "1"))
    with_work(collect, monkeypatch, exits_on("handmade.xml", STATS_WORK))
    result = run("stats", logs, "--format", "json", "--jobs", "2", "--batch-size", "2")
    assert result.exit_code == 1
    assert "; 1 unreadable;" in stats_summary(result.stderr)[0] and "worker process died" in result.stderr
    got = {(r["name"], r["players"]): r for r in json.loads(result.stdout)}
    assert ("X", 4) not in got and got[("Ann", 4)] == want[("Ann", 4)]


def test_dask_gives_the_same_report(logs):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=FREE_LOOPBACK_PORT) as cluster:
        result = run("stats", logs, "--format", "json", "--scheduler", cluster.scheduler_address,
                     "--batch-size", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == run("stats", logs, "--format", "json", "--jobs", "1").stdout


def test_readme_example_is_the_real_output(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # the README shows what a pipe gets without a terminal
    from .conftest import REPO

    text = (REPO / "README.md").read_text()
    command = "$ tenhou-tools stats fixtures/one_hand.mjlog fixtures/sanma_kita.xml --brief\n"
    shown = text.split(command, 1)[1].split("```", 1)[0]
    result = run("stats", FIXTURES / "one_hand.mjlog", FIXTURES / "sanma_kita.xml", "--brief")
    assert result.exit_code == 0 and result.stdout == shown


def test_text_tables_only_for_named_players_or_when_asked(logs):
    result = run("stats", logs)
    assert result.stdout.count("Statistic") == 0 and "Detailed tables" not in result.stdout
    asked = run("stats", logs, "--tables", "3")
    assert asked.stdout.count("Statistic") == 3
    assert "Detailed tables for the first 3 of 10 rows" in asked.stdout
    assert run("stats", logs, "--tables", "1").stdout.count("Statistic") == 1
    named = run("stats", logs, "--player", "Ann", "--player", "Ben", "--player", "Cat")
    assert named.stdout.count("Statistic") == 5 and "Detailed tables" not in named.stdout
