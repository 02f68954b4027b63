"""``tenhou-tools validate``: replay many logs and report every finding."""

from __future__ import annotations

import time
from contextlib import closing

import click

from ..check import GameRecord
from ..crossgame import CrossGameRecord
from ..serialize import json_text
from ..validate import NoLogsFound, ValidateStart, ValidateSummary, validate_paths
from . import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, validate_report
from .common import AtomicOutput, expand_sources, no_logs_found, tell_duplicates, tell_not_logs
from .options import dedupe_option, output_option, paths_argument, progress_option, runner_options
from .output import check_output_path, refuse_input_as_output
from .progress import ProgressBar, bar_wanted


def fails(record: GameRecord | CrossGameRecord, fail_on: str) -> bool:
    return validate_report.counts(record, fail_on)


@click.command()
@paths_argument()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "ndjson"]), default="text",
              show_default=True,
              help="text: a verdict and the games that fail, for people; json/ndjson: every record "
                   "(the contract in the README, \"validate\": a line per game, then a summary).")
@click.option("--verbose", "-v", is_flag=True,
              help="text: also the time taken and the checks run, by kind.")
@output_option()
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error", show_default=True,
              help="Exit 1 when any game has a finding of this severity or worse.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@progress_option
@runner_options(slow_log="reported as an INTERNAL_ERROR finding")
@dedupe_option(verb="Check")
def validate(paths: tuple[str, ...], fmt: str, verbose: bool, output: str | None, fail_on: str, exit_zero: bool,
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

    The text report is one line when every game is clean; otherwise it lists each game that
    fails (at the --fail-on level) with its findings, each with the command that shows its hand
    (tenhou-tools replay PATH --hand E2-1), up to 50 games and 5 findings a game, and says how
    many more there are.

    \b
    Exit codes: 0 no finding at or above --fail-on; 1 findings, or the report
    cannot be written; 2 bad input (no such path, no logs found) or setup (e.g.
    Dask missing or unreachable, -o in a folder that does not exist); 3 internal
    error; 130 interrupted (the report so far is still written, and says so:
    "interrupted": true).

    \b
    Example:
      tenhou-tools validate fixtures/ --format ndjson
    """
    args, paths = paths, tuple(expand_sources(paths, cached_ids=True))
    check_output_path(output)
    refuse_input_as_output(output, (*args, *paths))
    run = validate_paths(paths, jobs=jobs, scheduler=scheduler, batch_size=batch_size,
                         timeout=timeout, dedupe=not no_dedupe)
    try:  # the inputs are surveyed and the workers start before any output or progress thread
        start = next(run)  # a missing path, Dask missing, workers that cannot start: their exit codes
    except NoLogsFound as exc:
        raise no_logs_found(args, ignored=exc.ignored, rows_without_log=exc.rows_without_log) from None
    assert isinstance(start, ValidateStart)
    total = start.total
    failed = validate_report.FailedGames(fail_on)
    uncheckable = validate_report.Uncheckable()
    show_progress = bar_wanted(no_progress)
    games = n_findings = 0
    end: object = None
    with closing(run), AtomicOutput(output) as out:
        bar = ProgressBar("validate", total=total or None, enabled=show_progress, through_stdout=True,
                          detail="{rate} games/s, {findings} findings, {failed} failed",
                          fields={"rate": "-", "findings": 0, "failed": 0})
        started = time.perf_counter()
        try:
            with bar:
                try:
                    for record in run:
                        if isinstance(record, ValidateSummary):
                            end = record
                            break
                        if isinstance(record, CrossGameRecord):  # after the games: no progress
                            if fmt == "ndjson":
                                out.write(json_text(record.to_json()) + "\n")
                            elif fmt == "json":
                                out.write(",\n" + json_text(record.to_json()))
                            n_findings += len(record.findings)
                            failed.add(record, fails(record, fail_on))
                            continue
                        assert isinstance(record, GameRecord)
                        if fmt == "ndjson":
                            out.write(json_text(record.to_json()) + "\n")
                        elif fmt == "json":
                            out.write(("[" if games == 0 else ",") + "\n"
                                      + json_text(record.to_json()))
                        games += 1
                        n_findings += len(record.findings)
                        uncheckable.add(record)
                        failed.add(record, fails(record, fail_on))
                        if show_progress:  # the figures cost 10 M instructions over 1,000 games: none unseen
                            elapsed = time.perf_counter() - started
                            bar.update(advance=1, rate=f"{games / max(elapsed, 1e-9):.0f}", findings=n_findings,
                                       failed=failed.failing)
                except KeyboardInterrupt:  # while a record was being written: the run says what was done
                    end = run.throw(KeyboardInterrupt)
        except NoLogsFound as exc:  # e.g. a tar archive with no log in it
            raise no_logs_found(args, ignored=exc.ignored, rows_without_log=exc.rows_without_log) from None
        assert isinstance(end, ValidateSummary)
        summary, elapsed, interrupted = end.summary, end.elapsed, end.interrupted
        if fmt == "ndjson":
            out.write(json_text(end.to_json()) + "\n")
        elif fmt == "json":
            out.write(("[" if summary.games == 0 else ",") + "\n" + json_text(end.to_json()) + "\n]\n")
        else:
            validate_report.render(out, summary, failed, elapsed=elapsed, verbose=verbose,
                                   interrupted=interrupted, not_logs=end.sources.not_logs,
                                   uncheckable=uncheckable)
    tell_not_logs(end.sources.not_logs, end.sources.not_log_examples)
    tell_duplicates(end.sources.duplicates, end.sources.duplicate_examples)
    if show_progress and not interrupted:
        rate = summary.games / elapsed if elapsed > 0 else 0.0
        click.echo(f"validate: {summary.games:,} games in {elapsed:.1f} s ({rate:,.0f} games/s).", err=True)
    if interrupted:
        click.echo(f"Interrupted after {summary.games} games.", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
    if failed.failing and not exit_zero:
        raise click.exceptions.Exit(EXIT_FINDINGS)
    raise click.exceptions.Exit(EXIT_OK)
