"""Options that several commands share, declared once (click decorators), and what they build.

- ``paths_argument``: the logs to read (``PATHS``: files, folders, globs, archives, databases,
  ``-`` and ``@FILE``), for ``validate`` and ``convert``;
- ``runner_options``: ``--jobs``, ``--scheduler``, ``--batch-size``, ``--timeout``;
- ``output_option`` (``-o/--output``), ``progress_option`` (``--no-progress``),
  ``dedupe_option`` (``--no-dedupe``);
- ``fetch_options`` (where logs come from: ``--cache-dir``, ``--base-url``, ``--offline``),
  ``refresh_option`` (``--refresh``) and ``polite_options`` (``--delay``, ``--user-agent``),
  for ``download``, ``index``, ``replay`` and ``show``;
- ``selection_options``: which games of Tenhou's index (``--since``, ``--until``, ``--lobby``,
  ``--players``, ``--length``, ``--player``, ``--archive``), for ``index`` and ``download``,
  with ``build_selection``, the ``Selection`` they describe.

``stats`` still declares its own (its filters select rows of a report, not games of the index).
The options of tenhou.net import the HTTP client only when a command that has them is loaded
(``validate`` must start without it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..events import Room

if TYPE_CHECKING:
    from ..sources.index import Selection

F = TypeVar("F", bound=Callable[..., Any])

SELECTION_PARAMS = ("since", "until", "lobbies", "players", "length", "player_names", "archives")
"""The parameters that select games from the index (``download`` switches to selection with any)."""

_DAY = click.DateTime(formats=["%Y-%m-%d"])


def _stack(*options: Callable[[F], F]) -> Callable[[F], F]:
    """One decorator for several options, in the order given (as they appear in ``--help``)."""

    def decorate(f: F) -> F:
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


# -- logs to read, and how ------------------------------------------------------------------------


def paths_argument(*, required: bool = True) -> Callable[[F], F]:
    """``PATHS...``: log files, folders, globs, zip and tar archives, SQLite log databases, ``-``
    (a log on standard input), ``@FILE`` (a list of them) and cached game ids
    (``common.expand_sources``)."""
    return click.argument("paths", nargs=-1, required=required)


def runner_options(*, slow_log: str) -> Callable[[F], F]:
    """``--jobs``, ``--scheduler``, ``--batch-size``, ``--timeout`` (``batch.open_runner``);
    ``slow_log`` says what becomes of a log stopped by ``--timeout``. The batch module (and the
    process pool it loads) is imported here, when a command that runs batches is loaded."""
    from ..batch import DEFAULT_TIMEOUT

    return _stack(
        click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                     help="Worker processes [default: all cores; 1 = in this process]."),
        click.option("--scheduler", metavar="tcp://HOST:PORT", envvar="TENHOU_TOOLS_SCHEDULER",
                     help="Run on this Dask scheduler (needs tenhou-tools[dask]; env "
                          "TENHOU_TOOLS_SCHEDULER). --jobs is then ignored."),
        click.option("--batch-size", type=click.IntRange(min=1), default=None,
                     help="Logs sent to a worker at once [default: 48 locally, 128 on Dask]."),
        click.option("--timeout", type=click.FloatRange(min=0), default=DEFAULT_TIMEOUT, show_default=True,
                     metavar="SECONDS",
                     help=f"A log that takes longer is stopped and {slow_log} (0: no limit; not on Dask)."),
    )


def dedupe_option(*, verb: str) -> Callable[[F], F]:
    """``--no-dedupe``: read every copy of a game (``verb``: what is done with each)."""
    return click.option("--no-dedupe", is_flag=True,
                        help=f"{verb} every copy of a game (by default a game seen before, by its id or "
                             "else its bytes, is skipped).")


def output_option(*, what: str = "report") -> Callable[[F], F]:
    """``-o/--output FILE``: the command's output, written atomically (``output.AtomicOutput``)."""
    return click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
                        help=f"Write the {what} to FILE instead of stdout (atomically: a complete file "
                             "or none).")


def progress_option(f: F) -> F:
    """``--no-progress``."""
    return click.option("--no-progress", is_flag=True,
                        help="No progress bar (it is off anyway when stderr is not a terminal).")(f)


# -- tenhou.net and the cache ---------------------------------------------------------------------


def fetch_options(f: F) -> F:
    """``--cache-dir``, ``--base-url``, ``--offline``: where logs come from
    (``sources.http.LogFetcher``)."""
    from ..sources.server import BASE_URL_ENV

    return _stack(
        click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
                     help="The cache directory [default: $TENHOU_TOOLS_CACHE_DIR, else "
                          "$XDG_CACHE_HOME/tenhou-tools, else ~/.cache/tenhou-tools]."),
        click.option("--base-url", metavar="URL",
                     help=f"Where to download from [default: ${BASE_URL_ENV}, else https://tenhou.net]."),
        click.option("--offline", is_flag=True, help="Use the cache only; never touch the network."),
    )(f)


def refresh_option(f: F) -> F:
    """``--refresh``."""
    return click.option("--refresh", is_flag=True,
                        help="Download again even when cached (replaces the copy atomically).")(f)


def polite_options(f: F) -> F:
    """``--delay``, ``--user-agent``: how politely to fetch (``fetcher_options``)."""
    from ..sources.server import DEFAULT_JITTER, DEFAULT_MIN_INTERVAL

    return _stack(
        click.option("--delay", type=click.FloatRange(min=0), metavar="SECONDS",
                     help=f"Pause at least this long between two requests, plus up to {DEFAULT_JITTER:g} s "
                          f"at random [default: {DEFAULT_MIN_INTERVAL:g}]."),
        click.option("--user-agent", metavar="TEXT", help="Send this User-Agent instead of tenhou-tools/<version>."),
    )(f)


def fetcher_options(delay: float | None, user_agent: str | None) -> dict[str, Any]:
    """The ``LogFetcher`` keywords ``polite_options`` set (only those given, so defaults stay
    defaults)."""
    options: dict[str, Any] = {}
    if delay is not None:
        options["min_interval"] = delay
    if user_agent is not None:
        options["user_agent"] = user_agent
    return options


# -- games from Tenhou's index --------------------------------------------------------------------


def selection_options(f: F) -> F:
    """``--since``, ``--until``, ``--lobby``/``--room``, ``--players``, ``--length``, ``--player``,
    ``--archive``: games of Tenhou's index (``build_selection``)."""
    return _stack(
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
    )(f)


def selection_given(params: dict[str, Any]) -> bool:
    return any(params.get(name) for name in SELECTION_PARAMS)


def build_selection(
    since: datetime | None, until: datetime | None, lobbies: tuple[str, ...], players: str | None,
    length: str | None, player_names: tuple[str, ...],
) -> Selection:
    """The ``Selection`` the options describe (``click.BadParameter`` / ``UsageError`` if wrong)."""
    from ..sources.index import KINDS_WITH_LOGS, Selection
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
        from ..sources.index import houou_only

        return houou_only([spec.value])
    if spec.kind == "name":
        return str(spec.value)[1:2] == "鳳"
    return False


def refuse_format_with_html(html_file: str | None) -> None:
    """``--html FILE`` writes a page, whatever ``--format`` says: a ``--format`` given on the
    command line beside it is a usage error (exit 2), not silently ignored."""
    ctx = click.get_current_context()
    if html_file is not None and ctx.get_parameter_source("fmt") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--html FILE writes a page: --format does not apply to it (leave one out)")
