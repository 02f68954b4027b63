"""The index and ``download`` over a stand-in of tenhou.net built from real corpus games at run
time (``corpus_standin``): what the index lists, download, validate and resume, the README's flow."""

from __future__ import annotations

import functools
import gzip
import json
import sqlite3
from collections import Counter
from datetime import datetime

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli, download_cmd
from tenhou_tools.ids import JST
from tenhou_tools.sources.http import LogFetcher

from .conftest import stats_summary
from .download_support import _isolated_env  # noqa: F401 - the autouse fixture, by name
from .index_support import clock, db_rows, fetchers, game, run  # noqa: F401 - fixtures, found by name
from .tenhou_standin import Game, StandIn, corpus_standin

# --- the corpus: a stand-in built from real games --------------------------------------------------


@pytest.fixture(scope="module")
def real(corpus):
    """Every 6th genuine game with an id (about 670), laid out as tenhou.net lays them out."""
    paths = sorted((corpus / "mjlog").glob("*/*gm-*"))[::6]
    # the stand-in's "now" is the last year of its games: the last year with enough games for
    # the current lists (the corpus's latest years hold few; theirs are left out)
    per_year = Counter(p.name[:4] for p in paths)
    last = max(year for year, count in per_year.items() if count >= 150)
    return corpus_standin([p for p in paths if p.name[:4] <= last])


def test_index_over_real_games_lists_exactly_what_the_files_hold(real, clock, fetchers, tmp_path):
    archives = []
    for name, data in real.archives.items():
        path = tmp_path / name
        path.write_bytes(data)
        archives += ["--archive", str(path)]
    last_year = max(int(i[:4]) for i in real.in_lists)
    clock[0] = datetime(last_year, 1, 20, tzinfo=JST).timestamp()  # "now", as the lists say
    with StandIn() as site:
        site.add_files(real.old, old=True)
        site.add_files(real.recent, old=False)
        result = run("index", "--since", "2000-01-01", *archives, "--format", "ndjson", site=site, cache_dir=tmp_path / "c")
    assert result.exit_code == 0, result.stderr
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["id"] for d in docs] == sorted(real.games, key=lambda i: (docs_start(real.games[i]), i))
    assert {d["id"] for d in docs} == real.in_archives | real.in_lists
    assert len(real.in_archives) > 100 and len(real.in_lists) > 100 and real.left_out > 0
    for doc in docs:
        expected = real.games[doc["id"]]
        assert [(r["name"], r["points"]) for r in doc["results"]] == list(expected.results)
        assert doc["start"] == f"{doc['id'][:4]}-{doc['id'][4:6]}-{doc['id'][6:8]}T{expected.hhmm}+09:00"
        assert doc["players"] == (3 if expected.type_code & 0x10 else 4)


def docs_start(game: Game) -> str:
    return f"{game.log_id[:8]}{game.hhmm}"


def test_download_validate_resume_over_real_games(real, clock, fetchers, tmp_path, monkeypatch):
    last_year = max(int(i[:4]) for i in real.in_lists)
    clock[0] = datetime(last_year, 1, 20, tzinfo=JST).timestamp()
    days = sorted({real.games[i].log_id[:8] for i in real.in_lists})
    since, until = days[-4], days[-1]  # a few days of list.cgi?old and of list.cgi
    wanted = sorted(i for i in real.in_lists if since <= i[:8] <= until)
    assert 20 <= len(wanted) <= 200
    cache, db = tmp_path / "cache", tmp_path / "real.db"
    iso = lambda d: f"{d[:4]}-{d[4:6]}-{d[6:8]}"  # noqa: E731
    with StandIn() as site:
        site.add_files(real.old, old=True)
        site.add_files(real.recent, old=False)
        site.logs.update(real.logs)
        calls = {"n": 0}

        class Interrupting(LogFetcher):
            def download(self, log_id):
                calls["n"] += 1
                if calls["n"] == 10:
                    raise KeyboardInterrupt
                return super().download(log_id)

        keywords = dict(download_cmd.LogFetcher.keywords)
        monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(Interrupting, **keywords))
        stopped = run("download", "--since", iso(since), "--until", iso(until), "--db", str(db), site=site, cache_dir=cache)
        assert stopped.exit_code == 130
        assert len(db_rows(db)) == 9
        monkeypatch.setattr(download_cmd, "LogFetcher", functools.partial(LogFetcher, **keywords))
        resumed = run("download", "--since", iso(since), "--until", iso(until), "--db", str(db), site=site, cache_dir=cache)
        assert resumed.exit_code == 0, resumed.output
        assert resumed.stderr.splitlines()[-1] == f"{len(wanted)} ids: {len(wanted) - 9} downloaded, 9 already had, 0 failed."
        assert sorted(r[0] for r in db_rows(db)) == wanted
        before = len(site.requests)
        again = run("download", "--since", iso(since), "--until", iso(until), "--db", str(db), site=site, cache_dir=cache)
        assert again.exit_code == 0 and len(site.requests) == before
        assert site.max_inflight == 1
    validate = run("validate", str(db), "--format", "ndjson", "--jobs", "1")
    lines = [json.loads(line) for line in validate.stdout.splitlines()]
    assert validate.exit_code == 0
    assert lines[-1]["games"] == len(wanted) and lines[-1]["failed"] == 0
    assert sorted(doc["log_id"] for doc in lines[:-1]) == wanted
    with sqlite3.connect(db) as conn:  # the database holds the very bytes the site served, gzip-compressed
        for log_id, blob in conn.execute("SELECT id, log FROM logs"):
            assert gzip.decompress(blob) == real.logs[log_id]


def test_the_readme_flow_is_the_real_output(corpus, clock, fetchers, tmp_path, monkeypatch):
    """The README's "index -> download -> validate -> stats" example, against a stand-in built
    from the corpus games it shows (2009-03 in an archive, 2022-06-01 in list.cgi)."""
    from .conftest import REPO

    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("From the index to statistics", 1)[1].split("```\n", 2)[1]
    paths = sorted(p for p in (corpus / "mjlog").glob("*/*gm-*") if p.name.startswith(("200903", "20220601")))
    real = corpus_standin(paths)
    (tmp_path / "scraw2009.zip").write_bytes(real.archives["scraw2009.zip"])
    monkeypatch.chdir(tmp_path)
    clock[0] = datetime(2026, 11, 24, tzinfo=JST).timestamp()
    with StandIn() as site:
        site.add_files(real.old, old=True)
        site.add_files(real.recent, old=False)
        site.logs.update(real.logs)
        site.not_served = {i for i in real.logs if 2010 <= int(i[:4]) <= 2025}
        monkeypatch.setenv("TENHOU_TOOLS_BASE_URL", site.url)
        monkeypatch.setenv("TENHOU_TOOLS_CACHE_DIR", str(tmp_path / "cache"))
        for chunk in block.split("$ tenhou-tools ")[1:]:
            command, *expected = chunk.rstrip("\n").split("\n")
            command, _, pipe = command.partition(" | ")
            result = CliRunner().invoke(cli, command.split())
            out = result.stdout.splitlines()
            if pipe:
                assert pipe == "head -3"
                out = out[:3]
            err = result.stderr.splitlines()
            if command.startswith("stats"):
                err = stats_summary(result.stderr)[1]  # the summary says the time taken
            shown = [line.replace("127.0.0.1:8765", site.host) for line in expected]
            assert err + out == shown or out + err == shown, command
