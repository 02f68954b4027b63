"""The measured tables of the expected-points model, read: how often an opponent without riichi
is tenpai, what a deal-in costs, how often a wait is won by ron rather than tsumo, what a hand two
or more from tenpai wins, what its value marks add, what ippatsu and ura dora add to a riichi, and
which tiles strong players let go first (the keep table).

The counts are data (``analysis/model_rates.txt``, written by ``scripts/measure_model.py`` from the
corpus's Houou games); this module turns them into the figures the model uses, and holds the
bucketing both share so the measurement and the reading cannot drift apart. Definitions and the
tables with their counts: docs/analysis.md, "The expected-points model".
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cache
from math import log
from typing import Final

from ..events import Meld
from ..rules import model_calibration
from ..rules.danger import number_group, turn_bucket
from ..rules.hand import counts34
from ..tiles import RED_FIVES
from . import model_rates as rates

__all__ = [
    "MIN_CASES",
    "acceptance_bucket",
    "calibration",
    "calls_bucket",
    "han_kept",
    "far_fit",
    "far_points",
    "far_points_of",
    "keep_preference",
    "keep_preferences",
    "keep_stage",
    "marks_bucket",
    "marks_factor",
    "mean_ron_ratio",
    "own_turn",
    "riichi_bonus_han",
    "ron_points",
    "ron_ratio",
    "tenpai_chance",
    "tile_role",
    "marks_of",
    "value_marks",
    "value_marks_less_one",
    "value_marks_of",
    "win_group",
]

MIN_CASES = 200
"""A cell with fewer cases is not read alone: the tenpai table falls back to the opponent's melds
over every turn, the far table to the neighbouring accepted-tile buckets."""

CALIBRATION_CASES = 1000
"""A calibration cell with fewer cases is not read alone (its shanten and openness over every
turn are)."""

KEEP_PRIOR: Final = 20
"""The keep table's share for a role is smoothed towards its group's share (the same players,
stage, threat and turn over every role) as if this many more cases had been seen there: a rare
role reads as the group's average, not as 0 or 1."""

ACCEPTANCE_STEP = 10
"""Accepted tiles are counted in buckets of ten (0-9, 10-19, ...; 60 and more together)."""


# -- the buckets the measurement and the model share ---------------------------------------------


def calls_bucket(open_melds: int) -> str:
    """An opponent's open melds (chi, pon, open and added kans): ``0``, ``1``, ``2`` or ``3+``."""
    return "3+" if open_melds >= 3 else str(open_melds)


