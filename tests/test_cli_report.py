"""The ``validate`` text report and its findings, for people (issue 17): every failed game is
listed or counted, warnings that decide the exit code are listed, a clean run is one line, an
interrupted report says so, and each finding names its hand, says what its values mean and ends
with the command that shows it."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.check import check_log
from tenhou_tools.cli import cli, validate_cmd, validate_report
from tenhou_tools.cli.finding_text import values_text
from tenhou_tools.events import Agari
from tenhou_tools.findings import Finding, FindingCode, Severity
from tenhou_tools.rules.yaku import yaku_difference, yaku_name

from .conftest import FIXTURES, end_child, interruptible_cli
from .tamper import find_game, xml_of

ONE_HAND = (FIXTURES / "one_hand.xml").read_text()
REAL_ID = "2014102312gm-00a9-0000-afb21fa5"
HAND_WRITTEN = ("warning: {games} claims that cannot be checked: the table without a game\n"
                "  id ({n}), dated marks of a game of unknown date ({n}), the wall without a\n"
                "  seed ({n}).")
"""The report's warning on the hand-written fixtures, which have no game id and no seed."""


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def tampered(**edits: str) -> str:
    text = ONE_HAND
    for old, new in edits.values():
        assert old in text
        text = text.replace(old, new)
    return text


POINTS = ('ten="50,48000,5"', 'ten="50,36000,4"')  # AGARI_POINTS and AGARI_LIMIT
PAO = ('fromWho="1"', 'fromWho="1" paoWho="2"')
WARNING = ('<TAIKYOKU oya="0"/>', '<TAIKYOKU oya="0"/><FOO x="1"/>')  # PARSE_WARNING


# -- every failed game, every finding: listed or counted ------------------------------------------


def test_each_finding_has_its_hand_values_and_command(tmp_path):
    path = tmp_path / "a game.xml"  # a space: the command quotes the path
    path.write_text(tampered(points=POINTS))
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout == f"""\
1 game: 1 failed, 0 passed; 47 checks.
{HAND_WRITTEN.format(n=1, games="1 game holds")}

Findings by code:
  AGARI_LIMIT   1
  AGARI_POINTS  1

Failed games (1):
  {path}
    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong
      points (ten): 48000 by the rules, the log says 36000
      tenhou-tools replay '{path}' --hand E1-0
    E1-0 AGARI_LIMIT (step 5): S0's limit (ten) is wrong: yakuman by the rules, the log says sanbaiman
      tenhou-tools replay '{path}' --hand E1-0
"""
    # the command shows that hand, with the same finding
    shown = run("replay", path, "--hand", "E1-0", "--ascii")
    assert "  ✗ AGARI_POINTS (step 5: S0 ron on S1): S0's hand value (ten) is wrong" in shown.stdout


def test_games_and_findings_beyond_the_limits_are_counted(tmp_path, monkeypatch):
    monkeypatch.setattr(validate_report, "MAX_GAMES", 2)
    monkeypatch.setattr(validate_report, "MAX_FINDINGS", 1)
    for i in range(5):
        (tmp_path / f"{i}.xml").write_text(tampered(points=POINTS))
    result = run("validate", tmp_path, "--no-dedupe")  # five copies of one log
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[:4] == ["5 games: 5 failed, 0 passed; 235 checks.",
                         *HAND_WRITTEN.format(n=5, games="5 games hold").splitlines()]
    start = lines.index("Failed games (5):")
    assert lines[start + 1:] == [
        f"  {tmp_path / '0.xml'}",
        "    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong",
        "      points (ten): 48000 by the rules, the log says 36000",
        f"      tenhou-tools replay {tmp_path / '0.xml'} --hand E1-0",
        "    … and 1 more in this game (see --format ndjson)",
        f"  {tmp_path / '1.xml'}",
        "    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong",
        "      points (ten): 48000 by the rules, the log says 36000",
        f"      tenhou-tools replay {tmp_path / '1.xml'} --hand E1-0",
        "    … and 1 more in this game (see --format ndjson)",
        "  … and 3 more games (see --format ndjson)",
    ]


