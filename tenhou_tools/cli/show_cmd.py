"""``tenhou-tools show``: a one-screen summary of a log."""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from . import render
from .common import stdout_console
from .loading import incomplete_notes, load_source
from .options import fetch_options, refresh_option
from .term import path_lines, render_lines, visible


@click.command()
@click.argument("source", metavar="ID|URL|PATH")
@fetch_options
@refresh_option
def show(source: str, cache_dir: Path | None, base_url: str | None, offline: bool, refresh: bool) -> None:
    """Summarize one game: players, lobby, one line per hand and the final result.

    The game is a log file, a game id or a tenhou.net viewer URL (downloaded through the cache
    as `replay` does: --cache-dir, --base-url, --offline, --refresh), `-` for a log on standard
    input, or @FILE naming a file that lists one of these. A log that stops early (a game cut by
    a disconnect, or still running) is shown up to where it stops, with a warning on stderr.

    \b
    Exit codes: 0 shown; 1 the log could not be read or downloaded; 2 bad id,
    path or option.

    \b
    Example:
      tenhou-tools show fixtures/one_hand.mjlog
    """
    loaded = load_source(source, cache_dir=cache_dir, base_url=base_url, refresh=refresh,
                         offline=offline)
    game = loaded.game
    for note in incomplete_notes(game):
        click.echo(f"Warning: {note}", err=True)
    console = stdout_console()
    title = Text("\n".join(path_lines(visible(game.log_id or loaded.source), console.width)), style="bold")
    click.echo(render_lines(console, [
        title, Text(render.lobby_line(game)), Text(), render.players_table(game), Text(),
        render.hands_table(game), Text(), render.final_text(game),
    ]), nl=False)
