"""``tenhou-tools index``: list games from Tenhou's public index without downloading them."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import click

from ..serialize import csv_cell, json_text
from ..sources.http import LogFetcher
from ..sources.index import CSV_COLUMNS, IndexedGame, Selection
from ..sources.index_fetch import IndexCache, IndexReport, collect_index
from .common import AtomicOutput
from .options import (
    build_selection,
    fetch_options,
    fetcher_options,
    output_option,
    polite_options,
    progress_option,
    selection_options,
)
from .output import refuse_input_as_output
from .progress import ProgressBar, bar_wanted
from .term import visible

EXIT_OK, EXIT_INCOMPLETE = 0, 1

@click.command()
@selection_options
@fetch_options
@polite_options
@click.option("--format", "fmt", type=click.Choice(["text", "ndjson", "csv"]), default="text",
              show_default=True,
              help="text: a line per game; ndjson: a JSON object per line; csv: a header and a row per game.")
@output_option(what="list")
@progress_option
def index(since, until, lobbies, players, length, player_names, archives, cache_dir, base_url, offline,
          delay, user_agent, fmt, output, no_progress) -> None:
    """List the games in Tenhou's public index, without downloading them.

    The index is tenhou.net's list of day files (https://tenhou.net/sc/raw/: list.cgi for the
    last seven days, list.cgi?old for this year) and the yearly archives scrawYYYY.zip given
    with --archive. Only the files that can hold the selected games are fetched: the day files
    with log links (scc: the Houou table; sce, scf: the skill and amber tables, tournaments),
    of the days asked for. They are kept in the cache with their sizes, so a later run fetches
    only what changed, and the lists are fetched at most every 20 minutes. Requests go one at a
    time, with a pause between them (--delay), like `download`.

    Without --since, the last seven days are listed. Each game appears once, in order of its
    start time (Japan time), with its id, the rule as Tenhou writes it and in words, and the
    players in placement order with their game points. Exit codes: 0 the index was read in
    full; 1 some index files could not be fetched or read (the games of the others are listed),
    or none could (an error: nothing is written); 2 bad options or archives.

    \b
    Examples:
      tenhou-tools index --lobby houou --players 4
      tenhou-tools index --since 2019-01-01 --until 2019-01-31 --archive scraw2019.zip --format csv
    """
    selection = build_selection(since, until, lobbies, players, length, player_names)
    refuse_input_as_output(output, [str(archive) for archive in archives])  # -o onto an --archive
    fetcher = LogFetcher(cache_dir, base_url, offline=offline, **fetcher_options(delay, user_agent))
    with fetcher:  # an unreadable archive, a cache that cannot be created: InputError, exit 2
        report = run_index(selection, archives, fetcher, cache_dir, bar_wanted(no_progress))

    if _nothing_read(report):  # a total failure is an error, not "0 games" (and -o is left alone)
        where = f"{output} was not written" if output is not None else "no games listed"
        click.echo(f"Error: no index file could be fetched or read ({where}).", err=True)
        raise click.exceptions.Exit(EXIT_INCOMPLETE)
    with AtomicOutput(output) as out:
        write_games(out, report.games, fmt)
    click.echo(index_summary(report), err=True)
    raise click.exceptions.Exit(EXIT_OK if report.complete else EXIT_INCOMPLETE)


def _nothing_read(report: IndexReport) -> bool:
    """Every index file asked for failed: no day file fetched, unchanged or read from an archive."""
    read = report.files_fetched + report.files_unchanged + report.files_from_archives
    return not report.complete and read == 0


def write_games(out, games: list[IndexedGame], fmt: str) -> None:
    """The games in the chosen format."""
    if fmt == "ndjson":
        for game in games:
            out.write(json_text(game.to_json()) + "\n")
    elif fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for game in games:
            writer.writerow([csv_cell(v) for v in game.to_row()])
        out.write(buffer.getvalue())
    else:
        for game in games:
            out.write(game_line(game) + "\n")


def points_text(points: float) -> str:
    """As Tenhou writes game points: a sign when not zero, one decimal (``+59.0``, ``0.0``)."""
    return "0.0" if points == 0 else f"{points:+.1f}"


_plain = visible
"""A name safe on one terminal line: control and format characters shown as escapes."""


def game_line(game: IndexedGame) -> str:
    players = "  ".join(
        f"{_plain(p.name)}({points_text(p.points)}{f',{p.chips:+d}枚' if p.chips is not None else ''})"
        for p in game.results
    )
    return f"{game.log_id}  {game.start:%Y-%m-%d %H:%M}  {game.rule}  {game.rule_short}  {players}"


# -- reading the index, with a bar on a terminal (download uses it too) ------------------------


def run_index(
    selection: Selection, archives: tuple[Path, ...], fetcher: LogFetcher | None, cache_dir: Path | None,
    progress: bool,
) -> IndexReport:
    """Collect the index (``sources.index_fetch.collect_index``), with a bar over the index files
    on a terminal (``progress``); problems and notes go to stderr."""

    def on_file(name: str, done: int, total: int) -> None:
        bar.update(completed=done, total=total, label=f"index {name}")

    with ProgressBar("index files", enabled=progress) as bar:
        if fetcher is not None:
            fetcher.on_lock_wait = bar.say
        report = collect_index(
            selection, fetcher=fetcher, cache=IndexCache(cache_dir), archives=archives, on_file=on_file
        )
    for line in report.notes:
        click.echo(f"Note: {line}", err=True)
    for line in report.problems:
        click.echo(f"Warning: {line}", err=True)
    return report


def index_summary(report: IndexReport) -> str:
    """One line: how many games, from how many files, fetched or kept."""
    games = f"{len(report.games):,} game{'s' if len(report.games) != 1 else ''}"
    parts = []
    listed = report.files_fetched + report.files_unchanged
    if listed or not report.archives:
        parts.append(
            f"{listed:,} day file{'s' if listed != 1 else ''} from tenhou.net's index "
            f"({report.files_fetched:,} fetched, {report.files_unchanged:,} unchanged since an earlier run)"
        )
    if report.archives:
        parts.append(
            f"{report.files_from_archives:,} day file{'s' if report.files_from_archives != 1 else ''} "
            f"from {report.archives} archive{'s' if report.archives != 1 else ''}"
        )
    return f"{games} in " + " and ".join(parts) + "."

