"""``replay`` through click's runner: the exact view of the fixtures, JSON, exit codes, the corpus,
and ids downloaded from a loopback server (the helpers of ``test_download``)."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from tenhou_tools.cli import cli, replay_render
from tenhou_tools.cli.view import View
from tenhou_tools.documents.replay import replay_document
from tenhou_tools.events import Agari, Bye, DrawKind, Game, Ryuukyoku
from tenhou_tools.replay.engine import replay_game
from tenhou_tools.serialize import from_json
from tenhou_tools.sources import http
from tenhou_tools.sources.files import read_game
from tenhou_tools.sources.http import LogFetcher

from .conftest import FIXTURES, corpus_files
from .download_support import (  # noqa: F401 - fixtures are found by name
    ONE_HAND,
    READ_TIMEOUT,
    SANMA,
    Loopback,
    _isolated_env,
    cache_dir,
    fake,
    gid,
    server,
)

# -- the exact view of the fixtures ------------------------------------------------------------

HEADER_ONE_HAND = """\
fixtures/one_hand.xml
Houou 4-player East-South, red fives, open tanyao (四鳳南喰赤)
"""

FINAL_ONE_HAND = """\
Final standings ────────────────────────────────────────────────────────────────────────────────────────────────────────
Rank  Seat  Player  Points  Uma  Result
1st   S0    Alice    73000  +20   +83.0
2nd   S2    さくら   25000  +10    +5.0
3rd   S3    Dan      25000  -10   -15.0
4th   S1    Bob     -23000  -20   -73.0

