"""``stats.counters``: every counter on hand-made games whose values are worked out by hand
(``tests/stats_games.py``), and the additive laws the store and the pool rely on."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from tenhou_tools.mjlog import parse_game
from tenhou_tools.sources.files import read_game
from tenhou_tools.stats import PlayerCounters, game_counters
from tenhou_tools.stats.counters import INT_FIELDS

from .conftest import FIXTURES
from .stats_games import GAMES, game_a, game_b, game_c, game_d


def counters_of(xml: bytes) -> dict:
    return {key: c.to_dict() for key, c in game_counters(parse_game(xml)).items()}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_counter_of_a_hand_made_game(name):
    build, expected, players = GAMES[name]
    got = counters_of(build())
    assert got == {(player, players): values for player, values in expected.items()}


def test_the_hand_made_games_cover_every_counter():
    """Each counter is non-zero for someone in the worked-out games, so each is tested (the
    play-quality counters come from ``--quality`` only: tests/test_stats_figures.py)."""
    seen = set()
    for _, expected, _ in GAMES.values():
        for values in expected.values():
            seen.update(k for k, v in values.items() if v)
    quality = {field for field in INT_FIELDS if field.startswith("quality_")}
    assert set(INT_FIELDS) - quality | {"yaku"} == seen


def test_the_builder_keeps_the_score_chain():
    """Final scores of the hand-made games are the ones written in the expectations."""
    a = parse_game(game_a())
    assert a.owari.scores == (19100, 49800, 18600, 12500)
    b = parse_game(game_b())
    assert b.owari.scores == (16000, 36600, 54900, -7500)
    c = parse_game(game_c())
    assert c.owari.scores[:3] == (83000, 12000, 10000)
    d = parse_game(game_d())
    assert d.owari.scores == (28000, 24000, 24000, 24000)


def test_fixture_logs():
    # one_hand: Alice (dealer) rons Bob's first discard, daisangen 48000.
    got = game_counters(read_game(FIXTURES / "one_hand.xml"))
    alice, bob, sakura = got[("Alice", 4)], got[("Bob", 4)], got[("さくら", 4)]
    assert (alice.wins, alice.win_points, alice.yakuman, alice.win_turns, alice.rank1) == (1, 48000, 1, 2, 1)
    assert alice.yaku == ((39, 1),)
    assert (bob.deal_ins, bob.deal_in_turns, bob.busts, bob.rank4, bob.hand_balance) == (1, 1, 1, 1, -48000)
    assert (sakura.rank2, sakura.final_points) == (1, 50)  # +5.0, tie with Dan broken by seat order
    # sanma_kita: the kita is not a call, and the game is keyed as three-player.
    sanma = game_counters(read_game(FIXTURES / "sanma_kita.xml"))
    assert {players for _, players in sanma} == {3}
    assert all(c.calls == 0 and c.games == 1 for c in sanma.values())


def test_counters_add_up_and_sum_works():
    a = game_counters(parse_game(game_a()))
    b = game_counters(parse_game(game_b()))
    ann = a[("Ann", 4)] + b[("Ann", 4)]
    assert ann.games == 2 and ann.hands == 11 and ann.wins == 2 and ann.deal_ins == 3
    assert ann.yaku_counts() == {7: 1, 8: 1, 9: 1, 18: 1}
    assert sum([a[("Ann", 4)], b[("Ann", 4)]]) == ann
    assert sum([], PlayerCounters()) == PlayerCounters()
    # associative and commutative, with zero as identity
    x, y, z = a[("Ben", 4)], b[("Ben", 4)], a[("Cat", 4)]
    assert (x + y) + z == x + (y + z)
    assert x + y == y + x
    assert x + PlayerCounters() == x


def test_counters_are_frozen_values_that_pickle_and_round_trip():
    c = game_counters(parse_game(game_b()))[("Ben", 4)]
    with pytest.raises(FrozenInstanceError):
        c.wins = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(c)) == c
    assert PlayerCounters.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match="unknown counters"):
        PlayerCounters.from_dict({"wins": 1, "zzz": 2})


def test_a_game_without_final_result_is_refused():
    game = parse_game(game_a())
    cut = parse_game(game_a().replace(b' owari="', b' x="'), require_complete=False)
    assert game.owari is not None and cut.owari is None
    with pytest.raises(ValueError, match="no final result"):
        game_counters(cut)