def test_warnings_that_decide_the_exit_code_are_listed(tmp_path):
    path = tmp_path / "w.xml"
    path.write_text(tampered(warning=WARNING))
    default = run("validate", path)
    assert default.exit_code == 0
    assert default.stdout == ("1 game, no errors (1 with warnings); 47 checks.\n"
                              f"{HAND_WRITTEN.format(n=1, games='1 game holds')}\n\n"
                              "Findings by code:\n  PARSE_WARNING  1\n")
    strict = run("validate", path, "--fail-on", "warning")
    assert strict.exit_code == 1
    assert strict.stdout.splitlines()[-4:] == [
        "Games with findings (1):",
        f"  {path}",
        "    PARSE_WARNING (warning): element 3 <FOO>: unknown tag kept as Unknown",
        f"      tenhou-tools replay {path}",
    ]
    # a failed game's warnings are counted under its errors when only errors fail
    both = tmp_path / "both.xml"
    both.write_text(tampered(warning=WARNING, points=POINTS))
    lines = run("validate", both).stdout.splitlines()
    assert "    (and 1 warning, listed with --fail-on warning)" in lines


def test_a_clean_run_is_one_line():
    assert validate_report.checks_text(56) == "56 checks"
    assert validate_report.checks_text(123_456) == "123,456 checks"
    assert validate_report.checks_text(1_712_345) == "1.7 M checks"
    result = run("validate", FIXTURES / "one_hand.xml", FIXTURES / "sanma_kita.xml", FIXTURES / "one_hand.mjlog",
                 "--no-dedupe")
    assert result.exit_code == 0
    assert result.stdout == f"3 games, all clean; 144 checks.\n{HAND_WRITTEN.format(n=3, games='3 games hold')}\n"


# -- viewer links: real game ids only --------------------------------------------------------------


def test_viewer_links_only_for_real_game_ids(tmp_path):
    real = tmp_path / f"{REAL_ID}.xml"
    junk = tmp_path / "2014102312gm-zzzz-0000-afb21fa5.xml"  # read as a game id by its name, not one
    for path in (real, junk):
        path.write_text(tampered(points=POINTS))
    report = run("validate", real, junk).stdout
    assert report.count("https://tenhou.net/") == 1
    assert f"    https://tenhou.net/0/?log={REAL_ID}&ts=0\n  {junk}\n" in report
    assert run("replay", real, "--seat", "2").stdout.count(f"https://tenhou.net/0/?log={REAL_ID}&tw=2") == 1
    assert "https://" not in run("replay", junk, "--seat", "2").stdout


def test_a_log_inside_an_archive_gets_no_replay_command(tmp_path):
    """replay reads files and ids; an id would fetch Tenhou's own copy, not the checked member."""
    import zipfile

    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{REAL_ID}.xml", tampered(points=POINTS))
    lines = run("validate", archive).stdout.splitlines()
    start = lines.index("Failed games (1):")
    assert lines[start + 1:] == [
        f"  {archive}:{REAL_ID}.xml",
        "    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong",
        "      points (ten): 48000 by the rules, the log says 36000",
        "    E1-0 AGARI_LIMIT (step 5): S0's limit (ten) is wrong: yakuman by the rules, the log says sanbaiman",
        f"    https://tenhou.net/0/?log={REAL_ID}&ts=0",
    ]


# -- findings in words and in JSON -------------------------------------------------------------------


def test_yakuman_and_limits_by_name_in_text_and_json(tmp_path):
    path = tmp_path / "y.xml"
    path.write_text(tampered(yakuman=('yakuman="39"', 'yakuman="42"'), points=POINTS))
    record = json.loads(run("validate", path, "--format", "ndjson").stdout.splitlines()[0])
    by_code = {f["code"]: f for f in record["findings"]}
    yakuman = by_code["AGARI_YAKUMAN"]
    assert yakuman["message"] == "S0's yakuman are wrong: daisangen by the rules, the log says tsuuiisou"
    assert (yakuman["expected"], yakuman["actual"]) == ([39], [42])
    assert (yakuman["expected_names"], yakuman["actual_names"]) == (["daisangen"], ["tsuuiisou"])
    limit = by_code["AGARI_LIMIT"]
    assert limit["message"] == "S0's limit (ten) is wrong: yakuman by the rules, the log says sanbaiman"
    assert (limit["expected_names"], limit["actual_names"]) == ("yakuman", "sanbaiman")
    assert all(f["hand"] == 0 and f["label"] == "E1-0" for f in record["findings"])
    assert "expected_names" not in by_code["AGARI_POINTS"]


def test_yaku_differences_are_named():
    assert yaku_difference([(1, 1), (7, 1), (53, 0)], [(1, 2), (7, 1), (53, 0)]) == \
        "riichi: 1 han by the rules, the log says 2"
    assert yaku_difference([(1, 1), (7, 1)], [(1, 1), (8, 1)]) == (
        "pinfu (1 han): by the rules, missing from the log; tanyao (1 han): in the log, not by the rules")


