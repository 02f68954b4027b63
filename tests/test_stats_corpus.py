"""``stats`` over the real-log corpus agrees with an independent count of the XML.

The independent count reads each log with the standard library's ElementTree (not our parser)
and counts, per (name, players): games and hands, wins (``AGARI`` tags by ``who``), tsumo wins,
deal-ins (ron ``AGARI`` tags by ``fromWho``), riichi (``REACH step=1``), hands with an open call
(``N`` tags decoded from the ``m`` bits: chi, pon, open kan), yakuman wins, exhaustive draws and
the tenpai hands they show, nine-terminals declarations, and the ranks of ``owari`` (final score
order, ties to the seat nearer the first dealer).
"""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli

from .conftest import end_child, interruptible_cli, stats_summary

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("stats_corpus")]
"""Both tests read the one report of ``corpus_report`` (one worker computes it once)."""


def _is_open_call(m: int) -> bool:
    if m & 0x4:  # chi
        return True
    if m & 0x18:  # pon (0x8) or added kan (0x10): only the pon is a new call
        return bool(m & 0x8)
    if m & 0x20:  # kita
        return False
    return bool(m & 3)  # a kan: open when it names the seat the tile came from


def independent_count(files) -> dict:
    counts: dict = defaultdict(Counter)
    seen = set()
    for path in files:
        log_id = re.sub(r"_tw=[0-3]$", "", path.name.split(".", 1)[0])
        root = ET.fromstring(gzip.decompress(path.read_bytes()))
        shuffle = root.find("SHUFFLE")
        # a game is read once: named by its id (files named by it), or by its whole seed
        keys = {log_id} if re.match(r"[0-9]{10}gm-", log_id) else set()
        if shuffle is not None:
            keys.add(shuffle.get("seed"))
        if keys & seen:
            seen |= keys
            continue
        seen |= keys
        players = 3 if int(root.find("GO").get("type")) & 0x10 else 4
        un = root.find("UN")
        names = [unquote(un.get(f"n{s}", "")) for s in range(players)]
        first = int(root.find("TAIKYOKU").get("oya", "0")) if root.find("TAIKYOKU") is not None else 0
        called = set()
        owari = None
        for el in root:
            if el.tag == "INIT":
                called = set()
                for s in range(players):
                    counts[(names[s], players)]["hands"] += 1
            elif el.tag == "N":
                seat = int(el.get("who"))
                if _is_open_call(int(el.get("m"))) and seat not in called:
                    called.add(seat)
                    counts[(names[seat], players)]["calls"] += 1
            elif el.tag == "REACH" and el.get("step") == "1":
                counts[(names[int(el.get("who"))], players)]["riichi"] += 1
            elif el.tag == "AGARI":
                who, from_who = int(el.get("who")), int(el.get("fromWho"))
                counts[(names[who], players)]["wins"] += 1
                if who == from_who:
                    counts[(names[who], players)]["tsumo_wins"] += 1
                else:
                    counts[(names[from_who], players)]["deal_ins"] += 1
                if el.get("yakuman"):
                    counts[(names[who], players)]["yakuman"] += 1
            elif el.tag == "RYUUKYOKU":
                kind = el.get("type")
                for s in range(players):
                    shown = el.get(f"hai{s}") is not None
                    if kind in (None, "nm"):
                        counts[(names[s], players)]["exhaustive_draws"] += 1
                        counts[(names[s], players)]["tenpai_at_draw"] += shown
                    elif kind == "yao9":
                        counts[(names[s], players)]["nine_terminals"] += shown
            if el.tag in ("AGARI", "RYUUKYOKU") and el.get("owari"):
                owari = el.get("owari").split(",")
        scores = [int(owari[2 * s]) for s in range(players)]
        order = sorted(range(players), key=lambda s: (-scores[s], (s - first) % 4))
        for rank, seat in enumerate(order, 1):
            counts[(names[seat], players)]["games"] += 1
            counts[(names[seat], players)][f"rank{rank}"] += 1
    return counts


@pytest.fixture(scope="module")
def corpus_report(corpus):
    """``stats`` over the corpus's mjlog/ in one run (``--format json``), which both tests compare
    with: the independent count, and the report a run interrupted and resumed gives."""
    return CliRunner().invoke(cli, ["stats", str(corpus / "mjlog"), "--format", "json", "--jobs", "2", "--no-progress"])


def test_corpus_counts_agree_with_an_independent_count(corpus, corpus_report):
    files = sorted((corpus / "mjlog").glob("*/*.gz"))
    result = corpus_report  # stats over those files
    assert result.exit_code == 0, result.stderr
    assert "; 0 unreadable;" in stats_summary(result.stderr)[0]
    report = {(r["name"], r["players"]): r for r in json.loads(result.stdout)}
    expected = independent_count(files)
    assert set(report) == set(expected)
    fields = ("games", "hands", "wins", "tsumo_wins", "deal_ins", "riichi", "calls", "yakuman",
              "exhaustive_draws", "tenpai_at_draw", "nine_terminals")
    mismatches = []
    for key, want in expected.items():
        row = report[key]
        got = {f: row["counters"][f] for f in fields}
        got.update({f"rank{r}": row["rank_counts"][r - 1] for r in range(1, key[1] + 1)})
        want_all = {f: want.get(f, 0) for f in got}
        if got != want_all:
            mismatches.append((key, got, want_all))
    assert not mismatches, mismatches[:5]
    # every game has one player per seat
    n4 = sum(r["rank_counts"][0] for r in report.values() if r["players"] == 4)
    n3 = sum(r["rank_counts"][0] for r in report.values() if r["players"] == 3)
    assert sum(r["games"] for r in report.values()) == 4 * n4 + 3 * n3


def test_ctrl_c_then_resume_gives_the_full_database(corpus, corpus_report, tmp_path):
    """A real SIGINT in the middle of a run over the corpus: exit 130, a consistent database;
    a second run adds the rest, and the report equals the one read from the logs."""
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    db = tmp_path / "stats.sqlite"
    command = [sys.executable, "-m", "tenhou_tools", "stats", str(corpus / "mjlog"), "--db", str(db),
               "--jobs", "2", "--format", "json", "-o", str(tmp_path / "partial.json")]
    proc = interruptible_cli(*command[3:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    if conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 500:
                        break
            except sqlite3.Error:
                pass
    proc.send_signal(signal.SIGINT)
    _, err = end_child(proc, 120)
    assert proc.returncode == 130, err.decode()
    assert b"Interrupted" in err and b"Traceback" not in err
    with sqlite3.connect(db) as conn:
        games, seats = conn.execute("SELECT COUNT(*), SUM(players) FROM games").fetchone()
        counted = conn.execute("SELECT SUM(games) FROM counters").fetchone()[0]
    assert 0 < games < 4150 and counted == seats
    rest = subprocess.run(command[:-2], capture_output=True, timeout=120)
    assert rest.returncode == 0, rest.stderr.decode()
    assert f"{games} already in it" in stats_summary(rest.stderr.decode())[0]
    assert corpus_report.exit_code == 0, corpus_report.stderr
    assert rest.stdout.decode() == corpus_report.stdout  # the report of one uninterrupted run
