"""What reaches the terminal: untrusted text literally, the width, tile glyphs, and output that
cannot be written (issue 17).

Player names such as ``[/x]`` or ``[red]``, a folder named ``[/old]`` and finding messages with
brackets go through every command and come out exactly as they are; a full disk, a closed pipe
or a closed stdout is one line and exit code 1 for every command that writes.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from tenhou_tools.cli import cli, output, term

from .conftest import FIXTURES, REPO

NAMES = ["[/x]", "[red]", "a[3, 3]b", ":cat:"]
"""Rich markup (a closing tag, a style, a list) and an emoji code: all must stay as they are."""
ONE_HAND = (FIXTURES / "one_hand.xml").read_text()
UN = 'n0="%41%6C%69%63%65" n1="%42%6F%62" n2="%E3%81%95%E3%81%8F%E3%82%89" n3="Dan"'


def with_names(names: list[str], text: str = ONE_HAND) -> str:
    """one_hand.xml with other player names (the UN tag's n0..n3, URL-quoted as Tenhou writes)."""
    assert UN in text
    return text.replace(UN, " ".join(f'n{i}="{quote(n)}"' for i, n in enumerate(names)))


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


@pytest.fixture
def odd(tmp_path) -> Path:
    """A folder named ``[/old]`` (a folder ``[`` holding ``old]``) with a clean game whose players
    are NAMES, and the same game claiming 36000 points for its 48000 yakuman."""
    folder = tmp_path / "[" / "old]"
    folder.mkdir(parents=True)
    (folder / "names.xml").write_text(with_names(NAMES))
    (folder / "points.xml").write_text(with_names(NAMES).replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    return folder


# -- 1. text from a log or the user is never markup -----------------------------------------------


def test_show_prints_names_and_paths_literally(odd):
    path = odd / "names.xml"
    result = run("show", path)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"""\
{path}
Houou 4-player East-South, red fives, open tanyao (四鳳南喰赤)

Seat  Player    Dan   Rate
S0    [/x]      七段  2150
S1    [red]     七段  2081
S2    a[3, 3]b  八段  2240
S3    :cat:     七段  2090

Hand  Dealer  Result                                     S0      S1  S2  S3
E1-0  S0      Ron S0<-S1 48000 (yakuman: daisangen)  +48000  -48000   0   0

Final: 1. S0 [/x] 73000 (+83.0)  2. S2 a[3, 3]b 25000 (+5.0)  3. S3 :cat: 25000 (-15.0)  4. S1 [red] -23000 (-73.0)
"""


def test_replay_prints_names_literally(odd):
    path = odd / "points.xml"
    result = run("replay", path, "--seat", "1")
    assert result.exit_code == 1, result.output  # the finding
    lines = result.stdout.splitlines()
    assert lines[0] == str(path)
    assert lines[2] == "Date unknown (no game id) · 1 hand · viewed from S1 [red] (other seats' concealed tiles hidden)"
    assert lines[4:9] == ["Seat      Player    Dan   Rate", "S0        [/x]      七段  2150",
                          "S1 (you)  [red]     七段  2081", "S2        a[3, 3]b  八段  2240",
                          "S3        :cat:     七段  2090"]
    assert lines[13].startswith("E1-0  East 1, 0 honba · dealer S0 [/x] ─")
    assert "#  S0 E [/x]  S1 S [red]  S2 W a[3, 3]b  S3 N :cat:" in lines
    assert "1st   S0    [/x]       73000  +20   +83.0" in lines
    assert "S2  a[3, 3]b  25000  ▅▅   25000  low 25000, high 25000" in lines
    as_json = json.loads(run("replay", path, "--format", "json").stdout)
    assert [p["name"] for p in as_json["header"]["players"]] == NAMES


def test_stats_prints_names_literally(odd):
    result = run("stats", odd / "names.xml", "--brief", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.stdout == """\
4 player rows over 1 game
                           Avg                     Deal-        Dan pt
Player   Seats Games  Dan rank 1st 2nd 3rd 4th Win    in Riichi  /game
──────────────────────────────────────────────────────────────────────
:cat:        4     1 七段 3.00   0   0 100   0   0     0      0   +0.0
[/x]         4     1 七段 1.00 100   0   0   0 100     0      0  +90.0
[red]        4     1 七段 4.00   0   0   0 100   0   100      0 -135.0
a[3, 3]b     4     1 八段 2.00   0 100   0   0   0     0      0  +45.0
Rates in %. Dan: at the latest game. Dan pt/game: Tenhou's dan points per ranked
game, at the player's dan in each game. --wide: more columns.
"""
    detailed = run("stats", odd / "names.xml", "--player", "[/x]")
    assert detailed.exit_code == 0, detailed.output
    assert detailed.stdout.startswith("[/x] · 4-player · 1 game, 1 hand\n")


def test_validate_report_in_a_folder_named_like_markup(odd):
    result = run("validate", odd.parent.parent / "[")
    assert result.exit_code == 1, result.output
    points = odd / "points.xml"
    assert result.stdout == f"""\
2 games: 1 failed, 1 passed; 94 checks.
warning: 2 games hold claims that cannot be checked: the table without a game
  id (2), dated marks of a game of unknown date (2), the wall without a
  seed (2).

Findings by code:
  AGARI_POINTS  1

Failed games (1):
  {points}
    E1-0 AGARI_POINTS (step 5): S0's hand value (ten) is wrong
      points (ten): 48000 by the rules, the log says 36000
      tenhou-tools replay '{points}' --hand E1-0
"""


def test_finding_messages_with_brackets_keep_their_tail(tmp_path, monkeypatch):
    """A tenhou.net/6 JSON whose win details are ``[3, 3]``: the PARSE_ERROR message quotes them
    and its rich-tag-like tail ``[who, from, ...]`` stays (on a terminal wide enough that the
    message, after the temporary folder's long path, is not folded)."""
    monkeypatch.setenv("COLUMNS", "400")
    converted = run("convert", FIXTURES / "one_hand.xml", "--to", "tenhou6").stdout
    details = '[0,1,0,"役満48000点","大三元(役満)"]'
    assert details in converted
    path = tmp_path / "bad.json"
    path.write_text(converted.replace(details, "[3,3]"))
    message = "win details [3, 3] are not [who, from, pao, points, yaku...]"
    report = run("validate", path)
    assert report.exit_code == 1
    assert f"    PARSE_ERROR: {path}: " in report.stdout and report.stdout.rstrip().endswith(message)
    for command in (["show", path], ["replay", path], ["parse", path]):
        result = run(*command)
        assert result.exit_code == 1 and result.stderr.rstrip().endswith(message), command
    converting = run("convert", path, "--to", "mjai")
    assert converting.exit_code == 1 and message in converting.stderr


def test_convert_and_download_print_paths_literally(odd, tmp_path):
    bad = odd / "bad.xml"
    bad.write_text("<html/>")
    result = run("convert", bad, "--to", "mjai")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}: not a Tenhou log (an HTML page")
    log_id = "2014102312gm-00a9-0000-0000000a"
    cache = tmp_path / "[red]cache"
    cache.mkdir()
    (cache / f"{log_id}.mjlog").write_bytes((FIXTURES / "one_hand.mjlog").read_bytes())
    fetched = run("download", log_id, "--offline", "--cache-dir", cache, "--out", odd, "--no-progress")
    assert fetched.exit_code == 0, fetched.output
    assert fetched.stdout == f"{odd / (log_id + '.mjlog')}\n"
    assert fetched.stderr == (f"{log_id}: already cached, skipped\n"
                              f"1 id: 0 downloaded, 1 already cached, 0 failed, 1 copied to {odd}.\n")


def test_no_console_of_the_cli_reads_markup():
    """The structural half: every rich Console of the command line is made by term.make_console
    (markup and emoji codes off), and nothing asks for markup explicitly."""
    cli_dir = REPO / "tenhou_tools" / "cli"
    for path in sorted(cli_dir.glob("*.py")):
        text = path.read_text()
        if path.name != "term.py":
            assert "Console(" not in text, path.name
        assert "from_markup" not in text and "markup=True" not in text, path.name
        if path.name != "term.py":  # whose docstring says what it turns off
            assert not re.search(r"\[/?(bold|dim|red|green|yellow|cyan|italic)\b", text), path.name
    console = term.make_console(width=40)
    with console.capture() as captured:
        console.print("[/x] [red]y[/red] :cat:")
    assert captured.get() == "[/x] [red]y[/red] :cat:\n"


# -- 6. the terminal: width, tables at 80 columns, glyphs ------------------------------------------


def test_width_follows_columns_and_defaults_to_80(monkeypatch):
    monkeypatch.setenv("COLUMNS", "93")
    assert term.output_width() == 93
    monkeypatch.delenv("COLUMNS")

    def no_terminal(fd=None):
        raise OSError(errno.ENOTTY, "not a terminal")

    monkeypatch.setattr(os, "get_terminal_size", no_terminal)
    assert term.output_width() == term.DEFAULT_WIDTH == 80
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=None: os.terminal_size((132, 40)))
    assert term.output_width() == 132  # a pipe's width is the terminal's, when there is one


def test_piped_output_takes_the_width_of_columns(monkeypatch):
    shown = run("show", FIXTURES / "one_hand.xml", env={"COLUMNS": "60"}).stdout
    assert max(cell_len(line) for line in shown.splitlines()) <= 60
    assert shown.endswith("Final:\n  1. S0 Alice 73000 (+83.0)\n  2. S2 さくら 25000 (+5.0)\n"
                          "  3. S3 Dan 25000 (-15.0)\n  4. S1 Bob -23000 (-73.0)\n")
    rules = [line for line in run("replay", FIXTURES / "one_hand.xml", env={"COLUMNS": "100"}).stdout.splitlines()
             if line.endswith("─")]
    assert rules and all(cell_len(line) == 100 for line in rules)
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=None: (_ for _ in ()).throw(OSError("no tty")))
    rules = [line for line in run("replay", FIXTURES / "one_hand.xml").stdout.splitlines() if line.endswith("─")]
    assert rules and all(cell_len(line) == 80 for line in rules)


LONG = ["ＷチーズケーキＸ", "偽善者高橋みなみ", "a_very_long_ascii_name", "Ｑ"]
"""Names of 16 cells (eight full-width characters, Tenhou's longest), and a longer one."""


def test_every_view_fits_80_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the file as the user names it, wherever the temporary folder is
    path = Path("long.xml")
    path.write_text(with_names(LONG).replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    env = {"COLUMNS": "80"}
    views = {
        "show": run("show", path, env=env),
        "replay": run("replay", path, env=env),
        "replay --seat 2 --glyphs": run("replay", path, "--seat", "2", "--glyphs", env=env),
        "stats": run("stats", path, "--tables", "4", env=env),
        "stats --brief": run("stats", path, "--brief", env=env),
        "validate": run("validate", path, "--verbose", env=env),
    }
    for name, result in views.items():
        assert result.exit_code in (0, 1), (name, result.output)
        lines = result.stdout.splitlines()
        if name == "validate":  # its tables; a finding is one line (grep) and its command is whole
            lines = [line for line in lines if not line.startswith("    ")]
        widest = max(cell_len(line) for line in lines)
        assert widest <= 80, (name, widest)
        if name in ("show", "replay", "stats"):
            for player in LONG:  # whole (a table folds a longer name, the titles have it whole)
                assert player in result.stdout, (name, player)
    brief = views["stats --brief"].stdout.splitlines()
    assert len(brief) == 4 + 5 + 2  # title, header (2 lines), rule; a line per player, one folded; legend
    assert brief[4].startswith("a_very_long_asci ") and brief[5].rstrip() == "i_name"
    for player in LONG[:2] + LONG[3:]:
        assert any(line.startswith(player + " ") for line in brief), player
    # nothing is truncated with an ellipsis
    assert all("…" not in result.stdout for result in views.values())


def test_ascii_tiles_unless_stdout_is_a_utf8_terminal(monkeypatch):
    for name in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")  # the locale says UTF-8 (below: LANG=C)

    class Stream:
        def __init__(self, tty, encoding):
            self.tty, self.encoding = tty, encoding

        def isatty(self):
            return self.tty

    assert term.glyphs_by_default(Stream(True, "utf-8"))
    assert term.glyphs_by_default(Stream(True, "UTF8"))
    assert not term.glyphs_by_default(Stream(False, "utf-8"))  # a pipe, a file
    assert not term.glyphs_by_default(Stream(True, "ascii"))
    assert not term.glyphs_by_default(Stream(True, "latin-1"))
    piped = run("replay", FIXTURES / "one_hand.xml").stdout
    assert "S1 S  Bob      25000  406789m134067p7z" in piped and "🀄" not in piped
    forced = run("replay", FIXTURES / "one_hand.xml", "--glyphs").stdout
    assert "🀊 🀋 🀌" in forced
    assert run("replay", FIXTURES / "one_hand.xml", "--ascii").stdout == piped


def _run_on_a_terminal(args: list[str], env: dict[str, str], encoding: str = "utf-8") -> str:
    """The command's stdout when stdout is a pseudo-terminal."""
    master, slave = pty.openpty()
    with subprocess.Popen([sys.executable, "-m", "tenhou_tools", *args], stdout=slave,
                          stderr=subprocess.PIPE, env=env) as proc:  # closes the stderr pipe
        os.close(slave)
        chunks = []
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed its side
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode(encoding).replace("\r\n", "\n")


def _locale(**names: str) -> dict[str, str]:
    """The environment with only the locale variables given (LC_ALL, LC_CTYPE, LANG)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_CTYPE", "LANG")}
    return {**env, **names}


def test_glyphs_on_a_utf8_terminal_and_the_notation_otherwise():
    env = {**_locale(LANG="C.UTF-8"), "COLUMNS": "120", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    shown = _run_on_a_terminal(["replay", str(FIXTURES / "one_hand.xml")], env)
    assert "S1 S  Bob      25000  🀊 🀋 🀌 🀍 🀎 🀏 🀙 🀛 🀜 🀝 🀞 🀟 🀄" in shown
    latin = _run_on_a_terminal(["replay", str(FIXTURES / "one_hand.xml")], {**env, "PYTHONIOENCODING": "latin-1"},
                               "latin-1")
    assert "S1 S  Bob      25000  406789m134067p7z" in latin


@pytest.mark.parametrize("names", [{"LANG": "C"}, {"LC_ALL": "C"}, {"LANG": "POSIX"}, {},
                                   {"LC_ALL": "C", "LANG": "en_US.UTF-8"}, {"LANG": "ja_JP.eucJP"}])
def test_the_notation_on_a_posix_locale_terminal(names):
    """LANG=C: Python's UTF-8 mode makes stdout's encoding utf-8 on any terminal, but the terminal
    was told ASCII, and four-byte mahjong glyphs would be garbage there (issue 26, item 8)."""
    env = {**_locale(**names), "COLUMNS": "120", "NO_COLOR": "1"}
    shown = _run_on_a_terminal(["replay", str(FIXTURES / "one_hand.xml")], env, "utf-8")
    assert "S1 S  Bob      25000  406789m134067p7z" in shown and "🀄" not in shown
    forced = _run_on_a_terminal(["replay", str(FIXTURES / "one_hand.xml"), "--glyphs"], env, "utf-8")
    assert "S1 S  Bob      25000  🀊 🀋 🀌 🀍 🀎 🀏 🀙 🀛 🀜 🀝 🀞 🀟 🀄" in forced


@pytest.mark.parametrize("names, utf8", [
    ({"LANG": "C.UTF-8"}, True), ({"LANG": "en_US.utf8"}, True), ({"LC_ALL": "ja_JP.UTF-8", "LANG": "C"}, True),
    ({"LC_CTYPE": "de_DE.UTF-8@euro"}, True), ({"LANG": "C"}, False), ({"LC_ALL": "POSIX"}, False), ({}, False),
    ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, False), ({"LANG": "en_US"}, False), ({"LANG": "ja_JP.eucJP"}, False),
])
def test_the_locale_says_whether_the_terminal_takes_utf8(names, utf8):
    assert term.locale_is_utf8(names, utf8_mode=False) is utf8
    # LANG=C under Python's coercion (PEP 538/540): LC_CTYPE=C.UTF-8 set by Python itself
    coerced = {**names, "LC_CTYPE": "C.UTF-8"} if "LC_ALL" not in names and "LC_CTYPE" not in names else names
    assert term.locale_is_utf8(coerced, utf8_mode=True) is utf8


def test_several_dora_indicators_are_shown_apart(tmp_path):
    path = tmp_path / "dora.xml"
    path.write_text(ONE_HAND.replace('doraHai="40"', 'doraHai="40,20"'))
    text = run("replay", path, "--ascii").stdout
    assert "  S0: 123m99p555666777z · wins on 7z · dora indicators 2p 6m" in text.splitlines()


# -- 4. output that cannot be written ----------------------------------------------------------------

COMMANDS = {
    "parse": ["parse", "{log}"],
    "show": ["show", "{log}"],
    "replay": ["replay", "{log}"],
    "validate": ["validate", "{log}", "--format", "ndjson"],
    "stats": ["stats", "{log}"],
    "convert": ["convert", "{log}", "--to", "mjai"],
    "download": ["download", "2014102312gm-00a9-0000-0000000a", "--offline", "--cache-dir", "{cache}"],
}


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    (folder / "2014102312gm-00a9-0000-0000000a.mjlog").write_bytes((FIXTURES / "one_hand.mjlog").read_bytes())
    return folder


def _argv(name: str, cache: Path) -> list[str]:
    return [sys.executable, "-m", "tenhou_tools",
            *(a.format(log=FIXTURES / "one_hand.xml", cache=cache) for a in COMMANDS[name])]


def _one_error_line(stderr: str, reason: str) -> None:
    lines = [line for line in stderr.splitlines() if line.startswith("Error: ")]
    assert lines == [f"Error: cannot write to stdout: {reason}"], stderr
    assert "Internal error" not in stderr and "Traceback" not in stderr and "Exception ignored" not in stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_full_disk_on_stdout_is_one_line_and_exit_1(name, cache):
    with open("/dev/full", "w") as full:
        done = subprocess.run(_argv(name, cache), stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    _one_error_line(done.stderr, "No space left on device")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_pipe_ends_the_command_quietly_with_141(name, cache):
    """As git and grep end (SIGPIPE, which a shell reports as 141): no message."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: every write fails with EPIPE
    try:
        done = subprocess.run(_argv(name, cache), stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert done.returncode == output.EXIT_CLOSED_PIPE, done.stderr
    said = {"download": "2014102312gm-00a9-0000-0000000a: already cached, skipped\n"}  # before the path
    assert done.stderr == said.get(name, "")


def test_head_closing_the_pipe_early_is_quiet(tmp_path):
    """``tenhou-tools validate ... --format ndjson | head -3`` through a real pipe: the output is
    far larger than a pipe holds, so the command is still writing when head exits."""
    argv = [sys.executable, "-m", "tenhou_tools", "validate", "--format", "ndjson", "--no-dedupe", "--jobs", "1",
            *[str(FIXTURES / "one_hand.xml")] * 400]
    writer = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = subprocess.run(["head", "-3"], stdin=writer.stdout, capture_output=True, timeout=120)
    writer.stdout.close()
    stderr = writer.communicate(timeout=120)[1]
    assert len(head.stdout.splitlines()) == 3
    assert (writer.returncode, stderr) == (output.EXIT_CLOSED_PIPE, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["validate", "--help"], ["stats", "-h"]])
def test_help_and_version_on_a_full_disk_are_one_line_and_exit_1(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "tenhou_tools", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert (done.returncode, done.stderr) == (1, "Error: cannot write to stdout: No space left on device\n")


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_help_and_version_into_a_closed_pipe_are_quiet(args):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "tenhou_tools", *args], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (output.EXIT_CLOSED_PIPE, "")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_stdout_is_one_line_and_exit_1(name, cache):
    command = " ".join(f"'{a}'" for a in _argv(name, cache)) + " >&-"
    done = subprocess.run(["sh", "-c", command], stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    _one_error_line(done.stderr, "it is closed")


def test_a_closed_stdout_does_not_matter_when_nothing_goes_there(tmp_path):
    report = tmp_path / "r.ndjson"
    command = (f"'{sys.executable}' -m tenhou_tools validate '{FIXTURES / 'one_hand.xml'}' --format ndjson "
               f"-o '{report}' >&-")
    done = subprocess.run(["sh", "-c", command], stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(report.read_text().splitlines()[-1])["games"] == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", ["validate", "stats"])
def test_a_report_file_on_a_full_disk_is_one_line_and_exit_1(command):
    result = run(command, FIXTURES / "one_hand.xml", "-o", "/dev/full")
    assert result.exit_code == 1
    assert result.stderr == "Error: cannot write '/dev/full': No space left on device\n"


@pytest.mark.parametrize("command", ["validate", "stats"])
def test_a_report_file_in_a_missing_folder_is_exit_2_before_any_work(command, tmp_path, monkeypatch):
    target = tmp_path / "missing" / "report.txt"
    read = []
    monkeypatch.setattr("tenhou_tools.sources.local._Run.items", lambda self, inputs: read.append(1) or iter(()))
    result = run(command, FIXTURES / "one_hand.xml", "-o", target)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: cannot write {str(target)!r}: the folder {str(target.parent)!r} "
                             "does not exist\n")
    assert read == [] and not target.parent.exists()


def test_a_written_report_says_where_on_a_terminal(tmp_path, monkeypatch):
    target = tmp_path / "report.txt"
    assert run("validate", FIXTURES / "one_hand.xml", "-o", target).stderr == ""  # not a terminal
    monkeypatch.setattr(output, "_stderr_is_terminal", lambda: True)
    result = run("validate", FIXTURES / "one_hand.xml", "-o", target)
    assert result.exit_code == 0 and result.stderr == f"Wrote {target}.\n"
    stats = run("stats", FIXTURES / "one_hand.xml", "-o", tmp_path / "stats.txt")
    assert re.search(rf"^Wrote {re.escape(str(tmp_path / 'stats.txt'))}\.$", stats.stderr, re.M)


def test_control_characters_in_a_path_are_shown_not_sent(tmp_path):
    path = tmp_path / "a\x1b[31mred.xml"
    path.write_text("<html/>")
    result = run("validate", path)
    assert result.exit_code == 1
    assert "\x1b" not in result.stdout
    assert (f"  {tmp_path}/a\\x1b[31mred.xml\n"
            f"    PARSE_ERROR: {tmp_path}/a\\x1b[31mred.xml: not a Tenhou log") in result.stdout


def test_csv_cells_a_spreadsheet_would_run_are_escaped(tmp_path):
    """Real names such as ``=いろは=``, ``@kkk`` and a crafted ``=HYPERLINK(...)`` would run as
    formulas in Excel and LibreOffice: in ``stats --format csv`` such text cells begin with ``'``;
    numbers, negative ones too, stay numbers (docs/stats.md)."""
    names = ["=いろは=", '=HYPERLINK("http://127.0.0.1/x","y")', "@kkk", "-a-"]
    (tmp_path / "g.xml").write_text(with_names(names))
    result = run("stats", tmp_path, "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert sorted(r["name"] for r in rows) == sorted("'" + n for n in names)
    changes = [r["avg_hand_balance"] for r in rows if r["avg_hand_balance"].startswith("-")]
    assert changes and all(float(c) < 0 for c in changes)  # a negative number is not escaped
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "g.xml").write_text(with_names(["Alice", "Bob", "C=D", "a@b"]))
    rows = list(csv.DictReader(io.StringIO(run("stats", plain, "--format", "csv").stdout)))
    assert sorted(r["name"] for r in rows) == sorted(["Alice", "Bob", "C=D", "a@b"])
