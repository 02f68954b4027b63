"""``tenhou-tools download``: fetch logs from tenhou.net into the cache, a folder or a houou-logs
database, by id or by a selection from Tenhou's public index."""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import NoReturn, Self
from urllib.parse import urlsplit

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..errors import DownloadError, InputError
from ..ids import require_ref
from ..sources.cache import ExportConflict, export_log, gzip_bytes
from ..sources.http import BadLog, LogFetcher, NotFound, NotServed, StopDownloads, not_found_error
from ..sources.lists import LIST_PREFIX, STDIN, id_lines, read_id_list
from ..sources.logstore import LogDatabase, LogRow, NotServedRecord
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
from .term import make_console

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

NOT_SERVED = "no longer served by tenhou.net"


@dataclass
class _Tally:
    total: int
    downloaded: int = 0
    cached: int = 0
    not_served: int = 0
    not_served_known: int = 0
    failed: Counter = field(default_factory=Counter)
    not_attempted: int = 0
    copied: int = 0
    out_dir: Path | None = None
    had_word: str = "already cached"

    def fail(self, reason: str) -> None:
        self.failed[reason] += 1

    def line(self) -> str:
        failed = sum(self.failed.values())
        parts = [f"{self.downloaded} downloaded", f"{self.cached} {self.had_word}"]
        if self.not_served:
            known = f" ({self.not_served_known} known from an earlier run)" if self.not_served_known else ""
            parts.append(f"{self.not_served} {NOT_SERVED}{known}")
        reasons = ", ".join(f"{n} {reason}"
                            for reason, n in sorted(self.failed.items(), key=lambda kv: (-kv[1], kv[0])))
        parts.append(f"{failed} failed" + (f" ({reasons})" if reasons else ""))
        if self.not_attempted:
            parts.append(f"{self.not_attempted} not attempted")
        if self.out_dir is not None:
            parts.append(f"{self.copied} copied to {self.out_dir}")
        noun = "id" if self.total == 1 else "ids"
        return f"{self.total} {noun}: " + ", ".join(parts) + "."

    @property
    def complete(self) -> bool:
        return not (self.failed or self.not_attempted or self.not_served)


