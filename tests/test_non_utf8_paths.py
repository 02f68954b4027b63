"""A file name that is not UTF-8 (a byte such as 0xff, as old archives and other systems leave
them): Python gives it as surrogate escapes, and every machine-readable output must still be
valid UTF-8 JSON that gives the same name back; a page shows the name readably."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli
from tenhou_tools.serialize import json_text, readable

from .conftest import FIXTURES

ODD = os.fsdecode(b"bad\xff name.mjlog")


def test_json_text_escapes_lone_surrogates_only():
    value = {"path": "bad\udcff 牌譜 ü", "n": 1}
    text = json_text(value)
    assert text == '{"path": "bad\\udcff 牌譜 ü", "n": 1}'
    text.encode("utf-8")  # strict: no lone surrogate left
    assert json.loads(text) == value
    assert readable("bad\udcff") == "bad\ufffd"


@pytest.fixture
def odd_log(tmp_path):
    path = tmp_path / ODD
    try:
        shutil.copy(FIXTURES / "one_hand.mjlog", path)
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system does not take a file name that is not UTF-8")
    return path


def _paths(value):
    """Every string in a JSON value that names the odd file."""
    if isinstance(value, dict):
        return [p for v in value.values() for p in _paths(v)]
    if isinstance(value, list):
        return [p for v in value for p in _paths(v)]
    return [value] if isinstance(value, str) and value.endswith("name.mjlog") else []


@pytest.mark.parametrize(("command", "lines"), [
    (["validate", "--format", "ndjson"], True),
    (["validate", "--format", "json"], False),
    (["replay", "--format", "json"], False),
    (["parse", "--format", "ndjson"], True),
])
def test_machine_outputs_stay_utf8(odd_log, command, lines):
    result = CliRunner().invoke(cli, [command[0], str(odd_log), *command[1:]])
    assert result.exit_code == 0, result.output
    text = result.stdout_bytes.decode("utf-8")  # strict: fails on a raw 0xff or a lone surrogate
    values = [json.loads(line) for line in text.splitlines()] if lines else [json.loads(text)]
    for name in _paths(values):
        assert os.fsencode(name) == os.fsencode(str(odd_log))
    if command[0] != "parse":  # the event stream does not name its file
        assert _paths(values)


def test_the_replay_page_is_written_with_a_readable_title(odd_log, tmp_path):
    page = tmp_path / "page.html"
    result = CliRunner().invoke(cli, ["replay", str(odd_log), "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert "bad\ufffd name.mjlog" in text.split("<title>", 1)[1].split("</title>", 1)[0]
