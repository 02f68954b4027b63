"""The one progress bar of the command line: ``validate``, ``stats``, ``index`` and ``download``
draw it.

A transient bar on stderr (gone when the command ends), drawn only when stderr is a terminal and
``--no-progress`` is not given (``bar_wanted``): done/total and the time left first (a narrow
terminal still shows them), then ``label`` (what is counted, or the item at hand), the bar, the
command's own figures (``detail``) and the time taken.
Messages said through it (``say``) go above the bar, or are plain lines on stderr when there is
no bar; either way literally (no markup). Without a bar, rich is not even loaded (a worker, a
pipe, CI): the bar is only counts then.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Self

import click

from .term import make_console

__all__ = ["ProgressBar", "bar_wanted", "stderr_is_terminal"]


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def bar_wanted(no_progress: bool) -> bool:
    """Whether to draw a bar: stderr is a terminal and ``--no-progress`` was not given."""
    return not no_progress and stderr_is_terminal()


class ProgressBar:
    """The bar (``enabled``), or nothing but ``say`` on stderr.

    ``detail`` is a line of the command's figures, naming them in braces (``"{rate} games/s,
    {bad} unreadable"``), each set by ``update`` (``fields`` gives the first values). ``total``
    may be None until it is known. ``through_stdout``: what the command writes to a terminal's
    stdout goes through the bar's console, above the bar (``validate`` and ``stats``, which write
    while the bar runs); otherwise stdout is left alone.
    """

    def __init__(self, label: str, *, enabled: bool, total: int | None = None, detail: str | None = None,
                 fields: dict[str, Any] | None = None, through_stdout: bool = False):
        self._completed = 0.0
        """What ``update`` counted, when there is no bar to count it."""
        self.progress: Any = None
        if not enabled:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.table import Column

        # done/total and the time left first: what a narrow terminal cuts is at the right
        # (they keep their width; the label, the bar and the figures give way, cut with an ellipsis)
        def kept(width: int) -> Column:
            return Column(no_wrap=True, min_width=width)

        count = len(str(total)) * 2 + 1 if total else 9
        columns: list[Any] = [MofNCompleteColumn(table_column=kept(count)), TextColumn("ETA", table_column=kept(3)),
                              TimeRemainingColumn(table_column=kept(7)),
                              TextColumn("{task.description}", markup=False), BarColumn(bar_width=20)]
        if detail:
            columns.append(TextColumn(re.sub(r"\{(\w+)\}", r"{task.fields[\1]}", detail), markup=False))
        columns.append(TimeElapsedColumn())
        self.progress = Progress(*columns, console=make_console(stderr=True), transient=True,
                                 redirect_stdout=through_stdout and sys.stdout.isatty())
        self.task = self.progress.add_task(label, total=total, **(fields or {}))

    def start(self) -> None:
        if self.progress is not None:
            self.progress.start()

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def update(self, *, advance: float | None = None, completed: float | None = None, total: float | None = None,
               label: str | None = None, **fields: Any) -> None:
        """Move the bar on (``advance``) or to ``completed``, set the total, the label or the
        figures of ``detail``."""
        if self.progress is None:
            if completed is not None:
                self._completed = completed
            if advance is not None:
                self._completed += advance
            return
        self.progress.update(self.task, advance=advance, completed=completed, total=total, description=label,
                             **fields)

    @property
    def completed(self) -> float:
        return self._completed if self.progress is None else self.progress.tasks[0].completed

    def say(self, message: str) -> None:
        """One message on stderr, above the bar when there is one."""
        if self.progress is not None:
            self.progress.console.print(message, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(message, err=True)
