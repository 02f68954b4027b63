"""What the commands accept as input, through click's runner: inputs that hold no log, archives
and databases found in folders by content, tar archives, `-` and @FILE, game ids through the
cache, --player names whatever their case or width, the same game under two names, a refused
connection, and logs that stop before the game's end."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import lzma
import zipfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli

from .conftest import FIXTURES, closed_port, corpus_files, stats_summary
from .download_support import (  # noqa: F401 - fixtures are found by name
    ONE_HAND,
    SANMA,
    _isolated_env,
    cache_dir,
    gid,
    server,
)
from .sources_support import ID_A, ONE_HAND_GZ, make_houou_db, make_tar, write

LOOKED_FOR = "looked for .xml, .mjlog, .gz and .json logs, zip and tar archives and SQLite log databases"


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def ndjson(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def games(result) -> list[str]:
    """The paths of the game records of a `validate --format ndjson` run."""
    return [doc["path"] for doc in ndjson(result.stdout) if doc["type"] == "game"]


# -- inputs that hold no log ---------------------------------------------------------------------


@pytest.mark.parametrize("command", [["validate"], ["stats"], ["convert", "--to", "mjai"]])
def test_an_empty_folder_is_no_logs_found_exit_2(tmp_path, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(*command, empty)
    assert result.exit_code == 2
    assert result.stderr == f"Error: no logs found in '{empty}' ({LOOKED_FOR})\n"
    assert result.stdout == ""


@pytest.mark.parametrize("command", [["validate", "--format", "ndjson"], ["stats"], ["convert", "--to", "tenhou6"]])
def test_a_folder_of_other_files_is_no_logs_found(tmp_path, command):
    junk = tmp_path / "junk"
    write(junk / "notes.txt", b"hello")
    write(junk / "deep" / "data.bin", bytes(range(256)))
    make_houou_db(junk / "houou.db", [(ID_A, None)])  # a database whose one row has no log yet
    result = run(*command, junk)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: no logs found in '{junk}' ({LOOKED_FOR}; 2 other files skipped; "
                             "1 database row without a log (not downloaded yet?))\n")
    assert result.stdout == ""


def test_no_report_is_written_when_no_log_is_found(tmp_path):
    (tmp_path / "empty").mkdir()
    report = write(tmp_path / "report.json", b"the old report")
    result = run("validate", tmp_path / "empty", "-o", report, "--format", "json")
    assert result.exit_code == 2 and report.read_bytes() == b"the old report"


def test_stats_makes_no_database_when_no_log_is_found(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run("stats", tmp_path / "empty", "--db", tmp_path / "stats.sqlite")
    assert result.exit_code == 2 and not (tmp_path / "stats.sqlite").exists()


# -- archives and databases in folders, by content; tar archives --------------------------------


def test_folders_yield_the_zip_archives_and_databases_in_them_by_content(tmp_path):
    logs = tmp_path / "logs"
    write(logs / "a.xml", SANMA)
    with zipfile.ZipFile(write(logs / "scraw2014", b""), "w") as zf:  # no name ending at all
        zf.writestr(f"{ID_A}.mjlog", ONE_HAND_GZ)
    make_houou_db(logs / "houou.db", [("2014010101gm-00a9-0000-bbbbbbbb", ONE_HAND)])
    write(logs / "notes.txt", b"not a log")
    result = run("validate", logs, "--format", "ndjson")
    assert result.exit_code == 0, result.output
    assert games(result) == [
        f"{logs}/a.xml", f"{logs}/houou.db#2014010101gm-00a9-0000-bbbbbbbb", f"{logs}/scraw2014:{ID_A}.mjlog",
    ]


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_tar_archives_are_read_plain_or_compressed(tmp_path, mode):
    archive = make_tar(tmp_path / "logs.tar", {"2014/one_hand.xml": ONE_HAND, "sanma.xml.gz": gzip.compress(SANMA),
                                              "README": b"not a log"}, mode)
    result = run("validate", archive, "--format", "ndjson")
    assert result.exit_code == 0, result.output
    assert games(result) == [f"{archive}:2014/one_hand.xml", f"{archive}:sanma.xml.gz"]
    folder = run("validate", tmp_path, "--format", "ndjson")  # and found in a folder, by content
    assert folder.exit_code == 0 and games(folder) == games(result)


def test_a_tar_archive_is_never_an_xml_error(tmp_path):
    archive = make_tar(tmp_path / "x.mjlog", {"one.xml": ONE_HAND})  # a log's name, a tar's content
    result = run("validate", archive, "--format", "ndjson")
    assert result.exit_code == 0 and games(result) == [f"{archive}:one.xml"]
    empty = make_tar(tmp_path / "empty.tar.gz", {"README": b"nothing here"}, "w:gz")
    result = run("validate", empty)
    assert result.exit_code == 2
    assert result.stderr == f"Error: no logs found in '{empty}' ({LOOKED_FOR}; 1 other file skipped)\n"
    cut = write(tmp_path / "cut.tar", (tmp_path / "x.mjlog").read_bytes()[:700])
    (record, _summary) = ndjson(run("validate", cut, "--format", "ndjson").stdout)
    assert record["path"] == f"{cut}:one.xml" and not record["ok"]
    assert record["findings"][0]["message"] == "cannot read tar member: unexpected end of data"


def test_bz2_or_xz_data_that_is_not_a_tar_says_so(tmp_path):
    for name, data in (("log.xml.bz2", bz2.compress(ONE_HAND)), ("log.xml.xz", lzma.compress(ONE_HAND))):
        path = write(tmp_path / name, data)
        (record, _summary) = ndjson(run("validate", path, "--format", "ndjson").stdout)
        assert record["path"] == str(path) and record["findings"][0]["message"] == (
            "bz2 or xz-compressed data that is not a tar archive: logs are read plain or gzip-compressed")


# -- the same game under two names ----------------------------------------------------------------


def test_the_same_game_under_two_names_counts_once_in_validate_and_stats(tmp_path):
    write(tmp_path / "logs" / "a.xml", ONE_HAND)
    write(tmp_path / "logs" / "copy of a.xml", ONE_HAND)
    write(tmp_path / "logs" / "sanma.xml", SANMA)
    eve = ONE_HAND.replace(b'n3="Dan"', b'n3="Eve"')  # another game
    write(tmp_path / "logs" / f"{ID_A}.mjlog", gzip.compress(eve))  # with its game id in the name...
    write(tmp_path / "logs" / "more" / f"{ID_A}.xml", eve)  # ...and another copy, plain
    result = run("validate", tmp_path / "logs", "--format", "ndjson")
    assert games(result) == [str(tmp_path / "logs" / f"{ID_A}.mjlog"), str(tmp_path / "logs" / "a.xml"),
                             str(tmp_path / "logs" / "sanma.xml")]
    # each copy named with what made it one: the content's digest (no id, no seed), the game id
    digest = hashlib.sha256(ONE_HAND).hexdigest()[:16]
    assert result.stderr == (
        f"{tmp_path / 'logs' / 'copy of a.xml'}: skipped: the same game as a log read before (sha256:{digest})\n"
        f"{tmp_path / 'logs' / 'more' / f'{ID_A}.xml'}: skipped: the same game as a log read before ({ID_A})\n"
        "2 duplicate game(s) skipped.\n")
    result = run("stats", tmp_path / "logs", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert {row["name"]: row["games"] for row in rows if row["players"] == 4} == {
        "Alice": 2, "Bob": 2, "さくら": 2, "Dan": 1, "Eve": 1}
    assert "; 2 duplicates skipped;" in stats_summary(result.stderr)[0]
    every = json.loads(run("stats", tmp_path / "logs", "--format", "json", "--no-dedupe").stdout)
    assert {row["name"]: row["games"] for row in every if row["players"] == 4}["Alice"] == 4


# -- --player ----------------------------------------------------------------------------------------


def test_player_names_match_whatever_their_case_or_width(tmp_path):
    for asked in ("alice", "ALICE", "Ａｌｉｃｅ", "ＡＬＩＣＥ", " Alice "):
        result = run("stats", FIXTURES / "one_hand.xml", "--player", asked, "--format", "json")
        assert result.exit_code == 0, result.output
        assert [row["name"] for row in json.loads(result.stdout)] == ["Alice"], asked
    # and a name written full-width in the log is found by its ASCII form
    wide = write(tmp_path / "wide.xml", ONE_HAND.replace(b'n3="Dan"', b'n3="%EF%BC%A4%EF%BD%81%EF%BD%8E"'))
    result = run("stats", wide, "--player", "dan", "--format", "json")
    assert [row["name"] for row in json.loads(result.stdout)] == ["Ｄａｎ"]


def test_an_unknown_player_gets_the_closest_names(tmp_path):
    result = run("stats", FIXTURES / "one_hand.xml", "--player", "Alcie", "--player", "zzz", "--player", "bob",
                 "--brief")
    assert (result.exit_code, result.stdout) == (2, "")  # no report: it is not the one asked for
    # the summary counts no report rows it never wrote (issue 34, item 7)
    summary, others = stats_summary(result.stderr)
    assert summary.endswith("; 0 unreadable; 1 game counted, no report written.")
    assert others == [
        "stats: no games of player 'Alcie'. Closest names seen: 'Alice'.",
        "stats: no games of player 'zzz'.",
    ]
    db = tmp_path / "stats.sqlite"
    assert run("stats", FIXTURES / "one_hand.xml", "--db", db).exit_code == 0
    result = run("stats", "--db", db, "--player", "ａｌｃｉｅ", "--player", "BOB", "--format", "json")
    assert (result.exit_code, result.stdout) == (2, "")
    assert stats_summary(result.stderr)[1] == ["stats: no games of player 'ａｌｃｉｅ'. Closest names seen: 'Alice'."]
    found = run("stats", "--db", db, "--player", "alice", "--player", "BOB", "--format", "json")
    assert found.exit_code == 0 and [row["name"] for row in json.loads(found.stdout)] == ["Alice", "Bob"]


# -- `-` and @FILE -----------------------------------------------------------------------------------


def test_dash_reads_one_log_from_stdin_for_every_command():
    result = run("validate", "-", "--format", "ndjson", input=ONE_HAND_GZ)
    assert result.exit_code == 0 and games(result) == ["<stdin>"]
    result = run("stats", "-", "--format", "json", input=ONE_HAND)
    assert result.exit_code == 0
    assert {row["name"] for row in json.loads(result.stdout)} == {"Alice", "Bob", "さくら", "Dan"}
    result = run("convert", "-", "--to", "tenhou6", input=SANMA)
    assert result.exit_code == 0 and json.loads(result.stdout)["ratingc"] == "PF3"
    result = run("show", "-", input=ONE_HAND)
    assert result.exit_code == 0 and result.stdout.splitlines()[0] == "<stdin>"
    assert result.stdout.splitlines()[-1].startswith("Final: 1. S0 Alice 73000")
    result = run("replay", "-", "--format", "json", input=ONE_HAND_GZ)
    assert result.exit_code == 0 and json.loads(result.stdout)["source"] == "<stdin>"


def test_stdin_holding_an_archive_is_a_clear_error(tmp_path):
    archive = make_tar(tmp_path / "a.tar", {"one.xml": ONE_HAND})
    result = run("show", "-", input=archive.read_bytes())
    assert result.exit_code == 2
    assert result.stderr == ("Error: standard input holds a tar archive or compressed data: give its path "
                             "instead (`-` reads one log)\n")


def test_at_file_reads_a_list_of_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "logs" / "one.xml", ONE_HAND)
    write(tmp_path / "logs" / "sanma.xml", SANMA)
    write(tmp_path / "list.txt", b"# my games\nlogs/one.xml\n\n   logs/sanma.xml  \n")
    result = run("validate", "@list.txt", "--format", "ndjson")
    assert result.exit_code == 0 and games(result) == ["logs/one.xml", "logs/sanma.xml"]
    result = run("stats", "@-", "--format", "json", input=b"logs/sanma.xml\n")
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 3
    result = run("convert", "@list.txt", "--to", "mjai")
    assert result.exit_code == 0 and result.stdout.count('"type":"start_game"') == 2
    write(tmp_path / "one.txt", b"logs/sanma.xml\n")
    assert run("show", "@one.txt").stdout.splitlines()[0] == "logs/sanma.xml"
    result = run("replay", "@one.txt", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["source"] == "logs/sanma.xml"


@pytest.mark.parametrize(("args", "message"), [
    (["validate", "@missing.txt"], "Error: @missing.txt: no such list file\n"),
    (["stats", "@logs"], "Error: @logs: a folder, not a list file (give the folder without @)\n"),
    (["validate", "-", "@-"], "Error: standard input can be read once only ('-' and '@-' both name it)\n"),
    (["convert", "@bad.txt", "--to", "mjai"], "Error: bad.txt:2: `-` (standard input) cannot be listed in a file\n"),
    (["show", "@two.txt"], "Error: @two.txt: lists 2 entries; this command reads one game (validate, "
                           "stats and convert read many)\n"),
    (["replay", "@empty.txt"], "Error: @empty.txt: lists 0 entries; this command reads one game (validate, "
                               "stats and convert read many)\n"),
    (["validate", "@empty.txt"], f"Error: no logs found in '@empty.txt' ({LOOKED_FOR})\n"),
])
def test_list_problems_are_one_line_and_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    write(tmp_path / "bad.txt", b"logs\n-\n")
    write(tmp_path / "two.txt", b"a.xml\nb.xml\n")
    write(tmp_path / "empty.txt", b"# nothing yet\n\n")
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr == message


@pytest.mark.parametrize("command", [["validate"], ["stats"], ["convert", "--to", "mjai"], ["show"], ["replay"]])
def test_a_missing_path_in_a_list_names_the_list_and_the_line(tmp_path, monkeypatch, command):
    """Every command that reads @FILE says which list, and which line of it, names a path that
    is not there (and a glob that matches nothing); an argument not in a list is named alone."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "logs" / "ok.xml", ONE_HAND)
    reads_one = command[0] in ("show", "replay")
    write(tmp_path / "list.txt", b"# mine\nnowhere.xml\n" if reads_one else
          b"logs/ok.xml\n# mine\nnowhere.xml\nlogs/*.json\n")
    result = run(command[0], "@list.txt", *command[1:])
    assert result.exit_code == 2 and result.stdout == ""
    if reads_one:
        assert result.stderr == "Error: list.txt:2: no such file or directory: 'nowhere.xml'\n"
    else:
        assert result.stderr == ("Error: list.txt:3: no such file or directory: 'nowhere.xml'; "
                                 "list.txt:4: no file matches 'logs/*.json'\n")


