"""``tenhou-tools download``: fetch logs from tenhou.net into the cache, a folder or a houou-logs
database, by id or by a selection from Tenhou's public index. The run is the library's
(``sources.download.DownloadRun``); this module wires the options and renders what it yields."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import click

from ..errors import InputError
from ..ids import require_ref
from ..sources.download import DownloadRun, DownloadTally, Fetch, Outcome
from ..sources.http import LogFetcher
from ..sources.lists import LIST_PREFIX, STDIN, read_id_list
from ..sources.logstore import LogDatabase
from . import EXIT_FINDINGS, EXIT_INTERRUPTED
from .errors import fail
from .index_cmd import index_summary, run_index
from .options import (
    build_selection,
    fetch_options,
    fetcher_options,
    polite_options,
    progress_option,
    refresh_option,
    selection_given,
    selection_options,
)
from .progress import ProgressBar, bar_wanted

NOT_SERVED = "no longer served by tenhou.net"


def tally_line(tally: DownloadTally, *, db: bool = False, out_dir: Path | None = None) -> str:
    """The summary: ``3 ids: 1 downloaded, 2 already cached, 0 failed.``"""
    failed = sum(tally.failed.values())
    parts = [f"{tally.downloaded} downloaded", f"{tally.cached} {'already had' if db else 'already cached'}"]
    if tally.not_served:
        known = f" ({tally.not_served_known} known from an earlier run)" if tally.not_served_known else ""
        parts.append(f"{tally.not_served} {NOT_SERVED}{known}")
    reasons = ", ".join(f"{n} {reason}"
                        for reason, n in sorted(tally.failed.items(), key=lambda kv: (-kv[1], kv[0])))
    parts.append(f"{failed} failed" + (f" ({reasons})" if reasons else ""))
    if tally.not_attempted:
        parts.append(f"{tally.not_attempted} not attempted")
    if out_dir is not None:
        parts.append(f"{tally.copied} copied to {out_dir}")
    noun = "id" if tally.total == 1 else "ids"
    return f"{tally.total} {noun}: " + ", ".join(parts) + "."


def fetch_message(fetch: Fetch, *, verbose: bool, db: LogDatabase | None) -> str | None:
    """The line on stderr for what became of an id (None: nothing to say)."""
    kind = fetch.outcome
    if kind is Outcome.DOWNLOADED:
        return f"{fetch.log_id}: downloaded"
    if kind is Outcome.NOT_SERVED:
        return fetch.message
    if kind is Outcome.FAILED:
        return f"Error: {fetch.message}"
    if not verbose:
        return None
    if kind is Outcome.CACHED:
        return f"{fetch.log_id}: already cached, skipped"
    if kind is Outcome.STORED:
        return f"{fetch.log_id}: already in {db.path if db else 'the database'}, skipped"
    if kind is Outcome.KNOWN_NOT_SERVED:
        when = f" (recorded {fetch.recorded})" if fetch.recorded else " (recorded in the database)"
        return f"{fetch.log_id}: {NOT_SERVED}{when}; --retry-not-served asks again"
    return None


@click.command()
@click.argument("inputs", nargs=-1, metavar="[ID|@FILE|-]...")
@click.option(
    "--from-file", "from_file", metavar="F",
    help="Also read ids or viewer URLs from F, one per line ('#' starts a comment; '-' is stdin).",
)
@selection_options
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
    help="Also copy each log to DIR as <id>.mjlog (gzip). A different existing file is never "
    "overwritten.",
)
@click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
    help="Store the logs in FILE, a SQLite database with houou-logs' schema (created if new). "
    "Alone, downloads the rows houou-logs listed but did not download.",
)
@fetch_options
@polite_options
@refresh_option
@click.option("--retry-not-served", is_flag=True,
              help="Ask again for games recorded as no longer served by tenhou.net.")
@progress_option
def download(
    inputs: tuple[str, ...],
    from_file: str | None,
    since: datetime | None,
    until: datetime | None,
    lobbies: tuple[str, ...],
    players: str | None,
    length: str | None,
    player_names: tuple[str, ...],
    archives: tuple[Path, ...],
    out_dir: Path | None,
    db_path: Path | None,
    cache_dir: Path | None,
    base_url: str | None,
    offline: bool,
    delay: float | None,
    user_agent: str | None,
    refresh: bool,
    retry_not_served: bool,
    no_progress: bool,
) -> None:
    """Download game logs from tenhou.net: by id, or the games `index` lists.

    Give game ids or viewer URLs (also in a list: @FILE, or - for stdin, one a line; only the
    first field of a line counts, so `index` output can be piped in), or select games from
    Tenhou's public index with the options of `index` (--since, --until, --lobby, --players,
    --length, --player, --archive). Logs go to the cache, where `replay` finds them (and to
    --out DIR), or with --db into a houou-logs SQLite database.

    Downloads are sequential and polite (a pause between requests: --delay; retries with
    backoff; one downloading run per cache) and atomic; what the cache or the database holds is
    never fetched again, so an interrupted run resumes where it stopped. A game of 2010-2025
    that the server answers 404 for is "no longer served by tenhou.net" (since about 2026-04 it
    serves few of them): it is counted apart and recorded for that server, which is not asked for
    it again (--retry-not-served does; another --base-url is asked). The path of each log is
    printed on stdout (not with --db), messages and a summary on stderr. Exit codes: 0 every log
    fetched or already there, 1 some failed or are no longer served, 2 bad ids or options, 130
    interrupted.

    \b
    Examples:
      tenhou-tools download 2014102312gm-00c1-0000-afb21fa5 --out logs/
      tenhou-tools download --since 2026-11-20 --lobby houou --db houou.db
    """
    if offline and refresh:
        raise InputError("--offline and --refresh cannot be used together")
    if out_dir is not None and db_path is not None:
        raise InputError("--out and --db cannot be used together (the database keeps the logs)")
    selecting = selection_given(
        {"since": since, "until": until, "lobbies": lobbies, "players": players, "length": length,
         "player_names": player_names, "archives": archives}
    )  # fmt: skip
    items: list[tuple[str, str]] = []  # (where it came from, text)
    for text in inputs:
        if text == STDIN:
            items += read_id_list(STDIN, label="-")
        elif text.startswith(LIST_PREFIX) and len(text) > len(LIST_PREFIX):
            items += read_id_list(text[len(LIST_PREFIX):])
        else:
            items.append(("", text))
    if from_file is not None:
        items += read_id_list(from_file, label=f"--from-file {from_file}")
    if items and selecting:
        raise InputError("give game ids or a selection (--since, --lobby, --archive...), not both")
    if not items and not selecting and db_path is None:
        raise InputError("give at least one game id or tenhou.net viewer URL (or --from-file F)")

    log_ids: list[str] = []
    bad: list[str] = []
    for where, text in items:
        try:
            log_id = require_ref(text).log_id
        except InputError as exc:
            bad.append(f"{where}: {exc}" if where else str(exc))
            continue
        if log_id not in log_ids:
            log_ids.append(log_id)
    if bad:
        raise InputError("\n".join(bad))
    selection = build_selection(since, until, lobbies, players, length, player_names) if selecting else None

    fetcher = LogFetcher(cache_dir, base_url, offline=offline, refresh=refresh, **fetcher_options(delay, user_agent))
    db: LogDatabase | None = None
    if db_path is not None:
        try:
            db = LogDatabase(db_path)
        except InputError:
            fetcher.close()
            raise

    show_bar = bar_wanted(no_progress)
    index_complete = True
    starts: dict[str, datetime] = {}
    try:
        with fetcher:
            if selection is not None:
                report = run_index(selection, archives, fetcher, cache_dir, show_bar)
                click.echo(index_summary(report), err=True)
                index_complete = report.complete
                if report.stopped:  # refused, rate-limited or locked out: no log requests either
                    click.echo("Stopped before downloading anything.", err=True)
                    raise click.exceptions.Exit(EXIT_FINDINGS)
                log_ids = [g.log_id for g in report.games]
                starts = {g.log_id: g.start for g in report.games}
            elif not items and db is not None:
                log_ids = db.pending()
            run = DownloadRun(log_ids, fetcher, db=db, out_dir=out_dir, starts=starts, listed=selection is not None,
                              retry_not_served=retry_not_served)
            _render(run, db, out_dir, show_bar=show_bar, verbose=selection is None and bool(items))
    finally:
        if db is not None:
            db.close()
    if not (run.tally.complete and index_complete):
        raise click.exceptions.Exit(EXIT_FINDINGS)


def _render(run: DownloadRun, db: LogDatabase | None, out_dir: Path | None, *, show_bar: bool, verbose: bool) -> None:
    """Run the downloads: a line on stderr for each id as it goes (above a bar on a terminal),
    the path of each log on stdout (not with a database), the summary last."""
    # On a terminal the paths (stdout) would tear through the live bar: print them after it.
    held: list[str] | None = [] if show_bar and _stdout_is_terminal() else None
    summary = lambda: tally_line(run.tally, db=db is not None, out_dir=out_dir)  # noqa: E731

    def release_held() -> None:
        for line in held or ():
            click.echo(line)

    try:
        with ProgressBar("download", total=len(run.log_ids), enabled=show_bar) as bar:
            run.fetcher.on_lock_wait = bar.say
            run.on_start = lambda log_id: bar.update(label=log_id)
            for fetch in run:
                message = fetch_message(fetch, verbose=verbose, db=db)
                if message is not None:
                    bar.say(message)
                if fetch.path is not None:
                    if held is None:
                        click.echo(str(fetch.path))
                    else:
                        held.append(str(fetch.path))
                bar.update(advance=1)
    except KeyboardInterrupt:
        release_held()
        click.echo(f"Interrupted. So far: {summary()}", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    except InputError as exc:  # e.g. the cache directory cannot be created
        release_held()
        fail(exc, summary())
    release_held()
    if run.tally.stopped and run.tally.not_attempted:
        click.echo(f"Stopped downloading: {run.tally.not_attempted} not attempted.", err=True)
    click.echo(summary(), err=True)


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()
