"""``convert`` through click's runner, and tenhou.net/6 JSON as input to the other commands."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.formats.mjai import validate_mjai_event

from .conftest import FIXTURES, corpus_files


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_one_file_to_mjai_on_stdout():
    result = run("convert", FIXTURES / "one_hand.mjlog", "--to", "mjai")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    assert all(validate_mjai_event(e) == [] for e in events)


def test_one_file_to_tenhou6_on_stdout():
    result = run("convert", FIXTURES / "sanma_kita.xml", "--to", "tenhou6")
    assert result.exit_code == 0
    (line,) = result.stdout.splitlines()
    doc = json.loads(line)
    assert doc["ratingc"] == "PF3" and len(doc["log"]) == 1


def test_a_batch_into_a_folder(tmp_path):
    out = tmp_path / "out"
    result = run("convert", FIXTURES, "--to", "tenhou6", "--out", out)
    assert result.exit_code == 1  # the fixtures folder holds unreadable logs too
    names = sorted(p.name for p in out.iterdir())
    # one_hand.mjlog is one_hand.xml compressed: one game, converted once
    assert names == ["one_hand.json", "sanma_kita.json"]  # no temporary files left
    assert "truncated.mjlog" in result.stderr and "2 game(s) converted to tenhou6" in result.stderr
    assert "1 duplicate(s) skipped" in result.stderr
    assert result.stdout == ""
    # and back: every converted file converts to mjai again
    again = run("convert", out, "--to", "mjai", "--out", tmp_path / "mjai")
    assert again.exit_code == 0, again.output
    assert sorted(p.name for p in (tmp_path / "mjai").iterdir()) == ["one_hand.mjson", "sanma_kita.mjson"]


def test_output_uses_the_game_id(tmp_path):
    src = tmp_path / "2014102312gm-00a9-0000-afb21fa5.mjlog"
    src.write_bytes(gzip.compress((FIXTURES / "one_hand.xml").read_bytes()))
    result = run("convert", src, "--to", "mjai", "--out", tmp_path / "o")
    assert result.exit_code == 0
    (path,) = (tmp_path / "o").iterdir()
    assert path.name == "2014102312gm-00a9-0000-afb21fa5.mjson"
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert first["tenhou"]["log_id"] == "2014102312gm-00a9-0000-afb21fa5"


def test_usage_errors():
    assert run("convert", "no/such/file", "--to", "mjai").exit_code == 2
    assert run("convert", FIXTURES / "one_hand.mjlog").exit_code == 2
    assert run("convert", FIXTURES / "one_hand.mjlog", "--to", "xml").exit_code == 2


@pytest.fixture
def json_log(tmp_path) -> Path:
    result = run("convert", FIXTURES / "one_hand.mjlog", "--to", "tenhou6")
    path = tmp_path / "2014102312gm-00a9-0000-afb21fa5.json"
    path.write_text(result.stdout, encoding="utf-8")
    return path


def test_validate_reads_json(json_log):
    result = run("validate", json_log, FIXTURES / "one_hand.mjlog", "--format", "ndjson", "-j", "1")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["ok"] for r in records[:2]] == [True, True]
    assert records[0]["checks"]["wall_not_checkable"] == 1
    assert records[0]["checks"]["agari"] == records[1]["checks"]["agari"] == 1


def test_parse_replay_and_show_read_json(json_log):
    parsed = run("parse", json_log)
    assert parsed.exit_code == 0 and json.loads(parsed.stdout)["log_id"] == "2014102312gm-00a9-0000-afb21fa5"
    replayed = run("replay", json_log, "--ascii")
    assert replayed.exit_code == 0 and "daisangen" in replayed.stdout
    shown = run("show", json_log)
    assert shown.exit_code == 0 and "Ron S0<-S1 48000" in shown.stdout


def test_a_bad_json_file_is_a_parse_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"log": [[0]]}', encoding="utf-8")
    result = run("validate", bad, "--format", "ndjson", "-j", "1")
    assert result.exit_code == 1
    record = json.loads(result.stdout.splitlines()[0])
    assert record["findings"][0]["code"] == "PARSE_ERROR" and "17 entries" in record["findings"][0]["message"]
    assert run("parse", bad).exit_code == 1


@pytest.mark.corpus
def test_convert_corpus_json_to_mjai(corpus, tmp_path):
    files = corpus_files("tenhou6", "*.json")[:40]
    result = run("convert", *files, "--to", "mjai", "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    for path in tmp_path.iterdir():
        for line in path.read_text(encoding="utf-8").splitlines():
            assert validate_mjai_event(json.loads(line)) == []


def test_readme_examples_are_the_real_output(tmp_path, monkeypatch):
    from .conftest import REPO

    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("### `convert", 1)[1].split("```\n", 2)[1]
    first, second = block.split("$ ")[1:3]
    command, *expected = first.splitlines()
    assert command == "tenhou-tools convert fixtures/one_hand.mjlog --to mjai | tail -3"
    monkeypatch.chdir(REPO)
    result = run("convert", "fixtures/one_hand.mjlog", "--to", "mjai")
    assert result.stdout.splitlines()[-3:] == expected
    command, *expected = second.splitlines()
    assert command == "tenhou-tools convert fixtures/ --to tenhou6 --out converted/"
    (tmp_path / "fixtures").symlink_to(REPO / "fixtures")
    monkeypatch.chdir(tmp_path)
    result = run("convert", "fixtures/", "--to", "tenhou6", "--out", "converted/")
    assert result.stderr.splitlines() == expected


def test_a_file_of_the_users_is_never_overwritten(tmp_path):
    """``--out`` into a folder holding a file of the game's name with other content: that game is
    refused with one line and exit 1, the file is kept; converting the same game again into the
    same folder writes over its own copy (exit 0)."""
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "one_hand.json"
    mine.write_text("precious\n", encoding="utf-8")
    result = run("convert", FIXTURES / "one_hand.xml", "--to", "tenhou6", "--out", out)
    assert result.exit_code == 1
    assert mine.read_text(encoding="utf-8") == "precious\n"
    assert f"one_hand.xml: {mine} exists and holds something else: not overwritten" in result.stderr
    assert "0 game(s) converted to tenhou6" in result.stderr
    mine.unlink()
    first = run("convert", FIXTURES / "one_hand.xml", "--to", "tenhou6", "--out", out)
    again = run("convert", FIXTURES / "one_hand.xml", "--to", "tenhou6", "--out", out)
    assert (first.exit_code, again.exit_code) == (0, 0)
    assert json.loads(mine.read_text(encoding="utf-8"))["log"]
