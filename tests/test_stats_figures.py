"""The figures Tenhou players quote, worked out by hand: table kinds (rank counts, dan points per
game, stable dan), latest dan and rate, history, rate change, play quality, ``--as`` merging,
the SQLite store added to game by game, and the report document (``documents.stats``).

Games are the one-hand fixture with its header and final result rewritten: the room and length
(``GO type``), the lobby, each seat's dan and rate (``UN``) and the final scores (``owari``),
which is all the figures here read. Each expected value is computed in the comments from
Tenhou's tables as docs/stats.md gives them (East-South: 1st/2nd houou +90/+45, tokujou +75/+30,
joukyuu +60/+15, ippan +30/+15, last place -15 per rank above 3級; East-only two thirds of it).
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from tenhou_tools.cli import cli
from tenhou_tools.documents.stats import StatsReport
from tenhou_tools.events import CallKind, Meld
from tenhou_tools.mjlog import parse_game
from tenhou_tools.rules.calls import kuikae_forbidden
from tenhou_tools.stats.games import GameEntry, stable_dan_name, table_kinds
from tenhou_tools.stats.quality import game_quality
from tenhou_tools.stats.report import PlayerReport
from tenhou_tools.tiles import parse_tiles

from .conftest import FIXTURES

ONE_HAND = (FIXTURES / "one_hand.xml").read_text()
SANMA = (FIXTURES / "sanma_kita.xml").read_text()

HOUOU_S, TOKUJOU_E, JOUKYUU_S, IPPAN_E, HOUOU_3S = 0xA9, 0x21, 0x89, 0x01, 0xB9
SHICHIDAN, YONDAN, SHODAN, IKKYUU, TENHOUI = 16, 13, 10, 9, 20


def game(order: list[str], *, go_type: int = HOUOU_S, lobby: int = 0, dans=(16, 16, 16, 16),
         rates=(2000.0, 2000.0, 2000.0, 2000.0), names=("Ann", "Bob", "Cat", "Dov")) -> str:
    """The one-hand game with ``order`` the names from 1st to last (final scores 40000, 30000,
    20000, 10000 in that order), the header rewritten."""
    text = ONE_HAND
    score = {name: 400 - 100 * i for i, name in enumerate(order)}
    owari = ",".join(f"{score[n]},{(score[n] - 300) / 10:.1f}" for n in names)
    text = re.sub(r'owari="[^"]*"', f'owari="{owari}"', text)
    text = text.replace('<GO type="169" lobby="0"/>', f'<GO type="{go_type}" lobby="{lobby}"/>')
    un = " ".join(f'n{i}="{n}"' for i, n in enumerate(names))
    return re.sub(r"<UN [^>]*/>", f'<UN {un} dan="{",".join(map(str, dans))}" '
                  f'rate="{",".join(f"{r:.2f}" for r in rates)}" sx="M,M,M,M"/>', text)


def sanma(order: list[str], *, dans=(16, 16, 16)) -> str:
    """The three-player fixture with ``order`` from 1st to last (names Ann, Bob, Cat)."""
    text = SANMA
    score = {name: 500 - 150 * i for i, name in enumerate(order)}
    names = ("Ann", "Bob", "Cat")
    owari = ",".join(f"{score[n]},{(score[n] - 400) / 10:.1f}" for n in names) + ",0,0.0"
    text = re.sub(r'owari="[^"]*"', f'owari="{owari}"', text)
    un = " ".join(f'n{i}="{n}"' for i, n in enumerate(names)) + ' n3=""'
    return re.sub(r"<UN [^>]*/>", f'<UN {un} dan="{",".join(map(str, dans))},0" '
                  'rate="2000.00,2000.00,2000.00,1500.00" sx="M,M,M,C"/>', text)


def gid(day: int, n: int, code: str = "00a9", lobby: str = "0000") -> str:
    return f"202101{day:02d}12gm-{code}-{lobby}-{n:08x}"


@pytest.fixture
def logs(tmp_path):
    """Ann's games, one table kind at a time (the hand-worked examples below)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    games = {
        # Houou East-South at 七段: 1st, 2nd, 3rd, 4th = +90 +45 0 -135 -> 0.0 per game;
        # stable dan (6·1 + 3·1)/1 - 2 = 7.0 (七段).
        gid(1, 1): game(["Ann", "Bob", "Cat", "Dov"]),
        gid(2, 2): game(["Bob", "Ann", "Cat", "Dov"]),
        gid(3, 3): game(["Bob", "Cat", "Ann", "Dov"]),
        gid(4, 4): game(["Bob", "Cat", "Dov", "Ann"]),
        # Tokujou East-only at 四段: 1st, 1st, 4th = +50 +50 -60 -> 40/3 per game;
        # stable dan (5·2 + 2·0)/1 - 2 = 8.0 (八段).
        gid(5, 5, "0021"): game(["Ann", "Bob", "Cat", "Dov"], go_type=TOKUJOU_E, dans=(YONDAN,) * 4),
        gid(6, 6, "0021"): game(["Ann", "Bob", "Cat", "Dov"], go_type=TOKUJOU_E, dans=(YONDAN,) * 4),
        gid(7, 7, "0021"): game(["Bob", "Cat", "Dov", "Ann"], go_type=TOKUJOU_E, dans=(YONDAN,) * 4),
        # Joukyuu East-South at 初段: 2nd, 3rd = +15 0 -> 7.5; no last place: no stable dan.
        gid(8, 8, "0089"): game(["Bob", "Ann", "Cat", "Dov"], go_type=JOUKYUU_S, dans=(SHODAN,) * 4),
        gid(9, 9, "0089"): game(["Bob", "Cat", "Ann", "Dov"], go_type=JOUKYUU_S, dans=(SHODAN,) * 4),
        # Ippan East-only at 1級: 1st, 4th = +20 -20 -> 0.0; stable dan (2·1 + 1·0)/1 - 2 = 0.0 (1級).
        gid(10, 10, "0001"): game(["Ann", "Bob", "Cat", "Dov"], go_type=IPPAN_E, dans=(IKKYUU,) * 4),
        gid(11, 11, "0001"): game(["Bob", "Cat", "Dov", "Ann"], go_type=IPPAN_E, dans=(IKKYUU,) * 4),
        # A private lobby (Houou rules): no dan points, no stable dan.
        gid(12, 12, "00a9", "1234"): game(["Ann", "Bob", "Cat", "Dov"], lobby=1234),
        # Three-player Houou East-South at 七段: 2nd = 0 (more in the three-player test below).
        gid(13, 13, "00b9"): sanma(["Bob", "Ann", "Cat"]),
    }
    for key, text in games.items():
        (folder / f"{key}.xml").write_text(text)
    return folder


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def rows(result) -> dict:
    assert result.exit_code == 0, result.output
    return {(r["name"], r["players"]): r for r in json.loads(result.stdout)}