def acceptance_bucket(total: int) -> str:
    low = min(total // ACCEPTANCE_STEP, 6) * ACCEPTANCE_STEP
    return f"{low}+" if low >= 60 else f"{low}-{low + ACCEPTANCE_STEP - 1}"


def own_turn(turn: int) -> str:
    """The discarder's turn (its discards with this one) for the far table: the danger table's
    buckets with the first six split in two (``1-3``, ``4-6``)."""
    return "1-3" if turn <= 3 else "4-6" if turn <= 6 else turn_bucket(turn)


def keep_stage(shanten: int) -> str:
    """A decision's stage for the keep table, by the best shanten its discards leave: ``0``
    (tenpai), ``1`` or ``far`` (two or more)."""
    return "far" if shanten >= 2 else str(shanten)


def tile_role(kind: int, counts: Sequence[int], *, yakuhai: Collection[int], dora: Collection[int],
              unseen: Sequence[int], sanma: bool, safe: bool = False) -> str:
    """What a kind is to the hand that holds it (``counts``, the concealed hand before the
    discard), for the keep table. An honour: ``yakuhai`` or ``guest`` (客風), its copies held (1, 2,
    3+) and its unseen copies (``u0``-``u4``). A number tile: its place (``19`` terminal, ``28``,
    ``37``, ``456``; ``m19`` for three-player's only manzu), its copies held, and its neighbours
    in the hand: ``c`` one next to it, ``k`` only one two away (a gap), ``i`` isolated. Then ``D``
    when it is a dora, ``n`` when a dora of its suit is within two of it; last ``G`` when ``safe``:
    genbutsu against every threat at the table (asked only when there is one)."""
    # the copies held and the place read off tuples of strings, not str() and number_group() per
    # call, the neighbours read here, not asked of a function, and the dora near it by a loop, not
    # any() over a generator (callgrind, compiled, 3 corpus games' analyze_game: tile_role 27 M
    # instructions against 34 M)
    held = _HELD[min(counts[kind], 3)]
    flag = "D" if kind in dora else ""
    if kind >= 27:
        return f"{'yakuhai' if kind in yakuhai else 'guest'}{held}u{unseen[kind]}{flag}{'G' if safe else ''}"
    number = kind % 9
    place = (_SANMA_PLACES if sanma and kind < 9 else _PLACES)[number]
    if (number >= 1 and counts[kind - 1] > 0) or (number <= 7 and counts[kind + 1] > 0):
        link = "c"
    elif (number >= 2 and counts[kind - 2] > 0) or (number <= 6 and counts[kind + 2] > 0):
        link = "k"
    else:
        link = "i"
    if not flag:
        for d in dora:
            if d < 27 and d // 9 == kind // 9 and abs(d - kind) <= 2:
                flag = "n"
                break
    return f"{place}{held}{link}{flag}{'G' if safe else ''}"


_HELD: tuple[str, ...] = ("0", "1", "2", "3")  # not Final: compiled, a Final tuple is built at each use
"""``tile_role``'s copies held (3 or more read as 3)."""

_PLACES: Final = tuple(number_group(number) for number in range(1, 10))
"""``tile_role``'s place of a number tile by its number less one (``number_group``)."""

_SANMA_PLACES: Final = tuple("m" + place for place in _PLACES)
"""The same for three-player's manzu (1m and 9m only)."""


def marks_bucket(marks: int) -> str:
    return "3+" if marks >= 3 else str(marks)


def win_group(kind: int, pond_kinds: Collection[int]) -> str:
    """A winning kind's group for the ron/tsumo count: ``honour``; ``suji_trap`` (a number tile
    one of whose suji, three away in its suit, is in the winner's own pond: 筋引っかけ); else its
    number, ``19``, ``28`` or ``37`` (3 to 7)."""
    if kind >= 27:
        return "honour"
    number = kind % 9
    if (number >= 3 and kind - 3 in pond_kinds) or (number <= 5 and kind + 3 in pond_kinds):
        return "suji_trap"
    if number == 0 or number == 8:
        return "19"
    if number == 1 or number == 7:
        return "28"
    return "37"


def han_kept(concealed: Sequence[int], melds: Sequence[Meld], dora: Collection[int], yakuhai: Collection[int], *,
             red_fives: bool = True) -> int:
    """The value a hand keeps by its tiles alone (for hands further than one-shanten, where no
    win is valued): one per dora tile (concealed or in a meld, a kita in three-player counted
    as the tile it is), one per red five when the table plays them, and one per yakuhai kind
    held two or more times (a pair that a third copy turns into a yaku; ``yakuhai``: the
    dragons, the round wind and the seat's wind; a meld of one is already a yaku and counts
    too)."""
    tiles = [*concealed, *(t for m in melds for t in m.tiles)]
    reds = sum(1 for t in tiles if t in RED_FIVES) if red_fives else 0
    return marks_of(counts34(tiles), reds, dora, yakuhai)


def marks_of(counts: Sequence[int], reds: int, dora: Collection[int], yakuhai: Collection[int]) -> int:
    """``han_kept`` of a hand given as its counts per kind (concealed and melded) and the red
    fives it holds that count (none where the table plays without them)."""
    return sum(counts[k] for k in dora) + reds + sum(1 for k in yakuhai if counts[k] >= 2)


def value_marks(tiles: Iterable[int], dora: Collection[int], yakuhai: Collection[int], unseen: Sequence[int], *,
                red_fives: bool) -> tuple[int, bool]:
    """What a hand's tiles (concealed and melded ids) promise in value: its marks (``han_kept``:
    dora, red fives, yakuhai pairs) and whether it holds a single yakuhai with two or more copies
    unseen (one that can still pair)."""
    tiles = list(tiles)
    reds = sum(1 for t in tiles if t in RED_FIVES) if red_fives else 0
    return value_marks_of(counts34(tiles), reds, dora, yakuhai, unseen)


def value_marks_of(counts: Sequence[int], reds: int, dora: Collection[int], yakuhai: Collection[int],
                   unseen: Sequence[int]) -> tuple[int, bool]:
    """``value_marks`` of a hand given as its counts per kind and its red fives that count
    (``marks_of``)."""
    single = any(counts[k] == 1 and unseen[k] >= 2 for k in yakuhai)
    return marks_of(counts, reds, dora, yakuhai), single


def value_marks_less_one(counts: list[int], reds: int, dora: frozenset[int], yakuhai: frozenset[int],
                         unseen: Sequence[int]) -> tuple[list[int], list[bool]]:
    """Per kind the hand holds (``counts``, concealed and melded), ``value_marks_of`` the hand
    less one copy of it, ``reds`` (its red fives that count) kept: the marks and the single
    yakuhai, each a list by kind (a kind not held reads as the whole hand). The whole hand's
    dora, yakuhai pairs and singles are counted once and each kind's own share taken off, not the
    hand counted again per discard (callgrind, compiled, 3 corpus games' analyze_game: the far
    options' value_marks_of took 38 M instructions, this takes 12 M)."""
    marks = reds
    for k in dora:
        marks += counts[k]
    singles = []
    for k in yakuhai:
        if counts[k] >= 2:
            marks += 1
        elif counts[k] == 1 and unseen[k] >= 2:
            singles.append(k)
    found_marks = [marks] * 34
    found_single = [len(singles) > 0] * 34
    for kind in range(34):
        held = counts[kind]
        if not held:
            continue
        less = marks
        single = False
        for k in singles:
            if k != kind:
                single = True
        if kind in dora:
            less -= 1
        if kind in yakuhai:
            if held == 2:
                less -= 1
                single = single or unseen[kind] >= 2
        found_marks[kind] = less
        found_single[kind] = single
    return found_marks, found_single


# -- the figures --------------------------------------------------------------------------------


@cache
def tenpai_chance(players: int, open_melds: int, turn: int) -> float:
    """The share of opponents not in riichi with ``open_melds`` open melds at their ``turn``-th
    discard who were tenpai (a cell under ``MIN_CASES`` takes the melds' count over every turn)."""
    calls = calls_bucket(open_melds)
    cases, tenpai = rates.TENPAI.get((str(players), calls, turn_bucket(max(1, turn))), (0, 0))
    if cases < MIN_CASES:
        cells = [v for k, v in rates.TENPAI.items() if k[0] == str(players) and k[1] == calls]
        cases, tenpai = sum(c for c, _ in cells), sum(t for _, t in cells)
    return tenpai / cases if cases else 0.0


@cache
def ron_points(players: int, state: str, dealer: bool) -> float:
    """The mean points of a ron (without honba and sticks) by a winner in ``state`` (``riichi``,
    ``open``, ``dama``), dealer or not."""
    rons, points = rates.RON_POINTS[(str(players), state, "dealer" if dealer else "child")]
    return points / rons


@cache
def ron_ratio(players: int, group: str) -> float:
    """Wins by ron per win by tsumo on a winning tile of ``group`` (``win_group``): how much
    likelier the table is to discard it than the seat is to draw it."""
    tsumo, ron = rates.WIN_TILE[(str(players), group)]
    return ron / tsumo


@cache
def mean_ron_ratio(players: int) -> float:
    """Wins by ron per win by tsumo over every winning tile."""
    cells = [v for k, v in rates.WIN_TILE.items() if k[0] == str(players)]
    return sum(r for _, r in cells) / sum(t for t, _ in cells)


@cache
def riichi_bonus_han(players: int) -> float:
    """Ippatsu and ura dora han a riichi win carries on average."""
    wins, han = rates.RIICHI_BONUS[(str(players),)]
    return han / wins


@cache
def _far_fit(players: int, shanten: int, turn: str, how: str) -> tuple[float, float]:
    """``(a, b)`` of one (shanten, turn, open or closed) cell group: points won a case =
    a + b ln(1 + accepted tiles), fitted to its buckets (each at its middle, weighted by its
    cases; buckets under ``MIN_CASES`` join the next); ``b`` is never below 0 (more accepted tiles
    never slow a hand: a dip is the players' selection, not the shape's)."""
    label = "4+" if shanten >= 4 else str(shanten)
    cells = sorted((int(k[3].split("-")[0].rstrip("+")), v) for k, v in rates.FAR.items()
                   if k[0] == str(players) and k[1] == label and k[2] == turn and k[4] == how)
    blocks: list[tuple[float, float, float]] = []  # cases, points a case, ln(1 + tiles)
    pending = [0.0, 0.0, 0.0]
    for low, (cases, _wins, points) in cells:
        pending = [pending[0] + cases, pending[1] + points, pending[2] + (low + ACCEPTANCE_STEP / 2) * cases]
        if pending[0] >= MIN_CASES:
            blocks.append((pending[0], pending[1] / pending[0], log(1 + pending[2] / pending[0])))
            pending = [0.0, 0.0, 0.0]
    total = sum(n for n, _, _ in blocks)
    if not total:
        return 0.0, 0.0
    mx = sum(n * x for n, _, x in blocks) / total
    my = sum(n * y for n, y, _ in blocks) / total
    sxx = sum(n * (x - mx) ** 2 for n, _, x in blocks)
    b = max(0.0, sum(n * (x - mx) * (y - my) for n, y, x in blocks) / sxx) if sxx else 0.0
    return my - b * mx, b


def far_points(players: int, shanten: int, turn: int, accepted: float, *, open_hand: bool = False) -> float:
    """The points a seat ``shanten`` (2 or more) from tenpai after its ``turn``-th discard, with
    ``accepted`` tiles and an open or closed hand, won on average in the measured games (the fit
    of ``_far_fit``; a hand that accepts nothing wins nothing)."""
    return far_points_of(far_fit(players, shanten, turn, open_hand=open_hand), accepted)


def far_fit(players: int, shanten: int, turn: int, *, open_hand: bool) -> tuple[float, float]:
    """``far_points``' fit ``(a, b)`` for a hand ``shanten`` from tenpai after its ``turn``-th
    discard, open or closed (``far_points_of`` reads it for an acceptance)."""
    return _far_fit(players, max(2, shanten), own_turn(turn), "open" if open_hand else "closed")


def far_points_of(fit: tuple[float, float], accepted: float) -> float:
    """``far_points`` of a hand with ``accepted`` tiles, its cell's fit (``far_fit``) read."""
    if accepted <= 0:
        return 0.0
    a, b = fit
    points = a + b * log(1 + accepted)
    return points if points > 0.0 else 0.0  # max(0.0, points), not a generic call compiled


@cache
def marks_factor(players: int, marks: int, single: bool) -> float:
    """What a far hand's value marks (``value_marks``) multiply its points by: the points won a
    case of its (marks, single yakuhai) cell over those of every far hand."""
    cells = {k: v for k, v in rates.MARKS.items() if k[0] == str(players)}
    cases, _wins, points = cells[(str(players), marks_bucket(marks), "1" if single else "0")]
    all_cases = sum(c for c, _, _ in cells.values())
    all_points = sum(p for _, _, p in cells.values())
    return (points / cases) / (all_points / all_cases)


@cache
def _keep_cells(players: str, stage: str, threat: str, turn: str) -> dict[str, tuple[int, int]]:
    """One group of the keep table (``rates.KEEP``, a string of ``role offered discarded``
    triples): role -> (offered, discarded)."""
    words = rates.KEEP.get((players, stage, threat, turn), "").split()
    return {words[i]: (int(words[i + 1]), int(words[i + 2])) for i in range(0, len(words), 3)}


@cache
def keep_preference(players: int, stage: str, threatened: bool, turn: int, role: str) -> float:
    """How readily strong players let a tile of ``role`` (``tile_role``) go at this ``stage``
    (``keep_stage``), with or without a threat at the table, at their ``turn``-th discard: the
    natural log of the share of such offered tiles they discarded, smoothed by ``KEEP_PRIOR``
    towards the group's share (the role ``*``; a role the table leaves out, seldom offered, reads
    as that). Only differences between the options of one decision mean anything."""
    return keep_preferences(players, stage, threatened, turn, [role])[0]


def keep_preferences(players: int, stage: str, threatened: bool, turn: int, roles: Sequence[str]) -> list[float]:
    """``keep_preference`` of each of ``roles``, which share the rest (one decision's options):
    the group's cells are looked up once, not once per role through the cache (callgrind,
    compiled, 3 corpus games' analyze_game: the model's keep terms spent 43 M instructions of
    2,125 M in those cached calls)."""
    cells = _keep_cells(str(players), stage, "threat" if threatened else "calm", own_turn(turn))
    group_offered, group_chosen = cells.get("*", (0, 0))
    prior = group_chosen / group_offered if group_offered else 0.5
    found = []
    for role in roles:
        offered, chosen = cells.get(role, (0, 0))
        share = (chosen + KEEP_PRIOR * prior) / (offered + KEEP_PRIOR)
        found.append(log(max(share, 1e-6)))
    return found


@cache
def calibration(players: int, shanten: int, turn: int, open_hand: bool) -> float:
    """What the scorer-based value of a hand left at tenpai or one-shanten is multiplied by so
    that it means what the far table means, the points such hands went on to win: the points
    won over the model's points (uncalibrated) for the chosen discards of the Houou games, per
    (shanten, the discarder's turn, open or closed); a cell under ``CALIBRATION_CASES`` takes
    its (shanten, open or closed) over every turn; 1 where nothing was measured."""
    how = "open" if open_hand else "closed"
    cases, model, won = model_calibration.CALIBRATION.get((str(players), str(shanten), own_turn(turn), how), (0, 0, 0))
    if cases < CALIBRATION_CASES or model <= 0 or won <= 0:
        cells = [v for k, v in model_calibration.CALIBRATION.items()
                 if k[0] == str(players) and k[1] == str(shanten) and k[3] == how]
        model, won = sum(m for _, m, _ in cells), sum(w for _, _, w in cells)
    return won / model if model > 0 and won > 0 else 1.0
