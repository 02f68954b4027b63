#!/usr/bin/env python3
"""Fuzz every input path for N minutes: corrupted logs, archives, databases, downloads and stats
databases must each end in a result, within bounded memory.

    python scripts/fuzz.py --minutes 10 [--corpus ../shared/corpus] [--seed 1] [--save DIR]
                           [--paths validate,stats,convert,replay,zip,sqlite,download,store]
                           [--iterations N] [--no-json] [--max-rss-mib 1024]

Paths (default: all; the time is shared 4 : 1.5 : 1.5 : 1 : 1 between the log paths, zip,
sqlite, download and store):

- validate, stats, convert, replay: mutated logs (tests/fuzzing/logs.py). Seeds are corpus mjlog
  files, the fixtures, the same games written as tenhou.net/6 JSON and the corpus's tenhou6
  files. Mutations: byte flips, truncation, deleted / duplicated / reordered tags, out-of-range
  and huge numbers, wrong list lengths, huge attributes, non-UTF-8 names; for JSON, deleted /
  duplicated / swapped list items, wrong types, bad tile codes, huge numbers, wrong hand-array
  lengths, bad top-level fields, truncated and deeply nested JSON. Each input goes through every
  log path asked for.
- zip, sqlite: damaged zip archives and houou-logs / phoenix-logs databases of the fixtures and
  corpus logs, read as validate and stats read them (tests/fuzzing/containers.py); every 50th
  also through the validate command.
- download: the downloader against a loopback server on 127.0.0.1 that answers at random
  (tests/fuzzing/downloads.py, server.py); every 10th session through the download command.
- store: stats --db on damaged stats databases (tests/fuzzing/store.py).

The fuzzers are development tools in the repository's tests/ (not installed with the package):
run this script from a checkout, with tenhou_tools installed.

A failure is an exception, an INTERNAL_ERROR (engine crash) or internal error in stats, a
multi-line error, a file written where it must not be, a cache holding anything but complete
logs, a changed database after a failed run, or an input slower than the path's limit; failing
inputs are written to --save for reproduction. A path that runs 5 minutes past its time is a
hang: the tracebacks of every thread are printed and the run exits. The peak resident set size of the process is
reported (and the RSS after each path); a peak over --max-rss-mib is a failure too. Exit 1 if
anything failed.
"""

from __future__ import annotations

import argparse
import faulthandler
import gzip
import hashlib
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the fuzzers: tests/fuzzing, in the checkout

from tests.fuzzing.common import IO_PATHS, peak_rss_bytes, rss_bytes  # noqa: E402
from tests.fuzzing.containers import fuzz_containers  # noqa: E402
from tests.fuzzing.downloads import fuzz_downloads  # noqa: E402
from tests.fuzzing.logs import PATHS, FuzzReport, fuzz, tenhou6_seeds  # noqa: E402
from tests.fuzzing.store import fuzz_store  # noqa: E402

