"""Shared CLI pieces: loading a log with CLI errors, consoles."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from ..errors import ParseError
from ..events import Game
from ..formats import load_game as _load
from ..mjlog import log_id_from_name
from ..mjlog.read import read_path
from .output import AtomicOutput  # noqa: F401 - re-exported: commands import it from here
from .term import make_console


class LogError(click.ClickException):
    """A log that cannot be read: exit code 1 (it counts as a finding), one line on stderr."""

    exit_code = 1


def load_game(path: str | Path) -> Game:
    """The game in a log file: mjlog XML or tenhou.net/6 JSON, plain or gzip (content decides)."""
    p = Path(path)
    try:
        return _load(read_path(p), source=str(p), log_id=log_id_from_name(p.name))
    except ParseError as exc:
        raise LogError(str(exc)) from None


def stdout_console() -> Console:
    """Rich console for data on stdout: colours on a terminal, the width of ``term.output_width``,
    and never markup (``term.make_console``)."""
    return make_console()
