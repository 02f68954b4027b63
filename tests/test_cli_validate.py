"""``validate`` through click's runner: the NDJSON contract, text report, exit codes."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli

from .conftest import GENUINE, corpus_files, genuine_files


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_ndjson_contract(fixtures):
    result = run("validate", str(fixtures / "one_hand.xml"), str(fixtures / "not_mjlog.xml"),
                 "--format", "ndjson")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["type"] for line in lines] == ["game", "game", "summary"]
    good, bad, summary = lines
    assert set(good) == {"type", "path", "log_id", "ok", "hands", "checks", "findings"}
    assert good["ok"] is True and good["hands"] == 1 and good["findings"] == []
    assert good["checks"]["agari"] == 1 and good["checks"]["payment"] == 1
    assert bad["ok"] is False and bad["findings"][0]["code"] == "PARSE_ERROR"
    assert set(bad["findings"][0]) == {"code", "severity", "hand", "label", "event_index", "message", "expected",
                                       "actual"}
    assert bad["findings"][0]["hand"] is None and bad["findings"][0]["label"] is None
    assert set(summary) == {"type", "games", "ok", "failed", "findings_by_code", "checks", "elapsed_s",
                            "interrupted", "duplicates", "not_logs", "cross_game"}
    assert summary["cross_game"]["consecutive"] == 0  # the cross-game pass: added, nothing to pair
    assert summary["games"] == 2 and summary["ok"] == 1 and summary["failed"] == 1
    assert summary["findings_by_code"] == {"PARSE_ERROR": 1} and summary["interrupted"] is False


FIXTURES_UNCHECKABLE = ["warning: 2 games hold claims that cannot be checked: the table without a game",
                        "  id (2), dated marks of a game of unknown date (2), the wall without a",
                        "  seed (2)."]
"""The hand-written fixtures have no game id and no seed: the report says so, in 80 columns."""


def test_clean_run_exits_0(fixtures):
    """A clean run is one line (and a warning when games hold claims that cannot be checked);
    --verbose adds the time and the checks run, by kind."""
    result = run("validate", str(fixtures / "one_hand.xml"), str(fixtures / "sanma_kita.xml"))
    assert result.exit_code == 0
    ndjson = run("validate", str(fixtures / "one_hand.xml"), str(fixtures / "sanma_kita.xml"), "--format", "ndjson")
    checks = json.loads(ndjson.stdout.splitlines()[-1])["checks"]
    ran = sum(n for kind, n in checks.items() if not kind.endswith("_not_checkable"))
    assert result.stdout.splitlines() == [f"2 games, all clean; {ran} checks.", *FIXTURES_UNCHECKABLE]
    assert result.stderr == ""
    verbose = run("validate", str(fixtures / "one_hand.xml"), str(fixtures / "sanma_kita.xml"), "--verbose")
    lines = verbose.stdout.splitlines()
    assert lines[:4] == [f"2 games, all clean; {ran} checks.", *FIXTURES_UNCHECKABLE]
    assert lines[4].startswith("Checked in ") and lines[4].endswith(" games/s).")
    assert lines[5:7] == ["", "Checks run:"]
    assert lines[7:] == [f"  {kind:<{max(map(len, checks))}}  {n}" for kind, n in sorted(checks.items())]


def test_claims_that_cannot_be_checked_are_warned_of(corpus, tmp_path, monkeypatch):
    """A genuine Tenhou log is checked whole: one line. The same log rewritten by another program
    without its seed, and a copy without its game id, hold claims that cannot be checked: the
    report says how many games and which claims; the NDJSON counts them as ever; the exit code
    is the clean run's."""
    from lxml import etree

    from tenhou_tools.ids import log_id_from_name

    path = next(p for p in genuine_files()
                if log_id_from_name(p.name) and b"<SHUFFLE" in gzip.decompress(p.read_bytes())
                and b"BYE" not in gzip.decompress(p.read_bytes()))
    xml = gzip.decompress(path.read_bytes())
    genuine = run("validate", str(path))
    assert genuine.exit_code == 0 and genuine.stdout.count("\n") == 1 and "warning" not in genuine.stdout
    root = etree.fromstring(xml)
    root.remove(root.find("SHUFFLE"))
    etree.indent(root)
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)  # the names stay short, as the report's folded lines expect
    Path(path.name.removesuffix(".gz")).write_bytes(etree.tostring(root))
    Path("copy.xml").write_bytes(xml)
    result = runner.invoke(cli, ["validate", path.name.removesuffix(".gz"), "copy.xml"])
    ndjson = runner.invoke(cli, ["validate", path.name.removesuffix(".gz"), "copy.xml", "--format", "ndjson"])
    assert result.exit_code == 0 and ndjson.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("2 games, all clean; ")
    assert lines[1:] == ["warning: 2 games hold claims that cannot be checked: the table without a game",
                         "  id (1), dated marks of a game of unknown date (1), the wall without a",
                         "  seed (1), game points with an unknown uma or rounding (1)."]
    records = [json.loads(line) for line in ndjson.stdout.splitlines()]
    assert records[0]["checks"]["wall_not_checkable"] == records[0]["hands"]
    assert records[1]["checks"]["game_id_not_checkable"] == 1
    assert set(records[-1]) == {"type", "games", "ok", "failed", "findings_by_code", "checks", "elapsed_s",
                                "interrupted", "duplicates", "not_logs", "cross_game"}


