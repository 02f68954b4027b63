"""An output file that is one of the inputs is refused (issue 26, item 1): exit 2, one line, and
nothing written — the log (or list, archive, database) stays byte for byte as it was, whether the
output names it directly, through a symlink, a second name (a hard link) or another spelling of
its path."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli

from .conftest import FIXTURES

LOG_ID = "2014102312gm-00a9-0000-0000000a"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A gzip log G.xml.gz, with a symlink L.gz and a hard link H.gz to it, in the current folder."""
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "G.xml.gz"
    shutil.copy(FIXTURES / "one_hand.mjlog", log)
    os.symlink("G.xml.gz", tmp_path / "L.gz")
    os.link(log, tmp_path / "H.gz")
    return log


def _untouched(folder: Path, before: dict[str, bytes]) -> None:
    """Every file as it was, and no file more (no temporary file left behind)."""
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


REFUSED = "Error: {option} '{target}' is one of the inputs{same}: writing there would replace it; nothing was written\n"


@pytest.mark.parametrize("target, same", [("G.xml.gz", ""), ("./G.xml.gz", " (the same file as 'G.xml.gz')"),
                                          ("L.gz", " (the same file as 'G.xml.gz')"),
                                          ("H.gz", " (the same file as 'G.xml.gz')")])
@pytest.mark.parametrize("command", [["validate", "G.xml.gz", "-o"], ["validate", "G.xml.gz", "--format", "json", "-o"],
                                     ["stats", "G.xml.gz", "-o"], ["stats", "G.xml.gz", "--html"],
                                     ["replay", "G.xml.gz", "--html"]])
def test_an_output_onto_the_input_is_refused(game, command, target, same):
    before = _files(game.parent)
    result = run(*command, target)
    assert result.exit_code == 2
    option = command[-1]
    assert result.stderr == REFUSED.format(option=option, target=target, same=same)
    assert result.stdout == ""
    _untouched(game.parent, before)


def test_an_output_onto_a_log_in_an_input_folder_is_refused(game):
    logs = game.parent / "logs"
    logs.mkdir()
    shutil.copy(FIXTURES / "sanma_kita.xml", logs / "b.json")  # a .json in a folder is read as a log
    before = _files(logs)
    result = run("validate", "logs", "--format", "json", "-o", "logs/b.json")
    assert (result.exit_code, result.stderr) == (2, REFUSED.format(option="-o", target="logs/b.json", same=""))
    _untouched(logs, before)
    # a hard link elsewhere to a log the folder holds: the same file
    os.link(logs / "b.json", game.parent / "elsewhere.txt")
    result = run("stats", "logs", "-o", "elsewhere.txt")
    assert (result.exit_code, result.stderr) == (
        2, REFUSED.format(option="-o", target="elsewhere.txt", same=" (the same file as 'logs/b.json')"))


def test_a_report_beside_the_logs_that_the_walk_does_not_read_is_written(game):
    """``validate logs/ -o logs/report.txt`` twice: report.txt is not a log the walk reads (not
    named like one, not an archive or a database), so it is replaced, not refused."""
    logs = game.parent / "logs"
    logs.mkdir()
    shutil.copy(FIXTURES / "one_hand.xml", logs / "a.xml")
    for _ in range(2):
        result = run("validate", "logs", "-o", "logs/report.txt")
        assert result.exit_code == 0, result.output
    assert (logs / "report.txt").read_text() == (
        "1 game, all clean; 47 checks.\n"
        "warning: 1 game holds claims that cannot be checked: the table without a game\n"
        "  id (1), dated marks of a game of unknown date (1), the wall without a\n"
        "  seed (1).\n")


def test_an_output_onto_a_list_file_or_the_database_is_refused(game):
    (game.parent / "list.txt").write_text("G.xml.gz\n")
    before = _files(game.parent)
    result = run("validate", "@list.txt", "-o", "list.txt")
    assert (result.exit_code, result.stderr) == (2, REFUSED.format(option="-o", target="list.txt", same=""))
    made = run("stats", "G.xml.gz", "--db", "s.sqlite")
    assert made.exit_code == 0, made.output
    before = _files(game.parent)
    for args in (["stats", "--db", "s.sqlite", "-o", "s.sqlite"],
                 ["stats", "G.xml.gz", "--db", "s.sqlite", "--html", "s.sqlite"]):
        result = run(*args)
        refused = REFUSED.format(option=args[-2], target="s.sqlite", same="")
        assert (result.exit_code, result.stderr) == (2, refused), args
    _untouched(game.parent, before)
    with sqlite3.connect(game.parent / "s.sqlite") as db:  # still the database it was
        assert db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0


