"""``tenhou-tools stats``: per-player statistics over many logs (definitions: docs/stats.md)."""

from __future__ import annotations

import time

import click

from ..batch import DEFAULT_TIMEOUT
from ..documents.stats import StatsReport, check_store, stats_report
from ..sources.local import survey_inputs
from ..stats.collect import Collected, RunSummary, collect_stats
from ..stats.names import NameMatcher
from ..stats.records import GameFilter, LobbySpec
from ..stats.store import StatsStore
from . import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from .common import AtomicOutput, expand_sources, no_logs_found, tell_not_logs
from .options import (
    dedupe_option,
    output_option,
    paths_argument,
    progress_option,
    refuse_format_with_html,
    runner_options,
)
from .output import check_output_path, check_writable, refuse_input_as_output
from .progress import ProgressBar, bar_wanted
from .stats_render import render_text
from .term import folded, visible


@click.command()
@paths_argument(required=False)
@click.option("--player", "names", multiple=True, metavar="NAME",
              help="Report only this player (case and width do not matter: naga finds Ｎａｇａ; "
                   "repeat for several).")
@click.option("--lobby", "lobbies", multiple=True, metavar="LOBBY",
              help="Only games of this lobby: a GO type code (169, 0xa9), a room (ippan, joukyuu, "
                   "tokujou, houou), Tenhou's lobby name (四鳳南喰赤) or L<number>. Repeat for several.")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="Only games from this day on (the date in the game id, Japan time).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="Only games up to this day (inclusive).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="text: tables for people; json: one object per player; csv: one row per player.")
@output_option()
@click.option("--html", "html_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report as one self-contained HTML page with charts to FILE instead "
                   "(atomically; - for stdout): docs/stats-html.md.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Keep the counters in this SQLite file: logs are added once (by game id), and "
                   "`stats --db FILE` alone reports without reading logs again.")
@click.option("--min-games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Leave out players with fewer games.")
@click.option("--as", "as_name", metavar="NAME",
              help="Add up the rows of every --player into one row called NAME (one per table "
                   "size): several accounts of one person.")
@click.option("--tables", type=click.IntRange(min=0), default=None, metavar="N",
              help="text: detailed tables for the first N rows (most games first) [default: every "
                   "player named by --player, else none].")
@click.option("--wide", is_flag=True,
              help="text: the overview with every headline column (wider than 80 columns).")
@click.option("--brief", is_flag=True, help="text: only the overview, one line per row (--tables 0).")
@click.option("--quality", is_flag=True,
              help="Also judge every discard in expected points (the discard analysis): the "
                   "agreement with its top pick, the loss rate and the points given up per "
                   "discard. Slow: about half a second more CPU per game.")