def test_table_kinds_are_worked_out_by_hand(logs):
    ann = rows(run("stats", logs, "--format", "json", "--player", "Ann"))[("Ann", 4)]
    tables = {(t["room"], t["length"], t["players"]): t for t in ann["tables"]}
    # Most games first; at equal games the higher room first.
    assert list(tables) == [("houou", "south", 4), ("tokujou", "east", 4), ("joukyuu", "south", 4),
                            ("ippan", "east", 4), ("lobby:1234", "south", 4)]
    houou = tables[("houou", "south", 4)]
    assert houou["games"] == 4 and houou["ranks"] == [1, 1, 1, 1] and houou["avg_rank"] == 2.5
    assert houou["dan_pt_per_game"] == 0.0
    assert houou["stable_dan"] == 7.0 and houou["stable_dan_name"] == "七段"
    tokujou = tables[("tokujou", "east", 4)]
    assert tokujou["ranks"] == [2, 0, 0, 1] and tokujou["dan_pt_per_game"] == round(40 / 3, 4)
    assert tokujou["stable_dan"] == 8.0 and tokujou["stable_dan_name"] == "八段"
    joukyuu = tables[("joukyuu", "south", 4)]
    assert joukyuu["dan_pt_per_game"] == 7.5 and joukyuu["stable_dan"] is None
    assert joukyuu["stable_dan_name"] is None
    ippan = tables[("ippan", "east", 4)]
    assert ippan["dan_pt_per_game"] == 0.0 and ippan["stable_dan"] == 0.0 and ippan["stable_dan_name"] == "1級"
    lobby = tables[("lobby:1234", "south", 4)]
    assert lobby["ranks"] == [1, 0, 0, 0] and lobby["dan_pt_per_game"] is None and lobby["stable_dan"] is None


