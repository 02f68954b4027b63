"""``tenhou-tools show``: a one-screen summary of a log."""

from __future__ import annotations

import click
from rich.text import Text

from . import render
from .common import load_game, stdout_console
from .term import render_lines


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def show(path: str) -> None:
    """Summarize the log at PATH: players, lobby, one line per hand and the final result.

    \b
    Example:
      tenhou-tools show fixtures/one_hand.mjlog
    """
    game = load_game(path)
    title = Text(game.log_id or path, style="bold")
    click.echo(render_lines(stdout_console(), [
        title, Text(render.lobby_line(game)), Text(), render.players_table(game), Text(),
        render.hands_table(game), Text(), render.final_text(game),
    ]), nl=False)
