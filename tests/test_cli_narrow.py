"""Narrow terminals (issue 26, item 11): `stats` and `show` keep names readable and numbers whole
down to 40 columns — columns are left out, or a name goes on a line of its own, and a line says
so; nothing is cut with an ellipsis and no line is wider than the terminal."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from tenhou_tools.cli import cli

from .conftest import FIXTURES
from .test_cli_output import LONG, with_names

BOTH = [FIXTURES / "one_hand.mjlog", FIXTURES / "sanma_kita.xml"]


def run(*args, width: int):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"COLUMNS": str(width)})


@pytest.fixture
def long_names(tmp_path):
    path = tmp_path / "long.xml"
    path.write_text(with_names(LONG))
    return path


def test_stats_brief_at_64_columns_leaves_out_a_column_and_keeps_the_names():
    result = run("stats", *BOTH, "--brief", width=64)
    assert result.exit_code == 0, result.output
    assert result.stdout == """\
7 player rows over 2 games
                         Avg                 Deal-        Dan pt
Player Seats Games  Dan rank 1st 3rd 4th Win    in Riichi  /game
────────────────────────────────────────────────────────────────
Alice      4     1 七段 1.00 100   0   0 100     0      0  +90.0
Alice      3     1 七段 1.00 100   0     100     0      0 +135.0
Bob        4     1 七段 4.00   0   0 100   0   100      0 -135.0
Bob        3     1 七段 3.00   0 100       0   100      0 -135.0
Carol      3     1 八段 2.00   0   0       0     0      0   +0.0
Dan        4     1 七段 3.00   0 100   0   0     0      0   +0.0
さくら     4     1 八段 2.00   0   0   0   0     0      0  +45.0
Rates in %. Dan: at the latest game. Dan pt/game: Tenhou's dan
points per ranked game, at the player's dan in each game.
--wide: more columns.
At 64 columns: left out 2nd (a wider terminal shows more).
"""


def test_stats_brief_at_40_columns():
    result = run("stats", *BOTH, "--brief", width=40)
    assert result.stdout == """\
7 player rows over 2 games
                    Avg         Dan pt
Player Seats Games rank 1st 4th  /game
──────────────────────────────────────
Alice      4     1 1.00 100   0  +90.0
Alice      3     1 1.00 100     +135.0
Bob        4     1 4.00   0 100 -135.0
Bob        3     1 3.00   0     -135.0
Carol      3     1 2.00   0       +0.0
Dan        4     1 3.00   0   0   +0.0
さくら     4     1 2.00   0   0  +45.0
Rates in %. Dan pt/game: Tenhou's dan
points per ranked game, at the player's
dan in each game. --wide: more columns.
At 40 columns: left out Dan, 2nd, 3rd,
Win, Deal-in, Riichi (a wider terminal
shows more).
"""


def test_stats_brief_puts_long_names_on_their_own_lines_at_40_columns(long_names):
    result = run("stats", long_names, "--brief", width=40)
    assert result.stdout == """\
4 player rows over 1 game
                  Avg             Dan pt
Seats Games  Dan rank 1st 4th Win  /game
────────────────────────────────────────
a_very_long_ascii_name
    4     1 八段 2.00   0   0   0  +45.0
偽善者高橋みなみ
    4     1 七段 4.00   0 100   0 -135.0
Ｑ
    4     1 七段 3.00   0   0   0   +0.0
ＷチーズケーキＸ
    4     1 七段 1.00 100   0 100  +90.0
Rates in %. Dan: at the latest game. Dan
pt/game: Tenhou's dan points per ranked
game, at the player's dan in each game.
--wide: more columns.
At 40 columns: left out 2nd, 3rd,
Deal-in, Riichi; each name on a line
above its figures (a wider terminal
shows more).
"""


def test_show_at_40_columns_keeps_the_score_changes_whole(monkeypatch):
    monkeypatch.chdir(FIXTURES.parent)  # the title is the path as given: the same in any checkout
    result = run("show", "fixtures/one_hand.mjlog", width=40)
    assert result.exit_code == 0, result.output
    assert result.stdout == """\
fixtures/one_hand.mjlog
Houou 4-player East-South, red fives,
open tanyao (四鳳南喰赤)

Seat  Player  Dan   Rate
S0    Alice   七段  2150
S1    Bob     七段  2081
S2    さくら  八段  2240
S3    Dan     七段  2090

Hand     S0     S1 S2 S3
E1-0 +48000 -48000  0  0
  Ron S0<-S1 48000 (yakuman: daisangen)
Narrow terminal: each hand's result is
under its scores, the Dealer column left
out.

Final:
  1. S0 Alice 73000 (+83.0)
  2. S2 さくら 25000 (+5.0)
  3. S3 Dan 25000 (-15.0)
  4. S1 Bob -23000 (-73.0)
