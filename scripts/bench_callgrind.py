#!/usr/bin/env python3
"""Instructions per game of ``check_log`` (parse + wall + replay), counted by valgrind's callgrind.

    python scripts/bench_callgrind.py [--corpus ../shared/corpus] [--games 100] [--every 41] [--top 0]

On a shared machine, seconds move with the load; instruction counts do not. This runs the same
Python twice under ``valgrind --tool=callgrind``: once reading the logs' bytes and importing the
package only, once also checking every log with ``check.check_log`` in the process, and prints
``(checked - read only) / games``: the instructions one game costs, start-up and imports left out.
The games are every ``--every``-th ``.gz`` file of ``CORPUS/mjlog`` (sorted), ``--games`` of them.
It counts whichever build the interpreter imports (the line ``build:`` says which: compiled, or
plain Python). ``--top N`` also lists the N compiled functions (mypyc's ``CPyDef_``) and C
functions with the most inclusive instructions per game.

Compare two variants of the code by running this in each checkout in turn (``PYTHONPATH=...``);
a difference of a few thousand instructions per game is noise from hash seeds and allocation.
Needs ``valgrind`` (``apt-get install valgrind``); about a minute per 100 games.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RUN = r"""
import sys
from pathlib import Path
from tenhou_tools import _build
from tenhou_tools.check import check_log
paths = [Path(p) for p in sys.argv[2:]]
datas = [(p.read_bytes(), str(p)) for p in paths]
if sys.argv[1] == "check":
    for data, path in datas:
        check_log(data, path=path)
else:
    print("build:", _build.status())
"""


def collected(python: str, mode: str, paths: list[str], out: Path) -> tuple[int, str]:
    """Instructions callgrind counted for one run, and the run's output. It runs in the output's
    folder: ``python -c`` puts the working directory first on the path, and the package found
    there (this checkout's) would shadow the one ``PYTHONPATH`` names."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c", RUN, mode, *paths],
        capture_output=True, text=True, check=True, cwd=out.parent)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count:\n{done.stderr[-2000:]}")
    return int(found.group(1)), done.stdout


def top_functions(checked: Path, games: int, count: int) -> list[tuple[float, str]]:
    """The compiled and C functions with the most inclusive instructions per game."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--auto=no", "--threshold=100", str(checked)],
                          capture_output=True, text=True, check=True).stdout
    costs: dict[str, int] = {}
    for line in text.splitlines():
        found = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*)$", line)
        if found and ("CPyDef_" in line or "_speedups.c" in line) and "__top_level__" not in line:
            name = re.sub(r" \[.*\]$", "", found.group(2)).rsplit(":", 1)[-1]
            costs[name] = max(costs.get(name, 0), int(found.group(1).replace(",", "")))
    return sorted(((cost / games, name) for name, cost in costs.items()), reverse=True)[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--every", type=int, default=41)
    ap.add_argument("--top", type=int, default=0, help="also list the N costliest compiled functions")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    files = sorted(Path(args.corpus, "mjlog").resolve().glob("*/*.gz"))[:: args.every][: args.games]
    if not files:
        raise SystemExit(f"no .gz logs under {args.corpus}/mjlog")
    python = os.path.realpath(sys.executable)  # the real binary, not a version manager's shim
    paths = [str(f) for f in files]
    with tempfile.TemporaryDirectory(prefix="bench-callgrind-") as tmp:
        read_only, output = collected(python, "none", paths, Path(tmp, "none.out"))
        checked, _ = collected(python, "check", paths, Path(tmp, "check.out"))
        print(output.strip())
        per_game = (checked - read_only) / len(files)
        print(f"{len(files)} games: {per_game / 1e6:.3f} M instructions per game in check_log "
              f"({checked:,} checked, {read_only:,} read only)")
        if args.top:
            for cost, name in top_functions(Path(tmp, "check.out"), len(files), args.top):
                print(f"{cost / 1e6:9.3f} M  {name}")


if __name__ == "__main__":
    main()
