"""rules.game_end.decide_end: when a game ends, with and without the game's date."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from tenhou_tools.ids import JST
from tenhou_tools.mjlog import ruleset_from_type
from tenhou_tools.rules.game_end import decide_end, final_scores, owari_points, ranking, rounding_methods, uma

HANCHAN = ruleset_from_type(169)  # four-player East-South (Houou)
TONPUU = ruleset_from_type(225)  # four-player East only
SANMA = ruleset_from_type(185)  # three-player East-South
S4, W1, W4 = 7, 8, 11  # round indexes (4 x wind + hand - 1)
EVEN = (25000, 25000, 25000, 25000)
TOP_0 = (31000, 23000, 23000, 23000)  # seat 0 (the dealer of S4 and W4) is top with the target
TOP_1 = (23000, 31000, 23000, 23000)
UNDER = (29000, 27000, 22000, 22000)  # nobody at 30,000


def at(year: int, month: int, day: int, hour: int = 12) -> datetime:
    """A game's start as its id gives it (Japan time, to the hour)."""
    return datetime(year, month, day, hour, tzinfo=JST)


OLD, MID, NEW = at(2009, 6, 1), at(2010, 1, 1), at(2015, 1, 1)


def ends(ruleset=HANCHAN, *, round_index=S4, dealer=3, scores=EVEN, abortive=False, dealer_won=False,
         dealer_tenpai=False, day=None) -> bool | None:
    return decide_end(ruleset, round_index=round_index, dealer=dealer, scores=scores, abortive=abortive,
                      dealer_won=dealer_won, dealer_tenpai=dealer_tenpai, start=day).ends


@pytest.mark.parametrize("day", [OLD, MID, NEW, None])
def test_all_last_with_nobody_at_the_target_goes_on(day):
    # the rule of issue 18: also without a date, because every date regime says so
    assert ends(round_index=S4, scores=UNDER, day=day) is False


@pytest.mark.parametrize("day", [OLD, MID, NEW, None])
def test_all_last_with_the_top_at_the_target_ends(day):
    assert ends(round_index=S4, scores=TOP_1, day=day) is True


def test_the_reason_says_the_date_did_not_matter():
    decision = decide_end(HANCHAN, round_index=S4, dealer=3, scores=UNDER, abortive=False, dealer_won=False,
                          dealer_tenpai=False, start=None)
    assert decision.reason == "nobody has the target score: the game goes on, on any date"


def test_the_extension_limit_depends_on_the_date():
    # West 4 over with nobody at 30,000: the last round since 2009-07-04, not before
    assert ends(round_index=W4, scores=UNDER, day=OLD) is False
    assert ends(round_index=W4, scores=UNDER, day=MID) is True
    assert ends(round_index=W4, scores=UNDER, day=None) is None
    assert ends(TONPUU, round_index=S4, scores=UNDER, day=NEW) is True
    assert ends(TONPUU, round_index=3, scores=UNDER, day=None) is False  # East 4 of an East-only game


def test_tenpai_yame_depends_on_the_date():
    kw = dict(round_index=S4, dealer=0, scores=TOP_0, dealer_tenpai=True)
    assert ends(**kw, day=at(2010, 5, 31)) is False
    assert ends(**kw, day=at(2010, 6, 2)) is True
    assert ends(**kw, day=None) is None


def test_tenpai_yame_came_during_its_first_day():
    """2010-06-01: a game started at 06:xx played on after the top dealer's tenpai, one started at
    22:xx stopped; a game that started in between is judged only where both rules agree."""
    kw = dict(round_index=S4, dealer=0, scores=TOP_0, dealer_tenpai=True)
    assert ends(**kw, day=at(2010, 6, 1, 6)) is False
    assert ends(**kw, day=at(2010, 6, 1, 22)) is True
    assert ends(**kw, day=at(2010, 6, 1, 12)) is None
    # where tenpai-yame does not decide, the hour does not matter
    decision = decide_end(HANCHAN, round_index=S4, dealer=0, scores=TOP_0, abortive=False, dealer_won=True,
                          dealer_tenpai=False, start=at(2010, 6, 1, 12))
    assert decision.ends is True and decision.reason.endswith("before and after tenpai-yame came in on 2010-06-01")


