"""``tenhou-tools download``: fetch logs from tenhou.net into the cache (and optionally a folder)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, Self

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from ..errors import DownloadError, InputError
from ..sources.cache import ExportConflict, export_log
from ..sources.http import BASE_URL_ENV, LogFetcher, StopDownloads
from ..sources.ids import require_ref
from .term import make_console

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


@dataclass
class _Tally:
    total: int
    downloaded: int = 0
    cached: int = 0
    failed: int = 0
    not_attempted: int = 0
    copied: int = 0
    out_dir: Path | None = None

    def line(self) -> str:
        parts = [f"{self.downloaded} downloaded", f"{self.cached} already cached", f"{self.failed} failed"]
        if self.not_attempted:
            parts.append(f"{self.not_attempted} not attempted")
        if self.out_dir is not None:
            parts.append(f"{self.copied} copied to {self.out_dir}")
        noun = "id" if self.total == 1 else "ids"
        return f"{self.total} {noun}: " + ", ".join(parts) + "."


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


@click.command()
@click.argument("inputs", nargs=-1, metavar="ID...")
@click.option(
    "--from-file", "from_file", type=click.File("r", encoding="utf-8"), metavar="F",
    help="Also read ids or viewer URLs from F, one per line ('#' starts a comment; '-' is stdin).",
)
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
    help="Also copy each log to DIR as <id>.mjlog (gzip). A different existing file is never "
    "overwritten.",
)
@click.option(
    "--cache-dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
    help="The cache directory [default: $TENHOU_TOOLS_CACHE_DIR, else "
    "$XDG_CACHE_HOME/tenhou-tools, else ~/.cache/tenhou-tools].",
)
@click.option(
    "--base-url", metavar="URL",
    help=f"Where to download from [default: ${BASE_URL_ENV}, else https://tenhou.net].",
)
@click.option("--refresh", is_flag=True, help="Download again even when cached (replaces the copy atomically).")
@click.option("--offline", is_flag=True, help="Use the cache only; never touch the network.")
@click.option("--user-agent", metavar="TEXT", help="Send this User-Agent instead of tenhou-tools/<version>.")
@click.option("--no-progress", is_flag=True, help="No progress bar (it is off anyway when stderr is not a terminal).")
def download(
    inputs: tuple[str, ...],
    from_file,
    out_dir: Path | None,
    cache_dir: Path | None,
    base_url: str | None,
    refresh: bool,
    offline: bool,
    user_agent: str | None,
    no_progress: bool,
) -> None:
    """Download the logs of game IDs (or tenhou.net viewer URLs) into the cache.

    Downloads are sequential, polite (a pause between requests, retries with backoff, one
    downloading run per cache) and atomic; an id already in the cache is skipped. The path of
    each log is printed on stdout, messages and a summary on stderr. Exit codes: 0 all logs
    fetched, 1 some failed, 2 bad ids or options, 130 interrupted.

    \b
    Example:
      tenhou-tools download 2014102312gm-00c1-0000-afb21fa5 --out logs/
    """
    if offline and refresh:
        _usage_exit(["--offline and --refresh cannot be used together"])
    items: list[tuple[str, str]] = [("", text) for text in inputs]  # (where it came from, text)
    if from_file is not None:
        name = getattr(from_file, "name", "-")
        try:
            for number, line in enumerate(from_file, 1):
                text = line.split("#", 1)[0].strip()
                if text:
                    items.append((f"{name}:{number}", text))
        except (OSError, UnicodeDecodeError) as exc:
            _usage_exit([f"cannot read {name}: {exc}"])
    if not items:
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

    try:
        fetcher = LogFetcher(cache_dir, base_url, offline=offline, refresh=refresh, user_agent=user_agent)
    except InputError as exc:
        _usage_exit([str(exc)])

    tally = _Tally(total=len(log_ids), out_dir=out_dir)
    show_bar = not no_progress and _stderr_is_terminal()
    # On a terminal the paths (stdout) would tear through the live bar: print them after it.
    held: list[str] | None = [] if show_bar and _stdout_is_terminal() else None

    def emit(line: str) -> None:
        if held is None:
            click.echo(line)
        else:
            held.append(line)

    def release_held() -> None:
        for line in held or ():
            click.echo(line)

    stopped = False
    try:
        with fetcher, _Reporter(len(log_ids), show_bar) as report:
            fetcher.on_lock_wait = report.say
            for log_id in log_ids:
                report.current(log_id)
                try:
                    if stopped:
                        path = fetcher.cached(log_id)
                        if path is None:
                            tally.not_attempted += 1
                            continue
                        from_cache = True
                    else:
                        result = fetcher.fetch_result(log_id)
                        path, from_cache = result.path, not result.downloaded
                except StopDownloads as exc:
                    report.say(f"Error: {exc}")
                    tally.failed += 1
                    stopped = True
                    continue
                except DownloadError as exc:
                    report.say(f"Error: {exc}")
                    tally.failed += 1
                    continue
                finally:
                    report.advance()
                if out_dir is not None:
                    try:
                        path, copied = export_log(path, out_dir)
                    except (ExportConflict, InputError) as exc:
                        report.say(f"Error: {log_id}: {exc}")
                        tally.failed += 1
                        continue
                    tally.copied += copied
                if from_cache:
                    tally.cached += 1
                    report.say(f"{log_id}: already cached, skipped")
                else:
                    tally.downloaded += 1
                    report.say(f"{log_id}: downloaded")
                emit(str(path))
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
    if tally.failed or tally.not_attempted:
        raise click.exceptions.Exit(EXIT_FAILED)