@pytest.fixture(scope="module")
def plain_win(corpus):
    def first(game):
        for hand in game.hands:
            for event in hand.events:
                if isinstance(event, Agari) and not event.yakuman and len(event.yaku) >= 3:
                    return event
        return None

    path, game = find_game(lambda g: first(g) is not None)
    return path, game, first(game)


def test_a_wrong_han_in_a_real_log_is_named(plain_win, tmp_path):
    path, _game, agari = plain_win
    yid, han = next((y, h) for y, h in agari.yaku if y not in (52, 53, 54))
    xml = xml_of(path).decode()
    old = ",".join(f"{y},{h}" for y, h in agari.yaku)
    new = old.replace(f"{yid},{han}", f"{yid},{han + 1}", 1)
    assert xml.count(f'yaku="{old}"') >= 1
    altered = tmp_path / "altered.xml"
    altered.write_text(xml.replace(f'yaku="{old}"', f'yaku="{new}"', 1))
    (finding,) = [f for f in check_log(altered.read_bytes(), path=str(altered)).findings
                  if f.code is FindingCode.AGARI_YAKU]
    name = yaku_name(yid)
    assert finding.message == f"S{agari.who}'s yaku are wrong: {name}: {han} han by the rules, the log says {han + 1}"
    assert finding.to_json()["actual_names"] == [[yaku_name(y), h] for y, h in finding.actual]
    text = run("validate", altered).stdout
    assert f": {name}: {han} han by the rules, the log says {han + 1}\n" in text
    assert f"      yaku and han: {', '.join(f'{yaku_name(y)} {h}' for y, h in finding.expected)} by the rules" in text


def test_no_bare_none_in_the_report(tmp_path):
    """Values say what they are; a side with no value is left out or called what it is."""
    path = tmp_path / "pao.xml"
    path.write_text(tampered(pao=PAO))
    text = run("validate", path).stdout
    assert "      liable seat (paoWho): none by the rules, the log says S2\n" in text
    assert "None" not in text and "expected" not in text
    samples = [
        Finding(FindingCode.TILE_NOT_IN_HAND, Severity.ERROR, "S0 discarded 8s (id 101), which is not in the hand",
                0, 3, None, 101),
        Finding(FindingCode.AGARI_ORDER, Severity.ERROR, "the wins ... are not in turn order", 0, 9, None, [2, 1]),
        Finding(FindingCode.FURITEN_DISCARD, Severity.ERROR, "S1 rons while ...", 0, 9, [], [2, 5]),
        Finding(FindingCode.RIICHI_POINTS, Severity.ERROR, "S1 declares riichi with fewer than 1000 points", 0, 9,
                1000, 900),
        Finding(FindingCode.DRAW_TENPAI, Severity.ERROR, "S1 is tenpai but the log says otherwise", 0, 9, True, False),
        Finding(FindingCode.RIICHI_TSUMOGIRI, Severity.ERROR, "S1 is in riichi but ...", 0, 9, None, 40),
    ]
    assert [values_text(f) for f in samples] == [
        None,
        "winners in the log's order: the log says S2, S1",
        "winning tiles in the winner's river: 3m 6m",
        "points: 900, at least 1000 needed",
        "tenpai: yes by the rules; the log shows the hand: no",
        "discard: none by the rules, the log says 2p (id 40)",
    ]


# -- Ctrl-C: the report says it covers part of the games ----------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "ndjson", "json"])
def test_an_interrupted_report_says_so(tmp_path, monkeypatch, fmt):
    for i in range(4):
        (tmp_path / f"{i}.xml").write_text(ONE_HAND)
    seen = []
    real_fails = validate_cmd.fails

    def interrupt_on_third(record, fail_on):
        seen.append(record)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real_fails(record, fail_on)

    monkeypatch.setattr(validate_cmd, "fails", interrupt_on_third)
    out = tmp_path / "report.out"
    result = run("validate", tmp_path, "--format", fmt, "--jobs", "1", "-o", out, "--no-dedupe")
    assert result.exit_code == 130
    assert result.stderr == "Interrupted after 3 games.\n"  # the third was written and counted
    text = out.read_text()
    if fmt == "text":
        assert text.splitlines() == ["Interrupted after 3 games: this report covers only those.",
                                     "3 games, all clean; 141 checks.",
                                     *HAND_WRITTEN.format(n=3, games="3 games hold").splitlines()]
    else:
        summary = json.loads(text)[-1] if fmt == "json" else json.loads(text.splitlines()[-1])
        assert summary["interrupted"] is True and summary["games"] == 3


