#!/usr/bin/env python3
"""Speed and memory of ``tenhou-tools validate`` over the corpus, beside ``jansou-validate``.

    python3 scripts/bench.py [--jobs 2] [--games N] [--repeat 10] [--rounds 1] [--no-jansou] [--json]

Three runs, one after another, each timed on the wall clock and in CPU time (user + system of
the whole process tree: the command, its pool or forkserver, every worker) with the tree's peak
memory, sampled from /proc:

1. ``tenhou-tools validate CORPUS/mjlog --jobs 2 --format ndjson --no-progress`` (stdout to a
   temporary file; the summary line gives the number of games checked);
2. ``jansou-validate -j 2 -q "CORPUS/mjlog/**/*.gz"`` over the same files. jansou is installed
   from PyPI into the benchmark's own virtual environment (``.bench-venv/`` at the repository
   root, git-ignored; ``--venv`` to put it elsewhere), never into the project's environment. If it
   cannot be installed the script says so and still reports ours;
3. ours again with the corpus folder given ``--repeat`` times and ``--no-dedupe``, so ten times the
   logs go through one run: its peak memory should match run 1 (memory does not grow with input).

With ``--games N`` both tools read the same N logs, spread over the corpus (every k-th of the
sorted ``.gz`` files, linked into a temporary folder), instead of all of ``mjlog/``. The ratio
of CPU times is the figure that moves least with other work on the machine (issue 25 asks for at
most a quarter of jansou's over 1,000 games); wall-clock rates move with the load. Even the CPU
ratio moves by a tenth from one run to the next here, so ``--rounds N`` times runs 1 and 2 N
times, one after the other, and prints each round's ratio and their median (the table and the
memory comparison use the first round).

Peak memory is given two ways: the sum of the resident set sizes (RSS) of the tree, which
counts pages shared between processes once per process, and the sum of their proportional set
sizes (PSS, from /proc/PID/smaps_rollup), which splits shared pages between their users. Only
the standard library is used. Run it on an otherwise idle machine: other work on the cores shows
up directly in games/s (the load average at the start is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
JANSOU_SPEC = "jansou==0.14.0"


# --- /proc sampling ------------------------------------------------------------------------------


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after ")"
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def _tree(root: int) -> list[int]:
    kids = _children_map()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, ()))
    return out


def _kib(path: str, key: bytes) -> int:
    try:
        with open(path, "rb") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


@dataclass
class Sample:
    rss_kib: int = 0
    pss_kib: int = 0
    processes: int = 0


def sample_tree(root: int) -> Sample:
    s = Sample()
    for pid in _tree(root):
        rss = _kib(f"/proc/{pid}/status", b"VmRSS:")
        if rss:
            s.rss_kib += rss
            s.pss_kib += _kib(f"/proc/{pid}/smaps_rollup", b"Pss:")
            s.processes += 1
    return s


@dataclass
class Run:
    name: str
    command: list[str]
    ok: bool = False
    games: int | None = None
    wall_s: float = 0.0
    cpu_s: float = 0.0
    """User and system time of the command and every process it waited for (its workers)."""
    peak_rss_mib: float = 0.0
    peak_pss_mib: float = 0.0
    peak_processes: int = 0
    exit_code: int | None = None
    note: str = ""
    stderr_tail: list[str] = field(default_factory=list)

    @property
    def games_per_s(self) -> float | None:
        return self.games / self.wall_s if self.games and self.wall_s else None


def measure(run: Run, *, stdout_path: Path, interval: float, env: dict[str, str] | None = None) -> Run:
    """Run ``run.command``, sampling its process tree every ``interval`` seconds."""
    peak = Sample()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout_path, "wb") as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(run.command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=env)
        while proc.poll() is None:
            s = sample_tree(proc.pid)
            peak.rss_kib = max(peak.rss_kib, s.rss_kib)
            peak.pss_kib = max(peak.pss_kib, s.pss_kib)
            peak.processes = max(peak.processes, s.processes)
            time.sleep(interval)
        run.wall_s = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        run.cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        err.seek(0)
        run.stderr_tail = err.read().decode(errors="replace").splitlines()[-5:]
    run.exit_code = proc.returncode
    run.peak_rss_mib = peak.rss_kib / 1024
    run.peak_pss_mib = peak.pss_kib / 1024
    run.peak_processes = peak.processes
    return run


# --- the runs ------------------------------------------------------------------------------------


def ours_base() -> list[str]:
    """The ``tenhou-tools`` script installed beside the Python running the benchmark, as jansou's
    is run from its venv: a version manager's shim found first on ``PATH`` (pyenv's is about
    80 ms of bash per start) would be timed with it. Else the one on ``PATH``, else ``-m``."""
    beside = Path(sys.executable).with_name("tenhou-tools")
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    exe = shutil.which("tenhou-tools")
    return [exe] if exe else [sys.executable, "-m", "tenhou_tools"]


def ours_command(paths: list[str], jobs: int, extra: list[str]) -> list[str]:
    return [*ours_base(), "validate", *paths, "--jobs", str(jobs), "--format", "ndjson", "--no-progress",
            *extra]


def run_ours(name: str, paths: list[str], jobs: int, extra: list[str], tmp: Path,
             interval: float) -> Run:
    run = Run(name, ours_command(paths, jobs, extra))
    out = tmp / "ours.ndjson"
    measure(run, stdout_path=out, interval=interval)
    last = b""
    with open(out, "rb") as fh:  # the summary is the last line; do not load 40 MB of records
        fh.seek(max(0, out.stat().st_size - 65536))
        lines = fh.read().splitlines()
        last = lines[-1] if lines else b""
    try:
        summary = json.loads(last)
        run.games = summary["games"]
        run.note = f"{summary['failed']} failed, findings {summary['findings_by_code'] or 'none'}"
        run.ok = run.exit_code in (0, 1)
    except (ValueError, KeyError):
        run.note = "no summary line: " + " | ".join(run.stderr_tail)
    out.unlink()
    return run


def ensure_jansou(venv: Path, spec: str) -> tuple[Path | None, str]:
    """The jansou-validate of the benchmark's own venv, installed if missing (or why not)."""
    exe = venv / "bin" / "jansou-validate"
    if exe.exists():
        return exe, "already installed"
    try:
        if not (venv / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True,
                           capture_output=True, text=True, timeout=300)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", spec],
                       check=True, capture_output=True, text=True, timeout=600)
    except subprocess.CalledProcessError as exc:
        tail = (exc.stderr or exc.stdout or "").strip().splitlines()[-1:] or [str(exc)]
        return None, f"cannot install {spec}: {tail[0]}"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"cannot install {spec}: {exc}"
    if not exe.exists():
        return None, f"{spec} installed but has no jansou-validate script"
    return exe, f"installed {spec} into {venv}"


