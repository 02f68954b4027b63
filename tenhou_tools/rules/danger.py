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
from collections.abc import Iterable, Mapping, Sequence

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
    "riichi_opponent",
    "safest",
    "turn_bucket",
    "visible_counts",
]

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
    return RiichiOpponent(seat, genbutsu(pond, passed), len(pond), pond[declaration] >> 2, early, yakuhai)


def visible_counts(own: Iterable[int], public: Iterable[int], *, sanma: bool = False) -> list[int]:
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
    return [min(4, n) for n in seen]


def dora_kinds(indicators: Iterable[int], *, sanma: bool = False) -> frozenset[int]:
    """The dora kinds the indicators (tile ids) point to."""
    return frozenset(dora_kind(t >> 2, sanma=sanma) for t in indicators)


def number_group(number: int) -> str:
    """``19``, ``28``, ``37`` or ``456`` for a number 1-9."""
    return ("19", "28", "37", "456", "456", "456", "37", "28", "19")[number - 1]


def danger_class(kind: int, safe: frozenset[int] | set[int], visible: Sequence[int], *,
                 sanma: bool = False) -> DangerClass:
    """The class of ``kind`` against an opponent whose genbutsu kinds are ``safe``, from a
    discarder who sees ``visible[k]`` copies of each kind (``visible_counts``)."""
    return _classify(kind, safe, visible, sanma)[0]


def _classify(kind: int, safe: frozenset[int] | set[int], visible: Sequence[int],
              sanma: bool) -> tuple[DangerClass, str]:
    if kind in safe:
        return DangerClass.GENBUTSU, ""
    if kind >= 27:
        left = 4 - visible[kind]
        honour = (DangerClass.HONOUR_0_LEFT, DangerClass.HONOUR_1_LEFT, DangerClass.HONOUR_2_LEFT)
        return (honour[left] if left < 3 else DangerClass.HONOUR_LIVE), ""
    base = kind - kind % 9
    n = kind % 9 + 1

    def seen(number: int) -> int:
        k = base + number - 1
        return 4 if sanma and k in SANMA_MISSING_KINDS else visible[k]

    # Each two-sided wait (ryanmen) that could take the kind: the low one holds n-2 n-1 (waits
    # n-3 and n), the high one n+1 n+2 (waits n and n+3). Per side: killed by suji (the other
    # wait is genbutsu), walled (a needed tile fully visible) or one-chance (three visible).
    sides = []
    if n >= 4:
        sides.append((base + n - 4 in safe, max(seen(n - 1), seen(n - 2))))
    if n <= 6:
        sides.append((base + n + 2 in safe, max(seen(n + 1), seen(n + 2))))
    suji = sum(1 for by_suji, _ in sides if by_suji)
    group = number_group(n)
    if suji == len(sides):
        return DangerClass.SUJI, group
    if len(sides) == 2 and suji == 1:
        if n == 5:
            return DangerClass.HALF_SUJI, "5"
        outer = (base + 0 in safe) if n == 4 else (base + 8 in safe)
        return DangerClass.HALF_SUJI, "46_outer" if outer else "46_inner"
    blocks = [wall for by_suji, wall in sides if not by_suji]
    if all(wall == 4 for wall in blocks):
        return DangerClass.NO_CHANCE, group
    if all(wall >= 3 for wall in blocks):
        return DangerClass.ONE_CHANCE, group
    return DangerClass.NON_SUJI, group


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


def assess(kind: int, opponent: RiichiOpponent, visible: Sequence[int], *,
           dora: frozenset[int] = frozenset(), sanma: bool = False) -> Danger:
    """The class, grade and flags of ``kind`` against ``opponent`` (``dora``: the dora kinds)."""
    cls, grade = _classify(kind, opponent.safe, visible, sanma)
    flags = set()
    if cls is not DangerClass.GENBUTSU:
        if kind >= 27:
            grade = "yakuhai" if kind in opponent.yakuhai else "guest"
        elif early_outside(kind, opponent.early):
            flags.add(DangerFlag.EARLY_OUTSIDE)
        if cls in (DangerClass.SUJI, DangerClass.HALF_SUJI) and opponent.declaration < 27 \
                and opponent.declaration // 9 == kind // 9 and abs(opponent.declaration - kind) == 3:
            flags.add(DangerFlag.RIICHI_SUJI)
        if kind in dora:
            flags.add(DangerFlag.DORA)
    # ``build``: the frozen dataclass's own __init__ sets each field through object.__setattr__,
    # for every kind of the hand against every riichi (callgrind, compiled, 3 corpus games'
    # analyze_game: 3,164 M instructions against 3,204 M with Danger(...))
    return build(Danger, kind=kind, danger_class=cls, grade=grade, flags=frozenset(flags), turn=opponent.turn)


def assess_hand(kinds: Iterable[int], opponent: RiichiOpponent, visible: Sequence[int], *,
                dora: frozenset[int] = frozenset(), sanma: bool = False) -> dict[int, Danger]:
    """``assess`` for each distinct kind of ``kinds`` (ascending)."""
    return {k: assess(k, opponent, visible, dora=dora, sanma=sanma) for k in sorted(set(kinds))}


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


def _cell_rate(cells: Mapping[tuple[str, str, str], tuple[int, int]], cls: str, grade: str, bucket: str,
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
                table: Mapping[tuple[str, str, str], tuple[int, int]] | None = None) -> float:
    """The measured chance, in percent, that a kind of this class, grade and turn is a winning
    tile of the riichi hand, times the measured factor of each flag (the corpus measurement in
    ``rules.danger_rates``, data written by ``scripts/measure_danger.py``; docs/analysis.md says
    how it was measured; a flag too rare to measure has factor 1). Genbutsu is 0. ``table``
    replaces ``BASE[players]`` (tests)."""
    if danger.danger_class is DangerClass.GENBUTSU:
        return 0.0
    base, factors, min_cases = _measured()
    cls = danger.danger_class.value
    value = _cell_rate(table if table is not None else base[players], cls, danger.grade,
                       turn_bucket(danger.turn), min_cases)
    flags = danger.flags
    if not flags:  # most kinds have none: no sort (callgrind, compiled, 3 corpus games: 72 M -> 64 M)
        return value
    for flag in sorted(f.value for f in flags):
        cases, won, expected = factors[players].get((cls, flag), (0, 0, 0.0))
        if cases >= min_cases and expected > 0:
            value *= won / expected
    return value
