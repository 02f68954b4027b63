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


_Split = tuple[int, tuple[tuple[int, int], ...]]

_SUITS: Final[dict[int, tuple[_Split, ...]]] = {}
"""A suit's splits (``_suit_splits``) with its kinds in place (the suit's first kind added), by
the int ``standard_splits`` names its counts by: ints only, which the garbage collector stops tracking."""
_SUITS_LIMIT: Final = 50_000
_HONOR_TRIPLETS: Final = tuple((TRIPLET, k) for k in range(34))
"""A triplet of each kind (the honours' are read)."""


def _suit_in_place(counts: list[int], base: int, code: int) -> tuple[_Split, ...]:
    """``_suit_splits`` of the suit from kind ``base``, its pair and sets' kinds in place; ``code``
    names the suit's counts (``standard_splits``), -1 when one is outside 0-4 (not memoised)."""
    found = _SUITS.get(code) if code >= 0 else None
    if found is None:
        found = tuple((pair + base if pair >= 0 else -1, tuple((shape, n + base) for shape, n in groups))
                      for pair, groups in _suit_splits(tuple(counts[base:base + 9])))
        if code >= 0:
            if len(_SUITS) >= _SUITS_LIMIT:
                _SUITS.clear()
            _SUITS[code] = found
    return found


def standard_splits(counts: list[int]) -> tuple[_Split, ...]:
    """Every split of concealed ``counts`` into sets and exactly one pair:
    ``(pair kind, ((shape, kind), ...))``, the honours' triplets first, then each suit's sets in
    order (the splits in the order of the first suit's, then the second's, then the third's).

    Put together from each suit's splits, memoised with their kinds in place by one int for the
    suit's counts (``_SUITS``: five values a count, none has more than four copies, times three
    plus the suit), an empty suit skipped, the split kept as one pair and tuple of sets while
    each suit reads one way: callgrind, compiled, 3 corpus games' ``analyze_game``, 53 M
    instructions here against 78 M with each suit's int made by a function, every suit looked
    up and the splits so far always in a list (and 85 M with each suit's counts a tuple and its
    sets put in place again at every new hand). The whole hand's splits are not memoised: such a memo (by the 34
    counts, up to 50,000 hands) answered more than half the calls but saved 5 M instructions of
    1,939 M, while its nested tuples kept the garbage collector busy between the games of
    ``stats --quality`` (0.31 s of collections over 30 Houou games against 0.12 s without it;
    compiled, ``gc.callbacks`` and callgrind)."""
    honors: list[tuple[int, int]] = []
    pair = -1
    for k in range(27, 34):
        n = counts[k]
        if n == 3:
            honors.append(_HONOR_TRIPLETS[k])
        elif n == 2:
            if pair >= 0:
                return ()
            pair = k
        elif n:
            return ()
    # the split so far while each suit reads one way (the usual case), every split so far once
    # one reads several
    groups = tuple(honors)
    several: list[_Split] = []
    for suit in range(3):
        base = suit * 9
        code = 0
        for k in range(base + 8, base - 1, -1):
            n = counts[k]
            if n < 0 or n > 4:
                code = -1
                break
            code = code * 5 + n
        if code == 0:
            continue  # no tile of the suit: it adds nothing
        splits = _suit_in_place(counts, base, code * 3 + suit if code > 0 else -1)
        if len(splits) == 0:
            return ()
        if len(splits) == 1 and not several:
            spair, sgroups = splits[0]
            if spair >= 0:
                if pair >= 0:
                    return ()
                pair = spair
            groups = groups + sgroups if len(groups) else sgroups
            continue
        if not several:
            several.append((pair, groups))
        nxt: list[_Split] = []
        for p, g in several:
            for spair, sgroups in splits:
                if spair >= 0 and p >= 0:
                    continue
                nxt.append((spair if spair >= 0 else p, g + sgroups))
        if not nxt:
            return ()
        several = nxt
    if not several:
        return ((pair, groups),) if pair >= 0 else ()
    complete: list[_Split] = []
    for split in several:
        if split[0] >= 0:
            complete.append(split)
    return tuple(complete)