"""


def test_show_breaks_a_long_path_after_a_slash_at_40_columns(tmp_path):
    """A path wider than the terminal is broken after a '/', never inside a folder's name, and
    no line is wider than the terminal (issue 34, item 6)."""
    folder = tmp_path / "a-checkout-under-a-long-path" / "tenhou-tools" / "fixtures"
    folder.mkdir(parents=True)
    log = folder / "one_hand.mjlog"
    log.write_bytes((FIXTURES / "one_hand.mjlog").read_bytes())
    lines = run("show", log, width=40).stdout.splitlines()
    title = lines[:lines.index("Houou 4-player East-South, red fives,")]
    assert "".join(title) == str(log)
    assert all(line.endswith("/") for line in title[:-1]) and title[-1].endswith("/one_hand.mjlog")
    assert max(cell_len(line) for line in lines) <= 40


def test_stats_tables_at_40_columns():
    result = run("stats", FIXTURES / "one_hand.mjlog", "--player", "Alice", width=40)
    lines = result.stdout.splitlines()
    assert "  1st place                100.0%    1/1" in lines  # the interval column is left out ...
    assert lines[lines.index("Alice · 4-player · by table kind") - 3:] == [
        "At 40 columns: left out the 95% CI",  # ... and a line says so
        "column (a wider terminal shows it).",
        "",
        "Alice · 4-player · by table kind",
        "                       Avg Dan pt Stable",
        "Games 1st 2nd 3rd 4th rank  /game    dan",
        "────────────────────────────────────────",
        "4p houou · East-South",
        "    1   1   0   0   0 1.00  +90.0      –",
        "At 40 columns: each table kind on a line",
        "above its figures (a wider terminal",
        "shows more).",
    ]


@pytest.mark.parametrize("width", [40, 44, 52, 60, 64, 70, 76, 80])
def test_no_view_is_cut_or_wider_than_the_terminal(long_names, width):
    for args in (["show", long_names], ["stats", long_names, "--brief"], ["stats", long_names, "--tables", "4"],
                 ["stats", *BOTH, "--tables", "7"], ["show", FIXTURES / "sanma_kita.xml"], ["validate", *BOTH]):
        result = run(*args, width=width)
        assert result.exit_code == 0, (args, result.output)
        lines = result.stdout.splitlines()
        assert max(cell_len(line) for line in lines) <= width, (args, width)
        assert "…" not in result.stdout, (args, width)
        if args[0] == "stats" and args[1] == long_names:
            for name in [n for n in LONG if cell_len(n) <= 16]:  # whole on a line
                assert any(name in line for line in lines), (name, width)


def test_validates_prose_is_folded_and_its_findings_kept_whole(tmp_path):
    """At 40 columns the report's sentences fold (the skipped files' line, the warning of claims
    that cannot be checked); a finding and a path stay one line, to be searched for and copied
    whole."""
    (tmp_path / "saved page.xml").write_text("<!DOCTYPE html><html><body>a viewer page</body></html>")
    (tmp_path / "one_hand.xml").write_bytes((FIXTURES / "one_hand.xml").read_bytes())
    (tmp_path / "cut.mjlog").write_bytes((FIXTURES / "truncated.mjlog").read_bytes())
    result = run("validate", tmp_path, width=40)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    finding = f"    PARSE_ERROR: {tmp_path / 'cut.mjlog'}: byte 305: gzip data is truncated"
    assert finding in lines
    assert f"  {tmp_path / 'cut.mjlog'}" in lines
    assert max(cell_len(line) for line in lines if str(tmp_path) not in line) <= 40
    assert lines[1:3] == ["1 file skipped: not a Tenhou log (named", "  on stderr)."]


def test_stats_summary_on_stderr_folds_as_validates_prose(monkeypatch):
    """The summary `stats` writes on stderr is a sentence like the report's: at 40 columns it
    folds between words, continued lines indented (`term.folded`, as `validate`'s verdict); an
    unreadable log stays one line, to be searched for and copied whole."""
    from types import SimpleNamespace

    from tenhou_tools.cli import stats_cmd

    ticks = iter([0.0])  # the run starts at 0 s; every later reading is 2 s: the time taken is 2.0 s
    monkeypatch.setattr(stats_cmd, "time", SimpleNamespace(perf_counter=lambda: next(ticks, 2.0)))
    monkeypatch.chdir(FIXTURES.parent)  # the paths as given: the same in any checkout
    result = run("stats", "fixtures/one_hand.mjlog", "fixtures/sanma_kita.xml", "fixtures/truncated.mjlog",
                 "--brief", "--jobs", "1", width=40)
    assert result.exit_code == 1  # a log could not be read
    assert result.stderr == """\
stats: 3 logs read in 2.0 s (1 games/s);
  1 unreadable; 2 games and 7 player
  rows reported.
  unreadable: fixtures/truncated.mjlog: byte 305: gzip data is truncated
"""