def test_game_ids_in_a_list_are_read_from_the_download_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("TENHOU_TOOLS_CACHE_DIR", str(cache))
    write(tmp_path / "ids.txt", f"{gid(1)}\nhttps://tenhou.net/0/?log={gid(2)}&tw=1\n".encode())
    result = run("validate", f"@{tmp_path / 'ids.txt'}")
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {tmp_path / 'ids.txt'}:1: game {gid(1)} is not in the download cache "
                             f"({cache}): download it first (tenhou-tools download {gid(1)})\n")
    write(cache / f"{gid(1)}.mjlog", ONE_HAND_GZ)
    write(cache / f"{gid(2)}.mjlog", gzip.compress(ONE_HAND + b"\n"))
    result = run("validate", f"@{tmp_path / 'ids.txt'}", "--format", "ndjson")
    assert result.exit_code == 0
    assert [(doc["path"], doc["log_id"]) for doc in ndjson(result.stdout)[:-1]] == [
        (str(cache / f"{gid(1)}.mjlog"), gid(1)), (str(cache / f"{gid(2)}.mjlog"), gid(2))]
    assert run("validate", gid(1)).exit_code == 0  # an id on the command line, too


# -- show ID ------------------------------------------------------------------------------------------


def test_show_takes_a_game_id_through_the_cache(server, cache_dir, monkeypatch):
    server.serve(gid(1), ONE_HAND)
    from tenhou_tools.sources import http

    monkeypatch.setattr(http, "LogFetcher", _quick_fetcher())  # show loads the client only to download
    result = run("show", gid(1), "--cache-dir", cache_dir, "--base-url", server.url)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{gid(1)}: downloaded to {cache_dir / f'{gid(1)}.mjlog'}\n"
    assert result.stdout.splitlines()[0] == gid(1)
    again = run("show", f"https://tenhou.net/0/?log={gid(1)}&tw=2", "--cache-dir", cache_dir, "--offline")
    assert again.exit_code == 0 and again.stderr == "" and again.stdout == result.stdout
    assert server.count(gid(1)) == 1
    missing = run("show", gid(2), "--cache-dir", cache_dir, "--offline")
    assert missing.exit_code == 1
    assert missing.stderr == (f"Error: {gid(2)}: not in the cache ({cache_dir}) and offline mode does "
                              "not download\n")


