"""``stats --format json`` against an independent recount of the corpus: per player and table kind
the games, the rank counts, the dan points per game and the stable dan; per game the rank, dan
and dan points of the history.

The recount reads the logs with regular expressions (not our parser) and applies Tenhou's tables
as docs/stats.md writes them, with its own code: East-only 1st/2nd per room ippan 20/10, joukyuu
40/10, tokujou 50/20, houou 60/30, 3rd 0, last place -10 per rank above 3級 (dan id 7); East-South
1.5 times that; three-player 1st place ippan 30, joukyuu 50, tokujou 70, houou 90, 2nd 0, 3rd the
four-player last-place loss; ranked games only (lobby 0, against people, no chips); nothing for
天鳳位. Stable dan: (first·n1 + second·n2) / (step·n_last) - 2.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import defaultdict
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from tenhou_tools.cli import cli

from .conftest import corpus_files

pytestmark = pytest.mark.corpus

GAME_ID = re.compile(r"^(\d{10})gm-([0-9a-f]{4})-(\d{4})-[0-9a-f]{8}$")
FIRST_SECOND = {"ippan": (20, 10), "joukyuu": (40, 10), "tokujou": (50, 20), "houou": (60, 30)}
FIRST_SECOND_3 = {"ippan": (30, 0), "joukyuu": (50, 0), "tokujou": (70, 0), "houou": (90, 0)}
SAMPLE = 3
"""Every third log of the corpus (about 1,400 games): enough kinds and players, a short run."""


def room_of(type_code: int) -> str:
    return {0: "ippan", 0x80: "joukyuu", 0x20: "tokujou", 0xA0: "houou"}[type_code & 0xA0]


def recount(paths):
    """{(name, players): [game dicts]} with rank, dan, dan points and table kind per game."""
    by_player = defaultdict(list)
    seen = set()
    for path in paths:
        log_id = path.name.split(".", 1)[0]
        if log_id in seen:
            continue
        seen.add(log_id)
        text = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        go = re.search(r'<GO type="(\d+)"(?: lobby="(\d+)")?', text)
        un = re.search(r"<UN ([^>]*)/>", text)
        owari = re.findall(r'owari="([^"]+)"', text)
        if not (go and un and owari):
            continue
        type_code, lobby = int(go.group(1)), int(go.group(2) or 0)
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', un.group(1)))
        players = 3 if type_code & 0x10 else 4
        south = bool(type_code & 0x08)
        scores = [float(x) for x in owari[-1].split(",")[0:2 * players:2]]
        order = sorted(range(players), key=lambda s: (-scores[s], s))
        dans = [int(x) for x in attrs["dan"].split(",")]
        ranked = lobby == 0 and type_code & 0x01 and not type_code & 0x200 and not type_code & 0x800
        room = room_of(type_code) if lobby == 0 else f"lobby:{lobby:04d}"
        for rank, seat in enumerate(order, 1):
            dan = dans[seat]
            pt = None
            if ranked and dan < 20:
                first, second = (FIRST_SECOND if players == 4 else FIRST_SECOND_3)[room]
                east = {1: first, 2: second, 3: 0, players: -10 * max(0, dan - 7)}[rank]
                pt = east * 3 // 2 if south else east
            by_player[(unquote(attrs[f"n{seat}"]), players)].append({
                "game": log_id, "rank": rank, "dan": dan, "dan_pt": pt, "room": room,
                "length": "south" if south else "east", "players": players,
            })
    return by_player


def stable(ranks, room, length):
    first, second = (FIRST_SECOND if len(ranks) == 4 else FIRST_SECOND_3)[room]
    scale = 1.5 if length == "south" else 1.0
    if not ranks[-1]:
        return None
    return (first * ranks[0] + second * ranks[1]) * scale / (10 * scale * ranks[-1]) - 2


@pytest.fixture(scope="module")
def compared(corpus):
    paths = [p for p in corpus_files()[::SAMPLE] if GAME_ID.match(p.name.split(".", 1)[0])]
    result = CliRunner().invoke(cli, ["stats", *map(str, paths), "--format", "json", "--jobs", "2",
                                      "--no-progress"])
    assert result.exit_code in (0, 1), result.output
    ours = {(r["name"], r["players"]): r for r in json.loads(result.stdout)}
    return recount(paths), ours


def test_every_game_of_every_player_is_in_the_history(compared):
    theirs, ours = compared
    read = {h["game"] for row in ours.values() for h in row["history"]}
    recounted = {g["game"] for games in theirs.values() for g in games}
    assert len(read) >= 0.98 * len(recounted) > 1000  # a few logs of the corpus are unreadable
    checked = 0
    for key, games in theirs.items():
        games = [g for g in games if g["game"] in read]
        if not games:
            continue
        history = ours[key]["history"]
        mine = sorted((g["game"], g["rank"], g["dan"], g["dan_pt"]) for g in games)
        assert sorted((h["game"], h["rank"], h["dan"], h["dan_pt"]) for h in history) == mine, key
        checked += len(history)
    assert checked >= 4000


def test_table_kinds_match_the_recount(compared):
    theirs, ours = compared
    read = {h["game"] for row in ours.values() for h in row["history"]}
    kinds_checked = stable_checked = 0
    for key, games in theirs.items():
        groups = defaultdict(list)
        for g in games:
            if g["game"] in read:
                groups[(g["room"], g["length"], g["players"])].append(g)
        if not groups:
            continue
        tables = {(t["room"], t["length"], t["players"]): t for t in ours[key]["tables"]}
        assert set(tables) == set(groups), key
        for kind, group in groups.items():
            t = tables[kind]
            ranks = [sum(1 for g in group if g["rank"] == r) for r in range(1, kind[2] + 1)]
            assert t["games"] == len(group) and t["ranks"] == ranks, (key, kind)
            points = [g["dan_pt"] for g in group if g["dan_pt"] is not None]
            want = round(sum(points) / len(points), 4) if points else None
            assert t["dan_pt_per_game"] == want, (key, kind)
            if not kind[0].startswith("lobby:"):
                value = stable(ranks, kind[0], kind[1])
                assert t["stable_dan"] == (None if value is None else round(value, 4)), (key, kind)
                stable_checked += value is not None
            else:
                assert t["stable_dan"] is None
            kinds_checked += 1
    assert kinds_checked >= 1000 and stable_checked >= 300
