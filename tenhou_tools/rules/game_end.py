"""Between hands and at the end: dealer rotation (renchan), honba, the end of the game, owari.

Sources: GAME_RULES.md §6.3-6.5 and §6.14 (rule changes by date). Compiled in a compiled install
(the replay asks after every hand); the values (``EndDecision``, ``EndPeriod``, ``TableRules``)
are defined in ``rules.values``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

# build: a frozen value made by setting its slots (the _native kernel), not through the dataclass's
# __init__: a hand's EndDecision, about 0.06 M of check_log's 6.6 M instructions a game
# (scripts/bench_callgrind.py, 100 corpus games, 2026-11-29).
from .._native import build
from ..events import Ruleset
from ..ids import JST
from .values import EndDecision, EndPeriod, TableRules

__all__ = [
    "END_PERIODS",
    "EXTENSION_LIMIT_FROM",
    "FIRST_EXACT",
    "LAST_ROUNDED",
    "TENPAI_YAME_FIRST_WITH",
    "TENPAI_YAME_FROM",
    "TENPAI_YAME_LAST_WITHOUT",
    "TONPUU_UMA_FROM",
    "EndDecision",
    "EndPeriod",
    "TableRules",
    "all_last_round",
    "decide_end",
    "end_periods",
    "final_scores",
    "last_round",
    "next_round",
    "owari_points",
    "ranking",
    "round_half_away",
    "rounding_methods",
    "table_rules",
    "target_score",
    "uma",
]

TENPAI_YAME_FROM = date(2010, 6, 1)
"""Tenpai-yame (the all-last top dealer stopping on tenpai) exists from this day (the rule
list's date); the change came during the day (``TENPAI_YAME_LAST_WITHOUT``)."""
TENPAI_YAME_LAST_WITHOUT = datetime(2010, 6, 1, 6, tzinfo=JST)
"""The latest game start seen without tenpai-yame: in 2010060106gm-00a9-0000-30d6de3b the South 4
dealer, top with 30,000 or more, was tenpai at the draw and the game went on."""
TENPAI_YAME_FIRST_WITH = datetime(2010, 6, 1, 22, tzinfo=JST)
"""The earliest game start seen with it: 2010060122gm-0029-0000-64c7f112 ended on the South 4
dealer's tenpai. A game that started in between is judged under both rules."""
EXTENSION_LIMIT_FROM = date(2009, 7, 4)
"""From this day the extension stops at South 4 (tonpuu) / West 4 (hanchan)."""
TONPUU_UMA_FROM = date(2009, 8, 1)
"""Tonpuusen uma 10-20 from this day (5-10 before)."""


def next_round(round_index: int, players: int) -> int:
    """The round index after the dealer passes (three-player skips indices 3, 7, 11)."""
    nxt = round_index + 1
    if players == 3 and nxt % 4 == 3:
        nxt += 1
    return nxt


def all_last_round(ruleset: Ruleset) -> int:
    """Oorasu: E4 / S4 (4p), E3 / S3 (3p)."""
    last_hand = ruleset.players - 1
    return (4 if ruleset.east_south else 0) + last_hand


def last_round(ruleset: Ruleset) -> int:
    """The last round of the extension since 2009-07-04: S4 (tonpuu) / W4 (hanchan); S3 / W3 in
    three-player."""
    last_hand = ruleset.players - 1
    return (8 if ruleset.east_south else 4) + last_hand


def target_score(ruleset: Ruleset) -> int:
    """Points the top player needs to end the game at all-last: 30000 (4p), 40000 (3p)."""
    return 30000 if ruleset.players == 4 else 40000


def ranking(scores: Sequence[float], players: int, first_dealer: int = 0) -> list[int]:
    """Seats from first to last; ties go to the seat nearer the first dealer (East 1 order)."""
    return sorted(range(players), key=lambda s: (-scores[s], (s - first_dealer) % 4))


END_PERIODS: tuple[EndPeriod, ...] = (
    EndPeriod(extension_limit=False, tenpai_yame=False),
    EndPeriod(extension_limit=True, tenpai_yame=False),
    EndPeriod(extension_limit=True, tenpai_yame=True),
)
"""The periods between the rule changes that decide the end of a game: before the extension
limit (2009-07-04), before tenpai-yame (2010-06-01, during the day), and since."""


def end_periods(start: datetime | None) -> tuple[EndPeriod, ...]:
    """The periods a game that started at ``start`` (Japan time, from its id: ``ids.game_start``) may
    belong to: one, or all of them for a game of unknown date, or both sides of tenpai-yame for a
    game that started on 2010-06-01 between the last game seen without it and the first seen with
    it (``TENPAI_YAME_LAST_WITHOUT``, ``TENPAI_YAME_FIRST_WITH``)."""
    if start is None:
        return END_PERIODS
    if start.date() < EXTENSION_LIMIT_FROM:
        return END_PERIODS[:1]
    if start <= TENPAI_YAME_LAST_WITHOUT:
        return END_PERIODS[1:2]
    if start < TENPAI_YAME_FIRST_WITH:
        return END_PERIODS[1:]
    return END_PERIODS[2:]


def decide_end(
    ruleset: Ruleset,
    *,
    round_index: int,
    dealer: int,
    scores: Sequence[int],
    abortive: bool,
    dealer_won: bool,
    dealer_tenpai: bool,
    start: datetime | None,
    first_dealer: int = 0,
) -> EndDecision:
    """Whether the game ends after this hand (GAME_RULES §6.4, first matching rule wins).

    ``scores`` are the points after the hand, without the riichi sticks left on the table.
    ``dealer_won`` / ``dealer_tenpai``: the dealer won (any winner of a double ron) or was
    tenpai at an exhaustive draw (renchan). ``start`` is when the game started (``ids.game_start``);
    when it leaves the period open (``end_periods``: an unknown date, or 2010-06-01 between
    the last game seen without tenpai-yame and the first seen with it), the answer is the one
    every possible period gives, or ``None`` when they disagree.
    """
    n = ruleset.players
    if abortive:
        return build(EndDecision, ends=False, reason="abortive draw: the dealer repeats")
    if any(scores[s] < 0 for s in range(n)):
        return build(EndDecision, ends=True, reason="a player is below zero (bust)")
    if round_index < all_last_round(ruleset):
        return build(EndDecision, ends=False, reason="before all-last")
    periods = end_periods(start)
    answers = [_at_all_last(ruleset, round_index, dealer, scores, dealer_won, dealer_tenpai, period, first_dealer)
               for period in periods]
    if len(answers) == 1:
        return answers[0]
    if any(a.ends != answers[0].ends for a in answers):
        return build(EndDecision, ends=None,
                           reason="the rule that decides depends on when the game was played, which is unknown")
    when = "on any date" if start is None else "before and after tenpai-yame came in on 2010-06-01"
    return build(EndDecision, ends=answers[-1].ends, reason=f"{answers[-1].reason}, {when}")


def _at_all_last(ruleset: Ruleset, round_index: int, dealer: int, scores: Sequence[int], dealer_won: bool,
                 dealer_tenpai: bool, period: EndPeriod, first_dealer: int) -> EndDecision:
    """``decide_end`` at or after all-last, in one period.

    The dealer's renchan goes first (「ただし親の連荘がある場合は連荘を優先する」), in the last
    possible round too: the dealer who wins or is tenpai stops the game only when top with the
    target score (agari-yame, and tenpai-yame since 2010-06-01), and plays on otherwise. In all
    28 such hands of the corpus where the top dealer of the last possible round had less than
    30,000, the game went on; it ends when that round passes to the next dealer."""
    order = ranking(scores, ruleset.players, first_dealer)
    top = order[0]
    target = target_score(ruleset)
    if dealer_won or dealer_tenpai:
        stop_allowed = dealer_won or period.tenpai_yame
        if stop_allowed and top == dealer and scores[dealer] >= target:
            return build(EndDecision, ends=True,
                         reason="the all-last dealer is top with the target score (agari/tenpai-yame)")
        return build(EndDecision, ends=False, reason="dealer renchan")
    if period.extension_limit and round_index >= last_round(ruleset):
        return build(EndDecision, ends=True, reason="the last possible round is over")
    if scores[top] >= target:
        return build(EndDecision, ends=True, reason="the top player has the target score")
    return build(EndDecision, ends=False, reason="nobody has the target score: the game goes on")


def round_half_away(points: int) -> int:
    """Points in thousands, rounded half away from zero (29500 -> 30, -1500 -> -2)."""
    sign = -1 if points < 0 else 1
    return sign * ((abs(points) + 500) // 1000)


def final_scores(scores: Sequence[int], sticks: int, players: int, first_dealer: int = 0) -> list[int]:
    """Scores with the riichi sticks left on the table given to first place."""
    out = list(scores)
    if sticks:
        out[ranking(scores, players, first_dealer)[0]] += 1000 * sticks
    return out


def uma(ruleset: Ruleset, day: date | None) -> tuple[int, ...] | None:
    """Uma for ranks 2..n (first place gets the rest): 4p +10/-10/-20; 3p 0/-20.

    Tonpuusen before 2009-08-01 used +5/-5/-10; ``None`` if that applies but the date is unknown.
    """
    if ruleset.players == 3:
        return (0, -20)
    if not ruleset.east_south:
        if day is None:
            return None
        if day < TONPUU_UMA_FROM:
            return (5, -5, -10)
    return (10, -10, -20)


LAST_ROUNDED = date(2022, 1, 13)
"""The last day seen with game points rounded to whole thousands (四捨五入)."""
FIRST_EXACT = date(2022, 6, 1)
"""The first day seen with game points exact to 0.1 (the score's hundreds kept)."""


def rounding_methods(day: date | None) -> tuple[bool, ...]:
    """Which ways of turning scores into game points may apply: ``True`` rounds to thousands
    (half away from zero), ``False`` keeps one decimal. Tenhou changed from the first to the
    second between 2022-01-13 and 2022-06-01 (the corpus has no game in between); for a game
    in that gap, or of unknown date, both are candidates."""
    if day is not None and day <= LAST_ROUNDED:
        return (True,)
    if day is not None and day >= FIRST_EXACT:
        return (False,)
    return (True, False)


def owari_points(
    final: Sequence[int],
    players: int,
    umas: Sequence[int],
    *,
    back: int,
    rounded: bool,
    first_dealer: int = 0,
) -> list[float]:
    """The game result of each seat (``owari`` points): ``score/1000 - return + uma`` (the score
    rounded to thousands when ``rounded``); first place takes minus the sum of the others,
    which includes the oka. ``back`` is the return score (30000 in 4p, 40000 in 3p)."""
    order = ranking(final, players, first_dealer)
    tenths = [0] * 4
    for rank, seat in enumerate(order[1:]):
        score = round_half_away(final[seat]) * 10 if rounded else final[seat] // 100
        tenths[seat] = score - back // 100 + umas[rank] * 10
    tenths[order[0]] = -sum(tenths[s] for s in order[1:])
    return [t / 10 for t in tenths]


def table_rules(ruleset: Ruleset, lobby: int | None, csrule: str | None, day: date | None) -> TableRules:
    standard_start = 25000 if ruleset.players == 4 else 35000
    standard_back = 30000 if ruleset.players == 4 else 40000
    if ruleset.special:
        return TableRules(start=None, back=None, umas=None, flow_known=False)
    if csrule is not None:
        fields = csrule.split(",")
        start = _int_field(fields, 4)
        back = _int_field(fields, 5)
        listed = tuple(v for v in (_int_field(fields, i) for i in (21, 22, 23)) if v is not None)
        umas = listed if len(listed) == ruleset.players - 1 else uma(ruleset, day) if not listed else None
        return TableRules(start=start, back=back, umas=umas if not ruleset.chips else None, flow_known=False)
    if lobby not in (None, 0):
        return TableRules(start=None, back=None, umas=None, flow_known=True)
    return TableRules(start=standard_start, back=standard_back,
                      umas=None if ruleset.chips else uma(ruleset, day), flow_known=True)


def _int_field(fields: list[str], i: int) -> int | None:
    try:
        return int(fields[i]) if i < len(fields) and fields[i] else None
    except ValueError:
        return None