def _quick_fetcher():
    import functools

    from tenhou_tools.sources.http import LogFetcher

    return functools.partial(LogFetcher, min_interval=0.0, jitter=0.0, lock_timeout=5.0)


# -- a refused connection -----------------------------------------------------------------------------


def test_a_refused_connection_gives_up_after_two_attempts(cache_dir):
    """A real closed port on 127.0.0.1, the command's own retry policy: two attempts a second
    apart (not four over 15 s), and `download` does not try the other ids."""
    with closed_port() as port:
        base = f"http://127.0.0.1:{port}"
        result = run("replay", gid(1), "--cache-dir", cache_dir, "--base-url", base)
        assert result.exit_code == 1
        assert result.stderr == (f"Error: {gid(1)}: connection refused by {base[7:]}, after 2 attempts: is the "
                                 "server down, or the base URL wrong?\n")
        result = run("download", gid(1), gid(2), "--cache-dir", cache_dir, "--base-url", base)
        assert result.exit_code == 1
        assert result.stderr.splitlines() == [
            f"Error: {gid(1)}: connection refused by {base[7:]}, after 2 attempts: is the server down, or the "
            "base URL wrong?",
            "Stopped downloading: 1 not attempted.",
            "2 ids: 0 downloaded, 0 already cached, 1 failed (1 stopped), 1 not attempted.",
        ]


