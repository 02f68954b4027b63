#!/usr/bin/env python3
"""Mutation-fuzz the input paths for N minutes: corrupted real logs must each end in a result.

    python scripts/fuzz.py --minutes 10 [--corpus ../shared/corpus] [--seed 1] [--save DIR]
                           [--paths validate,stats,convert,replay] [--no-json]

Seeds are corpus mjlog files, the fixtures, the same games written as tenhou.net/6 JSON and
the corpus's tenhou6 files. Mutations: byte flips, truncation, deleted / duplicated / reordered
tags, out-of-range and huge numbers, wrong list lengths, huge attributes, non-UTF-8 names; for
JSON, deleted / duplicated / swapped list items, wrong types, bad tile codes, huge numbers,
wrong hand-array lengths, bad top-level fields, truncated and deeply nested JSON
(tenhou_tools/fuzz.py). Each input goes through every path in --paths (default: all). A failure
is an exception, an INTERNAL_ERROR (engine crash) or internal error in stats, a multi-line error
or an input slower than 5 s; failing inputs are written to --save for reproduction. Exit 1 if
any failed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import random
import sys
from pathlib import Path

from tenhou_tools.fuzz import PATHS, fuzz, tenhou6_seeds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, help="write failing inputs here")
    ap.add_argument("--paths", default=",".join(PATHS),
                    help=f"comma-separated input paths to drive (default: all of {','.join(PATHS)})")
    ap.add_argument("--no-json", action="store_true", help="mjlog XML seeds only")
    args = ap.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or set(paths) - set(PATHS):
        ap.error(f"--paths: choose among {', '.join(PATHS)}")
    files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::25]
    seeds = [gzip.decompress(f.read_bytes()) for f in files]
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    seeds += [(fixtures / n).read_bytes() for n in ("one_hand.xml", "sanma_kita.xml")]
    if not args.no_json:
        json_seeds = tenhou6_seeds(seeds)
        json_seeds += [f.read_bytes() for f in sorted(Path(args.corpus, "tenhou6").glob("*/*.json"))[::10]]
        seeds += json_seeds
    report = fuzz(seeds, seconds=args.minutes * 60, rng=random.Random(args.seed), paths=paths)
    print(f"inputs tried: {report.tried} ({report.json_inputs} tenhou.net/6 JSON) from {len(seeds)} seed logs")
    print(f"per path: {report.by_path}")
    print(f"outcomes (validate): {report.outcomes}")
    print(f"slowest input: {report.slowest_s:.3f} s; per path: "
          + ", ".join(f"{p} {s:.3f} s" for p, s in report.slowest_by_path.items()))
    print(f"failures: {len(report.failures)}")
    for name, what, data in report.failures[:20]:
        print(f"  {name}: {what.splitlines()[0]}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            suffix = ".json" if data.lstrip().startswith(b"{") else ".xml"
            (args.save / f"{hashlib.sha256(data).hexdigest()[:16]}{suffix}").write_bytes(data)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