def run_jansou(exe: Path, mjlog: Path, jobs: int, tmp: Path, interval: float) -> Run:
    run = Run(f"jansou-validate -j {jobs}", [str(exe), "-j", str(jobs), "-q", f"{mjlog}/**/*.gz"])
    out = tmp / "jansou.txt"
    measure(run, stdout_path=out, interval=interval)
    text = out.read_text(errors="replace")
    m = re.search(r"files: (\d+)\s+wins passed: (\d+)\s+failed: (\d+)\s+file errors: (\d+)", text)
    if m:
        run.games = int(m.group(1))
        run.note = f"wins passed {m.group(2)}, failed {m.group(3)}, file errors {m.group(4)}"
        run.ok = run.exit_code in (0, 1)
    else:
        run.note = "unexpected output: " + " | ".join(text.splitlines()[-3:] + run.stderr_tail)
    return run


# --- report --------------------------------------------------------------------------------------


def fmt_run(run: Run) -> str:
    rate = f"{run.games_per_s:8.0f}" if run.games_per_s else "       -"
    games = f"{run.games:7d}" if run.games is not None else "      -"
    return (f"{run.name:<52} {games} {run.wall_s:8.1f} {run.cpu_s:8.1f} {rate} {run.peak_rss_mib:10.0f} "
            f"{run.peak_pss_mib:10.0f} {run.peak_processes:5d}")