@progress_option
@runner_options(slow_log="counted as unreadable")
@dedupe_option(verb="Count")
def stats(paths: tuple[str, ...], names: tuple[str, ...], lobbies: tuple[str, ...], since, until,
          fmt: str, output: str | None, html_file: str | None, db_path: str | None, min_games: int,
          as_name: str | None, tables: int | None, wide: bool, brief: bool, quality: bool, no_progress: bool,
          jobs: int | None, scheduler: str | None, batch_size: int | None, timeout: float,
          no_dedupe: bool) -> None:
    """Per-player statistics of the games in PATHS: placement, wins, deal-ins, riichi, calls,
    draws and score balance, with 95 % confidence intervals (definitions: docs/stats.md).

    PATHS are read as validate reads them (files, folders, globs, zip and tar archives,
    houou-logs databases, `-` for a log on standard input, @FILE for a list of paths, game ids
    of cached logs), in parallel; the same game found twice (by game id, else by content)
    counts once. --player matches names whatever their case or width (Unicode NFKC and case
    folding); a name that matches nobody is an error (exit 2, no report) that names the
    closest names seen.
    Four-player and three-player games are kept apart: a player has a row per table size.
    With --db FILE the counters are also kept in a SQLite file, each game
    once; the report then covers every game in the file, and `stats --db FILE` with no PATHS
    reports from the file alone.

    Beside the counts: per table kind (room or private lobby, length, table size) the rank
    counts, Tenhou's dan points per game at the player's dan and the stable dan; the latest dan
    and rate and the history of every game; with --quality, the agreement with the analysis.
    The text overview fits 80 columns (--wide for more columns, --player NAME for the details);
    --player A --player B --as NAME adds two accounts into one row.

    \b
    Exit codes: 0 done; 1 some logs could not be read (the report covers the
    others), or the report cannot be written; 2 bad input (no such path, no
    logs found, a --player that matches nobody: no report), option or database,
    -o or --html in a folder that does not exist or onto an input;
    3 internal error; 130 interrupted (the database keeps every batch
    committed; the text report so far goes to stdout and says so in its first
    line; JSON, CSV, a page or a -o FILE of part of the games are not written).

    \b
    Examples:
      tenhou-tools stats logs/ --player Alice
      tenhou-tools stats logs/ --db stats.sqlite && tenhou-tools stats --db stats.sqlite --lobby houou
    """
    if not paths and not db_path:
        raise click.UsageError("give PATHS to read, or --db FILE to report from a database")
    if as_name is not None and not names:
        raise click.UsageError("--as NAME adds up the rows of the --player names: give --player too")
    try:
        games = GameFilter(tuple(LobbySpec.parse(text) for text in lobbies),
                           since.date() if since else None, until.date() if until else None)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--lobby'") from None
    if games.since and games.until and games.since > games.until:
        raise click.BadParameter("--since is after --until", param_hint="'--since'")
    wanted = NameMatcher(names) if names else None
    refuse_format_with_html(html_file)
    if html_file is not None and output is not None:
        raise click.UsageError("--html FILE is the report: give it or -o FILE, not both")
    check_output_path(output)
    if html_file != "-":
        check_output_path(html_file)
    total = 0
    args, paths = paths, tuple(expand_sources(paths, cached_ids=True))
    _refuse_inputs_as_outputs(output, html_file, (*args, *paths, *([db_path] if db_path else [])))
    check_writable(output)
    if html_file != "-":
        check_writable(html_file)
    if args:
        survey = survey_inputs(paths)  # a missing path: InputError, exit 2
        if survey.total == 0:
            raise no_logs_found(args, ignored=survey.ignored, rows_without_log=survey.rows_without_log)
        total = survey.total
    store = None
    if db_path:  # a database that cannot be used: StoreError, exit 2
        store = StatsStore(db_path, create=bool(paths))
    collected: Collected | None = None
    started = time.perf_counter()
    try:
        if store is not None and paths:  # what the report will sum must add up before anything is added
            check_store(store, games, wanted, db_path or "")
        if paths:
            collected = _read(
                paths, total, store, games, wanted, jobs=jobs, scheduler=scheduler, batch_size=batch_size,
                timeout=timeout, dedupe=not no_dedupe, quality=quality, show_progress=bar_wanted(no_progress))
            if not collected.interrupted and collected.summary.found == 0:  # e.g. a tar archive with no log
                raise no_logs_found(args, ignored=collected.summary.not_logs)
        elapsed = time.perf_counter() - started
        report = stats_report(collected, store=store, store_name=db_path or "", games=games, wanted=wanted,
                              min_games=min_games, quality=quality, as_name=as_name)
    finally:
        if store is not None:
            store.close()
    interrupted = collected is not None and collected.interrupted
    summary = collected.summary if collected is not None else RunSummary()
    if wanted is not None and wanted.unmatched() and not interrupted:  # a name that matches nobody
        _tell(summary, report.games, len(report.rows), elapsed, store is not None, bool(paths), wanted,
              written=False)
        raise click.exceptions.Exit(EXIT_USAGE)  # no report: it would not be the one asked for
    marked = interrupted and html_file is None and output is None and fmt == "text"
    if marked:
        _write_report(None, fmt, report, tables, brief, wide, names,
                      mark=_interrupted_mark(summary.read, store is not None))
    elif not interrupted:  # after Ctrl-C, a file, a page, JSON or CSV of part of the games: none
        if html_file is not None:
            _write_html(html_file, report)
        else:
            _write_report(output, fmt, report, tables, brief, wide, names)
    _tell(summary, report.games, len(report.rows), elapsed, store is not None, bool(paths), wanted)
    if interrupted:
        click.echo(_interrupted_note(html_file, output, marked, store is not None), err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
    raise click.exceptions.Exit(EXIT_FINDINGS if summary.unreadable else EXIT_OK)


def _refuse_inputs_as_outputs(output: str | None, html_file: str | None, inputs: tuple[str, ...]) -> None:
    """``-o`` or ``--html`` onto a log, list or ``--db`` file the run reads: exit 2, nothing read."""
    refuse_input_as_output(output, inputs)
    refuse_input_as_output(html_file, inputs, option="--html")


def _write_report(output: str | None, fmt: str, report: StatsReport, tables: int | None, brief: bool,
                  wide: bool, names: tuple[str, ...], mark: str | None = None) -> None:
    """The report in ``fmt`` to ``output`` (stdout when None); ``mark``: a first line saying it
    covers part of the games (the text report after Ctrl-C)."""
    with AtomicOutput(output) as out:
        if mark is not None:
            out.write(mark + "\n")
        if fmt == "json":
            out.write(report.players_text())
        elif fmt == "csv":
            out.write(report.csv_text())
        else:
            if brief or (tables is None and not names):
                tables = 0
            render_text(out, list(report.rows), report.games, tables=tables, wide=wide)


def _interrupted_mark(read: int, with_db: bool) -> str:
    """The text report's first line after Ctrl-C (``validate``'s words)."""
    covers = "the database with those added" if with_db else "only those"
    return f"Interrupted after {_plural(read, 'game')} read: this report covers {covers}."


def _interrupted_note(html_file: str | None, output: str | None, marked: bool, with_db: bool) -> str:
    """What became of the report after Ctrl-C, on stderr: a report of part of the games is not
    written (a file, a page, JSON or CSV would look complete); the text one says what it is."""
    written = html_file if html_file not in (None, "-") else output
    note = "Interrupted."
    if written:
        note += f" {written} was not written."
    elif not marked:
        note += " No report: one of part of the games would look like the whole (the text report says so)."
    if with_db:
        note += " The database is consistent: it holds the games added above."
    return note


def _write_html(path: str, report: StatsReport) -> None:
    """``--html FILE``: the offline statistics page (``views/stats_html.py``) of the report's
    page document (``StatsReport.page_json``), written atomically (``-``: stdout), and its size
    on stderr. Not written when interrupted (the caller's choice)."""
    from ..views.stats_html import stats_page

    to_file = path != "-"
    page = stats_page(report.page_json())
    with AtomicOutput(path if to_file else None, announce=False) as out:
        out.write(page)
    if to_file:
        click.echo(f"{path}: stats page, {len(page.encode()):,} bytes", err=True)


def _read(paths, total: int, store: StatsStore | None, games: GameFilter, wanted: NameMatcher | None, *,
          jobs, scheduler, batch_size, dedupe: bool, show_progress: bool, quality: bool = False,
          timeout: float = DEFAULT_TIMEOUT) -> Collected:
    """Read every log into totals (or the store), with a progress bar: ``stats.collect``. Dask
    missing or workers that cannot start (``batch.SetupError``, ``BatchError``) and a database
    that cannot be written (``StoreError``) reach the command group (their exit codes)."""
    bar = ProgressBar("stats", total=total or None, enabled=show_progress, through_stdout=True,
                      detail="{rate} games/s, {bad} unreadable", fields={"rate": "-", "bad": 0})
    started = time.perf_counter()

    def on_start() -> None:  # the workers are up: the bar's thread may start
        nonlocal started
        bar.start()
        started = time.perf_counter()

    def on_record(done: int, skipped: int, summary: RunSummary) -> None:
        elapsed = time.perf_counter() - started
        bar.update(completed=done + skipped, rate=f"{done / max(elapsed, 1e-9):.0f}", bad=summary.unreadable)

    try:
        return collect_stats(paths, total=total, store=store, games=games, wanted=wanted, jobs=jobs,
                             scheduler=scheduler, batch_size=batch_size, timeout=timeout, dedupe=dedupe,
                             quality=quality, on_start=on_start, on_record=on_record)
    finally:
        bar.stop()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _tell(summary: RunSummary, n_games: int, n_players: int, elapsed: float, with_db: bool,
          read_logs: bool, wanted: NameMatcher | None, *, written: bool = True) -> None:
    """The summary on stderr (a sentence folded to the width, ``term.folded``; then the unreadable
    logs, each on one line, however long); ``written`` false: no report was written (a ``--player``
    name matched nobody), and the line says so instead of counting rows."""
    parts = []
    if read_logs:
        rate = summary.read / elapsed if elapsed > 0 else 0.0
        parts.append(f"{_plural(summary.read + summary.unreadable, 'log')} read in {elapsed:.1f} s "
                     f"({rate:.0f} games/s)")
        parts.append(f"{summary.unreadable} unreadable")
        if summary.not_judged:
            parts.append(f"{_plural(summary.not_judged, 'game')} not judged (--quality)")
        if summary.duplicates:
            parts.append(f"{_plural(summary.duplicates, 'duplicate')} skipped")
        if with_db:
            parts.append(f"{_plural(summary.added, 'game')} added to the database, "
                         f"{summary.known} already in it")
        elif summary.filtered:
            parts.append(f"{_plural(summary.filtered, 'game')} left out by the filters")
    if written:
        parts.append(f"{_plural(n_games, 'game')} and {_plural(n_players, 'player row')} reported")
    else:
        parts.append(f"{_plural(n_games, 'game')} counted, no report written")
    tell_not_logs(summary.not_logs, summary.not_log_examples)
    for line in folded("stats: " + "; ".join(parts) + "."):  # prose: folded as validate's report is
        click.echo(line, err=True)
    for message in summary.errors:
        click.echo(f"  unreadable: {visible(message)}", err=True)
    if summary.unreadable > len(summary.errors):
        click.echo(f"  ... and {summary.unreadable - len(summary.errors)} more", err=True)
    for message in summary.not_judged_examples:
        click.echo(f"  not judged: {visible(message)}", err=True)
    if summary.not_judged > len(summary.not_judged_examples):
        click.echo(f"  ... and {summary.not_judged - len(summary.not_judged_examples)} more not judged", err=True)
    if wanted is not None:
        for name in wanted.unmatched():
            close = wanted.suggestions(name)
            hint = f" Closest names seen: {', '.join(repr(c) for c in close)}." if close else ""
            click.echo(f"stats: no games of player {name!r}.{hint}", err=True)