class _Reporter:
    """Human messages on stderr: above a rich progress bar on a terminal, plain lines otherwise."""

    def __init__(self, total: int, enabled: bool):
        self.progress: Progress | None = None
        if enabled:
            self.progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=make_console(stderr=True),
                transient=True,
                redirect_stdout=False,
            )
            self.task = self.progress.add_task("download", total=total)

    def __enter__(self) -> Self:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def say(self, message: str) -> None:
        if self.progress is not None:
            self.progress.console.print(message, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(message, err=True)

    def current(self, log_id: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=log_id)

    def advance(self) -> None:
        if self.progress is not None:
            self.progress.advance(self.task)


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _usage_exit(messages: list[str]) -> NoReturn:
    for message in messages:
        click.echo(f"Error: {message}", err=True)
    raise click.exceptions.Exit(EXIT_USAGE)


def _reason(exc: DownloadError, offline: bool) -> str:
    """The summary's word for a failure."""
    if isinstance(exc, NotFound):
        return "not found"
    if isinstance(exc, BadLog):
        return "not a valid log"
    if isinstance(exc, StopDownloads):
        return "stopped"
    if offline:
        return "not in the cache"
    return "network or server error"


@click.command()
@click.argument("inputs", nargs=-1, metavar="[ID|@FILE|-]...")
@click.option(
    "--from-file", "from_file", type=click.File("r", encoding="utf-8"), metavar="F",
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
    from_file,
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
    never fetched again, so an interrupted run resumes where it stopped. A game tenhou.net
    answers 404 for although it is finished is "no longer served by tenhou.net" (most games of
    2010-2025 since about 2026-04): it is counted apart, recorded, and not asked for again
    (--retry-not-served does). The path of each log is printed on stdout (not with --db),
    messages and a summary on stderr. Exit codes: 0 every log fetched or already there, 1 some
    failed or are no longer served, 2 bad ids or options, 130 interrupted.

    \b
    Examples:
      tenhou-tools download 2014102312gm-00c1-0000-afb21fa5 --out logs/
      tenhou-tools download --since 2026-11-20 --lobby houou --db houou.db
    """
    if offline and refresh:
        _usage_exit(["--offline and --refresh cannot be used together"])
    if out_dir is not None and db_path is not None:
        _usage_exit(["--out and --db cannot be used together (the database keeps the logs)"])
    selecting = selection_given(
        {"since": since, "until": until, "lobbies": lobbies, "players": players, "length": length,
         "player_names": player_names, "archives": archives}
    )  # fmt: skip
    items: list[tuple[str, str]] = []  # (where it came from, text)
    try:
        for text in inputs:
            if text == STDIN:
                items += read_id_list(STDIN)
            elif text.startswith(LIST_PREFIX) and len(text) > len(LIST_PREFIX):
                items += read_id_list(text[len(LIST_PREFIX):])
            else:
                items.append(("", text))
        if from_file is not None:
            items += id_lines(getattr(from_file, "name", "-"), from_file)
    except InputError as exc:
        _usage_exit([str(exc)])
    except (OSError, UnicodeDecodeError) as exc:  # --from-file, opened by click
        _usage_exit([f"cannot read {getattr(exc, 'filename', None) or 'the list'}: {exc}"])
    if items and selecting:
        _usage_exit(["give game ids or a selection (--since, --lobby, --archive...), not both"])
    if not items and not selecting and db_path is None:
        _usage_exit(["give at least one game id or tenhou.net viewer URL (or --from-file F)"])

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
        _usage_exit(bad)
    selection = build_selection(since, until, lobbies, players, length, player_names) if selecting else None

    try:
        fetcher = LogFetcher(cache_dir, base_url, offline=offline, refresh=refresh,
                             **fetcher_options(delay, user_agent))  # fmt: skip
    except InputError as exc:
        _usage_exit([str(exc)])
    db: LogDatabase | None = None
    if db_path is not None:
        try:
            db = LogDatabase(db_path)
        except InputError as exc:
            fetcher.close()
            _usage_exit([str(exc)])

    show_bar = not no_progress and _stderr_is_terminal()
    index_complete = True
    starts: dict[str, datetime] = {}
    try:
        with fetcher:
            if selection is not None:
                try:
                    report = run_index(selection, archives, fetcher, cache_dir, show_bar)
                except InputError as exc:
                    _usage_exit([str(exc)])
                click.echo(index_summary(report), err=True)
                index_complete = report.complete
                if report.stopped:  # refused, rate-limited or locked out: no log requests either
                    click.echo("Stopped before downloading anything.", err=True)
                    raise click.exceptions.Exit(EXIT_FAILED)
                log_ids = [g.log_id for g in report.games]
                starts = {g.log_id: g.start for g in report.games}
            elif not items and db is not None:
                log_ids = db.pending()
            tally = _download_all(
                log_ids, fetcher, db, out_dir, starts, listed=selection is not None, show_bar=show_bar,
                verbose=selection is None and bool(items), retry_not_served=retry_not_served,
            )
    finally:
        if db is not None:
            db.close()
    if not (tally.complete and index_complete):
        raise click.exceptions.Exit(EXIT_FAILED)


def _download_all(
    log_ids: list[str], fetcher: LogFetcher, db: LogDatabase | None, out_dir: Path | None,
    starts: dict[str, datetime], *, listed: bool, show_bar: bool, verbose: bool, retry_not_served: bool,
) -> _Tally:
    """Fetch each id into the cache (and ``out_dir``) or the database; print as it goes."""
    tally = _Tally(total=len(log_ids), out_dir=out_dir,
                   had_word="already had" if db is not None else "already cached")  # fmt: skip
    record = NotServedRecord(fetcher.cache_dir)
    known = {} if retry_not_served else record.load()
    stored = db.status(log_ids) if db is not None else {}
    host = urlsplit(fetcher.base_url).netloc or "tenhou.net"
    # On a terminal the paths (stdout) would tear through the live bar: print them after it.
    held: list[str] | None = [] if show_bar and _stdout_is_terminal() else None

    def emit(line: str) -> None:
        if db is not None:
            return
        if held is None:
            click.echo(line)
        else:
            held.append(line)

    def release_held() -> None:
        for line in held or ():
            click.echo(line)

    stopped = False
    try:
        with _Reporter(len(log_ids), show_bar) as report:
            fetcher.on_lock_wait = report.say
            for log_id in log_ids:
                report.current(log_id)
                try:
                    _one(log_id, fetcher, db, out_dir, starts, tally, report, record, known, stored,
                         host, listed=listed, verbose=verbose, stopped=stopped, emit=emit,
                         retry_not_served=retry_not_served)  # fmt: skip
                except StopDownloads as exc:
                    report.say(f"Error: {exc}")
                    tally.fail("stopped")
                    stopped = True
                finally:
                    report.advance()
    except KeyboardInterrupt:
        release_held()
        click.echo(f"Interrupted. So far: {tally.line()}", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    except InputError as exc:  # e.g. the cache directory cannot be created
        release_held()
        click.echo(f"Error: {exc}", err=True)
        click.echo(tally.line(), err=True)
        raise click.exceptions.Exit(EXIT_USAGE) from None

    release_held()
    if stopped and tally.not_attempted:
        click.echo(f"Stopped downloading: {tally.not_attempted} not attempted.", err=True)
    click.echo(tally.line(), err=True)
    return tally


def _one(log_id, fetcher: LogFetcher, db: LogDatabase | None, out_dir, starts, tally: _Tally, report: _Reporter,
         record: NotServedRecord, known: dict[str, str], stored: dict[str, str], host: str, *,
         listed: bool, verbose: bool, stopped: bool, emit, retry_not_served: bool) -> None:
    """Fetch one id; StopDownloads propagates (the caller stops asking the server)."""
    row = LogRow.of(log_id, starts.get(log_id))
    state = stored.get(log_id)
    if state == "stored" and not fetcher.refresh:
        tally.cached += 1
        if verbose:
            report.say(f"{log_id}: already in {db.path if db else 'the database'}, skipped")
        return
    cached = fetcher.cached(log_id) if not fetcher.refresh else None
    if cached is None and ((state == "failed" and not retry_not_served) or log_id in known):
        tally.not_served += 1
        tally.not_served_known += 1
        if verbose:
            when = f" (recorded {known[log_id]})" if log_id in known else " (recorded in the database)"
            report.say(f"{log_id}: {NOT_SERVED}{when}; --retry-not-served asks again")
        return
    if stopped and cached is None:
        tally.not_attempted += 1
        return
    try:
        if db is not None:
            if cached is not None:
                data, from_cache = fetcher.cached_bytes(log_id), True
            elif fetcher.offline:
                raise DownloadError(
                    f"{log_id}: not in the cache ({fetcher.cache_dir}) and offline mode does not download"
                )
            else:
                data, from_cache = fetcher.download(log_id), False
            db.store(row, gzip_bytes(data))
            path = None
        else:
            result = fetcher.fetch_result(log_id)
            path, from_cache = result.path, not result.downloaded
    except StopDownloads:
        raise
    except NotFound as exc:
        if not isinstance(exc, NotServed) and not listed:
            report.say(f"Error: {exc}")
            tally.fail("not found")
            return
        message = str(exc) if isinstance(exc, NotServed) else str(not_found_error(log_id, host, listed=True))
        report.say(message)
        tally.not_served += 1
        if db is not None:
            db.record_not_served(row)
        else:
            record.add(log_id)
        return
    except DownloadError as exc:
        report.say(f"Error: {exc}")
        tally.fail(_reason(exc, fetcher.offline))
        return
    except OSError as exc:
        report.say(f"Error: {log_id}: cannot read the cached log: {exc.strerror or exc}")
        tally.fail("could not be stored")
        return
    except sqlite3.Error as exc:
        report.say(f"Error: {log_id}: cannot store it in {db.path if db else 'the database'}: {exc}")
        tally.fail("could not be stored")
        return
    if out_dir is not None and path is not None:
        try:
            path, copied = export_log(path, out_dir)
        except (ExportConflict, InputError) as exc:
            report.say(f"Error: {log_id}: {exc}")
            tally.fail("could not be stored")
            return
        tally.copied += copied
    if from_cache:
        tally.cached += 1
        if verbose:
            report.say(f"{log_id}: already cached, skipped")
    else:
        tally.downloaded += 1
        report.say(f"{log_id}: downloaded")
    if path is not None:
        emit(str(path))