def test_three_player_tables_have_three_ranks_and_their_own_dan_points(logs):
    """Three-player Houou East-South at 七段 (docs/stats.md: 1st +135, 2nd 0, 3rd -9·15 = -135):
    Ann 2nd, 1st, 3rd = 0 +135 -135 -> 0.0 per game; stable dan (9·1)/1 - 2 = 7.0 (七段)."""
    (logs / f"{gid(14, 14, '00b9')}.xml").write_text(sanma(["Ann", "Bob", "Cat"]))
    (logs / f"{gid(15, 15, '00b9')}.xml").write_text(sanma(["Bob", "Cat", "Ann"]))
    ann = rows(run("stats", logs, "--format", "json", "--player", "Ann"))[("Ann", 3)]
    assert ann["tables"] == [{"room": "houou", "length": "south", "players": 3, "games": 3, "ranks": [1, 1, 1],
                              "avg_rank": 2.0, "dan_pt_per_game": 0.0, "stable_dan": 7.0,
                              "stable_dan_name": "七段"}]
    history = ann["history"]
    assert [(h["rank"], h["dan_pt"], h["players"]) for h in history] == [(2, 0, 3), (1, 135, 3), (3, -135, 3)]
    # 2nd of three at a table of 2000s: 0.2 · (0 + 0) = 0.
    assert history[0]["rate_change"] == 0.0


def test_the_csv_has_the_stable_dan_of_the_kind_played_most(logs):
    """Ann (four-player) played Houou East-South most (4 games: 1st, 2nd, 3rd, 4th -> 7.0, 七段,
    above); Cat's most-played kind has no last place (undefined: empty cells)."""
    result = run("stats", logs, "--format", "csv")
    assert result.exit_code == 0, result.output
    table = {(r["name"], r["players"]): r for r in csv.DictReader(io.StringIO(result.stdout))}
    ann = table[("Ann", "4")]
    assert (ann["stable_dan_kind"], ann["stable_dan"], ann["stable_dan_name"]) == ("houou south", "7.0", "七段")
    cat = table[("Cat", "4")]
    assert (cat["stable_dan_kind"], cat["stable_dan"], cat["stable_dan_name"]) == ("houou south", "", "")
    header = result.stdout.splitlines()[0].split(",")
    assert header.index("stable_dan") == header.index("dan_pt_per_game") + 2


def test_latest_and_history_in_date_order(logs):
    ann = rows(run("stats", logs, "--format", "json", "--player", "Ann"))[("Ann", 4)]
    history = ann["history"]
    assert [h["date"] for h in history] == [f"2021-01-{d:02d}" for d in range(1, 13)]
    assert [h["rank"] for h in history] == [1, 2, 3, 4, 1, 1, 4, 2, 3, 1, 4, 1]
    assert [h["dan_pt"] for h in history] == [90, 45, 0, -135, 50, 50, -60, 15, 0, 20, -20, None]
    assert history[0]["dan_name"] == "七段" and history[4]["dan_name"] == "四段"
    assert history[-1]["room"] == "lobby:1234" and history[-1]["rate_change"] is None
    assert ann["latest"] == {"game": gid(12, 12, "00a9", "1234"), "date": "2021-01-12", "dan": SHICHIDAN,
                             "dan_name": "七段", "rate": 2000.0}


