"""The terminal: consoles that never read text as markup, the output width, and whether tiles
are drawn as glyphs.

Every rich ``Console`` of the command line comes from :func:`make_console`, which turns off
rich's markup (``[red]``), emoji codes (``:cat:``) and highlighting: player names, paths and
finding messages are data and reach the terminal exactly as they are, in tables and titles
alike. (A test holds the ``cli`` package to that: no other ``Console(`` is made.)

The width is ``COLUMNS`` when set, else the width of the terminal on stdout, stderr or stdin
(so ``tenhou-tools show x | less`` in a terminal gets the terminal's width), else
``DEFAULT_WIDTH``.
"""

from __future__ import annotations

import os
import sys
from typing import IO

from rich.console import Console

DEFAULT_WIDTH = 80
"""Columns when neither ``COLUMNS`` nor a terminal says: what a terminal has by default."""
MIN_WIDTH = 40
"""Narrower than this, tables cannot be laid out; ``COLUMNS=10`` still gets 40."""


def output_width() -> int:
    """``COLUMNS``, else the terminal's width (stdout, stderr, stdin), else ``DEFAULT_WIDTH``."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return max(int(columns), MIN_WIDTH)
    for fd in (1, 2, 0):
        try:
            width = os.get_terminal_size(fd).columns
        except (OSError, ValueError):
            continue
        if width > 0:
            return max(width, MIN_WIDTH)
    return DEFAULT_WIDTH


def make_console(file: IO[str] | None = None, *, stderr: bool = False, width: int | None = None,
                 color: bool | None = None) -> Console:
    """A console that prints text literally (no markup, no emoji codes, no highlighting).

    ``file`` ``None`` is stdout (or stderr) as it is when printing. Colours only on a terminal
    (``color=False`` never; a file given here never gets them unless ``color=True``)."""
    if color is None:
        color = file is None
    return Console(file=file, stderr=stderr, width=width if width is not None else output_width(),
                   markup=False, emoji=False, highlight=False, soft_wrap=False,
                   color_system="auto" if color else None)


def is_utf8(stream: IO[str] | None) -> bool:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return encoding in ("utf8", "utf8sig")


def glyphs_by_default(stream: IO[str] | None = None) -> bool:
    """Tile glyphs (🀄) by default only on a terminal that takes UTF-8; elsewhere (a pipe, a
    file, another encoding) the ``123m`` notation."""
    stream = sys.stdout if stream is None else stream
    try:
        tty = bool(stream is not None and stream.isatty())
    except (OSError, ValueError, AttributeError):
        tty = False
    return tty and is_utf8(stream)


def render_lines(console: Console, renderables) -> str:
    """The renderables as text, each line without the padding rich adds at its end. Lines are
    not cropped at the width: only text that asks not to be folded (``no_wrap``, ``overflow=
    "ignore"``: a link) can be longer, and it is printed whole."""
    with console.capture() as captured:
        for renderable in renderables:
            console.print(renderable, crop=False)
    return "".join(line.rstrip() + "\n" for line in captured.get().splitlines())
