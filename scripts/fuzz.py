#!/usr/bin/env python3
"""Mutation-fuzz the input path for N minutes: corrupted real logs must each end in a result.

    python scripts/fuzz.py --minutes 10 [--corpus ../shared/corpus] [--seed 1] [--save DIR]

Mutations: byte flips, truncation, deleted / duplicated / reordered tags, out-of-range and huge
numbers, wrong list lengths, huge attributes, non-UTF-8 names (tenhou_tools/fuzz.py). A failure
is an exception, an INTERNAL_ERROR (engine crash), a multi-line error or an input slower than
5 s; failing inputs are written to --save for reproduction. Exit 1 if any failed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import random
import sys
from pathlib import Path

from tenhou_tools.fuzz import fuzz


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, help="write failing inputs here")
    args = ap.parse_args()
    files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::25]
    seeds = [gzip.decompress(f.read_bytes()) for f in files]
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    seeds += [(fixtures / n).read_bytes() for n in ("one_hand.xml", "sanma_kita.xml")]
    report = fuzz(seeds, seconds=args.minutes * 60, rng=random.Random(args.seed))
    print(f"inputs tried: {report.tried} from {len(seeds)} seed logs")
    print(f"outcomes: {report.outcomes}")
    print(f"slowest input: {report.slowest_s:.3f} s")
    print(f"failures: {len(report.failures)}")
    for name, what, data in report.failures[:20]:
        print(f"  {name}: {what.splitlines()[0]}")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{hashlib.sha256(data).hexdigest()[:16]}.xml").write_bytes(data)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
