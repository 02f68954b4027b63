#!/usr/bin/env python3
"""CPU cost of judging every discard of a game (what ``stats --quality`` runs per game).

    python scripts/bench_judge.py [--corpus ../shared/corpus] [--sample 40] [--players 4] [--fresh]

For every N-th genuine log of ``CORPUS/mjlog`` (four-player or three-player), the CPU time of
``analysis.analyze_game``: the one fold per hand, every discard's shanten and acceptance, the
danger against every threat, every legal discard valued in expected points and the verdict. In
one process, as a batch runs it (the value's memo tables fill as games go; ``--fresh`` clears
them before each game, as for one ``replay --analysis``). Parsing is not timed.

Prints the median, 90th percentile and maximum per game and per discard, and the verdict counts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenhou_tools.analysis import analyze_game  # noqa: E402
from tenhou_tools.analysis import value as value_module  # noqa: E402
from tenhou_tools.mjlog import parse_game  # noqa: E402


def clear_memos() -> None:
    """Empty the hand value's memo tables (a fresh process's state)."""
    for name in ("_SCORES", "_SITUATION_IDS", "_LAST_SITUATION", "_PARTS"):
        table = getattr(value_module, name)
        table.clear()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--sample", type=int, default=40, help="every N-th log")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--limit", type=int, default=0, help="at most this many games")
    parser.add_argument("--fresh", action="store_true", help="clear the memo tables before each game")
    args = parser.parse_args()
    files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::args.sample]
    per_game: list[float] = []
    per_discard: list[float] = []
    verdicts: Counter = Counter()
    for path in files:
        game = parse_game(path.read_bytes())
        if game.header.ruleset.players != args.players:
            continue
        if args.fresh:
            clear_memos()
        started = time.process_time()
        analysis = analyze_game(game)
        spent = time.process_time() - started
        per_game.append(spent)
        if analysis.discards:
            per_discard.append(spent / len(analysis.discards))
        verdicts.update(n.judgement.verdict.value for n in analysis.discards)
        if args.limit and len(per_game) >= args.limit:
            break
    if not per_game:
        print("no game of that player count in the sample", file=sys.stderr)
        return 1
    print(f"{len(per_game)} {args.players}-player games, {sum(verdicts.values()):,} discards"
          f"{' (memos cleared before each)' if args.fresh else ''}")
    print(f"  a game:    median {1000 * statistics.median(per_game):.0f} ms, 90th percentile "
          f"{1000 * quantile(per_game, 0.9):.0f} ms, max {1000 * max(per_game):.0f} ms")
    print(f"  a discard: median {1e6 * statistics.median(per_discard):.0f} µs, max {1e6 * max(per_discard):.0f} µs")
    print("  verdicts: " + ", ".join(f"{k} {n:,}" for k, n in sorted(verdicts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