def test_every_kind_that_cannot_run_is_named_in_the_warning():
    from tenhou_tools.cli.validate_report import UNCHECKABLE
    from tenhou_tools.replay.checks import CheckKind

    cannot = {kind.value for kind in CheckKind if not kind.checkable}
    assert set(UNCHECKABLE) == cannot - {"claims_not_checkable"}


def test_exit_zero_and_fail_on(fixtures):
    assert run("validate", str(fixtures / "empty.mjlog"), "--exit-zero").exit_code == 0
    assert run("validate", str(fixtures / "empty.mjlog")).exit_code == 1


def test_missing_path_is_exit_2():
    result = run("validate", "/no/such/dir")
    assert result.exit_code == 2
    assert "no such file or directory" in result.stderr


def test_text_report_lists_failing_games(fixtures):
    result = run("validate", str(fixtures))
    assert result.exit_code == 1
    assert "Failed games (2):" in result.stdout  # empty.mjlog and truncated.mjlog
    # not_mjlog.xml, an HTML page in the folder, is not a log: skipped, not a failed game
    # and one_hand.mjlog is one_hand.xml compressed: the same game, checked once
    digest = hashlib.sha256((fixtures / "one_hand.xml").read_bytes()).hexdigest()[:16]
    assert result.stderr == (f"{fixtures / 'not_mjlog.xml'}: skipped: not a Tenhou log (an HTML page, such as a "
                             f"saved viewer page)\n{fixtures / 'one_hand.xml'}: skipped: the same game as a log read "
                             f"before (sha256:{digest})\n1 duplicate game(s) skipped.\n")
    assert result.stdout.splitlines()[1] == "1 file skipped: not a Tenhou log (named on stderr)."
    assert f"  {fixtures / 'truncated.mjlog'}\n    PARSE_ERROR: " in result.stdout


def test_a_damaged_log_in_a_folder_is_a_failed_game_not_a_skipped_file(fixtures, tmp_path):
    """One byte of the root tag changed: the file still carries a log's marks (its elements), so
    in a folder it is a PARSE_ERROR and exit 1, as when it is named directly (issue 34, item 2)."""
    damaged = (fixtures / "one_hand.xml").read_bytes().replace(b"<mjloggm", b"<mjlo\x01gm", 1)
    (tmp_path / "damaged.xml").write_bytes(damaged)
    for target in (tmp_path, tmp_path / "damaged.xml"):
        result = run("validate", str(target), "--format", "ndjson")
        assert result.exit_code == 1
        game, summary = [json.loads(line) for line in result.stdout.splitlines()]
        assert [f["code"] for f in game["findings"]] == ["PARSE_ERROR"]
        assert (summary["games"], summary["failed"], summary["not_logs"]) == (1, 1, 0)


def test_json_is_one_document(fixtures):
    result = run("validate", str(fixtures / "one_hand.xml"), "--format", "json")
    doc = json.loads(result.stdout)
    assert [d["type"] for d in doc] == ["game", "summary"]