# -- logs that stop before the game's end ----------------------------------------------------------


NO_RESULT = ONE_HAND[: ONE_HAND.index(b"<AGARI")] + b"</mjloggm>"
"""The one hand, cut before its result (a game cut by a disconnect, or still running)."""
CUT_IN_A_TAG = ONE_HAND[: ONE_HAND.index(b"<AGARI") + 20]
"""The same, cut in the middle of the AGARI tag (no end tag either)."""


@pytest.mark.parametrize("data", [NO_RESULT, CUT_IN_A_TAG, gzip.compress(ONE_HAND)[:-40]],
                         ids=["no result", "cut in a tag", "truncated gzip"])
def test_an_incomplete_log_is_shown_up_to_where_it_stops(tmp_path, data):
    path = write(tmp_path / "cut.mjlog", data)
    result = run("show", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-3].split() == ["E1-0", "S0", "The", "log", "ends", "here,", "before", "this", "hand's",
                                 "result.", "0", "0", "0", "0"]
    assert lines[-1] == "No final result: the log ends here (incomplete game)."
    assert result.stderr.splitlines()[-1] == (
        "Warning: incomplete game: the log ends in hand E1-0, before its result")


def test_an_incomplete_log_is_replayed_up_to_where_it_stops(tmp_path):
    path = write(tmp_path / "cut.xml", CUT_IN_A_TAG)
    result = run("replay", path, "--ascii")
    assert result.exit_code == 1  # not verified: the game's end is missing
    lines = result.stdout.splitlines()
    assert lines[3:5] == [
        "Warning: incomplete game: the log is cut off in the middle of an element; read up to the last "
        "complete one",
        "Warning: incomplete game: the log ends in hand E1-0, before its result",
    ]
    play = lines.index("1  +8s -8s*    +8s -7z")  # S0 draws and discards 8s, S1 draws 8s, discards 7z
    assert lines[play + 1] == "The log ends here, before this hand's result."
    # the cut hand is not called verified: its result was never checked
    assert lines[play + 3] == "… not verified: the log ends before this hand's result (no error in what it has)"
    assert "✓ verified" not in lines
    assert "No final result: the log ends here (incomplete game)." in lines
    verdict = " ".join(lines[-2:])
    assert verdict.startswith("✗ Game not verified: the log ends before the game does (incomplete game); "
                              "1 hand replayed under the Tenhou rules, ")
    assert verdict.endswith(" checks, no error findings in them.")
    doc = json.loads(run("replay", path, "--format", "json").stdout)
    assert (doc["ok"], doc["complete"], doc["verdict"], doc["final"]) == (True, False, "incomplete", None)
    assert doc["hands"][0]["result"] == [] and doc["hands"][0]["verdict"] == "incomplete"


