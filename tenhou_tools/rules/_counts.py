"""Tile counts by kind: the one helper the compiled replay and valuation call on every hand they
look at, in a private module so a compiled install compiles it. Its public name is
``rules.hand.counts34``."""

from __future__ import annotations

from collections.abc import Iterable


def counts34(tiles: Iterable[int]) -> list[int]:
    """Counts per kind (0-33) of tile ids."""
    counts = [0] * 34
    for t in tiles:
        counts[t >> 2] += 1
    return counts
