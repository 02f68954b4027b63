"""Options and pieces shared by ``index`` and ``download``: where the site and the cache are, how
politely to fetch, and which games to select from Tenhou's public index."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..events import Room
from ..sources.http import BASE_URL_ENV, DEFAULT_JITTER, DEFAULT_MIN_INTERVAL, LogFetcher
from ..sources.index import KINDS_WITH_LOGS, Selection, houou_only
from ..sources.index_fetch import IndexCache, IndexReport, collect_index
from .term import make_console

SELECTION_PARAMS = ("since", "until", "lobbies", "players", "length", "player_names", "archives")
"""The parameters that select games from the index (``download`` switches to selection with any)."""

_DAY = click.DateTime(formats=["%Y-%m-%d"])


def fetch_options(f: Callable) -> Callable:
    """``--cache-dir``, ``--base-url``, ``--offline``, ``--delay``, ``--user-agent``."""
    options = [
        click.option(
            "--cache-dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
            help="The cache directory [default: $TENHOU_TOOLS_CACHE_DIR, else "
            "$XDG_CACHE_HOME/tenhou-tools, else ~/.cache/tenhou-tools].",
        ),
        click.option(
            "--base-url", metavar="URL",
            help=f"Where to download from [default: ${BASE_URL_ENV}, else https://tenhou.net].",
        ),
        click.option("--offline", is_flag=True, help="Use the cache only; never touch the network."),
        click.option(
            "--delay", type=click.FloatRange(min=0), metavar="SECONDS",
            help=f"Pause at least this long between two requests, plus up to {DEFAULT_JITTER:g} s at "
            f"random [default: {DEFAULT_MIN_INTERVAL:g}].",
        ),
        click.option("--user-agent", metavar="TEXT", help="Send this User-Agent instead of tenhou-tools/<version>."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def selection_options(f: Callable) -> Callable:
    """``--since``, ``--until``, ``--lobby``/``--room``, ``--players``, ``--length``, ``--player``,
    ``--archive``."""
    options = [
        click.option("--since", type=_DAY, metavar="YYYY-MM-DD",
                     help="Games that started on this day or later (Japan time)."),
        click.option("--until", type=_DAY, metavar="YYYY-MM-DD",
                     help="Games that started on this day or earlier (Japan time)."),
        click.option("--lobby", "--room", "lobbies", multiple=True, metavar="LOBBY",
                     help="Only games of this lobby: a room (houou, tokujou, joukyuu, ippan), a GO type "
                     "code (169, 0xa9), Tenhou's lobby name (四鳳南喰赤) or L<number>. Repeatable."),
        click.option("--players", type=click.Choice(["3", "4"]), help="Only 3- or 4-player games."),
        click.option("--length", type=click.Choice(["east", "south"]),
                     help="Only East-only (tonpuusen) or East-South (hanchan) games."),
        click.option("--player", "player_names", multiple=True, metavar="NAME",
                     help="Only games this player took part in (case and width do not matter). Repeatable."),
        click.option("--archive", "archives", multiple=True, metavar="FILE",
                     type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="Also read a yearly archive scrawYYYY.zip from https://tenhou.net/sc/raw/ "
                     "(repeatable)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def selection_given(params: dict[str, Any]) -> bool:
    return any(params.get(name) for name in SELECTION_PARAMS)


def build_selection(
    since: datetime | None, until: datetime | None, lobbies: tuple[str, ...], players: str | None,
    length: str | None, player_names: tuple[str, ...],
) -> Selection:
    """The ``Selection`` the options describe (``click.BadParameter`` / ``UsageError`` if wrong)."""
    from ..stats.records import LobbySpec  # the same --lobby vocabulary as `stats`

    specs = []
    for text in lobbies:
        try:
            specs.append(LobbySpec.parse(text))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--lobby'") from None
    kinds = ("scc",) if specs and all(_houou_spec(s) for s in specs) else KINDS_WITH_LOGS
    names = tuple(n for n in (p.strip() for p in player_names) if n)
    if len(names) != len(player_names):
        raise click.BadParameter("a player name must not be empty", param_hint="'--player'")
    first = since.date() if since is not None else None
    last = until.date() if until is not None else None
    if first is not None and last is not None and first > last:
        raise click.UsageError(f"--since {first} is after --until {last}")
    return Selection(
        since=first, until=last, players=int(players) if players else None, length=length,
        player_names=names, lobbies=tuple(spec.matches for spec in specs), kinds=kinds,
    )  # fmt: skip


def _houou_spec(spec: Any) -> bool:
    """Whether a ``--lobby`` value selects Houou-table games only (then only scc files are read)."""
    if spec.kind == "room":
        return spec.value is Room.HOUOU
    if spec.kind == "type":
        return houou_only([spec.value])
    if spec.kind == "name":
        return str(spec.value)[1:2] == "鳳"
    return False


def fetcher_options(delay: float | None, user_agent: str | None) -> dict[str, Any]:
    """The ``LogFetcher`` keywords the options set (only those given, so defaults stay defaults)."""
    options: dict[str, Any] = {}
    if delay is not None:
        options["min_interval"] = delay
    if user_agent is not None:
        options["user_agent"] = user_agent
    return options


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


class FileProgress:
    """A transient bar over the index files being read, on a terminal only."""

    def __init__(self, enabled: bool):
        self.progress: Progress | None = None
        self.task = None
        if enabled:
            self.progress = Progress(
                TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                TimeRemainingColumn(), console=make_console(stderr=True), transient=True,
                redirect_stdout=False,
            )  # fmt: skip

    def __enter__(self) -> FileProgress:
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

    def on_file(self, name: str, done: int, total: int) -> None:
        if self.progress is None:
            return
        if self.task is None:
            self.task = self.progress.add_task("index files", total=total)
        self.progress.update(self.task, completed=done, description=f"index {name}")


def run_index(
    selection: Selection, archives: tuple[Path, ...], fetcher: LogFetcher | None, cache_dir: Path | None,
    progress: bool,
) -> IndexReport:
    """Collect the index, with a bar on a terminal; problems and notes go to stderr."""
    with FileProgress(progress) as bar:
        if fetcher is not None:
            fetcher.on_lock_wait = bar.say
        report = collect_index(
            selection, fetcher=fetcher, cache=IndexCache(cache_dir), archives=archives, on_file=bar.on_file
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

