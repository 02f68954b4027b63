#!/usr/bin/env python3
"""CPU time of ``replay --format json`` beside ``replay --analysis --format json``, per game.

    python3 scripts/bench_replay.py [--corpus ../shared/corpus] [--every 17] [--players 4]
                                    [--runs 1] [--limit N]

Each East-South game of the sample (every ``--every``-th log of ``CORPUS/mjlog``, ``--players``
4 or 3) is replayed in a new process, so every table starts cold, first without and then with
the analysis, ``--runs`` times each (interleaved; the median per game is kept). The figure is
the CPU time (user + system) of the whole process, which moves less than the wall clock with
other work on a shared machine. Printed: one line per game, then the median, 90th percentile
and maximum of each, the share of analysed games over one second, and the ratio of the totals
(issue 25 asks the analysis for at most 1.5 times the replay, issue 27 for under a second).
Standard library only; it runs ``python -m tenhou_tools`` of the interpreter that runs it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tenhou_tools.formats import load_game  # noqa: E402


def cpu_seconds(args: list[str], env: dict[str, str]) -> float:
    """User + system CPU of one child process run to its end (its output thrown away)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sample(corpus: Path, every: int, players: int, limit: int | None) -> list[Path]:
    """Every ``every``-th log of ``corpus/mjlog`` that is an East-South game of ``players``."""
    found = []
    for path in sorted((corpus / "mjlog").glob("*/*.gz"))[::every]:
        try:
            rules = load_game(path.read_bytes(), source=str(path)).header.ruleset
        except Exception:  # noqa: BLE001 - a log that does not load is left out of the sample
            continue
        if rules.players == players and rules.east_south:
            found.append(path)
            if limit is not None and len(found) >= limit:
                break
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("TENHOU_CORPUS", str(REPO.parent / "shared" / "corpus")))
    parser.add_argument("--every", type=int, default=17)
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    games = sample(Path(args.corpus), args.every, args.players, args.limit)
    if not games:
        raise SystemExit(f"no East-South {args.players}-player games in {args.corpus}/mjlog")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # cached bytecode, as users run
    command = [sys.executable, "-m", "tenhou_tools", "replay"]
    plain, analysed = [], []
    for path in games:
        runs_plain, runs_analysed = [], []
        for _ in range(args.runs):
            runs_plain.append(cpu_seconds([*command, str(path), "--format", "json"], env))
            runs_analysed.append(cpu_seconds([*command, str(path), "--analysis", "--format", "json"], env))
        plain.append(statistics.median(runs_plain))
        analysed.append(statistics.median(runs_analysed))
        print(f"{path.name[:40]:40} {plain[-1]:6.2f} s {analysed[-1]:6.2f} s {analysed[-1] / plain[-1]:5.2f}x",
              flush=True)
    over = sum(1 for a in analysed if a > 1.0)
    print(f"{len(games)} East-South {args.players}-player games, CPU per process:")
    for name, values in (("replay --format json", plain), ("replay --analysis --format json", analysed)):
        print(f"  {name:32} median {statistics.median(values):.2f} s, 90th percentile "
              f"{percentile(values, 0.9):.2f} s, max {max(values):.2f} s")
    print(f"  analysed games over 1 s: {over} of {len(games)}; ratio of the totals "
          f"{sum(analysed) / sum(plain):.2f}")


if __name__ == "__main__":
    main()