WEIGHTS = {"logs": 4.0, "zip": 1.5, "sqlite": 1.5, "download": 1.0, "store": 1.0}
FIXTURES = REPO / "fixtures"
MIB = 1024 * 1024
HANG_GRACE_S = 300.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--iterations", type=int, default=None,
                    help="stop each path after this many inputs (whatever --minutes says)")
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, help="write failing inputs here")
    every = PATHS + IO_PATHS
    ap.add_argument("--paths", default=",".join(every),
                    help=f"comma-separated input paths to drive (default: all of {','.join(every)})")
    ap.add_argument("--no-json", action="store_true", help="mjlog XML seeds only")
    ap.add_argument("--max-rss-mib", type=float, default=1024.0,
                    help="fail when the peak resident set size exceeds this (MiB)")
    args = ap.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not paths or set(paths) - set(every):
        ap.error(f"--paths: choose among {', '.join(every)}")
    log_paths = [p for p in PATHS if p in paths]
    phases = (["logs"] if log_paths else []) + [p for p in IO_PATHS if p in paths]
    share = sum(WEIGHTS[p] for p in phases)
    seconds = {p: args.minutes * 60 * WEIGHTS[p] / share for p in phases}
    rng = random.Random(args.seed)

    fixture_logs = [(FIXTURES / n).read_bytes() for n in ("one_hand.xml", "sanma_kita.xml")]
    fixture_all = fixture_logs + [(FIXTURES / n).read_bytes() for n in (
        "one_hand.mjlog", "truncated.mjlog", "not_mjlog.xml", "empty.mjlog")]
    files = sorted(Path(args.corpus, "mjlog").glob("*/*.gz"))[::25]
    corpus_xml = [gzip.decompress(f.read_bytes()) for f in files]
    print(f"seeds: {len(corpus_xml)} corpus mjlog files ({args.corpus}), the fixtures")

    reports: dict[str, FuzzReport] = {}
    memory: list[tuple[str, int]] = [("start", rss_bytes())]
    for phase in phases:
        limit = dict(seconds=seconds[phase], iterations=args.iterations, rng=random.Random(rng.random()))
        # a hang: every thread's traceback on stderr, and exit, once a path overruns by 5 minutes
        faulthandler.dump_traceback_later(seconds[phase] + HANG_GRACE_S, exit=True)
        if phase == "logs":
            seeds = corpus_xml + fixture_logs
            if not args.no_json:
                json_seeds = tenhou6_seeds(seeds)
                json_seeds += [f.read_bytes() for f in sorted(Path(args.corpus, "tenhou6").glob("*/*.json"))[::10]]
                seeds += json_seeds
            report = fuzz(seeds, paths=log_paths, **limit)
        elif phase in ("zip", "sqlite"):
            seeds = fixture_all + tenhou6_seeds(fixture_logs) + corpus_xml[:40]
            seeds += [f.read_bytes() for f in files[:20]]  # gzip, as stored
            report = fuzz_containers(seeds, kinds=(phase,), cli_every=50, **limit)
        elif phase == "download":
            report = fuzz_downloads(fixture_logs + corpus_xml[:40], cli_every=10, **limit)
        else:
            report = fuzz_store(fixture_all[:4] + corpus_xml[:10], **limit)
        faulthandler.cancel_dump_traceback_later()
        reports[phase] = report
        memory.append((phase, rss_bytes()))
        describe(phase, report)
    peak = max(peak_rss_bytes(), *(value for _, value in memory))
    print(f"memory: peak RSS {peak / MIB:.0f} MiB; RSS after each path: "
          + ", ".join(f"{name} {value / MIB:.0f} MiB" for name, value in memory))
    failures = [f for r in reports.values() for f in r.failures]
    print(f"failures: {len(failures)}")
    for name, what, data in failures[:20]:
        print(f"  {name}: {what.splitlines()[0][:300]}")
        if args.save and data:
            args.save.mkdir(parents=True, exist_ok=True)
            suffix = ".json" if data.lstrip().startswith(b"{") else ".xml"
            if name.startswith(("zip:", "sqlite:", "store:")):
                suffix = ".zip" if name.startswith("zip:") else ".sqlite"
            (args.save / f"{hashlib.sha256(data).hexdigest()[:16]}{suffix}").write_bytes(data)
    if peak > args.max_rss_mib * MIB:
        print(f"peak RSS {peak / MIB:.0f} MiB is over --max-rss-mib {args.max_rss_mib:g}")
        return 1
    return 1 if failures else 0


def describe(phase: str, report: FuzzReport) -> None:
    if phase == "logs":
        print(f"logs: {report.tried} inputs ({report.json_inputs} tenhou.net/6 JSON)")
        print(f"  per path: {report.by_path}")
        print(f"  outcomes (validate): {report.outcomes}")
        print("  slowest input: " + ", ".join(f"{p} {s:.3f} s" for p, s in report.slowest_by_path.items()))
    else:
        what = {"zip": "archives", "sqlite": "databases", "download": "ids", "store": "stats databases"}[phase]
        print(f"{phase}: {report.tried} {what}, {len(report.by_mutation)} kinds of damage; "
              f"slowest {report.slowest_s:.3f} s")
        print(f"  outcomes: {dict(sorted(report.outcomes.items()))}")
    print(f"  failures: {len(report.failures)}")


if __name__ == "__main__":
    sys.exit(main())
