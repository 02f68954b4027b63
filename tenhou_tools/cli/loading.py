"""The one game a single-game command reads (``show``, ``replay``): from standard input, a log
file, or a game id or viewer URL. Apart from ``common``: ``validate``, ``stats`` and ``convert``
read many logs through ``sources`` and never import it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import InputError
from ..events import Game
from ..formats import load_game as _load
from ..sources.lists import STDIN
from .common import load_game, single_source

if TYPE_CHECKING:
    from ..ids import GameRef


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game ``load_source`` read, and the game id or URL it was named by (None for a file)."""

    game: Game
    ref: GameRef | None
    """The game id or viewer URL the source was, if it was one."""
    source: str
    """The source as people read it: the path, the id or URL as given, or ``<stdin>``."""
    path: Path | None = None
    """The file read (the cached log of an id or URL); None for standard input."""


def load_source(source: str, *, cache_dir: Path | None = None, base_url: str | None = None,
                refresh: bool = False, offline: bool = False, fetcher_class: Any = None) -> Loaded:
    """The one game ``show`` and ``replay`` read: ``-`` (standard input), a log file, or a game
    id or viewer URL (from the download cache, downloaded into it when missing, through
    ``fetcher_class``: ``sources.http.LogFetcher`` unless the command passes its own). A log
    that stops early is read up to where it stops (its warnings say so). Bad sources are an
    ``InputError`` (exit 2); a log that cannot be read or downloaded a ``ParseError`` or a
    ``DownloadError`` (exit 1)."""
    from ..ids import parse_ref

    source = single_source(source)
    if source == STDIN:
        from ..sources.lists import STDIN_SOURCE, read_stdin

        return Loaded(_load(read_stdin(), source=STDIN_SOURCE, require_complete=False), None, STDIN_SOURCE)
    ref = parse_ref(source)
    if ref is None:
        path = Path(source)
        if not path.is_file():
            what = "a folder, not a log file" if path.is_dir() else "no such file"
            raise InputError(f"{source!r}: {what} (give a log file, a game id or a tenhou.net viewer URL)")
        return Loaded(load_game(path, require_complete=False), None, source, path)
    if fetcher_class is None:
        from ..sources.http import LogFetcher as fetcher_class
    fetcher = fetcher_class(cache_dir, base_url, offline=offline, refresh=refresh)
    with fetcher:  # a cache directory that cannot be created: InputError
        fetcher.on_lock_wait = lambda message: click.echo(message, err=True)
        result = fetcher.fetch_result(ref.log_id)
    if result.downloaded:
        click.echo(f"{ref.log_id}: downloaded to {result.path}", err=True)
    return Loaded(load_game(result.path, require_complete=False), ref, source, Path(result.path))


def incomplete_notes(game: Game) -> list[str]:
    """What to tell about a log that stops early (``Game.complete`` is false): its warnings,
    which say where and why; nothing for a complete game."""
    return [] if game.complete else list(game.warnings)