@pytest.mark.parametrize("cut", ["in a tag", "after the end tag"])
def test_a_cut_gzip_log_is_replayed_as_the_plain_log_it_decompresses_to(tmp_path, cut):
    """A gzip log cut short is replayed up to the cut, as a plain log cut at the same place: the
    same view and exit code (a warning more says the gzip data ends early). Cut after the game's
    end (only the gzip trailer missing), the game is all there and verified."""
    packed = gzip.compress(ONE_HAND, mtime=0)
    data = packed[:-8] if cut == "after the end tag" else packed[: len(packed) * 3 // 4]
    plain = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
    assert plain != ONE_HAND if cut == "in a tag" else plain == ONE_HAND
    got = run("replay", write(tmp_path / "cut.mjlog", data), "--ascii")
    want = run("replay", write(tmp_path / "cut.xml", plain), "--ascii")
    assert got.exit_code == want.exit_code == (1 if cut == "in a tag" else 0), got.output
    notes = [line for line in got.stdout.splitlines() if line.startswith("Warning: ")]
    assert notes[0].startswith("Warning: incomplete game: the gzip data ends early" if cut == "in a tag"
                               else "Warning: the gzip data ends early, after the game's end")
    assert got.stdout.replace(notes[0] + "\n", "").replace("cut.mjlog", "cut.xml") == want.stdout


def test_validate_still_reports_an_incomplete_log(tmp_path):
    path = write(tmp_path / "cut.xml", NO_RESULT)
    (record, _summary) = ndjson(run("validate", path, "--format", "ndjson").stdout)
    assert not record["ok"] and [f["code"] for f in record["findings"]] == ["PARSE_ERROR"]
    assert "incomplete game: hand E1-0 has no AGARI or RYUUKYOKU" in record["findings"][0]["message"]


@pytest.mark.corpus
def test_every_broken_corpus_file_gets_a_finding_and_is_never_verified(corpus):
    paths = corpus_files("broken", "*")
    assert paths
    result = run("validate", *paths, "--format", "ndjson", "--jobs", "1", "--no-dedupe")
    records = ndjson(result.stdout)[:-1]
    assert result.exit_code == 1 and len(records) == len(paths)
    assert all(not r["ok"] and r["findings"] for r in records)
    for path in paths:
        replayed = run("replay", path, "--format", "json")
        assert replayed.exit_code == 1, path  # not read, or read only up to where it stops
        assert "Traceback" not in replayed.output and "Internal error" not in replayed.output
        shown = run("show", path)
        assert shown.exit_code in (0, 1) and "Internal error" not in shown.output


# -- files that are not Tenhou logs, and every input accounted for (issue 26 #14, #17) ------------


def test_not_a_log_tells_each_kind_of_file_from_a_log():
    from tenhou_tools.sources.items import not_a_log

    logs = [b'<mjloggm ver="2.3"><SHUFFLE', b'<?xml version="1.0" encoding="UTF-8"?>\n<!-- x -->\n<mjloggm>',
            b'\xef\xbb\xbf {"title":["",""],"name":["a","b","c","d"]', b'{"ver":2.3,"ref":"x"', b'{"ref":"2014',
            b'<mjlog', b'', b'garbage', b'{ "ti']  # the last four: the parser tells
    assert [not_a_log(head) for head in logs] == [None] * len(logs)
    page = "an HTML page, such as a saved viewer page"
    others = {
        b'<!DOCTYPE html>\n<html lang="en">': page,
        b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">': page,
        b'<?xml version="1.0"?>\n<rss version="2.0">': "XML whose root is <rss>, not <mjloggm>",
        b'[\n{"type": "game"': "a JSON array",
        b'{"type": "game", "path": "a.xml"': "JSON whose first member is 'type', not a tenhou.net/6 log's",
        b'{"name": "my-app", "version": "1.0.0"}': "JSON whose first member is 'name', not a tenhou.net/6 log's",
        b'{"board": {"hand": "E1-0"': "JSON whose first member is 'board', not a tenhou.net/6 log's",
        b"{ }": "an empty JSON object",
    }
    assert {head: not_a_log(head) for head in others} == others


def _own_outputs(folder: Path) -> dict[str, Path]:
    """A folder as people keep one: a log, and the tool's own outputs and other files beside it,
    some named like logs (.json, .xml)."""
    logs = write(folder / "game.xml", ONE_HAND)
    outputs = {
        "validate.json": ["validate", logs, "--format", "json"],
        "validate.ndjson.json": ["validate", logs, "--format", "ndjson"],
        "stats.json": ["stats", logs, "--format", "json"],
        "replay.json": ["replay", logs, "--format", "json"],
        "board.json": ["replay", logs, "--at", "E1-0:3", "--format", "json"],
        "parse.json": ["parse", logs],
        "viewer.xml": ["replay", logs, "--html", "-"],
    }
    made = {}
    for name, args in outputs.items():
        result = run(*args)
        assert result.stdout, name
        made[name] = write(folder / name, result.stdout.encode())
    made["package.json"] = write(folder / "package.json", b'{\n  "name": "mine",\n  "version": "1.0.0"\n}\n')
    made["feed.xml.gz"] = write(folder / "feed.xml.gz", gzip.compress(b'<?xml version="1.0"?><rss version="2.0"/>'))
    return made


def test_a_folder_of_the_tools_own_outputs_is_one_game_and_the_rest_skipped(tmp_path):
    folder = tmp_path / "work"
    made = _own_outputs(folder)
    with zipfile.ZipFile(tmp_path / "work" / "bundle.zip", "w") as zf:
        zf.writestr("page.xml", made["viewer.xml"].read_bytes())
        zf.writestr(f"{ID_A}.xml", ONE_HAND)
    result = run("validate", folder, "--format", "ndjson")
    assert result.exit_code == 0, result.output  # the skipped files are not failed games
    records = ndjson(result.stdout)
    assert [r["path"] for r in records if r["type"] == "game"] == [f"{folder / 'bundle.zip'}:{ID_A}.xml",
                                                                   str(folder / "game.xml")]
    assert records[-1]["games"] == 2 and records[-1]["failed"] == 0 and records[-1]["not_logs"] == len(made) + 1
    skipped = result.stderr.splitlines()
    assert len(skipped) == len(made) + 1 and all(": skipped: not a Tenhou log (" in line for line in skipped)
    assert f"{folder / 'bundle.zip'}:page.xml: skipped: not a Tenhou log (an HTML page, such as a saved viewer page)" \
        in skipped
    assert f"{made['viewer.xml']}: skipped: not a Tenhou log (an HTML page, such as a saved viewer page)" in skipped
    assert f"{made['package.json']}: skipped: not a Tenhou log (JSON whose first member is 'name', not a " \
           "tenhou.net/6 log's)" in skipped
    stats = run("stats", folder, "--format", "json")
    assert stats.exit_code == 0 and len(json.loads(stats.stdout)) == 4  # the one game's four players
    assert sum(": skipped: not a Tenhou log (" in line for line in stats.stderr.splitlines()) == len(made) + 1
    converted = run("convert", folder, "--to", "mjai")
    assert converted.exit_code == 0 and converted.stdout.count('"type":"start_game"') == 2


def test_a_file_named_on_the_command_line_is_read_as_a_log_whatever_it_holds(tmp_path):
    """Only what a folder or an archive holds is skipped: a file the user names is meant to be a
    log, and one that is not is a failed game (PARSE_ERROR)."""
    page = write(tmp_path / "page.xml", b"<!DOCTYPE html><html><body>a saved viewer page</body></html>")
    result = run("validate", page, "--format", "ndjson")
    assert result.exit_code == 1
    assert [f["code"] for f in ndjson(result.stdout)[0]["findings"]] == ["PARSE_ERROR"]


def test_a_folder_of_nothing_but_other_files_has_no_logs(tmp_path):
    folder = tmp_path / "work"
    write(folder / "package.json", b'{"name": "mine"}')
    write(folder / "page.xml", b"<!DOCTYPE html><html></html>")
    result = run("validate", folder)
    assert result.exit_code == 2
    assert result.stderr == f"Error: no logs found in '{folder}' ({LOOKED_FOR}; 2 other files skipped)\n"


def test_every_input_is_accounted_for_in_the_summaries(tmp_path):
    """The NDJSON/JSON summary of validate and the stats report's document count the duplicates
    skipped and the files that are not logs: games + failed... + duplicates + not_logs = inputs."""
    folder = tmp_path / "logs"
    write(folder / f"{ID_A}.xml", ONE_HAND)
    write(folder / "copy" / f"{ID_A}.mjlog", ONE_HAND_GZ)  # the same game again
    write(folder / "sanma.xml", SANMA)
    write(folder / "sanma copy.xml", SANMA)  # the same bytes again, under another name
    write(folder / "notes.json", b'{"todo": []}')
    summary = ndjson(run("validate", folder, "--format", "ndjson").stdout)[-1]
    assert (summary["games"], summary["duplicates"], summary["not_logs"]) == (2, 2, 1)
    doc = json.loads(run("validate", folder, "--format", "json").stdout)[-1]
    assert doc["type"] == "summary" and (doc["duplicates"], doc["not_logs"]) == (2, 1)
    everything = ndjson(run("validate", folder, "--format", "ndjson", "--no-dedupe").stdout)[-1]
    assert (everything["games"], everything["duplicates"]) == (4, 0)
    page = tmp_path / "stats.html"
    assert run("stats", folder, "--html", page).exit_code == 0
    text = page.read_text(encoding="utf-8")
    document = json.loads(text.split('id="tenhou-tools-stats">', 1)[1].split("</script>", 1)[0])
    assert document["inputs"] == {"read": 2, "unreadable": 0, "unreadable_examples": [], "duplicates": 2,
                                  "not_logs": 1, "filtered": 0, "interrupted": False}