def test_replay_of_a_cached_game_does_not_write_its_page_over_the_cached_log(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    cached = cache / f"{LOG_ID}.mjlog"
    shutil.copy(FIXTURES / "one_hand.mjlog", cached)
    result = run("replay", LOG_ID, "--offline", "--cache-dir", cache, "--html", cached)
    assert result.exit_code == 2
    assert result.stderr == REFUSED.format(option="--html", target=cached, same="")
    assert cached.read_bytes() == (FIXTURES / "one_hand.mjlog").read_bytes()


def test_index_does_not_write_over_its_archive(tmp_path):
    archive = tmp_path / "scraw2009.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: never read, refused first
    result = run("index", "--archive", archive, "--since", "2009-03-01", "--until", "2009-03-02", "--offline",
                 "--cache-dir", tmp_path / "cache", "-o", archive)
    assert (result.exit_code, result.stderr) == (2, REFUSED.format(option="-o", target=archive, same=""))
    assert archive.read_bytes() == b"PK\x05\x06" + bytes(18)


def test_convert_does_not_write_into_a_folder_where_a_file_could_replace_an_input(game):
    """tenhou6 files are <game id>.json: into the folder that holds the JSON logs it converts,
    one could replace another; refused before anything is converted. mjai files (.mjson) there
    replace nothing the command reads."""
    logs = game.parent / "logs"
    logs.mkdir()
    converted = run("convert", FIXTURES / "one_hand.xml", "--to", "tenhou6")
    (logs / f"{LOG_ID}.json").write_text(converted.stdout)
    before = _files(logs)
    result = run("convert", "logs", "--to", "tenhou6", "--out", "logs")
    assert result.exit_code == 2
    assert result.stderr == (f"Error: --out 'logs' holds 'logs/{LOG_ID}.json', one of the inputs: a .json file "
                             "written there could replace it; choose another folder\n")
    _untouched(logs, before)
    mjai = run("convert", "logs", "--to", "mjai", "--out", "logs")
    assert mjai.exit_code == 0, mjai.output
    assert sorted(p.name for p in logs.iterdir()) == [f"{LOG_ID}.json", f"{LOG_ID}.mjson"]


def test_download_never_writes_over_its_inputs(tmp_path, monkeypatch):
    """``download``'s outputs: ``--db`` onto the id list is refused (not a database), ``--out``
    into the cache leaves the cached log as it is."""
    monkeypatch.chdir(tmp_path)
    Path("ids.txt").write_text(f"{LOG_ID}\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(FIXTURES / "one_hand.mjlog", cache / f"{LOG_ID}.mjlog")
    result = run("download", "@ids.txt", "--db", "ids.txt", "--offline", "--cache-dir", cache, "--no-progress")
    assert (result.exit_code, result.stderr) == (2, "Error: ids.txt is not a SQLite database; it is left as it is\n")
    assert Path("ids.txt").read_text() == f"{LOG_ID}\n"
    result = run("download", LOG_ID, "--offline", "--cache-dir", cache, "--out", cache, "--no-progress")
    assert result.exit_code == 0, result.output
    assert (cache / f"{LOG_ID}.mjlog").read_bytes() == (FIXTURES / "one_hand.mjlog").read_bytes()


@pytest.mark.parametrize("option", ["-o", "--html"])
def test_stats_refuses_an_output_it_cannot_write_before_reading_a_log(tmp_path, monkeypatch, option):
    """A report that cannot be written (no file can be made in its folder: here the folder
    refuses one) is said before the logs are read, as ``validate`` does, not after the work."""
    import errno
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)  # where the output's temporary file is made
    target = tmp_path / "report.out"
    result = CliRunner().invoke(cli, ["stats", str(FIXTURES / "one_hand.mjlog"), option, str(target)])
    assert result.exit_code == 2
    assert f"Error: cannot write '{target}': no file can be made in its folder '{tmp_path}' (Permission denied)" \
        in result.stderr
    assert "read in" not in result.stderr and not target.exists()
