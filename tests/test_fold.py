"""The one fold (``replay.state.TableState.apply``) and its walks (``replay.fold``): the board
after every step, the state after a result, furiten once a riichi tile has gone past.

On real games: the board of every step taken in one pass equals the board at that step taken
alone, and at each hand's end the fold's scores and sticks are the ones the next hand starts
from (the log's own INIT), so payments and sticks are applied once and right.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tenhou_tools.events import Agari, Discard, Game, Riichi, Ryuukyoku
from tenhou_tools.formats import load_game
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay.fold import board_at, game_states, hand_boards, walk_hand
from tenhou_tools.replay.state import TableState
from tenhou_tools.tiles import format_tiles

from .conftest import corpus_files
from .scenario import Scenario

S0 = "123456789m1123p"  # waits 1p, 4p
S1 = "123456789m1156p"  # waits 4p, 7p
S2 = "2468m5678p1357s7z"  # noten
S3 = "3377m3377p3377s6z"  # chiitoitsu tenpai on 6z


def _riichi_on(tile: str, *, accept: bool = True) -> Game:
    """S0 declares riichi with a discard of ``tile``; S1 waits on 4p and 7p."""
    b = Scenario([S0, S1, S2, S3]).begin()
    b.draw(0, tile)
    b.riichi(0, tile, accept=accept)
    b.turn(1, "1z")
    return parse_game(b.ryuukyoku())


def _step_of(game: Game, predicate) -> int:
    """The step just after the first event that fits (the number of events up to it)."""
    return next(i for i, e in enumerate(game.hands[0].events) if predicate(e)) + 1


def test_a_riichi_tile_on_offer_does_not_make_a_waiting_seat_furiten():
    game = _riichi_on("4p")
    at_discard = board_at(game, 0, _step_of(game, lambda e: isinstance(e, Discard)))
    assert not at_discard.seats[1].furiten.any  # S1 may still ron the 4p


def test_a_riichi_tile_gone_past_makes_a_waiting_seat_furiten():
    game = _riichi_on("4p")
    after = board_at(game, 0, _step_of(game, lambda e: isinstance(e, Riichi) and e.step == 2))
    s1 = after.seats[1]
    assert format_tiles([k * 4 + 1 for k in s1.furiten.same_turn]) == "4p"
    assert not s1.furiten.discard and not s1.furiten.riichi
    assert not after.seats[3].furiten.any  # 4p is not its wait


def test_a_riichi_tile_that_no_one_waits_on_makes_no_one_furiten():
    game = _riichi_on("1z")
    after = board_at(game, 0, _step_of(game, lambda e: isinstance(e, Riichi) and e.step == 2))
    assert not any(seat.furiten.any for seat in after.seats)


def test_the_stick_is_on_the_table_from_the_accepted_riichi():
    game = _riichi_on("1z")
    declared = board_at(game, 0, _step_of(game, lambda e: isinstance(e, Discard)))
    assert declared.seats[0].declared and not declared.seats[0].riichi
    assert declared.sticks == 0 and declared.seats[0].score == 25000
    accepted = board_at(game, 0, _step_of(game, lambda e: isinstance(e, Riichi) and e.step == 2))
    assert accepted.seats[0].riichi and accepted.sticks == 1 and accepted.seats[0].score == 24000


def test_a_win_takes_the_sticks_and_moves_the_scores():
    b = Scenario([S0, S1, S2, S3]).begin()
    b.draw(0, "1z")
    b.riichi(0, "1z")
    t = b.draw(1, "4p")
    b.discard(1, tile=t)
    b.scores[0] += 39 + 10
    b.scores[1] -= 39
    game = parse_game(b.agari(0, 1, t))
    last = hand_boards(game, 0)[-1]
    assert last.sticks == 0
    win = game.hands[0].events[-1]
    assert isinstance(win, Agari)
    assert [s.score for s in last.seats] == [win.scores_before[s] + win.deltas[s] for s in range(4)]


def test_an_exhaustive_draw_moves_the_scores_and_keeps_the_sticks():
    b = Scenario([S0, S1, S2, S3]).begin()
    b.draw(0, "1z")
    b.riichi(0, "1z")
    game = parse_game(b.ryuukyoku())
    state = walk_hand(game, 0)
    draw = game.hands[0].events[-1]
    assert isinstance(draw, Ryuukyoku) and state.draw is draw and state.ended
    assert state.sticks == 1
    assert state.scores == [draw.scores_before[s] + draw.deltas[s] for s in range(4)]


def test_the_state_moves_only_through_apply():
    game = _riichi_on("4p")
    state = TableState(game.hands[0].init, 4)
    for event in game.hands[0].events:
        before = state.step
        state.apply(event)
        assert state.step == before + 1
    assert state.board() == hand_boards(game, 0)[-1]


# -- real games -------------------------------------------------------------------------------


@functools.cache
def _sample() -> tuple[Path, ...]:
    return tuple(corpus_files("mjlog")[::97])


def _load(path: Path) -> Game:
    return load_game(path.read_bytes(), source=str(path))


@pytest.mark.corpus
def test_every_step_in_one_pass_equals_the_step_alone():
    files = _sample()[::8]
    if not files:
        pytest.skip("no corpus")
    compared = 0
    for path in files:
        game = _load(path)
        for position, hand in enumerate(game.hands):
            boards = hand_boards(game, position)
            assert len(boards) == len(hand.events) + 1
            for step in range(0, len(boards), 7):
                assert boards[step] == board_at(game, position, step), (path.name, position, step)
                assert boards[step].step == step
                compared += 1
    assert compared > 100


@pytest.mark.corpus
def test_each_hand_ends_where_the_next_one_starts():
    files = _sample()
    if not files:
        pytest.skip("no corpus")
    hands = 0
    for path in files:
        game = _load(path)
        states = dict(game_states(game))
        for position in range(len(game.hands) - 1):
            state, following = states[position], game.hands[position + 1].init
            assert state.ended, (path.name, position)
            assert tuple(state.scores) == following.scores, (path.name, position)
            assert state.sticks == following.sticks, (path.name, position)
            hands += 1
    assert hands > 300