Score progression (each hand's start, then the end; one scale) ─────────────────────────────────────────────────────────
S0  Alice   25000  ▅█   73000  low 25000, high 73000
S1  Bob     25000  ▅▁  -23000  low -23000, high 25000
S2  さくら  25000  ▅▅   25000  low 25000, high 25000
S3  Dan     25000  ▅▅   25000  low 25000, high 25000
Scale: ▁ = -23000, █ = 73000.

✓ Game verified: 1 hand replayed under the Tenhou rules, 47 checks, no error findings.
"""

REPLAY_ONE_HAND = HEADER_ONE_HAND + """\
Date unknown (no game id) · 1 hand · every seat's tiles shown

Seat  Player  Dan   Rate
S0    Alice   七段  2150
S1    Bob     七段  2081
S2    さくら  八段  2240
S3    Dan     七段  2090

Play: a column per seat, a row per go-around. +X draw, -X discard, * tsumogiri.
Calls: chi pon kan kakan ankan kita; dora X: a new dora indicator; ron, tsumo.

E1-0  East 1, 0 honba · dealer S0 Alice ────────────────────────────────────────────────────────────────────────────────
Dora indicator 🀚 (dora 🀛)
Seat  Player  Points  Starting hand
S0 E  Alice    25000  🀇 🀈 🀉 🀡 🀡 🀆 🀆 🀆 🀅 🀅 🀅 🀄 🀄
S1 S  Bob      25000  🀊 🀋 🀌 🀍 🀎 🀏 🀙 🀛 🀜 🀝 🀞 🀟 🀄
S2 W  さくら   25000  🀇 🀐 🀑 🀒 🀓 🀔 🀕 🀖 🀘 🀀 🀁 🀂 🀃
S3 N  Dan      25000  🀇 🀈 🀉 🀊 🀋 🀌 🀍 🀎 🀏 🀙 🀚 🀛 🀜
#  S0 E Alice  S1 S Bob  S2 W さくら  S3 N Dan
1  +🀗 -🀗*      +🀗 -🀄
2  ron
Ron S0<-S1 48000 (yakuman: daisangen)
  S0: 🀇 🀈 🀉 🀡 🀡 🀆 🀆 🀆 🀅 🀅 🀅 🀄 🀄 🀄 · wins on 🀄 · dora indicators 🀚
Scores: S0 73000 (+48000)  S1 -23000 (-48000)  S2 25000 (0)  S3 25000 (0)
✓ verified

""" + FINAL_ONE_HAND

REPLAY_ONE_HAND_SEAT1_ASCII = HEADER_ONE_HAND + """\
Date unknown (no game id) · 1 hand · viewed from S1 Bob (other seats' concealed tiles hidden)

Seat      Player  Dan   Rate
S0        Alice   七段  2150
S1 (you)  Bob     七段  2081
S2        さくら  八段  2240
S3        Dan     七段  2090

Play: a column per seat, a row per go-around. +X draw, -X discard, * tsumogiri.
Calls: chi pon kan kakan ankan kita; dora X: a new dora indicator; ron, tsumo.

E1-0  East 1, 0 honba · dealer S0 Alice ────────────────────────────────────────────────────────────────────────────────
Dora indicator 2p (dora 3p)
Seat  Player  Points  Starting hand
S0 E  Alice    25000  (hidden)
S1 S  Bob      25000  406789m134067p7z
S2 W  さくら   25000  (hidden)
S3 N  Dan      25000  (hidden)
#  S0 E Alice  S1 S Bob  S2 W さくら  S3 N Dan
1  -8s*        +8s -7z
2  ron
Ron S0<-S1 48000 (yakuman: daisangen)
  S0: 123m99p555666777z · wins on 7z · dora indicators 2p
Scores: S0 73000 (+48000)  S1 -23000 (-48000)  S2 25000 (0)  S3 25000 (0)
✓ verified

""" + FINAL_ONE_HAND

REPLAY_SANMA_ASCII_HAND = """\
fixtures/sanma_kita.xml
Houou 3-player East-South, red fives, open tanyao (三鳳南喰赤)
Date unknown (no game id) · 1 hand · every seat's tiles shown

Seat  Player  Dan   Rate
S0    Alice   七段  2150
S1    Bob     七段  2081
S2    Carol   八段  2240

Play: a column per seat, a row per go-around. +X draw, -X discard, * tsumogiri.
Calls: chi pon kan kakan ankan kita; dora X: a new dora indicator; ron, tsumo.

E1-0  East 1, 0 honba · dealer S0 Alice ────────────────────────────────────────────────────────────────────────────────
Dora indicator 2p (dora 3p)
Seat  Player  Points  Starting hand
S0 E  Alice    35000  111p9s455566677z
S1 S  Bob      35000  1199m3467p1234s7z
S2 W  Carol    35000  1199m3467p12345s
#  S0 E Alice         S1 S Bob  S2 W Carol
1  +9s kita +8s -8s*  +8s -7z
2  ron
Ron S0<-S1 48000 (yakuman: daisangen)
  S0: 111p99s555666777z, kita · wins on 7z · dora indicators 2p
Scores: S0 83000 (+48000)  S1 -13000 (-48000)  S2 35000 (0)
✓ verified

✓ Game verified: 1 hand replayed under the Tenhou rules, 50 checks, no error findings.
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def in_repo(monkeypatch):
    monkeypatch.chdir(FIXTURES.parent)


def test_exact_view(in_repo):
    result = run("replay", "fixtures/one_hand.xml", "--glyphs")
    assert result.exit_code == 0, result.output
    assert result.stdout == REPLAY_ONE_HAND
    assert result.stderr == ""


def test_exact_view_from_a_seat_in_ascii(in_repo):
    result = run("replay", "fixtures/one_hand.xml", "--seat", "1", "--ascii")
    assert result.exit_code == 0, result.output
    assert result.stdout == REPLAY_ONE_HAND_SEAT1_ASCII


def test_exact_one_hand_of_a_sanma_game_with_kita(in_repo):
    result = run("replay", "fixtures/sanma_kita.xml", "--ascii", "--hand", "e1-0")
    assert result.exit_code == 0, result.output
    assert result.stdout == REPLAY_SANMA_ASCII_HAND


def test_all_hands_shows_every_seat_from_a_seat(in_repo):
    result = run("replay", "fixtures/one_hand.xml", "--seat", "2", "--all-hands", "--ascii")
    assert result.exit_code == 0
    assert "(hidden)" not in result.stdout
    assert "viewed from S2 さくら (every seat's tiles shown)" in result.stdout
    assert "S2 (you)" in result.stdout
    assert "1  +8s -8s*    +8s -7z" in result.stdout  # S0's draw is shown again


def test_json_document(fixtures):
    result = run("replay", str(fixtures / "one_hand.xml"), "--format", "json", "--seat", "1")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert set(doc) == {"type", "source", "log_id", "date", "lobby", "viewer", "all_hands", "ok", "complete", "verdict",
                        "checks", "check_count", "hand_count", "hand_labels", "error_count", "failed_hands", "warnings",
                        "header",
                        "hands", "findings", "progression", "final"}
    assert (doc["check_count"], doc["hand_count"], doc["error_count"], doc["failed_hands"]) == (47, 1, 0, [])
    assert doc["type"] == "replay" and doc["ok"] is True and doc["verdict"] == "verified"
    assert doc["source"] == str(fixtures / "one_hand.xml") and doc["log_id"] is None and doc["date"] is None
    assert doc["viewer"] == 1 and doc["all_hands"] is False
    assert doc["lobby"] == "Houou 4-player East-South, red fives, open tanyao"
    assert doc["checks"]["agari"] == 1 and doc["findings"] == []
    assert doc["progression"] == [[25000, 73000], [25000, -23000], [25000, 25000], [25000, 25000]]
    assert doc["final"] == {"scores": [73000, -23000, 25000, 25000], "points": [83.0, -73.0, 5.0, -15.0],
                            "ranking": [0, 2, 3, 1], "uma": [20, -20, 10, -10], "chips": None}
    (hand,) = doc["hands"]
    assert set(hand) == {"index", "label", "round", "honba", "sticks", "dealer", "init", "events",
                         "dora_indicators", "riichi", "result", "scores_before", "scores_after", "deltas",
                         "findings", "ok", "verdict"}
    assert hand["label"] == "E1-0" and hand["verdict"] == "verified" and hand["findings"] == []
    assert hand["scores_before"] == [25000] * 4
    assert hand["scores_after"] == [73000, -23000, 25000, 25000]
    assert hand["deltas"] == [48000, -48000, 0, 0]
    assert hand["dora_indicators"] == [40] and hand["riichi"] == []
    # init and events are the serialize format: they read back into the very events
    game = read_game(fixtures / "one_hand.xml")
    assert from_json(hand["init"]) == game.hands[0].init
    assert [from_json(e) for e in hand["events"]] == list(game.hands[0].events)
    (win,) = hand["result"]
    assert win["kind"] == "ron" and (win["who"], win["from_who"]) == (0, 1)
    assert win["yakuman"] == [{"id": 39, "name": "daisangen"}] and win["limit"] == "yakuman"
    assert (win["limit_id"], win["points"], win["honba"], win["sticks"]) == (5, 48000, 0, 0)
    assert (win["win_tile"], win["dora_indicators"], win["ura_indicators"]) == (134, [40], [])
    assert "text" not in win  # data only: each view composes its own words


def test_json_of_one_hand_of_a_sanma_game(fixtures):
    result = run("replay", str(fixtures / "sanma_kita.xml"), "--format", "json", "--hand", "E1-0")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and [h["label"] for h in doc["hands"]] == ["E1-0"]
    hand = doc["hands"][0]
    assert len(hand["scores_before"]) == 3 and hand["scores_after"] == [83000, -13000, 35000]
    assert [e["type"] for e in hand["events"]] == ["draw", "call", "draw", "discard", "draw", "discard", "agari"]
    assert doc["final"]["uma"] == [20, -20, 0]


# -- findings and exit codes -------------------------------------------------------------------


@pytest.fixture
def tampered(tmp_path) -> Path:
    """one_hand.xml claiming 36000 for a 48000 yakuman."""
    path = tmp_path / "tampered.xml"
    path.write_bytes((FIXTURES / "one_hand.xml").read_bytes().replace(b'ten="50,48000,5"', b'ten="50,36000,5"'))
    return path


def test_findings_are_shown_with_expected_and_actual_and_exit_1(tampered):
    result = run("replay", str(tampered), "--ascii")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    at = lines.index("✗ not verified: 1 error")
    assert lines[at + 1: at + 3] == [
        "  ✗ AGARI_POINTS (step 5: S0 ron on S1): S0's hand value (ten) is wrong",
        "      points (ten): 48000 by the rules, the log says 36000",
    ]
    assert lines[-1] == ("✗ Game not verified: 1 hand replayed under the Tenhou rules, 47 checks, "
                         "1 error finding (hands: E1-0).")


def test_findings_in_json(tampered):
    result = run("replay", str(tampered), "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["verdict"] == "failed"
    (finding,) = doc["hands"][0]["findings"]
    assert finding == {"code": "AGARI_POINTS", "severity": "error", "hand": 0, "label": "E1-0", "event_index": 4,
                       "step": 5, "message": "S0's hand value (ten) is wrong", "expected": 48000, "actual": 36000,
                       "readable": {"form": "compare", "what": "points (ten)", "expected": "48000",
                                    "actual": "36000"}}
    assert doc["hands"][0]["verdict"] == "failed"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no/such/file.xml"], "'no/such/file.xml': no such file"),
        (["fixtures"], "'fixtures': a folder, not a log file"),
        (["2014102312gm-00a9-0000-zzzzzzzz"], "not a Tenhou game id: '2014102312gm-00a9-0000-zzzzzzzz'"),
        (["2014133112gm-00a9-0000-afb21fa5"], "impossible date"),
        (["https://tenhou.net/0/?log=2014102312gm-00a9-0000-afb21fa5&tw=5"], "tw='5' in the URL is not a seat 0-3"),
        (["https://example.com/0/?log=2014102312gm-00a9-0000-afb21fa5"], "not a tenhou.net viewer URL"),
        (["fixtures/sanma_kita.xml", "--seat", "3"], "--seat 3: a 3-player game has seats 0-2"),
        (["fixtures/one_hand.xml", "--seat", "4"], "4 is not in the range 0<=x<=3"),
        (["fixtures/one_hand.xml", "--hand", "S1-0"], "no hand 'S1-0' in this game (its hands: E1-0)"),
        (["fixtures/one_hand.xml", "--format", "csv"], "'csv' is not one of 'text', 'json'"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2(in_repo, args, message):
    result = run("replay", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stdout == ""


def test_unreadable_log_is_one_line_and_exit_1(in_repo):
    result = run("replay", "fixtures/truncated.mjlog")
    assert result.exit_code == 1
    # cut inside its first INIT: the error of the plain XML it decompresses to, as for a plain log
    assert result.stderr == ("Error: fixtures/truncated.mjlog: line 1, column 425: not well-formed XML: "
                             "Specification mandates value for attribute hai (in what the "
                             "gzip data decompresses to: it ends early, at byte 305)\n")


# -- downloading ids through the cache (a loopback server) ------------------------------------


@pytest.fixture
def replay_fetcher(monkeypatch, fake):
    """The command's fetcher with short timeouts, one retry and the fake clock of test_download."""
    factory = functools.partial(
        LogFetcher, timeout=(READ_TIMEOUT, READ_TIMEOUT), min_interval=0.0, jitter=0.0, retries=1,
        lock_timeout=5.0, sleep=fake.sleep, clock=fake.clock,
    )  # fmt: skip
    monkeypatch.setattr(http, "LogFetcher", factory)  # replay loads the client only to download
    return factory


def replay(*args: str, server: Loopback | None = None, cache_dir: Path | None = None):
    argv = ["replay", *args]
    if cache_dir is not None:
        argv += ["--cache-dir", str(cache_dir)]
    if server is not None:
        argv += ["--base-url", server.url]
    return CliRunner().invoke(cli, argv)


def test_an_id_is_downloaded_cached_and_shown_then_read_from_the_cache(server, cache_dir, replay_fetcher):
    server.serve(gid(1), ONE_HAND)
    result = replay(gid(1), "--ascii", server=server, cache_dir=cache_dir)
    assert result.exit_code == 0, result.output
    cached = cache_dir / f"{gid(1)}.mjlog"
    assert cached.is_file() and server.count(gid(1)) == 1
    assert result.stderr == f"{gid(1)}: downloaded to {cached}\n"
    lines = result.stdout.splitlines()
    assert lines[0] == gid(1)
    assert lines[2] == "Played 2014-10-23 12:xx JST · 1 hand · every seat's tiles shown"
    assert "S1 S  Bob      25000  406789m134067p7z" in lines
    assert lines[-1].startswith("✓ Game verified")
    doc = json.loads(replay(gid(1), "--format", "json", server=server, cache_dir=cache_dir).stdout)
    assert (doc["source"], doc["log_id"], doc["date"]) == (gid(1), gid(1), "2014-10-23T12:00:00+09:00")
    server.stop()  # the second run needs no server
    again = replay(gid(1), "--ascii", server=server, cache_dir=cache_dir)
    assert again.exit_code == 0, again.output
    assert again.stdout == result.stdout and again.stderr == ""


def test_a_viewer_url_views_from_its_seat(server, cache_dir, replay_fetcher):
    server.serve(gid(2, sanma=True), SANMA)
    url = f"https://tenhou.net/3/?log={gid(2, sanma=True)}&tw=2"
    result = replay(url, "--ascii", server=server, cache_dir=cache_dir)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "viewed from S2 Carol (other seats' concealed tiles hidden)" in out
    assert f"https://tenhou.net/0/?log={gid(2, sanma=True)}&tw=2" in out
    assert out.count("(hidden)") == 2 and "S2 W  Carol    35000  1199m3467p12345s" in out
    assert "1  kita -8s*" in out  # S0's draws are hidden, its kita and discard are not
    # --seat wins over tw=
    assert "viewed from S1 Bob" in replay(url, "--seat", "1", server=server, cache_dir=cache_dir).stdout


def test_a_bad_id_is_exit_2_before_any_request(server, cache_dir, replay_fetcher):
    result = replay("2014102312gm-00a9-0000-afb21fa", server=server, cache_dir=cache_dir)
    assert result.exit_code == 2
    assert "not a Tenhou game id: '2014102312gm-00a9-0000-afb21fa'" in result.stderr
    assert server.requests == [] and not cache_dir.exists()


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (("status:404",), "no longer served by tenhou.net (HTTP 404 from {host}; since about 2026-04 it answers 404 "
                          "for most games of 2010-2025)"),
        (("html",), "the server sent an HTML page, not an mjlog"),
        (("status:500",), "server error HTTP 500 from {host}, after 2 attempts"),
    ],
)  # fmt: skip
def test_download_errors_are_one_line_and_exit_1(server, cache_dir, replay_fetcher, actions, message):
    server.serve(gid(3), ONE_HAND, *actions)
    result = replay(gid(3), server=server, cache_dir=cache_dir)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {gid(3)}: " + message.format(host=server.host))
    assert result.stderr.count("\n") == 1
    assert not (cache_dir / f"{gid(3)}.mjlog").exists()


def test_offline_refresh_and_the_base_url_from_the_environment(server, cache_dir, replay_fetcher, monkeypatch):
    server.serve(gid(4), ONE_HAND)
    offline = replay(gid(4), "--offline", cache_dir=cache_dir)
    assert offline.exit_code == 1 and "not in the cache" in offline.stderr and server.requests == []
    both = replay(gid(4), "--offline", "--refresh", cache_dir=cache_dir)
    assert both.exit_code == 2 and "offline and refresh cannot be combined" in both.stderr
    monkeypatch.setenv("TENHOU_TOOLS_BASE_URL", server.url)
    assert replay(gid(4), cache_dir=cache_dir).exit_code == 0
    assert replay(gid(4), "--offline", cache_dir=cache_dir).exit_code == 0
    assert replay(gid(4), "--refresh", cache_dir=cache_dir).exit_code == 0
    assert server.count(gid(4)) == 2


# -- the corpus: every kind of hand renders, at 80 and 120 columns -----------------------------


def _features(game: Game) -> set[str]:
    rules = game.header.ruleset
    found = {"sanma" if rules.sanma else "four-player"}
    if rules.chips:
        found.add("chips")
    if game.header.lobby:
        found.add("private lobby")
    for hand in game.hands:
        if any(isinstance(e, Bye) for e in hand.events):
            found.add("disconnect")
        endings = hand.endings
        if sum(isinstance(e, Agari) for e in endings) >= 2:
            found.add("double ron")
        for e in endings:
            if isinstance(e, Agari) and e.pao_who is not None:
                found.add("pao")
            if isinstance(e, Ryuukyoku) and e.kind is DrawKind.NAGASHI_MANGAN:
                found.add("nagashi")
            if isinstance(e, Ryuukyoku) and e.kind.is_abortive:
                found.add(f"abortive {e.kind.value}")
    return found


REQUIRED = {"four-player", "sanma", "double ron", "pao", "nagashi", "abortive yao9"}
WANTED = REQUIRED | {"abortive kaze4", "abortive reach4", "abortive kan4", "abortive ron3", "chips",
                     "private lobby", "disconnect"}


@functools.cache
def corpus_sample() -> tuple[tuple[str, Path], ...]:
    """One game for each feature (the first found by parsing), then every 250th game."""
    files = corpus_files("mjlog")
    chosen: dict[str, Path] = {}
    for path in files:
        for feature in _features(read_game(path)) & (WANTED - set(chosen)):
            chosen[feature] = path
        if set(chosen) == WANTED:
            break
    sample = sorted(chosen.items())
    sample += [(f"every 250th: {p.name}", p) for p in files[::250]]
    return tuple(sample)


@pytest.mark.corpus
def test_the_corpus_sample_has_every_kind_of_hand(corpus):
    features = {name for name, _ in corpus_sample()}
    assert features >= REQUIRED


@pytest.mark.corpus
def test_replay_renders_corpus_games(corpus):
    for name, path in corpus_sample():
        game = read_game(path)
        for args in ([], ["--seat", "1", "--ascii"], ["--format", "json"]):
            result = run("replay", str(path), *args)
            assert result.exit_code == 0, (name, path, args, result.output[-2000:])
            if args and args[0] == "--format":
                doc = json.loads(result.stdout)
                assert len(doc["hands"]) == len(game.hands) and doc["ok"]
                continue
            out = result.stdout
            assert out.splitlines()[-1].startswith("✓ Game verified"), (name, path)
            assert out.count("✓ verified") == len(game.hands), (name, path)
            for hand in game.hands:
                assert f"{hand.init.label()}  " in out
        text = run("replay", str(path), "--ascii").stdout
        if name == "double ron":
            assert any(sum(line.startswith("Ron ") for line in block.splitlines()) >= 2
                       for block in text.split("✓ verified"))
        if name == "pao":
            assert ", pao S" in text
        if name == "nagashi":
            assert "Nagashi mangan (tenpai: " in text
        if name.startswith("abortive"):
            assert "Abortive draw: " in text


@pytest.mark.corpus
@pytest.mark.parametrize("width", [80, 120])
def test_views_fit_80_and_120_columns(corpus, width):
    for name, path in corpus_sample():
        game = read_game(path)
        report = replay_game(game)
        for view in (View(), View(viewer=0, ascii=True)):
            console = Console(width=width, color_system=None, highlight=False, file=io.StringIO())
            doc = replay_document(game, report, source=str(path), viewer=view.viewer)
            with console.capture() as captured:
                for renderable in replay_render.game_view(doc, view, game.log_id or name):
                    console.print(renderable)
            widest = max(cell_len(line) for line in captured.get().splitlines())
            assert widest <= width, (name, path, view)


def test_the_readme_example_is_real_output(in_repo, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # the README shows what a pipe gets without a terminal
    command = "$ tenhou-tools replay fixtures/one_hand.xml --seat 1 --ascii\n"
    readme = (FIXTURES.parent / "README.md").read_text()
    shown = readme.split(command, 1)[1].split("```", 1)[0]
    assert shown == run("replay", "fixtures/one_hand.xml", "--seat", "1", "--ascii").stdout
