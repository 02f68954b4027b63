"""Danger against a riichi (危険度): which class a tile kind is in against one opponent in
riichi, from the discarder's view only, and its measured deal-in rate.

Pure functions on explicit values: the kinds that are genbutsu against the opponent, the
copies of each kind the discarder can see, the opponent's turn and declaration tile. Nothing
here reads a hand the discarder cannot see (a log shows every hand; a class must not).

The classes (definitions in docs/analysis.md, "Danger against a riichi"):

* ``genbutsu`` (現物): the opponent can never ron the kind — it is in their pond (called-away
  discards included) or was discarded by anyone after their riichi declaration discard.
* ``suji`` (筋): a number tile, not genbutsu, every two-sided wait that could take it furiten —
  for 1-3 the tile three above is genbutsu, for 7-9 the tile three below, for 4-6 both.
* ``half_suji`` (片筋): a 4-6 with exactly one of its two suji genbutsu.
* ``no_chance`` (ノーチャンス, kabe): a number tile, none of the above, that no two-sided wait
  can take because for every such wait one of the two tiles it needs has all four copies
  visible to the discarder (2m-8m of a three-player game count as visible: they do not exist).
* ``one_chance`` (ワンチャンス): none of the above, and every two-sided wait that could take it
  needs a tile of which three copies are visible (or is blocked as for no-chance).
* ``non_suji`` (無筋): every other number tile.
* honours by the copies the discarder cannot see (4 minus visible, its own copies counted as
  visible): ``honour_live`` (3 or 4 unseen), ``honour_2_left``, ``honour_1_left`` (only a
  single wait or thirteen orphans can take it) and ``honour_0_left`` (only thirteen orphans).

``DangerClass`` lists them safest first, in the order of the deal-in rates measured on the
corpus (``scripts/measure_danger.py``; the table is ``rules.danger_rates``). Finer grades
(the number, yakuhai or guest wind, the turn, the riichi tile's suji, early outside tiles, dora)
do not change the class: they go into ``danger_rate``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Final

from .._native import build
from ..tiles import SANMA_MISSING_KINDS, dora_kind, yakuhai_kinds
from .values import Danger, DangerClass, DangerFlag, RiichiOpponent

__all__ = [
    "EARLY_DISCARDS",
    "Danger",
    "DangerClass",
    "DangerFlag",
    "RiichiOpponent",
    "assess",
    "assess_hand",
    "danger_class",
    "danger_rate",
    "dora_kinds",
    "early_outside",
    "genbutsu",
    "number_group",
    "rated_hand",
    "riichi_opponent",
    "safest",
    "turn_bucket",
    "visible_counts",
]

# The classes and flags read for every kind against every threat, bound once: a C global in
# compiled code, where ``DangerClass.X`` is a module dictionary lookup and a class attribute
# lookup each time (as in ``replay.state``). Measured: 1,842 M instructions with those reads, 1,813 M
# without (callgrind, compiled, 3 corpus games' analyze_game); passing a class as its ``rank``
# instead (an int: no ``value`` to read for the rate) saved 9 M more, under the 1 % a device must save.
_GENBUTSU: Final = DangerClass.GENBUTSU
_HONOUR_0_LEFT: Final = DangerClass.HONOUR_0_LEFT
_HONOUR_1_LEFT: Final = DangerClass.HONOUR_1_LEFT
_HONOUR_2_LEFT: Final = DangerClass.HONOUR_2_LEFT
_HONOUR_LIVE: Final = DangerClass.HONOUR_LIVE
_NO_CHANCE: Final = DangerClass.NO_CHANCE
_SUJI: Final = DangerClass.SUJI
_ONE_CHANCE: Final = DangerClass.ONE_CHANCE
_HALF_SUJI: Final = DangerClass.HALF_SUJI
_NON_SUJI: Final = DangerClass.NON_SUJI
_RIICHI_SUJI: Final = DangerFlag.RIICHI_SUJI
_EARLY_OUTSIDE: Final = DangerFlag.EARLY_OUTSIDE
_DORA: Final = DangerFlag.DORA
_NO_FLAGS: Final[frozenset[DangerFlag]] = frozenset()

EARLY_DISCARDS = 5
"""A discard among the opponent's first five (before the declaration) is *early* for the early
outside flag (mahjong-helper's choice, docs/research/ANALYSIS.md §2.1)."""


def genbutsu(pond: Iterable[int], passed: Iterable[int]) -> frozenset[int]:
    """The genbutsu kinds against a riichi player: the kinds of their pond (tile ids, called
    ones included) and of every tile anyone discarded after their declaration discard."""
    return frozenset(t >> 2 for t in pond) | frozenset(t >> 2 for t in passed)


def riichi_opponent(seat: int, pond: Sequence[int], declaration: int, passed: Iterable[int], *,
                    round_wind: int, seat_wind: int) -> RiichiOpponent:
    """A ``RiichiOpponent`` from explicit values: ``pond`` their discards in order (tile ids,
    called ones included), ``declaration`` the index in it of the declaration discard,
    ``passed`` the tiles others discarded after it, ``seat_wind`` their wind (0 for the
    dealer) and ``round_wind`` the round's (0 East)."""
    if not 0 <= declaration < len(pond):
        raise ValueError(f"declaration index {declaration} is outside a pond of {len(pond)} tiles")
    early = frozenset(t >> 2 for t in pond[:min(EARLY_DISCARDS, declaration)])
    yakuhai = yakuhai_kinds(round_wind, seat_wind)
    # ``build``: as ``analysis.defence`` builds the opponent not in riichi (the measure is there)
    return build(RiichiOpponent, seat=seat, safe=genbutsu(pond, passed), turn=len(pond),
                 declaration=pond[declaration] >> 2, early=early, yakuhai=yakuhai)


def visible_counts(own: list[int], public: list[int], *, sanma: bool = False) -> list[int]:
    """Per kind 0-33, the copies a seat can see (0-4): ``own`` its concealed tiles, ``public``
    every other tile it can see once (ponds without the called-away tiles, every meld's
    tiles, the dora indicators). In a three-player game 2m-8m count 4 (they do not exist)."""
    seen = [0] * 34
    # compiled, ``+=`` on an item is a generic call (as in ``rules.hand.counts34``): the analysis
    # asks this at every discard (callgrind, compiled, 3 corpus games' analyze_game: 2,679 M
    # instructions against 2,686 M)
    for t in own:
        k = t >> 2
        seen[k] = seen[k] + 1
    for t in public:
        k = t >> 2
        seen[k] = seen[k] + 1
    if sanma:
        for k in SANMA_MISSING_KINDS:
            seen[k] = 4
    return [n if n < 4 else 4 for n in seen]


def dora_kinds(indicators: Iterable[int], *, sanma: bool = False) -> frozenset[int]:
    """The dora kinds the indicators (tile ids) point to."""
    return frozenset(dora_kind(t >> 2, sanma=sanma) for t in indicators)


def number_group(number: int) -> str:
    """``19``, ``28``, ``37`` or ``456`` for a number 1-9."""
    return ("19", "28", "37", "456", "456", "456", "37", "28", "19")[number - 1]


def danger_class(kind: int, safe: frozenset[int] | set[int], visible: list[int], *,
                 sanma: bool = False) -> DangerClass:
    """The class of ``kind`` against an opponent whose genbutsu kinds are ``safe``, from a
    discarder who sees ``visible[k]`` copies of each kind (``visible_counts``)."""
    return _classify(kind, safe, visible, sanma)[0]


def _seen(visible: list[int], kind: int, sanma: bool) -> int:
    """The copies of a number ``kind`` seen: all four of 2m-8m in a three-player game."""
    return 4 if sanma and kind in SANMA_MISSING_KINDS else visible[kind]


def _classify(kind: int, safe: frozenset[int] | set[int], visible: list[int],
              sanma: bool) -> tuple[DangerClass, str]:
    """The class and grade of ``kind``."""
    if kind in safe:
        return _GENBUTSU, ""
    if kind >= 27:
        left = 4 - visible[kind]
        if left >= 3:
            return _HONOUR_LIVE, ""
        return (_HONOUR_0_LEFT, _HONOUR_1_LEFT, _HONOUR_2_LEFT)[left], ""
    base = kind - kind % 9
    n = kind % 9 + 1
    # Each two-sided wait (ryanmen) that could take the kind: the low one holds n-2 n-1 (waits
    # n-3 and n), the high one n+1 n+2 (waits n and n+3); a 1-3 has no low one, a 7-9 no high
    # one. Per side: killed by suji (the other wait is genbutsu), walled (a needed tile fully
    # visible) or one-chance (three visible).
    low, high = n >= 4, n <= 6
    low_suji = low and base + n - 4 in safe
    high_suji = high and base + n + 2 in safe
    group = number_group(n)
    if (low_suji or not low) and (high_suji or not high):
        return _SUJI, group
    if low_suji or high_suji:  # two sides, one killed by suji
        if n == 5:
            return _HALF_SUJI, "5"
        outer = (base + 0 in safe) if n == 4 else (base + 8 in safe)
        return _HALF_SUJI, "46_outer" if outer else "46_inner"
    low_wall = max(_seen(visible, base + n - 2, sanma), _seen(visible, base + n - 3, sanma)) if low else 4
    high_wall = max(_seen(visible, base + n, sanma), _seen(visible, base + n + 1, sanma)) if high else 4
    if low_wall == 4 and high_wall == 4:
        return _NO_CHANCE, group
    if low_wall >= 3 and high_wall >= 3:
        return _ONE_CHANCE, group
    return _NON_SUJI, group


def early_outside(kind: int, early: frozenset[int] | set[int]) -> bool:
    """Whether number ``kind`` is outside an early discard of its suit: below an early 2, 3 or
    4, above an early 6, 7 or 8, or a 3 or 7 when a 5 was discarded early."""
    if kind >= 27:
        return False
    base = kind - kind % 9
    n = kind % 9 + 1
    for m in range(2, 9):
        if base + m - 1 not in early:
            continue
        if (m <= 4 and n < m) or (m >= 6 and n > m) or (m == 5 and n in (3, 7)):
            return True
    return False


def assess(kind: int, opponent: RiichiOpponent, visible: list[int], *,
           dora: frozenset[int] = frozenset(), sanma: bool = False) -> Danger:
    """The class, grade and flags of ``kind`` against ``opponent`` (``dora``: the dora kinds)."""
    cls, grade, flags = _assess(kind, opponent.safe, opponent.early, opponent.yakuhai, opponent.declaration,
                                visible, dora, sanma)
    return _danger(kind, cls, grade, flags, opponent.turn)


def _assess(kind: int, safe: frozenset[int], early: frozenset[int], yakuhai: frozenset[int], declaration: int,
            visible: list[int], dora: frozenset[int], sanma: bool) -> tuple[DangerClass, str, frozenset[DangerFlag]]:
    """``assess`` on the opponent's fields, read once per hand: the class, the
    grade and the flags."""
    cls, grade = _classify(kind, safe, visible, sanma)
    if cls is _GENBUTSU:
        return cls, grade, _NO_FLAGS
    flags = []
    if kind >= 27:
        grade = "yakuhai" if kind in yakuhai else "guest"
    elif early_outside(kind, early):
        flags.append(_EARLY_OUTSIDE)
    if (cls is _SUJI or cls is _HALF_SUJI) and declaration < 27 \
            and declaration // 9 == kind // 9 and abs(declaration - kind) == 3:
        flags.append(_RIICHI_SUJI)
    if kind in dora:
        flags.append(_DORA)
    return cls, grade, frozenset(flags) if flags else _NO_FLAGS


def _danger(kind: int, cls: DangerClass, grade: str, flags: frozenset[DangerFlag], turn: int) -> Danger:
    # ``build``: the frozen dataclass's own __init__ sets each field through object.__setattr__,
    # for every kind of the hand against every riichi (callgrind, compiled, 3 corpus games'
    # analyze_game: 3,164 M instructions against 3,204 M with Danger(...))
    return build(Danger, kind=kind, danger_class=cls, grade=grade, flags=flags, turn=turn)


def assess_hand(kinds: Iterable[int], opponent: RiichiOpponent, visible: list[int], *,
                dora: frozenset[int] = frozenset(), sanma: bool = False) -> dict[int, Danger]:
    """``assess`` for each distinct kind of ``kinds`` (ascending)."""
    return {k: assess(k, opponent, visible, dora=dora, sanma=sanma) for k in sorted(set(kinds))}


def rated_hand(kinds: list[int], opponent: RiichiOpponent, visible: list[int], *, players: int,
               dora: frozenset[int] = frozenset(), sanma: bool = False) -> tuple[tuple[Danger, ...], tuple[float, ...]]:
    """``assess`` of each kind of ``kinds`` (distinct, ascending) against ``opponent``, and its
    ``danger_rate``: the values ``assess_hand`` and ``danger_rate`` give, the opponent's fields
    and the measured table read once, each rate from the class and grade just found. Compiled,
    ``assess_hand`` then ``danger_rate`` of each ``Danger`` (its fields read back, the table and
    the turn bucket asked per kind) cost 27 M instructions more (callgrind, 3 corpus games'
    analyze_game: 1,838 M against 1,810 M)."""
    safe, early, yakuhai = opponent.safe, opponent.early, opponent.yakuhai
    declaration, turn = opponent.declaration, opponent.turn
    bucket = turn_bucket(turn)
    base, factors, min_cases = _measured()
    cells, flag_cells = base[players], factors[players]
    hand = []
    rates = []
    for kind in kinds:
        cls, grade, flags = _assess(kind, safe, early, yakuhai, declaration, visible, dora, sanma)
        hand.append(_danger(kind, cls, grade, flags, turn))
        rates.append(_rate(cls, grade, flags, bucket, cells, flag_cells, min_cases))
    return tuple(hand), tuple(rates)


def safest(classes: Iterable[DangerClass]) -> DangerClass:
    """The safest of some classes (by ``rank``)."""
    return min(classes, key=lambda c: c.rank)


TURN_BUCKETS: tuple[tuple[int, str], ...] = ((6, "1-6"), (9, "7-9"), (12, "10-12"), (15, "13-15"))
"""Turn buckets of the rates table: the upper bound of each and its label (16 and more: ``16+``)."""


def turn_bucket(turn: int) -> str:
    """The rates table's bucket of an opponent's turn: ``1-6``, ``7-9``, ``10-12``, ``13-15``,
    ``16+``."""
    for top, label in TURN_BUCKETS:
        if turn <= top:
            return label
    return "16+"


def _cell_rate(cells: dict[tuple[str, str, str], tuple[int, int]], cls: str, grade: str, bucket: str,
               min_cases: int) -> float:
    """The rate of a (class, grade, turn bucket) cell in percent; a cell with fewer than
    ``min_cases`` cases borrows the rate of its grade over every turn, then of its class."""
    total, won = cells.get((cls, grade, bucket), (0, 0))
    if total >= min_cases:
        return 100 * won / total
    pooled = [v for (c, g, _), v in cells.items() if c == cls and g == grade]
    if sum(t for t, _ in pooled) < min_cases:
        pooled = [v for (c, _, _), v in cells.items() if c == cls]
    cases = sum(t for t, _ in pooled)
    return 100 * sum(w for _, w in pooled) / cases if cases else 0.0


_Measured = tuple[dict[int, dict[tuple[str, str, str], tuple[int, int]]],
                  dict[int, dict[tuple[str, str], tuple[int, int, float]]], int]


@functools.cache
def _measured() -> _Measured:
    """``rules.danger_rates``' BASE, FACTORS and MIN_CASES, imported at the first rate asked (a
    ``stats`` report reads this module's names, not the table) and kept: an import statement in
    ``danger_rate`` itself went through the import machinery at every call (callgrind, compiled,
    2 corpus games' analysis: 3,542 M instructions with it, 3,489 M without)."""
    from .danger_rates import BASE, FACTORS, MIN_CASES

    return BASE, FACTORS, MIN_CASES


def danger_rate(danger: Danger, *, players: int = 4,
                table: dict[tuple[str, str, str], tuple[int, int]] | None = None) -> float:
    """The measured chance, in percent, that a kind of this class, grade and turn is a winning
    tile of the riichi hand, times the measured factor of each flag (the corpus measurement in
    ``rules.danger_rates``, data written by ``scripts/measure_danger.py``; docs/analysis.md says
    how it was measured; a flag too rare to measure has factor 1). Genbutsu is 0. ``table``
    replaces ``BASE[players]`` (tests)."""
    base, factors, min_cases = _measured()
    return _rate(danger.danger_class, danger.grade, danger.flags, turn_bucket(danger.turn),
                 table if table is not None else base[players], factors[players], min_cases)


def _rate(cls: DangerClass, grade: str, flags: frozenset[DangerFlag], bucket: str,
          cells: dict[tuple[str, str, str], tuple[int, int]],
          factors: dict[tuple[str, str], tuple[int, int, float]], min_cases: int) -> float:
    """``danger_rate`` of a class, grade and flags in a turn bucket, from the measured cells and
    flag factors of the player count (``rated_hand`` reads them once per hand)."""
    if cls is _GENBUTSU:
        return 0.0
    value = cls.value
    return _flagged(_cell_rate(cells, value, grade, bucket, min_cases), value, flags, factors, min_cases)


def _flagged(value: float, cls: str, flags: frozenset[DangerFlag],
             factors: dict[tuple[str, str], tuple[int, int, float]], min_cases: int) -> float:
    """``value`` times the measured factor of each of ``flags`` (in the order of their names)
    from the factors of the class ``cls``."""
    if not flags:  # most kinds have none: no sort (callgrind, compiled, 3 corpus games: 72 M -> 64 M)
        return value
    for flag in sorted(f.value for f in flags):
        cases, won, expected = factors.get((cls, flag), (0, 0, 0.0))
        if cases >= min_cases and expected > 0:
            value *= won / expected
    return value
