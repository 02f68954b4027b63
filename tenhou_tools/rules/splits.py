"""The standard form's splits: a hand's concealed tile counts taken apart into sets (a
sequence, shuntsu 順子, or a triplet, koutsu 刻子) and one pair (jantou 雀頭), every way they
can be. The scorer (``rules.scoring``) reads each split as a possible reading of a winning hand.

A split is ``(pair kind, ((shape, kind), ...))``, the sets sorted; a sequence is named by its
lowest kind. Each suit is split apart (the same nine counts come back hand after hand: a cache),
and the honours can only be triplets or the pair.
"""

from __future__ import annotations

from functools import cache
from typing import Final

__all__ = ["SEQUENCE", "TRIPLET", "standard_splits"]

SEQUENCE: Final = 0
TRIPLET: Final = 1
"""The shapes of a set (``Final``: compiled, the scorer's loops read them as numbers, not from
the module's dictionary)."""


@cache
def _suit_splits(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every split of one suit's nine counts into sets and at most one pair:
    ``(pair number or -1, ((shape, number), ...))``."""
    found: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    _walk(list(counts), 0, -1, [], found)
    return tuple(sorted(found))


def _walk(c: list[int], i: int, pair: int, groups: list[tuple[int, int]],
          found: set[tuple[int, tuple[tuple[int, int], ...]]]) -> None:
    """From number ``i`` on, every way to take sets (and a pair, while ``pair`` is -1) out of the
    counts ``c``; each complete split (``groups`` so far) into ``found``."""
    while i < 9 and not c[i]:
        i += 1
    if i == 9:
        found.add((pair, tuple(sorted(groups))))
        return
    if c[i] >= 3:
        c[i] -= 3
        groups.append((TRIPLET, i))
        _walk(c, i, pair, groups, found)
        groups.pop()
        c[i] += 3
    if pair < 0 and c[i] >= 2:
        c[i] -= 2
        _walk(c, i, i, groups, found)
        c[i] += 2
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        groups.append((SEQUENCE, i))
        _walk(c, i, pair, groups, found)
        groups.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


_SPLITS: dict[tuple[int, ...], tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = {}
_SPLITS_LIMIT = 50_000


def standard_splits(counts: list[int]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every split of concealed ``counts`` into sets and exactly one pair:
    ``(pair kind, ((shape, kind), ...))``.

    Memoised by the counts: the hand value scores the same tiles as a tsumo and as a ron, and the
    same complete hand won on different waits (callgrind, compiled, 2 corpus games' analysis:
    3,608 against 3,542 M instructions; ints only, which the garbage collector stops tracking)."""
    key = tuple(counts)
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) >= _SPLITS_LIMIT:
            _SPLITS.clear()
        found = _SPLITS[key] = tuple(_standard_splits(counts))
    return found


def _standard_splits(counts: list[int]) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    honors: list[tuple[int, int]] = []
    honor_pair = -1
    for k in range(27, 34):
        n = counts[k]
        if n == 3:
            honors.append((TRIPLET, k))
        elif n == 2:
            if honor_pair >= 0:
                return []
            honor_pair = k
        elif n:
            return []
    partial = [(honor_pair, tuple(honors))]
    for base in (0, 9, 18):
        splits = _suit_splits(tuple(counts[base:base + 9]))
        if not splits:
            return []
        nxt = []
        for pair, groups in partial:
            for spair, sgroups in splits:
                if spair >= 0 and pair >= 0:
                    continue
                nxt.append((spair + base if spair >= 0 else pair,
                            groups + tuple((shape, n + base) for shape, n in sgroups)))
        partial = nxt
    return [p for p in partial if p[0] >= 0]
