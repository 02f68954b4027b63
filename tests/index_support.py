"""What the index tests share (``test_index_formats.py``, ``test_index_cli.py``,
``test_index_download.py``, ``test_index_corpus.py``): made-up games and ids, the loopback
stand-in of tenhou.net (``tests/tenhou_standin.py``) as a fixture, the commands' fetchers without
real pauses, a fixed clock, and a small site every command test starts from.

Every day file and list here is written by the tests with made-up players and ids; the corpus
tests build a stand-in from real corpus games at run time (see ``corpus_standin``).
"""

from __future__ import annotations

import functools
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli, download_cmd, index_cmd
from tenhou_tools.ids import JST
from tenhou_tools.sources import index_fetch
from tenhou_tools.sources.http import LogFetcher

from .conftest import FIXTURES
from .download_support import FakeTime
from .tenhou_standin import Game, StandIn, day_file, sca_line, scc_line, scf_line

ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()  # GO type 169: 四鳳南喰赤
SANMA = (FIXTURES / "sanma_kita.xml").read_bytes()  # GO type 185: 三鳳南喰赤


def g4(day: str, hour: int, n: int) -> str:
    """A 4-player Houou East-South id (type 00a9) of a day (YYYYMMDD)."""
    return f"{day}{hour:02d}gm-00a9-0000-{n:08x}"


def g3(day: str, hour: int, n: int) -> str:
    """A 3-player Houou East-South id (type 00b9)."""
    return f"{day}{hour:02d}gm-00b9-0000-{n:08x}"


FOUR = (("Ａｌｉｃｅ", 59.0), ("Bob&Co", 11.0), ("<ちよ>", -14.0), ("Dan", -56.0))
THREE = (("Carol", 42.0), ("Eve", -4.0), ("Frank", -38.0))


def game(log_id: str, hhmm: str, results=None, minutes: int = 30, label: str = "") -> Game:
    if results is None:
        results = THREE if "-00b9-" in log_id else FOUR
    return Game(log_id, hhmm, minutes, results, label)

# --- the stand-in, and the commands ----------------------------------------------------------------


NOW = datetime(2026, 11, 20, 12, 0, tzinfo=JST).timestamp()


@pytest.fixture
def clock(monkeypatch):
    """The index's wall clock (the age of the kept lists): 2026-11-20 12:00 JST, moved by tests."""
    now = [NOW]
    monkeypatch.setattr(index_fetch, "_now", lambda: now[0])
    return now


@pytest.fixture
def fetchers(monkeypatch):
    """Both commands' fetchers without real pauses (the fake clock records them)."""
    fake = FakeTime()
    factory = functools.partial(LogFetcher, timeout=(2.0, 2.0), jitter=0.0, retries=1, lock_timeout=1.0,
                                sleep=fake.sleep, clock=fake.clock)  # fmt: skip
    monkeypatch.setattr(download_cmd, "LogFetcher", factory)
    monkeypatch.setattr(index_cmd, "LogFetcher", factory)
    return fake


@pytest.fixture
def site():
    with StandIn() as server:
        yield server


def run(*args: str, site: StandIn | None = None, cache_dir: Path | None = None, input=None):
    argv = list(args)
    if cache_dir is not None:
        argv += ["--cache-dir", str(cache_dir)]
    if site is not None:
        argv += ["--base-url", site.url]
    return CliRunner().invoke(cli, argv, input=input)


def small_site(site: StandIn) -> dict[str, Game]:
    """Two days in list.cgi?old (one also has a tournament file), the last days hourly in
    list.cgi, a results-only file, and logs for every game."""
    games = {
        "a": game(g4("20261110", 9, 1), "09:12"),
        "b": game(g3("20261110", 21, 2), "21:40"),
        "c": game(g4("20261111", 8, 3), "08:00", results=(("Zed", 30.0), ("Ａｌｉｃｅ", 10.0), ("Yan", -10.0), ("Xu", -30.0))),
        "d": game("2026111118gm-0009-10431-00000004", "18:20", label="C0431"),
        "e": game(g4("20261115", 0, 5), "00:30"),
        "f": game(g3("20261115", 1, 6), "01:05"),
        "g": game("2026111601gm-00e1-0000-00000007", "01:59"),
    }  # fmt: skip
    site.add_files({
        "2026/scc20261110.html.gz": day_file([scc_line(games["a"]), scc_line(games["b"])]),
        "2026/scc20261111.html.gz": day_file([scc_line(games["c"])]),
        "2026/scf20261111.html.gz": day_file([scf_line(games["d"])]),
        "2026/sca20261111.log.gz": day_file([sca_line(games["c"])]),
    }, old=True)  # fmt: skip
    site.add_files({
        "scc2026111500.html.gz": day_file([scc_line(games["e"])]),
        "scc2026111501.html.gz": day_file([scc_line(games["f"])]),
        "scc2026111601.html.gz": day_file([scc_line(games["g"])]),
        "scb2026111601.log.gz": day_file(["01:00 | 20 | 四般東喰赤－ | p(+40.0) q(+10.0) r(-20.0) s(-30.0)"]),
    }, old=False)  # fmt: skip
    for g in games.values():
        site.logs[g.log_id] = log_for(g)
    return games


def log_for(g: Game) -> bytes:
    """One of our fixture logs, with the GO type (and lobby) the id announces."""
    base = SANMA if g.type_code & 0x10 else ONE_HAND
    lobby = int(g.log_id.split("-")[2])
    head = b'<GO type="185" lobby="0"/>' if g.type_code & 0x10 else b'<GO type="169" lobby="0"/>'
    return base.replace(head, f'<GO type="{g.type_code}" lobby="{lobby}"/>'.encode())

def db_rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT id, date, num_players, is_tonpu, is_processed, was_error, log IS NOT NULL FROM logs ORDER BY id"
        ).fetchall()