def test_rate_change_by_tenhous_formula(tmp_path):
    # Ann (2000) wins at a table of 2000, 1900, 1800, 1700 (average 1850):
    # 0.2 · (30 + (1850 - 2000) / 40) = 5.25. Dov (1700) last: 0.2 · (-30 + 150 / 40) = -5.25.
    (tmp_path / f"{gid(1, 1)}.xml").write_text(
        game(["Ann", "Bob", "Cat", "Dov"], rates=(2000.0, 1900.0, 1800.0, 1700.0)))
    got = rows(run("stats", tmp_path, "--format", "json"))
    assert got[("Ann", 4)]["history"][0]["rate_change"] == 5.25
    assert got[("Ann", 4)]["rate_change_per_game"]["value"] == 5.25
    assert got[("Ann", 4)]["rate_change_per_game"]["estimate"] is True
    assert got[("Dov", 4)]["rate_change_per_game"]["value"] == -5.25


def test_tenhoui_games_have_no_dan_points(tmp_path):
    (tmp_path / f"{gid(1, 1)}.xml").write_text(game(["Ann", "Bob", "Cat", "Dov"], dans=(TENHOUI, 16, 16, 16)))
    ann = rows(run("stats", tmp_path, "--format", "json"))[("Ann", 4)]
    assert ann["history"][0]["dan_pt"] is None and ann["tables"][0]["dan_pt_per_game"] is None
    assert ann["latest"]["dan_name"] == "天鳳位"
    assert ann["tables"][0]["stable_dan"] is None  # no last place


def test_as_merges_accounts_exactly(logs):
    apart = rows(run("stats", logs, "--format", "json", "--player", "Ann", "--player", "Bob"))
    merged = rows(run("stats", logs, "--format", "json", "--player", "Ann", "--player", "bob", "--as", "Me"))
    assert set(merged) == {("Me", 4), ("Me", 3)}
    me = merged[("Me", 4)]
    ann, bob = apart[("Ann", 4)], apart[("Bob", 4)]
    assert me["counters"] == {k: ann["counters"][k] + bob["counters"][k] for k in ann["counters"]}
    assert me["games"] == 24 and me["rank_counts"] == [a + b for a, b in zip(ann["rank_counts"], bob["rank_counts"])]
    assert len(me["history"]) == 24
    houou = next(t for t in me["tables"] if t["room"] == "houou")
    # Ann 1,2,3,4 and Bob 2,1,1,1 in the same four games.
    assert houou["ranks"] == [4, 2, 1, 1] and houou["games"] == 8
    assert run("stats", logs, "--as", "Me").exit_code == 2


def test_store_added_to_game_by_game_gives_the_fresh_report(logs, tmp_path):
    db = tmp_path / "stats.sqlite"
    files = sorted(logs.iterdir())
    for path in files:
        assert run("stats", path, "--db", db, "--format", "json").exit_code == 0
    from_store = run("stats", "--db", db, "--format", "json")
    fresh = run("stats", logs, "--format", "json")
    assert from_store.exit_code == fresh.exit_code == 0
    assert json.loads(from_store.stdout) == json.loads(fresh.stdout)
    houou = run("stats", "--db", db, "--format", "json", "--lobby", "houou", "--player", "Ann")
    ann = rows(houou)[("Ann", 4)]
    # --lobby houou selects by the GO type's room, so the private lobby on Houou rules is in.
    assert [t["room"] for t in ann["tables"]] == ["houou", "lobby:1234"] and ann["tables"][0]["games"] == 4