def _reader_opened(fifo: Path, proc: subprocess.Popen) -> int | None:
    """Open ``fifo`` for writing once a reader has it open (a file descriptor), or ``None`` when
    the process ended first."""
    while proc.poll() is None:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        time.sleep(0.01)
    return None


UNBOUNDED_WAIT = 60
"""How long a child may take to act on SIGINT before the test calls it hung (it acts within a
quarter of a second: ``sources.reads``); a bound for a failing run only."""


def test_a_real_sigint_leaves_no_normal_looking_report(tmp_path):
    """A real SIGINT while validate waits for its last log (a FIFO we hold open and never write
    to): exit 130, and the -o file says "interrupted": true and covers the logs before it."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(3):
        (folder / f"{i}.xml").write_text(ONE_HAND)
    fifo = tmp_path / "last.xml"
    os.mkfifo(fifo)
    out = tmp_path / "report.ndjson"
    proc = interruptible_cli("validate", folder, fifo, "--jobs", "1", "--format", "ndjson", "-o", out,
                             "--no-dedupe", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    held = None
    try:
        while held is None:
            fd = _reader_opened(fifo, proc)
            assert fd is not None, proc.communicate()
            if any(p.name.startswith(".report.ndjson.") for p in tmp_path.iterdir()):
                held = fd  # the report is being written: the command waits for this log's bytes
            else:
                os.close(fd)  # counting the inputs peeked at it: let it see an empty file
        proc.send_signal(signal.SIGINT)
        _, err = end_child(proc, UNBOUNDED_WAIT)
    finally:
        if held is not None:
            os.close(held)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Internal error" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last.xml", "logs", "report.ndjson"]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["game", "game", "game", "summary"]
    assert lines[-1]["interrupted"] is True and lines[-1]["games"] == 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="opening a FIFO without waiting: Linux")
@pytest.mark.parametrize("how", ["input", "list", "stats"])
def test_a_real_sigint_ends_the_wait_for_a_fifo_no_one_writes(tmp_path, how):
    """A FIFO named as validate's input, as an @FILE list, or as stats' input: the command opens it (it no
    longer waits in ``open`` for a writer), a writer comes and sends nothing, and SIGINT ends the
    command with 130 and "Interrupted."."""
    fifo = tmp_path / "fifo.xml"
    os.mkfifo(fifo)
    args = {"input": ["validate", fifo, "--jobs", "1"], "list": ["validate", f"@{fifo}", "--jobs", "1"],
            "stats": ["stats", fifo, "--jobs", "1"]}[how]
    proc = interruptible_cli(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    fd = _reader_opened(fifo, proc)
    try:
        assert fd is not None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = end_child(proc, UNBOUNDED_WAIT)
    finally:
        if fd is not None:
            os.close(fd)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert (proc.returncode, out, err) == (130, "", "Interrupted.\n")


def test_an_interrupted_stats_run_does_not_write_its_report_file(tmp_path, monkeypatch):
    """stats has no summary to carry "interrupted": its -o file is not written (an older one
    stays), the exit code is 130."""
    from tenhou_tools.stats import collect

    real = collect.iter_logs

    def cut(*args, **kwargs):
        items = real(*args, **kwargs)

        def gen():
            yield next(items)
            raise KeyboardInterrupt

        return gen()

    monkeypatch.setattr(collect, "iter_logs", cut)
    out = tmp_path / "stats.json"
    out.write_text("the previous report\n")
    result = run("stats", FIXTURES / "one_hand.xml", FIXTURES / "sanma_kita.xml", "--jobs", "1",
                 "--format", "json", "-o", out)
    assert result.exit_code == 130
    assert f"Interrupted. {out} was not written." in result.stderr
    assert out.read_text() == "the previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stats.json"]


def test_a_finding_is_one_line_however_narrow_the_terminal(tmp_path, monkeypatch):
    """At 40 columns a finding, its values and the replay command that shows it are each one line
    (searched for and copied whole; README, validate), as in a report written with -o."""
    game = tmp_path / "g.xml"
    game.write_text((FIXTURES / "one_hand.xml").read_text().replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    monkeypatch.setenv("COLUMNS", "40")
    lines = CliRunner().invoke(cli, ["validate", str(game)]).stdout.splitlines()
    start = lines.index("    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong")
    assert lines[start + 1] == "      points (ten): 48000 by the rules, the log says 36000"
    assert lines[start + 2] == f"      tenhou-tools replay {game} --hand E1-0"
    out = tmp_path / "report.txt"
    CliRunner().invoke(cli, ["validate", str(game), "-o", str(out)])
    assert "\n".join(lines[start:start + 3]) in out.read_text()