def test_output_file_is_written_whole(fixtures, tmp_path):
    out = tmp_path / "report.ndjson"
    result = run("validate", str(fixtures / "one_hand.xml"), "--format", "ndjson", "--output", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert [json.loads(line)["type"] for line in out.read_text().splitlines()] == ["game", "summary"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.ndjson"]


def _repeated_seeds(paths) -> int:
    """Files whose whole shuffle seed an earlier file already had."""
    seen: set[bytes] = set()
    repeated = 0
    for path in paths:
        found = re.search(rb'<SHUFFLE[^>]*?seed="([^"]+)"', gzip.decompress(path.read_bytes())[:4000])
        if found is not None:
            repeated += found.group(1) in seen
            seen.add(found.group(1))
    return repeated


@pytest.mark.corpus  # every log of the corpus: a long run
def test_corpus_validates_clean(corpus):
    """Zero findings over every genuine log (mjlog/, and flagged/: games an earlier engine got
    wrong), and every AGARI scored. Four files are another file's game again (the same shuffle
    seed: reformatted or renamed copies): checked once, counted as duplicates."""
    folders = [corpus / kind for kind in GENUINE]
    result = run("validate", *map(str, folders), "--format", "ndjson", "--no-progress")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    summary = lines[-1]
    assert summary["findings_by_code"] == {}
    assert summary["failed"] == 0 and summary["games"] + summary["duplicates"] == len(genuine_files()) >= 4000
    assert summary["duplicates"] == _repeated_seeds(genuine_files()) < 10
    assert result.exit_code == 0
    n_agari = sum(1 for g in lines[:-1] for _ in range(g["checks"].get("agari", 0)))
    assert summary["checks"]["agari"] == summary["checks"]["agari_value"] == n_agari


ANOMALIES = {
    # a player discards twice in a row (a server fault): one finding there, nothing after it
    "2010022802gm-00a9-0000-7e62f873": [("DOUBLE_DISCARD", "error", "E3-0", 116)],
    "2010022802gm-00e1-0000-10d39d93": [("DOUBLE_DISCARD", "error", "E1-1", 24)],
    # owari written twice with the same value (not well-formed XML): read, with a warning
    "2010051013gm-00a9-0000-607b52e9": [("PARSE_WARNING", "warning", None, None)],
    "2010051023gm-0029-0000-9c021653": [("PARSE_WARNING", "warning", None, None)],
}
"""What each log of the corpus's anomalies/ must give: genuine games Tenhou wrote badly."""


def test_logs_tenhou_wrote_badly(corpus):
    paths = corpus_files("anomalies")
    assert sorted(p.name.split(".")[0] for p in paths) == sorted(ANOMALIES)
    result = run("validate", str(corpus / "anomalies"), "--format", "ndjson", "--no-progress")
    games = [json.loads(line) for line in result.stdout.splitlines()][:-1]
    found = {g["log_id"]: [(f["code"], f["severity"], f["label"], f["event_index"]) for f in g["findings"]]
             for g in games}
    assert found == ANOMALIES
    warned = [f["message"] for g in games for f in g["findings"] if f["code"] == "PARSE_WARNING"]
    assert all("'owari' is written twice" in message for message in warned)
    assert result.exit_code == 1  # the two double discards


def test_output_into_a_missing_folder_is_a_clear_error(fixtures, tmp_path):
    """A usage error (exit 2, DESIGN.md: a path that does not exist), before any log is read."""
    target = tmp_path / "no" / "report.txt"
    result = run("validate", str(fixtures / "one_hand.xml"), "-o", str(target))
    assert result.exit_code == 2
    assert result.stderr == (f"Error: cannot write {str(target)!r}: the folder {str(target.parent)!r} "
                             "does not exist\n")
    assert list(tmp_path.iterdir()) == []


def test_disk_full_leaves_no_partial_file(fixtures):
    """/dev/full fails every write: a clear error, and the device is still a device."""
    import os
    import stat

    if not os.path.exists("/dev/full"):
        import pytest

        pytest.skip("no /dev/full")
    result = run("validate", str(fixtures / "one_hand.xml"), "--format", "ndjson", "-o", "/dev/full")
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_failed_write_keeps_the_old_report(fixtures, tmp_path, monkeypatch):
    """A write that fails half-way (a full disk) leaves the previous report as it was."""
    import errno

    out = tmp_path / "report.ndjson"
    out.write_text("previous report\n")
    real_open = open

    def failing_open(file, mode="r", *args, **kwargs):
        fh = real_open(file, mode, *args, **kwargs)
        if isinstance(file, int) and "w" in mode:
            def write(_text):
                raise OSError(errno.ENOSPC, "No space left on device")
            fh.write = write
        return fh

    monkeypatch.setattr("builtins.open", failing_open)
    result = run("validate", str(fixtures / "one_hand.xml"), "--format", "ndjson", "-o", str(out))
    monkeypatch.undo()
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    assert out.read_text() == "previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.ndjson"]


def test_report_file_mode_follows_the_umask(fixtures, tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        out = tmp_path / "r.txt"
        assert run("validate", str(fixtures / "one_hand.xml"), "-o", str(out)).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