def test_an_old_store_is_refused_with_a_clear_message(tmp_path):
    import sqlite3

    db = tmp_path / "old.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("application", "tenhou-tools stats"),
                                                        ("schema", "1"), ("counters_version", "1")])
    conn.commit()
    conn.close()
    result = run("stats", "--db", db)
    assert result.exit_code == 2
    from tenhou_tools.stats.counters import COUNTERS_VERSION
    from tenhou_tools.stats.store import SCHEMA_VERSION

    assert f"schema '1', counters '1'; this one reads {SCHEMA_VERSION}, {COUNTERS_VERSION}): build a new " \
           "database from the logs (version 2 keeps each player's games" in result.stderr


def test_the_overview_fits_80_columns_with_plain_headers(logs):
    # Dan pt/game over the 11 ranked games (the lobby game has none): Ann 55/11 = +5.0;
    # Bob 45 + 3·90 + 2·20 + 50 + 2·60 + 10 + 20 = 555 -> +50.5; Cat 2·45 + 20 + 15 + 10 = 135
    # -> +12.3; Dov -3·135 - 2·60 - 2·45 - 20 = -635 -> -57.7. The three-player game at 七段
    # (East-South): Bob 1st +135, Ann 2nd 0, Cat 3rd -135. The seat-0 player (Ann) wins every
    # hand, on Bob's discard.
    result = run("stats", logs, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.stdout == """\
7 player rows over 13 games
                         Avg                     Deal-        Dan pt
Player Seats Games  Dan rank 1st 2nd 3rd 4th Win    in Riichi  /game
────────────────────────────────────────────────────────────────────
Ann        4    12 七段 2.25  42  17  17  25 100     0      0   +5.0
Bob        4    12 七段 1.42  58  42   0   0   0   100      0  +50.5
Cat        4    12 七段 2.58   0  42  58   0   0     0      0  +12.3
Dov        4    12 七段 3.75   0   0  25  75   0     0      0  -57.7
Ann        3     1 七段 2.00   0 100   0     100     0      0   +0.0
Bob        3     1 七段 1.00 100   0   0       0   100      0 +135.0
Cat        3     1 七段 3.00   0   0 100       0     0      0 -135.0
Rates in %. Dan: at the latest game. Dan pt/game: Tenhou's dan points per ranked
game, at the player's dan in each game. --wide: more columns.
"""


def test_per_player_details_show_the_table_kinds(logs):
    result = run("stats", logs, "--player", "Ann", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    kinds = result.stdout.split("Ann · 4-player · by table kind\n", 1)[1].split("\n\n", 1)[0]
    assert kinds == """\
                                                Avg Dan pt    Stable
Room          Length     Games 1st 2nd 3rd 4th rank  /game       dan
────────────────────────────────────────────────────────────────────
4p houou      East-South     4   1   1   1   1 2.50   +0.0 7.00 七段
4p tokujou    East           3   2   0   0   1 2.00  +13.3 8.00 八段
4p joukyuu    East-South     2   0   1   1   0 2.50   +7.5         –
4p ippan      East           2   1   0   0   1 2.50   +0.0  0.00 1級
4p lobby 1234 East-South     1   1   0   0   0 1.00      –         –"""
    assert "  Dan points per ranked game" in result.stdout
    assert "  Rate change per ranked game (estimate)" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_csv_uses_yaku_names(logs):
    result = run("stats", logs, "--format", "csv", "--player", "Ann")
    header = result.stdout.splitlines()[0].split(",")
    assert "yaku: daisangen" in header and not any(re.fullmatch(r"yaku_\d+", h) for h in header)
    assert "dan_pt_per_game" in header and "latest_dan" in header


# --- play quality ----------------------------------------------------------------------------------


def test_play_quality_counts_the_top_picks_and_the_losses():
    # Alice (seat 0) is tenpai for daisangen on 9p/chun; she draws 8s (id 100). Throwing it back
    # keeps the hand tenpai; throwing 1m (id 0) breaks the 1-2-3m run: one shanten worse, and a
    # daisangen tenpai lost is far above the loss threshold.
    good = parse_game(ONE_HAND.encode())
    bad = parse_game(ONE_HAND.replace("<T100/>\n<D100/>", "<T100/><D0/>").encode())
    assert (game_quality(good)[0].choices, game_quality(good)[0].best) == (1, 1)
    assert (game_quality(bad)[0].choices, game_quality(bad)[0].best) == (1, 0)
    assert game_quality(bad)[0].loss == 1 and game_quality(bad)[0].cost_points > 1000


def test_discards_after_riichi_are_not_judged():
    riichi = ONE_HAND.replace("<T100/>\n<D100/>", '<T100/><REACH who="0" step="1"/><D100/>'
                                                '<REACH who="0" step="2" ten="240,250,250,250"/><T102/><D102/>')
    alice = game_quality(parse_game(riichi.encode()))[0]
    assert (alice.choices, alice.best) == (1, 1)  # the riichi discard is a choice, the one after it is not
    assert alice.forced == 1 and alice.judged == 2


def test_quality_option_reports_the_share_and_the_whole_set(tmp_path):
    (tmp_path / "bad.xml").write_text(ONE_HAND.replace("<T100/>\n<D100/>", "<T100/><D0/>"))
    got = rows(run("stats", tmp_path, "--format", "json", "--quality"))
    alice = got[("Alice", 4)]["play_quality"]
    assert alice["discards"] == 1 and alice["best"] == 0 and alice["share"] == 0.0
    assert alice["loss_rate"] == 1.0 and alice["mean_cost"] > 1000 and alice["verdicts"]["loss"] == 1
    assert alice["share_ci"][0] == 0.0 and 0.7 < alice["share_ci"][1] < 0.8  # Wilson, 0 of 1
    bob = got[("Bob", 4)]["play_quality"]
    assert alice["table_share"] == bob["table_share"] == round(bob["best"] / 2, 4)
    assert rows(run("stats", tmp_path, "--format", "json"))[("Alice", 4)]["play_quality"] is None


def test_the_text_overview_shows_the_agreement_with_quality(tmp_path):
    """``--quality`` changes the default text report too: the overview gains an ``Agree`` column
    (the share of each player's discards that were the top pick) and its legend says what it is;
    without ``--quality`` neither is there (found by a new-user trial: the report was the same)."""
    (tmp_path / "bad.xml").write_text(ONE_HAND.replace("<T100/>\n<D100/>", "<T100/><D0/>"))
    (tmp_path / "good.xml").write_text(ONE_HAND)
    judged = run("stats", tmp_path, "--quality")
    plain = run("stats", tmp_path)
    assert judged.exit_code == plain.exit_code == 0
    header = next(line for line in judged.stdout.splitlines() if line.startswith("Player"))
    assert header.split()[-1] == "Agree"
    alice = next(line for line in judged.stdout.splitlines() if line.startswith("Alice"))
    assert alice.split()[-1] == "50"  # one top pick of her two choices
    assert "Agree: share of discards that were the analysis's top pick" in " ".join(judged.stdout.split())
    assert "Agree" not in plain.stdout


@pytest.mark.parametrize(("kind", "tiles", "called", "forbidden"), [
    (CallKind.PON, "555p", "5p", {"5p"}),
    (CallKind.CHI, "345m", "3m", {"3m", "6m"}),  # 45m called 3m: 3m and 6m
    (CallKind.CHI, "345m", "5m", {"5m", "2m"}),
    (CallKind.CHI, "345m", "4m", {"4m"}),  # a middle tile: only itself
    (CallKind.CHI, "789s", "7s", {"7s"}),  # nothing above 9
    (CallKind.CLOSED_KAN, "555p", None, set()),
])
def test_kuikae_kinds_the_quality_leaves_out(kind, tiles, called, forbidden):
    ids = parse_tiles(tiles)
    called_id = None if called is None else next(t for t in ids if t >> 2 == parse_tiles(called)[0] >> 2)
    meld = Meld(kind, tuple(ids), called_id, None, None, 0)
    assert kuikae_forbidden(meld) == {parse_tiles(k)[0] >> 2 for k in forbidden}


# --- pure functions -------------------------------------------------------------------------------


def entry(rank: int, *, type_code: int = HOUOU_S, dan: int = SHICHIDAN, dan_pt: int | None = None,
          day=None, key: str = "g") -> GameEntry:
    return GameEntry(key, day, type_code, 0, rank, dan, 2000.0, 0, dan_pt, None)


def test_stable_dan_names():
    assert [stable_dan_name(v) for v in (7.0, 7.99, 0.5, -0.5, -2.0, 12.3)] == \
        ["七段", "七段", "1級", "2級", "3級", "十段"]
    assert stable_dan_name(None) is None


def test_table_kinds_from_entries():
    # Mortal's FAQ: 七段 houou East-South, 1st-4th in equal shares -> stable dan 7.0.
    rows_ = table_kinds([entry(r, dan_pt=p) for r, p in zip((1, 2, 3, 4), (90, 45, 0, -135))])
    (row,) = rows_
    assert row.ranks == (1, 1, 1, 1) and row.dan_pt_per_game == 0.0 and row.stable_dan == 7.0


def test_the_report_document_holds_the_players_and_the_set_averages():
    a = PlayerReport("A", 4, _counters(rank1=1, rank2=1, games=2, hands=10, wins=3, deal_in_hands=1, riichi=2,
                                       calls=4), [entry(1), entry(2)])
    b = PlayerReport("B", 4, _counters(rank4=2, games=2, hands=10, wins=1, deal_in_hands=3, riichi=0, calls=0),
                     [entry(4), entry(4)])
    c = PlayerReport("C", 3, _counters(rank1=1, games=1, hands=5, wins=1), [entry(1, type_code=HOUOU_3S)])
    doc = StatsReport((a, b, c), games=4).to_json()
    assert "inputs" not in doc  # no logs were read for it
    assert [p["name"] for p in doc["players"]] == ["A", "B", "C"]
    assert doc["players"][0] == a.to_json()
    s = doc["set"]
    # Pooled over every row: placements 1, 2, 4, 4 (four-player) and 1 (three-player) in 5 games.
    assert s["rows"] == 3 and s["games"] == 5 and s["avg_rank"] == round(12 / 5, 4)
    # Pooled over every row: 5 wins, 4 deal-ins, 2 riichi, 4 calls in 25 hands.
    assert (s["win_rate"], s["deal_in_rate"], s["riichi_rate"], s["call_rate"]) == (0.2, 0.16, 0.08, 0.16)
    assert s["play_quality_share"] is None
    # Per table size: four-player 1, 2, 4, 4 -> 2.75 and 1/4, 1/4, 0, 2/4; three-player 1.
    four, three = s["by_players"]["4"], s["by_players"]["3"]
    assert four["avg_rank"] == 2.75 and four["rank_rates"] == [0.25, 0.25, 0.0, 0.5] and four["rows"] == 2
    assert three["avg_rank"] == 1.0 and three["rank_rates"] == [1.0, 0.0, 0.0]
    assert list(s["by_players"]) == ["4", "3"]


def test_the_page_document_packs_the_same_figures():
    """``page_json``: the members the HTML page draws, as lists in the order of its columns, of the
    values ``to_json`` gives (a row with entries and one without, a three-player row)."""
    from .stats_page_document import leaves_only, page_matches_json

    a = PlayerReport("A", 4, _counters(rank1=1, rank2=1, games=2, hands=10, wins=3, deal_in_hands=1, riichi=2,
                                       calls=4), [entry(1), entry(2)])
    b = PlayerReport("B", 4, _counters(rank4=2, games=2, hands=10, wins=1, deal_in_hands=3))
    c = PlayerReport("C", 3, _counters(rank1=1, games=1, hands=5, wins=1), [entry(1, type_code=HOUOU_3S)])
    report = StatsReport((a, b, c), games=4)
    doc = report.page_json()
    page_matches_json(doc, [r.to_json() for r in (a, b, c)])
    assert doc["set"] == report.to_json()["set"] and "inputs" not in doc
    assert leaves_only(doc["rows"]) and "players" not in doc
    history = doc["columns"]["row"].index("history")
    assert doc["rows"][1][history] == [[], [], [], []]  # no games known: an empty list per column
    assert len(doc["rows"][0][history][0]) == 2
    last = doc["columns"]["row"].index("last_rate")
    assert [row[last] for row in doc["rows"]] == [a.to_json()["rank4_rate"], b.to_json()["rank4_rate"],
                                                   c.to_json()["rank3_rate"]]


def _counters(**values):
    from tenhou_tools.stats.counters import PlayerCounters

    return PlayerCounters(**values)


def test_wide_overview_has_every_headline_column():
    # The fixture's table: rates 2150, 2080.5, 2240.25, 2090 (average 2140.1875). Alice 1st:
    # 0.2 · (30 + (2140.1875 - 2150) / 40) = +5.95; Bob 4th: 0.2 · (-30 + 59.6875 / 40) = -5.70;
    # Dan 3rd: 0.2 · (-10 + 50.1875 / 40) = -1.75; さくら 2nd: +1.50. Dan points (East-South
    # houou): 七段 1st +90, 七段 4th -135, 七段 3rd 0, 八段 2nd +45. Bob ends at -23,000: a bust.
    result = run("stats", FIXTURES / "one_hand.xml", "--wide", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.split("Rates in %")[0].splitlines()
    assert lines[0] == "4 player rows over 1 game" and set(lines[2]) == {"─"}
    assert lines[1].split() == ["Player", "Seats", "Games", "Hands", "Dan", "Rate", "Avg", "rank", "1st", "2nd",
                                "3rd", "4th", "Bust", "Game", "pt", "Win", "Deal-in", "Riichi", "Call",
                                "Score/hand", "Dan", "pt/game", "R/game"]
    assert cell_len(lines[1]) == cell_len(lines[2]) > 80  # never folded, whatever COLUMNS says
    assert [" ".join(line.split()) for line in lines[3:]] == [
        "Alice 4 1 1 七段 2,150 1.00 100 0 0 0 0 +83.0 100 0 0 0 +48,000 +90.0 +5.95",
        "Bob 4 1 1 七段 2,081 4.00 0 0 0 100 100 -73.0 0 100 0 0 -48,000 -135.0 -5.70",
        "Dan 4 1 1 七段 2,090 3.00 0 0 100 0 0 -15.0 0 0 0 0 +0 +0.0 -1.75",
        "さくら 4 1 1 八段 2,240 2.00 0 100 0 0 0 +5.0 0 0 0 0 +0 +45.0 +1.50",
    ]


@pytest.mark.parametrize("sql", [
    "UPDATE player_games SET dan = 99",
    "UPDATE player_games SET rank = 7",
    "UPDATE player_games SET rate = 'high'",
    "UPDATE player_games SET rate_change = 1e300",
])
def test_a_damaged_game_row_is_refused_before_anything_is_added(logs, tmp_path, sql):
    """The report reads every game row after adding: a row it could not read must stop the run
    before the file changes (the checks before writing cover what the reader checks)."""
    import sqlite3

    db = tmp_path / "stats.sqlite"
    first, *rest = sorted(logs.iterdir())
    assert run("stats", first, "--db", db).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute(sql)
    conn.commit()
    conn.close()
    before = db.read_bytes()
    result = run("stats", rest[0], "--db", db)
    assert result.exit_code == 2 and "a player's game row that is not ours" in result.stderr
    assert db.read_bytes() == before
