#!/usr/bin/env python3
"""Single-core costs of the pipeline over the corpus: read, parse, wall, replay (ms per game).

    python scripts/bench_core.py [--corpus ../shared/corpus] [--sample N]

Prints milliseconds per game for: gunzip+parse (gzip bytes -> Game), parse of plain XML bytes,
wall generation alone, the replay with every check on and the part of it spent valuing wins
(with what the ``mahjong`` library would take instead), and the whole check (parse + replay),
plus games/s.
Timings are wall-clock medians of three passes on one core; run it on a quiet machine. It times
whichever build is installed (``tenhou-tools --version``: compiled or plain Python) and says which;
an install made with ``TENHOU_TOOLS_PURE=1`` times the plain Python.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path

from tenhou_tools import _build
from tenhou_tools.check import check_log
from tenhou_tools.mjlog import parse_game
from tenhou_tools.replay import _win_checks
from tenhou_tools.replay.engine import replay_game
from tenhou_tools.rules.scoring import score_win
from tenhou_tools.rules.wall import WallGenerator, WallSeedError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the mahjong adapter: tests/, in the checkout
from tests.scoring_library import library_score_win


def timed(fn, items, passes=3) -> float:
    runs = []
    for _ in range(passes):
        start = time.perf_counter()
        for item in items:
            fn(item)
        runs.append((time.perf_counter() - start) / len(items) * 1000)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    ap.add_argument("--sample", type=int, default=0, help="use every N-th file (0: all)")
    args = ap.parse_args()
    files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))
    if args.sample:
        files = files[:: args.sample]
    raw = [f.read_bytes() for f in files]
    plain = [gzip.decompress(b) for b in raw]
    games = [parse_game(b) for b in plain]

    def walls(game):
        if game.header.shuffle and game.header.shuffle.seed:
            try:
                gen = WallGenerator(game.header.shuffle.seed, game.header.ruleset.players)
            except WallSeedError:
                return
            for hand in game.hands:
                gen.next_hand(hand.init.dealer)

    # every win's context, as the replay builds it, to time the two valuations alone; the compiled
    # win checks call score_win directly, so this works only in the plain Python build
    contexts = []

    def keep(ctx):
        contexts.append(ctx)
        return score_win(ctx)

    _win_checks.score_win = keep
    for game in games:
        replay_game(game)
    _win_checks.score_win = score_win

    parse_gz = timed(parse_game, raw)
    parse_xml = timed(parse_game, plain)
    wall = timed(walls, games)
    replay = timed(replay_game, games)
    if contexts:
        own = timed(score_win, contexts) * len(contexts) / len(games)
        library = timed(library_score_win, contexts) * len(contexts) / len(games)
    check = timed(lambda b: check_log(b, path="x"), raw, passes=1)
    print(f"build: {_build.status()}")
    print(f"games: {len(files)}")
    print(f"parse (gzip bytes -> Game): {parse_gz:.3f} ms/game")
    print(f"parse (xml bytes -> Game):  {parse_xml:.3f} ms/game")
    print(f"wall generation:            {wall:.3f} ms/game")
    print(f"replay (every check):       {replay:.3f} ms/game")
    if contexts:
        print(f"  of which hand valuation:  {own:.3f} ms/game ({len(contexts) / len(games):.1f} wins per game; "
              f"the mahjong library would take {library:.3f})")
    else:
        print("  (hand valuation alone: timed only in the plain Python build, TENHOU_TOOLS_PURE=1)")
    print(f"check (parse + replay):     {check:.3f} ms/game = {1000 / check:.0f} games/s on one core")


if __name__ == "__main__":
    main()
