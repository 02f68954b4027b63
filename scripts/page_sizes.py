#!/usr/bin/env python3
"""The sizes of the pages the tool writes, for the docs: ``replay --html`` of corpus games and
``stats --html`` of the corpus (docs/replay-html.md, docs/stats-html.md and the README quote
these numbers with the date they were measured).

    python scripts/page_sizes.py [--corpus ../shared/corpus] [--every 50] [--stats]

Replay pages: every ``--every``-th log of ``CORPUS/mjlog`` that is a four-player East-South
game, built as ``replay --html`` builds it (the engine's report and the discard analysis
embedded); printed: how many, the median, 90th percentile and largest page. ``--stats`` also
writes ``stats --html`` of the whole ``CORPUS/mjlog`` to a temporary file and prints its size.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tenhou_tools.analysis import analyze_game  # noqa: E402
from tenhou_tools.documents.replay import replay_document  # noqa: E402
from tenhou_tools.formats import load_game  # noqa: E402
from tenhou_tools.replay.engine import replay_game  # noqa: E402
from tenhou_tools.views.html import replay_page  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--stats", action="store_true", help="also the stats page of the whole corpus")
    args = parser.parse_args()
    sizes: list[int] = []
    for path in sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::args.every]:
        game = load_game(path.read_bytes(), source=str(path))
        if game.header.ruleset.players != 4 or not game.header.ruleset.east_south:
            continue
        doc = replay_document(game, replay_game(game), source=str(path), analysis=analyze_game(game))
        sizes.append(len(replay_page(doc).encode("utf-8")))
    if sizes:
        ordered = sorted(sizes)
        print(f"replay pages: {len(sizes)} four-player East-South games, "
              f"median {statistics.median(sizes) / 1000:,.0f} kB, "
              f"90th percentile {ordered[int(0.9 * (len(ordered) - 1))] / 1000:,.0f} kB, "
              f"largest {ordered[-1] / 1000:,.0f} kB")
    if args.stats:
        with tempfile.TemporaryDirectory() as folder:
            page = Path(folder, "stats.html")
            subprocess.run([sys.executable, "-m", "tenhou_tools", "stats", str(Path(args.corpus, "mjlog")), "--html",
                            str(page), "--no-progress", "--jobs", "2"], check=True, capture_output=True)
            print(f"stats page of {Path(args.corpus, 'mjlog')}: {page.stat().st_size / 1e6:,.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
