"""``tenhou-tools validate``: replay many logs and report every finding."""

from __future__ import annotations

import json
import sys
import time
from contextlib import closing

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..batch import DEFAULT_TIMEOUT, BatchError, SetupError, open_runner
from ..check import GameRecord, Summary
from ..errors import InputError
from ..findings import Severity
from ..sources.local import SourceStats, iter_logs, survey_inputs
from . import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from .common import AtomicOutput, expand_sources, no_logs_found

VIEWER = "https://tenhou.net/0/?log={log_id}&ts={hand}"


class SetupFailed(click.ClickException):
    """The runner cannot start (Dask missing or unreachable): one line on stderr, exit 2."""

    exit_code = EXIT_USAGE


class RunnerFailed(click.ClickException):
    """Worker processes cannot run at all: one line on stderr, exit 3."""

    exit_code = EXIT_INTERNAL


def fails(record: GameRecord, fail_on: str) -> bool:
    if fail_on == "warning":
        return bool(record.findings)
    return not record.ok


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "ndjson"]), default="text",
              show_default=True, help="text: a summary for people; json/ndjson: the DESIGN.md contract.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to FILE (atomically: a complete file or none).")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error", show_default=True,
              help="Exit 1 when any game has a finding of this severity or worse.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--no-progress", is_flag=True, help="No progress bar (it is also off when stderr is not a terminal).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: all cores; 1 = in this process].")
@click.option("--scheduler", metavar="tcp://HOST:PORT", envvar="TENHOU_TOOLS_SCHEDULER",
              help="Run on this Dask scheduler (needs tenhou-tools[dask]; env TENHOU_TOOLS_SCHEDULER). "
                   "--jobs is then ignored.")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help="Logs sent to a worker at once [default: 48 locally, 128 on Dask].")
@click.option("--timeout", type=click.FloatRange(min=0), default=DEFAULT_TIMEOUT, show_default=True,
              metavar="SECONDS",
              help="A log that takes longer is stopped and reported as an INTERNAL_ERROR finding (0: no limit; not on Dask).")
@click.option("--no-dedupe", is_flag=True,
              help="Check every copy of a game (by default a game seen before, by its id or else its "
                   "bytes, is skipped).")
