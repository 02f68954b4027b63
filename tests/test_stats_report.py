"""``stats.report``: rates, averages and 95 % intervals from counters, and the JSON/CSV shapes."""

from __future__ import annotations

import math
import re

import pytest

from tenhou_tools.mjlog import parse_game
from tenhou_tools.stats import PlayerCounters, PlayerReport, game_counters, wilson
from tenhou_tools.stats.report import Z95, csv_columns, mean_interval

from .stats_games import game_a, game_b, game_c


def ann_two_games() -> PlayerReport:
    a = game_counters(parse_game(game_a()))[("Ann", 4)]
    b = game_counters(parse_game(game_b()))[("Ann", 4)]
    return PlayerReport("Ann", 4, a + b)


def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)  # the textbook example
    assert wilson(0, 2) == (0.0, pytest.approx(Z95**2 / (2 + Z95**2)))  # 0 of n: z²/(n+z²)
    assert wilson(2, 2)[0] == pytest.approx(2 / (2 + Z95**2))
    assert wilson(0, 2)[1] == pytest.approx(0.6576, abs=1e-4)
    assert wilson(0, 0) is None
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_mean_interval():
    # values 2 and 4: mean 3, sample sd sqrt(2), half-width z * sqrt(2) / sqrt(2) = z
    assert mean_interval(6, 20, 2) == (pytest.approx(3 - Z95), pytest.approx(3 + Z95))
    assert mean_interval(5, 25, 1) is None


def test_rates_and_averages_of_two_games():
    r = ann_two_games()
    m = {x.key: x for x in r.metrics()}
    # Ann: game A (4 hands, 2nd) and game B (7 hands, 4th, bust); see tests/stats_games.py
    assert (m["games"].value, m["hands"].value) == (2, 11)
    assert m["avg_rank"].value == 3.0
    assert m["avg_rank"].ci == (pytest.approx(3 - Z95), pytest.approx(3 + Z95))
    assert (m["rank2_rate"].value, m["rank4_rate"].value, m["rank1_rate"].value) == (0.5, 0.5, 0.0)
    assert m["top2_rate"].value == 0.5 and m["bust_rate"].value == 0.5
    assert m["total_final_points"].value == pytest.approx(-58.4)  # -0.9 - 57.5
    assert m["avg_final_points"].value == pytest.approx(-29.2)
    assert m["avg_final_score"].value == (19100 - 7500) / 2
    assert m["win_rate"].value == 2 / 11 and m["win_rate"].ci == wilson(2, 11)
    assert m["tsumo_share"].value == 0.0
    assert m["avg_win_points"].value == (3900 + 1000) / 2
    assert m["avg_win_points_dama"].value == 3900 and m["avg_win_points_open"].value == 1000
    assert m["avg_win_points_riichi"].value is None and m["avg_win_points_dealer"].value is None
    assert m["avg_win_points_non_dealer"].value == 2450
    assert m["avg_win_turn"].value == (2 + 3) / 2
    assert m["deal_in_rate"].value == 3 / 11  # hands with a deal-in
    assert m["avg_deal_in_points"].value == (8000 + 3200 + 18000) / 3
    assert m["avg_deal_in_turn"].value == (3 + 2 + 2) / 3
    assert m["deal_in_to_riichi_share"].value == 1 / 3 and m["deal_in_to_dama_share"].value == 2 / 3
    assert m["riichi_rate"].value == 3 / 11
    assert m["avg_riichi_turn"].value == (1 + 2 + 1) / 3
    assert m["riichi_win_rate"].value == 0.0 and m["riichi_deal_in_rate"].value == 2 / 3
    assert m["riichi_exhaustive_rate"].value == 1 / 3
    assert m["call_rate"].value == 1 / 11 and m["call_win_rate"].value == 1.0
    assert m["exhaustive_draw_rate"].value == 2 / 11 and m["tenpai_at_draw_rate"].value == 0.5
    assert m["abortive_draw_rate"].value == 1 / 11
    assert m["avg_hand_balance"].value == (-5900 - 32500) / 11
    lo, hi = m["avg_hand_balance"].ci
    assert lo < m["avg_hand_balance"].value < hi


def test_json_object_has_the_documented_keys():
    doc = ann_two_games().to_json()
    for key in ("name", "players", "games", "hands", "rank_counts", "avg_rank", "wins", "win_rate",
                "deal_ins", "deal_in_rate", "riichi", "riichi_rate", "calls", "call_rate"):
        assert key in doc
    assert doc["name"] == "Ann" and doc["players"] == 4
    assert doc["rank_counts"] == [0, 1, 0, 1]
    assert (doc["wins"], doc["deal_ins"], doc["riichi"], doc["calls"]) == (2, 3, 3, 1)
    assert doc["win_rate"] == round(2 / 11, 4) and len(doc["win_rate_ci"]) == 2
    assert doc["avg_win_points_riichi"] is None
    assert doc["riichi_outcomes"] == {"won": 0, "dealt_in": 2, "tsumo_by_other": 0, "other_ron": 0,
                                      "exhaustive_draw": 1, "abortive_draw": 0}
    assert {y["name"]: y["count"] for y in doc["yaku"]} == {"pinfu": 1, "tanyao": 1, "iipeikou": 1, "haku": 1}
    assert {y["id"]: y["name"] for y in doc["yaku"]} == {7: "pinfu", 8: "tanyao", 9: "iipeikou", 18: "haku"}
    assert doc["counters"]["hand_balance"] == -38400


def test_three_player_rows_have_three_ranks():
    c = game_counters(parse_game(game_c()))
    doc = PlayerReport("Ann", 3, c[("Ann", 3)]).to_json()
    assert doc["rank_counts"] == [1, 0, 0] and "rank4_rate" not in doc
    assert doc["yakuman"] == 1 and doc["yaku"] == [{"id": 39, "name": "daisangen", "count": 1}]
    row = PlayerReport("Ann", 3, c[("Ann", 3)]).to_row()
    assert set(row) <= set(csv_columns())
    assert row["rank4"] == "" and row["rank1"] == 1


def test_csv_row_is_flat_and_complete():
    row = ann_two_games().to_row()
    assert list(row) == csv_columns()
    assert all(not isinstance(v, (list, dict, tuple)) for v in row.values())
    assert row["win_rate_ci_low"] < row["win_rate"] < row["win_rate_ci_high"]
    assert row["yaku: pinfu"] == 1 and row["yaku: riichi"] == 0
    assert not any(re.fullmatch(r"yaku_\d+", column) for column in row)
    assert row["n_hand_balance"] == -38400


def test_empty_counters_report_nothing_undefined_as_zero():
    r = PlayerReport("nobody", 4, PlayerCounters())
    doc = r.to_json()
    assert doc["win_rate"] is None and doc["win_rate_ci"] is None and doc["avg_rank"] is None
    assert not any(isinstance(v, float) and math.isnan(v) for v in doc.values())
