"""Text in the terminal that cannot hide or reorder itself, and commands that paste (issue 26,
items 4 and 12).

A player name or a path with a bidirectional control (U+202E mirrors what follows it), a terminal
escape, a zero-width mark or a line break shows as its escape in every text view (``term.visible``);
JSON and CSV keep the text as it is. A suggested command for a file whose name holds such a
character is quoted with ``$'...'`` and runs when pasted into bash (``term.shell_quote``).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli, term

from .conftest import FIXTURES
from .test_cli_output import with_names

NAMES = ["Al\u202eice 12", "B\x1b[2Job", "Ca\u200brol", "D\nan"]
"""A right-to-left override, a terminal escape (clear the screen), a zero-width space, a line break."""
SHOWN = ["Al\\u202eice 12", "B\\x1b[2Job", "Ca\\u200brol", "D\\x0aan"]


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


@pytest.fixture
def hostile(tmp_path) -> Path:
    path = tmp_path / "names.xml"
    path.write_text(with_names(NAMES))
    return path


def test_visible_escapes_what_moves_hides_or_breaks_text():
    assert term.visible("Al\u202eice") == "Al\\u202eice"
    hidden = ["\x00", "\x1b", "\t", "\n", "\x7f", "\x85", "\x9b", "\u061c", "\u200b", "\u200d", "\u200e", "\u2028",
              "\u2029", "\u2066", "\u2069", "\ufeff", "\u00ad", "\U000e0041"]
    assert [term.visible(f"a{ch}b") for ch in hidden] == [
        "a\\x00b", "a\\x1bb", "a\\x09b", "a\\x0ab", "a\\x7fb", "a\\x85b", "a\\x9bb", "a\\u061cb", "a\\u200bb",
        "a\\u200db", "a\\u200eb", "a\\u2028b", "a\\u2029b", "a\\u2066b", "a\\u2069b", "a\\ufeffb", "a\\xadb",
        "a\\U000e0041b"]
    for kept in ("さくら", "ＷチーズケーキＸ", "a b", "全角\u3000空白", "[red]", "e\u0301", "🀄", "\u00e9"):
        assert term.visible(kept) == kept


def test_show_shows_hidden_characters_in_names(hostile):
    result = run("show", hostile)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"""\
{hostile}
Houou 4-player East-South, red fives, open tanyao (四鳳南喰赤)

Seat  Player          Dan   Rate
S0    Al\\u202eice 12  七段  2150
S1    B\\x1b[2Job      七段  2081
S2    Ca\\u200brol     八段  2240
S3    D\\x0aan         七段  2090

Hand  Dealer  Result                                     S0      S1  S2  S3
E1-0  S0      Ron S0<-S1 48000 (yakuman: daisangen)  +48000  -48000   0   0

Final:
  1. S0 Al\\u202eice 12 73000 (+83.0)
  2. S2 Ca\\u200brol 25000 (+5.0)
  3. S3 D\\x0aan 25000 (-15.0)
  4. S1 B\\x1b[2Job -23000 (-73.0)
"""


def test_replay_views_show_hidden_characters(hostile):
    view = run("replay", hostile, "--seat", "1", "--ascii")
    lines = view.stdout.splitlines()
    assert lines[2].endswith(f"viewed from S1 {SHOWN[1]} (other seats' concealed tiles hidden)")
    assert lines[13].startswith(f"E1-0  East 1, 0 honba · dealer S0 {SHOWN[0]} ─")
    assert f"#  S0 E {SHOWN[0]}  S1 S {SHOWN[1]}  S2 W {SHOWN[2]}  S3 N {SHOWN[3]}" in lines
    assert f"1st   S0    {SHOWN[0]}   73000  +20   +83.0" in lines
    board = run("replay", hostile, "--at", "E1-0:4", "--seat", "1", "--ascii").stdout.splitlines()
    assert [line for line in board if line.startswith("S")] == [
        f"S0 E  {SHOWN[0]}  25000", f"S1 S  {SHOWN[1]}  25000  (you)", f"S2 W  {SHOWN[2]}  25000",
        f"S3 N  {SHOWN[3]}  25000"]
    for text in (view.stdout, "\n".join(board)):
        assert not any(ch in text for ch in "\u202e\x1b\u200b")
    as_json = json.loads(run("replay", hostile, "--format", "json").stdout)  # data stays data
    assert [p["name"] for p in as_json["header"]["players"]] == NAMES


def test_stats_text_shows_hidden_characters_and_csv_keeps_them(hostile):
    brief = run("stats", hostile, "--brief", env={"COLUMNS": "80"})
    assert brief.exit_code == 0, brief.output
    rows = brief.stdout.splitlines()[4:8]
    assert [row.split("  ")[0] for row in rows] == SHOWN
    detailed = run("stats", hostile, "--player", NAMES[0])
    assert detailed.stdout.startswith(f"{SHOWN[0]} · 4-player · 1 game, 1 hand\n")
    table = list(csv.DictReader(io.StringIO(run("stats", hostile, "--format", "csv").stdout)))
    assert sorted(row["name"] for row in table) == sorted(NAMES)


def test_validate_and_convert_show_hidden_characters_in_paths(tmp_path):
    bad = tmp_path / "evil\u202elmx.xml"  # shows as "evil" "xml.xml" mirrored
    bad.write_text("<html/>")
    report = run("validate", bad)
    assert report.exit_code == 1
    assert f"  {tmp_path}/evil\\u202elmx.xml\n" in report.stdout and "\u202e" not in report.stdout
    converted = run("convert", bad, "--to", "mjai")
    assert converted.stderr == (f"{tmp_path}/evil\\u202elmx.xml: not a Tenhou log (an HTML page, such as a saved "
                                "viewer page)\n0 game(s) converted to mjai, 1 could not be read.\n")


# -- 12. a suggested command pastes --------------------------------------------------------------


def test_shell_quote():
    assert term.shell_quote("fixtures/one_hand.xml") == "fixtures/one_hand.xml"
    assert term.shell_quote("my logs/a.xml") == "'my logs/a.xml'"
    assert term.shell_quote("it's.xml") == "'it'\"'\"'s.xml'"
    assert term.shell_quote("a\nb.xml") == "$'a\\nb.xml'"
    assert term.shell_quote("a\tb'c\\d\x1b.xml") == "$'a\\tb\\'c\\\\d\\x1b.xml'"
    assert term.shell_quote("e\u202evil") == "$'e\\xe2\\x80\\xaevil'"
    assert term.shell_quote("bad\udcff\n") == "$'bad\\xff\\n'"  # a byte that is not UTF-8


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize("name", ["a\nb.xml", "it's \x1b[31m\u202e.xml", "tab\there\\.xml"])
def test_the_suggested_command_pastes_into_bash(tmp_path, name):
    """validate's report suggests ``tenhou-tools replay PATH --hand E1-0``: pasted into bash as it
    is printed, it opens that very file."""
    path = tmp_path / name
    path.write_text((FIXTURES / "one_hand.xml").read_text().replace('ten="50,48000,5"', 'ten="50,36000,5"'))
    report = run("validate", path)
    assert report.exit_code == 1
    [command] = [line.strip() for line in report.stdout.splitlines() if line.strip().startswith("tenhou-tools replay")]
    assert command.endswith(" --hand E1-0") and "\n" not in command
    prefix = f"'{sys.executable}' -m tenhou_tools "
    done = subprocess.run(["bash", "-c", prefix + command[len("tenhou-tools "):] + " --format json"],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parent.parent)
    assert done.returncode == 1, done.stderr  # the finding
    assert json.loads(done.stdout)["source"] == str(path)