def validate(paths: tuple[str, ...], fmt: str, output: str | None, fail_on: str, exit_zero: bool,
             no_progress: bool, jobs: int | None, scheduler: str | None, batch_size: int | None,
             timeout: float, no_dedupe: bool) -> None:
    """Replay every game in PATHS under the Tenhou rules and report what disagrees.

    PATHS may be files (.xml, .mjlog, .gz: gzip is detected by content; .json: tenhou.net/6
    JSON, told from XML by content), folders (searched recursively; zip and tar archives and
    SQLite databases in them are found by content), globs, zip and tar archives, houou-logs
    SQLite databases, `-` for one log on standard input, @FILE for a list of paths (one a line;
    @- reads the list from standard input), and game ids of logs in the download cache. The
    same game found twice (by game id, else by content) is checked once. Each game gets a record
    with the checks that ran and its findings (docs/findings.md); a log that cannot be read is a
    PARSE_ERROR finding and the run goes on.

    Logs are checked in batches by --jobs worker processes, or on a Dask cluster with
    --scheduler; the report is the same either way, in input order. A worker that dies
    mid-batch costs an INTERNAL_ERROR finding for the log it died on, not the run; so does a
    log that takes longer than --timeout seconds (it is stopped).

    \b
    Exit codes: 0 no finding at or above --fail-on; 1 findings; 2 bad input
    (no such path, no logs found) or setup (e.g. Dask missing or unreachable);
    3 internal error; 130 interrupted (the summary so far is still written).

    \b
    Example:
      tenhou-tools validate fixtures/ --format ndjson
    """
    args, paths = paths, tuple(expand_sources(paths, cached_ids=True))
    try:
        survey = survey_inputs(paths)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None
    if survey.total == 0:
        raise no_logs_found(args, ignored=survey.ignored, rows_without_log=survey.rows_without_log)
    total = survey.total
    stats = SourceStats()
    summary = Summary()
    failing: list[GameRecord] = []
    started = time.perf_counter()
    show_progress = not no_progress and sys.stderr.isatty()
    interrupted = False
    any_fail = False
    n_findings = 0
    try:  # workers start (or the cluster is reached) before any output or progress thread
        runner = open_runner(jobs=jobs, scheduler=scheduler, batch_size=batch_size, total=total,
                             timeout=timeout or None)
    except SetupError as exc:
        raise SetupFailed(str(exc)) from None
    except BatchError as exc:
        raise RunnerFailed(str(exc)) from None
    with runner, AtomicOutput(output) as out:
        progress = Progress(TextColumn("validate"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]} games/s, {task.fields[findings]} findings, "
                                       "{task.fields[failed]} failed"),
                            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            console=Console(stderr=True), disable=not show_progress, transient=True,
                            # Only a terminal's stdout may go through the bar's console (to keep
                            # the bar intact); a redirected stdout must get the data itself.
                            redirect_stdout=sys.stdout.isatty())
        try:
            with progress, closing(runner.map(iter_logs(paths, stats=stats, dedupe=not no_dedupe),
                                              total=total)) as records:
                task = progress.add_task("validate", total=total or None, rate="-", findings=0, failed=0)
                for record in records:
                    # Written, then counted: a Ctrl-C leaves a summary of what was written.
                    if fmt == "ndjson":
                        out.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
                    elif fmt == "json":
                        out.write(("[" if summary.games == 0 else ",") + "\n"
                                  + json.dumps(record.to_json(), ensure_ascii=False))
                    summary.add(record)
                    n_findings += len(record.findings)
                    if fails(record, fail_on):
                        any_fail = True
                    if not record.ok and len(failing) < 50:
                        failing.append(record)
                    elapsed = time.perf_counter() - started
                    progress.update(task, advance=1, rate=f"{summary.games / max(elapsed, 1e-9):.0f}",
                                    findings=n_findings, failed=summary.failed)
        except KeyboardInterrupt:
            interrupted = True
        except BatchError as exc:
            raise RunnerFailed(str(exc)) from None
        if stats.items == 0 and not interrupted:  # e.g. a tar archive with no log in it
            raise no_logs_found(args, ignored=stats.ignored, rows_without_log=stats.skipped_without_log)
        elapsed = time.perf_counter() - started
        if fmt == "ndjson":
            out.write(json.dumps(summary.to_json(elapsed)) + "\n")
        elif fmt == "json":
            doc = summary.to_json(elapsed)
            out.write(("[" if summary.games == 0 else ",") + "\n" + json.dumps(doc) + "\n]\n")
        else:
            render_text(out, summary, failing, stats, elapsed)
        if interrupted:
            out.commit()
    if stats.duplicates:
        click.echo(f"{stats.duplicates} duplicate game(s) skipped.", err=True)
    if interrupted:
        click.echo(f"Interrupted after {summary.games} games.", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
    if any_fail and not exit_zero:
        raise click.exceptions.Exit(EXIT_FINDINGS)
    raise click.exceptions.Exit(EXIT_OK)


def render_text(out, summary: Summary, failing: list[GameRecord], stats: SourceStats, elapsed: float) -> None:
    console = Console(file=out, width=120, color_system=None, highlight=False, soft_wrap=True)
    rate = summary.games / elapsed if elapsed > 0 else 0.0
    console.print(f"{'games':<8}{summary.games:>10}")
    console.print(f"{'ok':<8}{summary.ok:>10}")
    console.print(f"{'failed':<8}{summary.failed:>10}")
    console.print(f"{'speed':<8}{rate:>10.0f} games/s")
    if summary.findings_by_code:
        console.print("\nFindings by code:")
        for code, n in sorted(summary.findings_by_code.items(), key=lambda kv: (-kv[1], kv[0])):
            console.print(f"  {code:<22} {n}")
    console.print("\nChecks run:")
    for kind, n in sorted(summary.checks.items()):
        console.print(f"  {kind:<28} {n}")
    if failing:
        console.print("\nFailing games:")
        for record in failing:
            console.print(f"  {record.path}")
            for finding in [f for f in record.findings if f.severity is Severity.ERROR][:3]:
                where = f"hand {finding.hand}" if finding.hand is not None else "game"
                if finding.event_index is not None:
                    where += f", event {finding.event_index}"
                console.print(f"    {finding.code.value} ({where}): {finding.message}")
                if finding.expected is not None or finding.actual is not None:
                    console.print(f"      expected {finding.expected!r}, log has {finding.actual!r}")
            if record.log_id:
                hand = next((f.hand for f in record.findings if f.hand is not None), 0)
                console.print(f"    {VIEWER.format(log_id=record.log_id, hand=hand)}")
