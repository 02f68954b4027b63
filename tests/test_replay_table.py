"""The replay's parts: check kinds and their counts (``replay.checks``) and the board snapshot
(``replay.state``, ``replay.fold.board_at``)."""

from __future__ import annotations

import pytest

from tenhou_tools.events import CallKind, Discard
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay._recorder import Recorder
from tenhou_tools.replay.checks import CheckKind
from tenhou_tools.replay.engine import replay_game
from tenhou_tools.replay.fold import board_at
from tenhou_tools.tiles import format_tiles

from .test_tamper_legality import _pon_after_a_pass, _riichi_furiten

NDJSON_KEYS = (  # validate's ``checks`` keys before CheckKind existed: a contract
    "abort", "agari", "agari_dora", "agari_hand", "agari_order", "agari_pao", "agari_value", "ba", "call",
    "carry", "draw_condition", "draw_hand", "draw_order", "draw_payment", "draw_tenpai",
    "fragment_not_checkable", "fu_not_checkable", "furiten", "game_end", "game_end_not_checkable", "nagashi",
    "owari", "owari_points_not_checkable", "payment", "payment_not_checkable", "riichi", "riichi_declared",
    "rotation_not_checkable", "ryuukyoku", "scores_before", "start_scores_not_checkable", "tiles", "turn",
    "wall_deal", "wall_dice", "wall_dora", "wall_draw", "wall_not_checkable", "wall_ura",
)


def test_check_kinds_keep_the_ndjson_names():
    values = {kind.value for kind in CheckKind}
    assert set(NDJSON_KEYS) <= values
    assert values - set(NDJSON_KEYS) == {"dora_timing", "riichi_accepted", "abort_required",
                                         # issue 36: the header's claims and the seed
                                         "wall_seed", "game_id", "lobby_rules", "chips", "seats", "seat_rank",
                                         "game_id_not_checkable", "seat_rank_not_checkable",
                                         "riichi_scores_not_checkable", "claims_not_checkable", "disconnect",
                                         "disconnect_not_checkable", "era", "era_not_checkable"}


def test_a_check_counts_and_returns_its_verdict():
    rec = Recorder()
    assert rec.check(CheckKind.BA, True) is True
    assert rec.check(CheckKind.BA, False) is False
    assert rec.of(CheckKind.TILES).check(True)
    rec.not_checkable(CheckKind.WALL_NOT_CHECKABLE)
    assert rec.counts() == {"ba": 2, "tiles": 1, "wall_not_checkable": 1}  # kinds that never ran: left out


def test_not_checkable_is_only_for_not_checkable_kinds():
    with pytest.raises(AssertionError):
        Recorder().not_checkable(CheckKind.BA)
    for kind in CheckKind:  # the recorder's set of the kinds is the kinds' own word
        if kind.checkable:
            with pytest.raises(AssertionError):
                Recorder().not_checkable(kind)
        else:
            Recorder().not_checkable(kind)


def test_the_counts_reach_the_report():
    game = parse_game(_pon_after_a_pass("4p", caller_from=2))
    report = replay_game(game)
    hand = game.hands[0]
    draws = sum(1 for e in hand.events if type(e).__name__ == "Draw")
    discards = sum(1 for e in hand.events if isinstance(e, Discard))
    assert report.checks["draw_order"] == draws
    assert report.checks["turn"] == discards
    assert report.checks["tiles"] == draws + discards + 1  # and the deal
    # the pon (not in riichi, not the last discard, a discard to call, that discard) and kuikae
    # at the discard after it
    assert report.checks["call"] == 5
    assert report.checks["furiten"] == 1


def _step_after(game, predicate) -> int:
    """The number of events up to and including the last one that fits."""
    events = game.hands[0].events
    return max(i for i, e in enumerate(events) if predicate(e)) + 1


def test_board_after_a_reverse_order_pon():
    game = parse_game(_pon_after_a_pass("4p", caller_from=2))
    step = _step_after(game, lambda e: isinstance(e, Discard))  # S1's 3p is out, before the ron
    board = board_at(game, 0, step)
    s0, s1, s2 = board.seats[0], board.seats[1], board.seats[2]
    assert format_tiles(sorted(s0.concealed)) == "123789m3p789s"
    assert [m.kind for m in s0.melds] == [CallKind.PON]
    assert [(format_tiles([p.tile]), p.tsumogiri, p.called) for p in s0.pond] == [("6z", True, False),
                                                                                  ("2p", False, False)]
    assert [(format_tiles([p.tile]), p.called) for p in s2.pond] == [("5z", True)]
    assert [format_tiles([p.tile]) for p in s1.pond] == ["4p", "3p"]
    # S0 let a 4p pass before its pon from across; the discard after the pon lifted that furiten
    assert not s0.furiten.any
    assert board.live_remaining == 70 - 4
    assert board.dora_indicators == (game.hands[0].init.dora_indicator,)
    assert len(board.seats) == 4


def test_board_in_riichi():
    game = parse_game(_riichi_furiten("4p"))
    # after S2's turn: S0 declared riichi on 5z, S1 let a 4p pass
    board = board_at(game, 0, _step_after(game, lambda e: isinstance(e, Discard) and e.seat == 2))
    s0 = board.seats[0]
    assert s0.riichi and board.sticks == 1 and s0.score == game.hands[0].init.scores[0] - 1000
    assert [(format_tiles([p.tile]), p.tsumogiri, p.riichi) for p in s0.pond] == [("5z", True, True)]
    assert format_tiles([k * 4 + 1 for k in s0.furiten.riichi]) == "4p"
    assert format_tiles([k * 4 + 1 for k in s0.furiten.same_turn]) == "4p"


def test_a_board_is_frozen():
    game = parse_game(_riichi_furiten("4p"))
    board = board_at(game, 0, 3)
    with pytest.raises(AttributeError):
        board.honba = 5  # type: ignore[misc]
