"""``tenhou-tools show``: a one-screen summary of a log."""

from __future__ import annotations

import click
from rich.text import Text

from . import render
from .common import load_game, stdout_console


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def show(path: str) -> None:
    """Summarize the log at PATH: players, lobby, one line per hand and the final result.

    \b
    Example:
      tenhou-tools show fixtures/one_hand.mjlog
    """
    game = load_game(path)
    console = stdout_console()
    title = Text(game.log_id or path, style="bold")
    console.print(title)
    console.print(render.lobby_line(game))
    console.print()
    console.print(render.players_table(game))
    console.print()
    console.print(render.hands_table(game))
    console.print()
    console.print(render.final_text(game))
