"""``tenhou-tools parse``: the event stream of one log as JSON."""

from __future__ import annotations

import click

from ..serialize import game_records, json_text, to_json
from .common import load_game


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["json", "ndjson"]), default="json", show_default=True,
    help="json: one document; ndjson: one record per line (game, header, then init and events).",
)
def parse(path: str, fmt: str) -> None:
    """Print the typed event stream of the log at PATH (mjlog XML or tenhou.net/6 JSON, plain or gzip).

    Field names are stable and documented in docs/events.md. An unreadable log prints one line
    on stderr and exits with 1.

    \b
    Example:
      tenhou-tools parse fixtures/one_hand.mjlog --format ndjson | head -3
    """
    game = load_game(path)
    if fmt == "json":
        click.echo(json_text(to_json(game), indent=1))
    else:
        for record in game_records(game):
            click.echo(json_text(record, separators=(",", ":")))
