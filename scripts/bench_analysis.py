#!/usr/bin/env python3
"""Shanten and discard analysis over real positions: ours against the ``mahjong`` package and
(when installed) ``xiangting``, side by side in one run.

    python scripts/bench_analysis.py [--corpus ../shared/corpus] [--sample 40] [--rounds 3]

Positions are every discard of every N-th genuine log (tests/positions.py tracks the hands).
Two measures, in CPU microseconds (process time, so a busy machine disturbs them less):

- shanten of one hand: each discard's hand before (3n+2) and after (3n+1) it;
- the analysis of one discard: every possible discard with its shanten and acceptance (the
  kinds whose draw lowers shanten, counted against the unseen tiles) and the best ones.
  ``mahjong`` has no acceptance: it calls its shanten for every discard and every draw (timed
  on every 10th position, it is slow); ``xiangting`` returns shanten and accepted kinds in
  one call per discard; ours is ``rules.shanten.discard_options`` + ``best_discards``.

Ours keeps memoised tables: the first pass builds them (``cold``), later passes reuse them.
``--single`` also times, in fresh interpreters, the analysis of every discard of one game:
what ``replay --analysis`` of a single game costs. Rounds alternate the implementations; the
median is printed. ``pip install xiangting`` to include it (it is not a dependency).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mahjong.shanten import Shanten  # noqa: E402

from tenhou_tools.mjlog import parse_game  # noqa: E402
from tenhou_tools.rules.hand import counts34  # noqa: E402
from tenhou_tools.rules.shanten import best_discards, discard_options, shanten  # noqa: E402
from tests.positions import positions  # noqa: E402

try:
    import xiangting
except ImportError:  # optional: only measured when installed
    xiangting = None

Hand = tuple[list[int], int, tuple[int, ...], bool]


def load(corpus: Path, sample: int) -> tuple[list[Hand], list[Hand], int]:
    """(each discard's 3n+2 hand, those hands before and after the discard, games)."""
    files = sorted(Path(corpus, "mjlog").glob("*/*.gz"))[::sample]
    discards, both = [], []
    for path in files:
        for pos in positions(parse_game(path.read_bytes())):
            c = counts34(pos.concealed)
            after = list(c)
            after[pos.discarded >> 2] -= 1
            discards.append((c, pos.melds, pos.unseen, pos.sanma))
            both += [(c, pos.melds, pos.unseen, pos.sanma), (after, pos.melds, pos.unseen, pos.sanma)]
    return discards, both, len(files)


def ours_shanten(hands: list[Hand]) -> None:
    for c, melds, _, sanma in hands:
        shanten(c, melds, sanma=sanma)


def mahjong_shanten(hands: list[Hand]) -> None:
    for c, _, _, sanma in hands:
        Shanten.calculate_shanten(c, is_three_player=sanma)


def xiangting_shanten(hands: list[Hand]) -> None:
    four, three = xiangting.PlayerCount.FOUR, xiangting.PlayerCount.THREE
    for c, _, _, sanma in hands:
        xiangting.calculate_replacement_number(c, three if sanma else four)


def ours_analysis(hands: list[Hand]) -> list[tuple[int, ...]]:
    return [tuple(o.kind for o in best_discards(discard_options(c, m, u, sanma=s))) for c, m, u, s in hands]


def _best(scored: list[tuple[int, int, int]]) -> tuple[int, ...]:
    top = min(scored)[:2]
    return tuple(k for value, minus_total, k in scored if (value, minus_total) == top)


def mahjong_analysis(hands: list[Hand]) -> list[tuple[int, ...]]:
    result = []
    for c, _, unseen, sanma in hands:
        c = list(c)
        scored = []
        for d in range(34):
            if not c[d]:
                continue
            c[d] -= 1
            value = Shanten.calculate_shanten(c, is_three_player=sanma)
            total = 0
            for k in range(34):
                if c[k] < 4 and not (sanma and 1 <= k <= 7):
                    c[k] += 1
                    if Shanten.calculate_shanten(c, is_three_player=sanma) < value:
                        total += unseen[k]
                    c[k] -= 1
            scored.append((value, -total, d))
            c[d] += 1
        result.append(_best(scored))
    return result


def xiangting_analysis(hands: list[Hand]) -> list[tuple[int, ...]]:
    four, three = xiangting.PlayerCount.FOUR, xiangting.PlayerCount.THREE
    necessary = xiangting.calculate_necessary_tiles
    result = []
    for c, _, unseen, sanma in hands:
        c = list(c)
        scored = []
        for d in range(34):
            if not c[d]:
                continue
            c[d] -= 1
            number, tiles = necessary(c, three if sanma else four)
            total = sum(unseen[k] for k in range(34) if tiles >> k & 1)
            scored.append((number - 1, -total, d))
            c[d] += 1
        result.append(_best(scored))
    return result


def cpu_us(fn: Callable[[list[Hand]], object], hands: list[Hand]) -> float:
    start = time.process_time()
    fn(hands)
    return (time.process_time() - start) / len(hands) * 1e6


def single(path: str) -> None:
    """Print the CPU ms of analysing every discard of one game in this (fresh) interpreter."""
    game = parse_game(Path(path).read_bytes())
    hands = [(counts34(p.concealed), p.melds, p.unseen, p.sanma) for p in positions(game)]
    start = time.process_time()
    ours_analysis(hands)
    cold = time.process_time() - start
    start = time.process_time()
    ours_analysis(hands)
    print(f"{len(hands)} {cold * 1000:.0f} {(time.process_time() - start) * 1000:.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--sample", type=int, default=40, help="use every N-th log (default 40)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--single", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.single:
        single(args.single)
        return

    discards, both, games = load(Path(args.corpus), args.sample)
    print(f"{games} games, {len(discards):,} discards, {len(both):,} hands "
          f"({'with' if xiangting else 'without'} xiangting)")

    cold = cpu_us(ours_analysis, discards)
    slow = discards[::10]
    ours_best = ours_analysis(discards)
    assert mahjong_analysis(slow) == ours_best[::10], "mahjong disagrees on a best discard"
    if xiangting:
        assert xiangting_analysis(discards) == ours_best, "xiangting disagrees on a best discard"

    rows: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        rows.setdefault("shanten: ours", []).append(cpu_us(ours_shanten, both))
        rows.setdefault("shanten: mahjong", []).append(cpu_us(mahjong_shanten, both))
        if xiangting:
            rows.setdefault("shanten: xiangting", []).append(cpu_us(xiangting_shanten, both))
        rows.setdefault("discard analysis: ours", []).append(cpu_us(ours_analysis, discards))
        rows.setdefault("discard analysis: mahjong (every 10th)", []).append(cpu_us(mahjong_analysis, slow))
        if xiangting:
            rows.setdefault("discard analysis: xiangting", []).append(cpu_us(xiangting_analysis, discards))
    print(f"{'discard analysis: ours, first pass (cold)':45} {cold:10.1f} us")
    for name, runs in rows.items():
        print(f"{name:45} {statistics.median(runs):10.1f} us")
    per_game = statistics.median(rows["discard analysis: ours"]) * len(discards) / games / 1000
    print(f"ours per game, warm: {per_game:.0f} ms for {len(discards) / games:.0f} discards")

    every = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))
    for path in every[len(every) // 6 :: len(every) // 3]:
        out = subprocess.run([sys.executable, __file__, "--single", str(path)], capture_output=True,
                             text=True, check=True).stdout.split()
        print(f"one game in a fresh interpreter: {out[0]} discards, {out[1]} ms cold, {out[2]} ms warm "
              f"({path.name})")


if __name__ == "__main__":
    main()
