"""``parse`` and ``show`` through click's runner: exact output and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from tenhou_tools.cli import cli

from .conftest import FIXTURES, corpus_files

SHOW_ONE_HAND = """\
fixtures/one_hand.xml
Houou 4-player East-South, red fives, open tanyao (四鳳南喰赤)

Seat  Player  Dan   Rate
S0    Alice   七段  2150
S1    Bob     七段  2081
S2    さくら  八段  2240
S3    Dan     七段  2090

Hand  Dealer  Result                                     S0      S1  S2  S3
E1-0  S0      Ron S0<-S1 48000 (yakuman: daisangen)  +48000  -48000   0   0

Final: 1. S0 Alice 73000 (+83.0)  2. S2 さくら 25000 (+5.0)  3. S3 Dan 25000 (-15.0)  4. S1 Bob -23000 (-73.0)
"""


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_show_exact(fixtures, monkeypatch):
    monkeypatch.chdir(fixtures.parent)
    result = run("show", "fixtures/one_hand.xml")
    assert result.exit_code == 0
    assert result.stdout == SHOW_ONE_HAND


def test_parse_json(fixtures):
    result = run("parse", str(fixtures / "one_hand.mjlog"))
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["type"] == "game" and len(doc["hands"]) == 1
    assert doc["hands"][0]["events"][1] == {"type": "discard", "seat": 0, "tile": 100, "tsumogiri": True}


def test_parse_ndjson(fixtures):
    result = run("parse", str(fixtures / "sanma_kita.xml"), "--format", "ndjson")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {"type": "game", "log_id": None, "warnings": [], "complete": True}
    assert lines[-1]["type"] == "agari" and lines[-1]["yakuman"] == [39]


def test_unreadable_logs_exit_1_with_one_line(fixtures):
    for name in ("truncated.mjlog", "not_mjlog.xml", "empty.mjlog"):
        result = run("parse", str(fixtures / name))
        assert result.exit_code == 1, name
        assert result.stdout == ""
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.stderr


def test_missing_path_is_usage_error():
    result = run("parse", "/no/such/file.xml")
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


def test_bad_format_option_is_usage_error(fixtures):
    assert run("parse", str(fixtures / "one_hand.xml"), "--format", "xml").exit_code == 2


def test_broken_corpus_files_exit_1(corpus):
    for path in corpus_files("broken", "*"):
        result = run("parse", str(path))
        assert result.exit_code == 1, path
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_show_renders_corpus_sample(corpus):
    files = corpus_files("mjlog")[::200]
    for path in files:
        result = run("show", str(path))
        assert result.exit_code == 0, (path, result.stderr)
        assert "Final: 1. S" in result.stdout or "Final:\n  1. S" in result.stdout  # a line per place when long


def test_a_command_loads_only_its_own_module():
    """``validate`` runs without importing the HTTP client, the other commands or lxml (which
    reads only a document the fast reader leaves to it: each process of a batch starts faster);
    ``--help`` still lists every command."""
    code = ("import sys\nfrom click.testing import CliRunner\nfrom tenhou_tools.cli import cli\n"
            "result = CliRunner().invoke(cli, ['validate', '--jobs', '1', '--format', 'ndjson', sys.argv[1]])\n"
            "print(result.exit_code, sorted(m for m in sys.modules if m in ('requests', 'lxml', "
            "'tenhou_tools.cli.download_cmd', 'tenhou_tools.cli.stats_cmd', 'tenhou_tools.cli.validate_cmd')))")
    done = subprocess.run([sys.executable, "-c", code, str(FIXTURES / "one_hand.mjlog")],
                          capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "0 ['tenhou_tools.cli.validate_cmd']"
    result = CliRunner().invoke(cli, ["--help"])
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].strip().splitlines()]
    assert listed == ["convert", "download", "index", "parse", "replay", "show", "stats", "validate"]