@pytest.mark.parametrize("day", [OLD, NEW, None])
def test_agari_yame_on_any_date(day):
    assert ends(round_index=S4, dealer=0, scores=TOP_0, dealer_won=True, day=day) is True


@pytest.mark.parametrize("day", [OLD, NEW, None])
def test_the_dealer_repeats_when_not_top(day):
    assert ends(round_index=S4, dealer=0, scores=TOP_1, dealer_won=True, day=day) is False


@pytest.mark.parametrize("day", [OLD, MID, NEW, None])
def test_the_top_dealer_below_the_target_plays_on_in_the_last_round(day):
    """The dealer's renchan goes first in the last possible round too: the W4 (or tonpuu S4)
    dealer who wins or is tenpai while top under 30,000 plays on (28 hands of the corpus); with
    30,000 the game ends (agari-yame, tenpai-yame); a dealer who is not top plays on."""
    under, over = (29000, 27000, 22000, 22000), (31000, 27000, 22000, 20000)
    assert ends(round_index=W4, dealer=0, scores=under, dealer_won=True, day=day) is False
    assert ends(TONPUU, round_index=S4, dealer=0, scores=under, dealer_won=True, day=day) is False
    assert ends(round_index=W4, dealer=0, scores=over, dealer_won=True, day=day) is True
    assert ends(round_index=W4, dealer=0, scores=TOP_1, dealer_won=True, day=day) is False
    if day in (MID, NEW):
        assert ends(round_index=W4, dealer=0, scores=under, dealer_tenpai=True, day=day) is False
        assert ends(round_index=W4, dealer=0, scores=over, dealer_tenpai=True, day=day) is (day is NEW)
        # when the last possible round passes to the next dealer, the game is over
        assert ends(round_index=W4, dealer=0, scores=under, day=day) is True


@pytest.mark.parametrize("day", [OLD, NEW, None])
def test_bust_and_abortive_draws(day):
    assert ends(round_index=0, scores=(-100, 40000, 30100, 30000), day=day) is True
    assert ends(round_index=S4, scores=TOP_1, abortive=True, day=day) is False


def test_before_all_last_the_game_goes_on():
    assert ends(round_index=3, scores=TOP_1, day=None) is False
    assert ends(SANMA, round_index=5, scores=(41000, 34000, 30000, 0), day=None) is False
    assert ends(SANMA, round_index=6, scores=(41000, 34000, 30000, 0), day=None) is True  # S3 in three-player


def test_zero_points_do_not_end_the_game():
    assert ends(round_index=0, scores=(0, 40000, 30000, 30000), day=NEW) is False  # 0 goes on
    assert ends(round_index=0, scores=(-100, 40100, 30000, 30000), day=NEW) is True


def test_ties_go_to_the_seat_nearer_the_first_dealer():
    assert ranking((25000, 25000, 25000, 25000), 4) == [0, 1, 2, 3]
    assert ranking((20000, 30000, 30000, 20000), 4) == [1, 2, 0, 3]
    assert ranking((20000, 30000, 30000, 20000), 4, first_dealer=2) == [2, 1, 3, 0]
    # the sticks left on the table go to first place, the tie broken the same way
    assert final_scores((24000, 24000, 24000, 24000), 4, 4) == [28000, 24000, 24000, 24000]


def test_tonpuu_uma_before_august_2009():
    assert uma(TONPUU, date(2009, 7, 31)) == (5, -5, -10)
    assert uma(TONPUU, date(2009, 8, 1)) == (10, -10, -20)
    assert uma(TONPUU, None) is None
    assert uma(HANCHAN, None) == (10, -10, -20)
    assert uma(SANMA, None) == (0, -20)


def test_game_points_rounded_then_exact():
    final = (37400, 28600, 19500, 14500)
    # rounded to thousands, half away from zero: 28.6 -> 29, 19.5 -> 20, 14.5 -> 15
    assert owari_points(final, 4, (10, -10, -20), back=30000, rounded=True) == [46.0, 9.0, -20.0, -35.0]
    assert owari_points(final, 4, (10, -10, -20), back=30000, rounded=False) == [47.4, 8.6, -20.5, -35.5]
    assert rounding_methods(date(2022, 1, 13)) == (True,)
    assert rounding_methods(date(2022, 6, 1)) == (False,)
    assert rounding_methods(None) == (True, False)
