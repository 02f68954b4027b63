"""Shared CLI pieces: loading a log with CLI errors, consoles."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from ..errors import ParseError
from ..events import Game
from ..mjlog import parse_file


class LogError(click.ClickException):
    """A log that cannot be read: exit code 1 (it counts as a finding), one line on stderr."""

    exit_code = 1


def load_game(path: str | Path) -> Game:
    try:
        return parse_file(path)
    except ParseError as exc:
        raise LogError(str(exc)) from None


def stdout_console() -> Console:
    """Rich console for data on stdout: colours on a terminal, plain and wide when piped."""
    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=120, color_system=None, soft_wrap=False)
