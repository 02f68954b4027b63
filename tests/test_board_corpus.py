"""``replay --at``'s board on real games, against what the log itself shows and against a second
implementation of each value.

A sample of corpus games (every 150th mjlog, every 40th tenhou.net/6 JSON through its
converted stream): at every 9th step of every hand, at each hand's result and at its end, the
board JSON (``documents.board.board_document(...).to_json()``, what ``--at --format json`` prints) must equal
``tests/board_tracker.py``'s board (hands, ponds with their marks, melds, scores, dora, honba,
sticks); the live wall must be the full wall less the draws so far; each seat's tiles must
fit its melds; each shanten must equal the ``mahjong`` package's and each 3n+1 hand's waits
the kinds that complete it by ``mahjong.agari.Agari``; and just before each result, the
concealed hands must be the ones AGARI and RYUUKYOKU show. On a few games, the board's shanten
at each discard equals the analysis's shanten before and after it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from mahjong.agari import Agari as TheirAgari
from mahjong.shanten import Shanten

from tenhou_tools.analysis import analyze_game
from tenhou_tools.documents.board import Moment, board_document
from tenhou_tools.events import Agari, Draw, Game, Ryuukyoku
from tenhou_tools.formats import load_game
from tenhou_tools.rules.hand import counts34

from .board_tracker import LIVE_WALL, board_at
from .conftest import corpus_files

pytestmark = pytest.mark.corpus

STEP_EVERY = 9


@functools.cache
def sample() -> tuple[Path, ...]:
    return tuple(corpus_files("mjlog")[::150] + corpus_files("tenhou6", "*.json")[::40])


def load(path: Path) -> Game:
    return load_game(path.read_bytes(), source=str(path))


def _their_waits(c: list[int], sanma: bool) -> list[int]:
    found = []
    for k in range(34):
        if c[k] < 4 and not (sanma and 1 <= k <= 7):
            c[k] += 1
            if TheirAgari.is_agari(c):
                found.append(k)
            c[k] -= 1
    return found


def _check_moment(game: Game, position: int, step: int, counted: dict[str, int]) -> dict:
    hand = game.hands[position]
    n = game.header.ruleset.players
    sanma = n == 3
    board = board_document(game, Moment(position, step)).to_json()["board"]
    where = (game.log_id, hand.init.label(), step)
    expected = board_at(hand, n, step)
    assert (board["hand"], board["step"], board["steps"]) == (hand.init.label(), step, len(hand.events)), where
    draws = sum(1 for e in hand.events[:step] if isinstance(e, Draw))
    assert board["wall_remaining"] == LIVE_WALL[n] - draws == expected.wall, where
    assert board["dora_indicators"] == expected.dora, where
    assert (board["honba"], board["sticks"]) == (expected.honba, expected.sticks), where
    assert len(board["seats"]) == n, where
    for seat, tracked in zip(board["seats"], expected.seats, strict=True):
        assert sorted(seat["hand"]) == sorted(tracked.hand), where
        assert seat["score"] == tracked.score, where
        assert [[d["tile"], d["tsumogiri"], d["riichi"], d["called"]] for d in seat["discards"]] == \
            [[p.tile, p.tsumogiri, p.riichi, p.called] for p in tracked.pond], where
        assert [(m["kind"], m["tiles"]) for m in seat["melds"]] == [(k, list(t)) for k, t in tracked.melds], where
        sets = sum(1 for m in seat["melds"] if m["kind"] != "kita")
        assert len(seat["hand"]) + 3 * sets in (13, 14), where
        c = counts34(seat["hand"])
        assert seat["shanten"] == Shanten.calculate_shanten(c, is_three_player=sanma), where
        if len(seat["hand"]) % 3 == 1:
            assert seat["waits"] == (_their_waits(c, sanma) if seat["shanten"] == 0 else []), where
            counted["tenpai"] += seat["shanten"] == 0
        else:
            assert seat["waits"] == [], where
        assert seat["furiten"] == any(seat["furiten_kinds"].values()), where
        assert not seat["furiten"] or seat["shanten"] == 0, where
        counted["seats"] += 1
    counted["moments"] += 1
    return board


def test_board_agrees_with_the_log_and_a_second_implementation(corpus):
    counted = {"games": 0, "hands": 0, "moments": 0, "seats": 0, "tenpai": 0, "results": 0}
    for path in sample():
        game = load(path)
        counted["games"] += 1
        for position, hand in enumerate(game.hands):
            counted["hands"] += 1
            events = hand.events
            steps = set(range(0, len(events) + 1, STEP_EVERY)) | {len(events)}
            results = [i for i, e in enumerate(events) if isinstance(e, Agari | Ryuukyoku)]
            for step in sorted(steps | set(results)):
                board = _check_moment(game, position, step, counted)
                if step not in results:
                    continue
                ending = events[step]  # the board just before the result: the hands it shows
                if isinstance(ending, Agari):
                    concealed = list(board["seats"][ending.who]["hand"])
                    if not ending.is_tsumo:
                        concealed.append(ending.win_tile)
                    assert sorted(concealed) == sorted(ending.hand), (path, hand.init.label(), step)
                else:
                    for s, shown in enumerate(ending.hands[:len(board["seats"])]):
                        if shown is not None:
                            assert sorted(board["seats"][s]["hand"]) == sorted(shown), (path, step, s)
                counted["results"] += 1
    assert counted["games"] >= 30 and counted["results"] >= counted["hands"], counted
    assert counted["tenpai"] > 100, counted


def test_board_shanten_is_the_analysis_shanten(corpus):
    for path in sample()[:4]:
        game = load(path)
        positions = {hand.index: p for p, hand in enumerate(game.hands)}
        notes = analyze_game(game).discards
        assert notes, path
        for note in notes:
            position = positions[note.hand]
            before = board_document(game, Moment(position, note.event_index)).to_json()["board"]["seats"][note.seat]
            after = board_document(game, Moment(position, note.event_index + 1)).to_json()["board"]["seats"][note.seat]
            assert before["shanten"] == note.analysis.shanten_before, (path, note.hand, note.event_index)
            assert after["shanten"] == note.analysis.shanten_after, (path, note.hand, note.event_index)
            if note.riichi is not None:
                assert after["waits"] == list(note.riichi.waits), (path, note.hand, note.event_index)