def sample_folder(mjlog: Path, games: int, tmp: Path) -> Path:
    """A folder of links to ``games`` logs spread over ``mjlog`` (every k-th sorted ``.gz``)."""
    files = sorted(mjlog.rglob("*.gz"))
    step = max(1, len(files) // games)
    folder = tmp / "sample"
    folder.mkdir()
    for i, path in enumerate(files[::step][:games]):
        (folder / f"{i:05d}-{path.name}").symlink_to(path.resolve())
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_corpus = Path(os.environ.get("TENHOU_CORPUS", REPO.parent / "shared" / "corpus"))
    ap.add_argument("--corpus", type=Path, default=default_corpus,
                    help="the corpus root (its mjlog/ folder is used) [default: $TENHOU_CORPUS or ../shared/corpus]")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--games", type=int, default=0, help="N logs spread over the corpus instead of all (0: all)")
    ap.add_argument("--repeat", type=int, default=10, help="times the corpus is given to the memory run (0: skip it)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="times ours and jansou are timed, one after the other; the median CPU ratio is reported")
    ap.add_argument("--no-jansou", action="store_true", help="skip jansou-validate")
    ap.add_argument("--venv", type=Path, default=REPO / ".bench-venv", help="jansou's virtual environment")
    ap.add_argument("--jansou-spec", default=JANSOU_SPEC)
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between memory samples")
    ap.add_argument("--json", action="store_true", help="also print the results as one JSON object")
    args = ap.parse_args(argv)

    mjlog = args.corpus / "mjlog"
    if not mjlog.is_dir():
        print(f"bench: no corpus at {mjlog} (set TENHOU_CORPUS or --corpus)", file=sys.stderr)
        return 2
    if not Path("/proc/self/status").exists():
        print("bench: needs Linux /proc to sample memory", file=sys.stderr)
        return 2
    n_files = sum(1 for _ in mjlog.rglob("*.gz"))
    if args.games:
        n_files = min(n_files, args.games)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start")
    print(f"corpus:  {mjlog} ({n_files} gzip logs)")
    version = subprocess.run([*ours_base(), "--version"], capture_output=True, text=True)
    build = version.stdout.splitlines()[-1] if version.returncode == 0 and version.stdout else "unknown"
    print(f"ours:    {' '.join(ours_base())}, {build} (TENHOU_TOOLS_PURE=1 times the plain Python build)")

    runs: list[Run] = []
    jansou_status = "skipped (--no-jansou)"
    with tempfile.TemporaryDirectory(prefix="tenhou-bench-") as tmpdir:
        tmp = Path(tmpdir)
        if args.games:
            mjlog = sample_folder(mjlog, args.games, tmp)
        exe = None
        if not args.no_jansou:
            exe, jansou_status = ensure_jansou(args.venv, args.jansou_spec)
        pairs: list[tuple[Run, Run | None]] = []
        for round_no in range(1, max(1, args.rounds) + 1):
            suffix = f" (round {round_no})" if args.rounds > 1 else ""
            mine = run_ours(f"tenhou-tools validate --jobs {args.jobs}{suffix}", [str(mjlog)], args.jobs, [],
                            tmp, args.interval)
            runs.append(mine)
            theirs = None
            if exe is not None:
                theirs = run_jansou(exe, mjlog, args.jobs, tmp, args.interval)
                theirs.name += suffix
                runs.append(theirs)
            pairs.append((mine, theirs))
        ours, jansou = pairs[0]
        many = None
        if args.repeat > 1:
            many = run_ours(f"tenhou-tools validate --jobs {args.jobs}, corpus x{args.repeat} --no-dedupe",
                            [str(mjlog)] * args.repeat, args.jobs, ["--no-dedupe"], tmp, args.interval)
            runs.append(many)

    print(f"jansou:  {jansou_status}")
    print()
    print(f"{'run':<52} {'games':>7} {'wall s':>8} {'cpu s':>8} {'games/s':>8} {'RSS MiB':>10} {'PSS MiB':>10} "
          f"{'procs':>5}")
    for run in runs:
        print(fmt_run(run))
    print()
    for run in runs:
        print(f"{run.name}: exit {run.exit_code}; {run.note}")
    results: dict[str, object] = {"runs": [asdict(r) | {"games_per_s": r.games_per_s} for r in runs],
                                  "load_average_at_start": load, "corpus_files": n_files,
                                  "jansou": jansou_status}
    if jansou is not None and ours.games_per_s and jansou.games_per_s:
        ratio = ours.games_per_s / jansou.games_per_s
        results["ratio_ours_to_jansou"] = ratio
        print(f"\nspeed ratio, tenhou-tools / jansou: {ratio:.2f}x "
              f"({ours.games_per_s:.0f} vs {jansou.games_per_s:.0f} games/s; jansou checks only "
              f"the value and fu of each win, tenhou-tools every check)")
        if ours.cpu_s and jansou.cpu_s:
            cpu_ratio = ours.cpu_s / jansou.cpu_s
            results["cpu_ratio_ours_to_jansou"] = cpu_ratio
            print(f"CPU time, tenhou-tools / jansou: {cpu_ratio:.3f} ({ours.cpu_s:.1f} s for {ours.games} games "
                  f"vs {jansou.cpu_s:.1f} s for {jansou.games} files: the same logs, ours counting a game "
                  "given twice once)")
        ratios = [mine.cpu_s / theirs.cpu_s for mine, theirs in pairs if theirs is not None and theirs.cpu_s]
        if len(ratios) > 1:
            results["cpu_ratios_by_round"] = ratios
            results["cpu_ratio_median"] = statistics.median(ratios)
            print(f"CPU time ratio by round: {', '.join(f'{r:.3f}' for r in ratios)}; "
                  f"median {statistics.median(ratios):.3f}, lowest {min(ratios):.3f}, highest {max(ratios):.3f}")
    if many is not None and many.games:
        growth = many.peak_rss_mib - ours.peak_rss_mib
        results["rss_growth_mib_for_repeat"] = growth
        print(f"memory with {args.repeat}x the logs: peak RSS {many.peak_rss_mib:.0f} MiB vs "
              f"{ours.peak_rss_mib:.0f} MiB for 1x ({growth:+.0f} MiB), peak PSS "
              f"{many.peak_pss_mib:.0f} vs {ours.peak_pss_mib:.0f} MiB")
    if args.json:
        print(json.dumps(results))
    return 0 if all(r.ok for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
