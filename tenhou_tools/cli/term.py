"""The terminal: consoles that never read text as markup, text that cannot hide or reorder
itself, the output width, whether tiles are drawn as glyphs, and quoting for the shell.

Every rich ``Console`` of the command line comes from :func:`make_console`, which turns off
rich's markup (``[red]``), emoji codes (``:cat:``) and highlighting: player names, paths and
finding messages are data and reach the terminal exactly as they are, in tables and titles
alike. (A test holds the ``cli`` package to that: no other ``Console(`` is made.)

Text from a log or the file system (player names, paths, finding messages) goes through
:func:`visible` before any text renderer lays it out: control characters, bidirectional
controls (U+202E would mirror the rest of the line) and zero-width marks are shown as escapes
(``\x1b``, ``\u202e``), so what the terminal shows is what the text holds. A command to copy
is quoted by :func:`shell_quote`.

The width is ``COLUMNS`` when set, else the width of the terminal on stdout, stderr or stdin
(so ``tenhou-tools show x | less`` in a terminal gets the terminal's width), else
``DEFAULT_WIDTH``. Sentences for people (a report's verdict, a summary on stderr) fold between
words at 80 columns or that width, if narrower (:func:`folded`).
"""

from __future__ import annotations

import os
import shlex
import sys
import textwrap
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING

from ..serialize import is_hidden, visible  # noqa: F401 - visible: the text views' one escape, re-exported for them

if TYPE_CHECKING:  # rich is loaded when a console is made: JSON output never needs it
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


PROSE_WIDTH = 80
"""Sentences for people (a report's verdict, a summary on stderr) fold at 80 columns, or the
terminal's width if narrower: a line of prose wider than that is hard to read. A finding, a path
or a command to copy is never folded: it is one line, however long."""


def folded(text: str) -> list[str]:
    """A sentence folded between words to ``PROSE_WIDTH`` columns or the terminal's, if narrower
    (``output_width``), continued lines indented by two spaces; a no-break space (``\u00a0``)
    holds two words together. ``validate``'s report and ``stats``'s summary on stderr fold here."""
    return [line.replace("\u00a0", " ") for line in textwrap.wrap(
        text, min(PROSE_WIDTH, output_width()), subsequent_indent="  ", break_long_words=False,
        break_on_hyphens=False)]


def make_console(file: IO[str] | None = None, *, stderr: bool = False, width: int | None = None,
                 color: bool | None = None) -> Console:
    """A console that prints text literally (no markup, no emoji codes, no highlighting).

    ``file`` ``None`` is stdout (or stderr) as it is when printing. Colours only on a terminal
    (``color=False`` never; a file given here never gets them unless ``color=True``)."""
    from rich.console import Console

    if color is None:
        color = file is None
    return Console(file=file, stderr=stderr, width=width if width is not None else output_width(),
                   markup=False, emoji=False, highlight=False, soft_wrap=False,
                   color_system="auto" if color else None)


def is_utf8(stream: IO[str] | None) -> bool:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return encoding in ("utf8", "utf8sig")


def locale_is_utf8(environ: Mapping[str, str] | None = None, utf8_mode: bool | None = None) -> bool:
    """Whether the user's locale says the terminal takes UTF-8: the first of ``LC_ALL``,
    ``LC_CTYPE`` and ``LANG`` that is set names a UTF-8 codeset (``en_US.UTF-8``, ``C.utf8``).
    ``C``, ``POSIX`` or nothing set is the POSIX locale: ASCII.

    The stream's encoding cannot tell: in the POSIX locale Python switches to UTF-8 (PEP 540's
    UTF-8 mode, ``sys.flags.utf8_mode``) and sets ``LC_CTYPE=C.UTF-8`` in its own environment
    (PEP 538), so stdout says ``utf-8`` whatever the terminal takes. An ``LC_CTYPE`` of
    ``C.UTF-8`` under UTF-8 mode is that coercion, not the user's choice, and is passed over."""
    env = os.environ if environ is None else environ
    coerced = (sys.flags.utf8_mode if utf8_mode is None else utf8_mode) and env.get("LC_CTYPE") == "C.UTF-8"
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "")
        if not value or (name == "LC_CTYPE" and coerced):
            continue
        codeset = value.partition(".")[2].partition("@")[0]
        return codeset.lower().replace("-", "").replace("_", "") == "utf8"
    return False


def glyphs_by_default(stream: IO[str] | None = None) -> bool:
    """Tile glyphs (🀄) by default only on a terminal that takes UTF-8 (its stream's encoding
    and the locale say so: ``locale_is_utf8``); elsewhere (a pipe, a file, another encoding,
    ``LANG=C``) the ``123m`` notation."""
    stream = sys.stdout if stream is None else stream
    try:
        tty = bool(stream is not None and stream.isatty())
    except (OSError, ValueError, AttributeError):
        tty = False
    return tty and is_utf8(stream) and locale_is_utf8()


def render_lines(console: Console, renderables) -> str:
    """The renderables as text, each line without the padding rich adds at its end. Lines are
    not cropped at the width: only text that asks not to be folded (``no_wrap``, ``overflow=
    "ignore"``: a link) can be longer, and it is printed whole."""
    with console.capture() as captured:
        for renderable in renderables:
            console.print(renderable, crop=False)
    return "".join(line.rstrip() + "\n" for line in captured.get().splitlines())


def path_lines(path: str, width: int) -> list[str]:
    """A path as lines of at most ``width`` cells, broken after a ``/`` (a folder name is never
    cut, unless it alone is wider than ``width``: then it is cut at the width)."""
    from rich.cells import cell_len

    parts = [part + "/" for part in path.split("/")[:-1]] + [path.rsplit("/", 1)[-1]]
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and cell_len(line + part) > width:
            lines.append(line)
            line = ""
        while cell_len(part) > width:
            cut = max(1, width - cell_len(line))
            lines.append(line + part[:cut])
            line, part = "", part[cut:]
        line += part
    if line or not lines:
        lines.append(line)
    return lines


_SHELL_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def shell_quote(text: str) -> str:
    """``text`` as one word for a POSIX shell, to be pasted: ``shlex.quote`` when it holds only
    characters that show; else bash's ``$'...'`` quoting, each hidden character (a line break,
    an escape, U+202E) written as an escape of its bytes (``$'a\\nb.xml'``, ``$'\\xe2\\x80\\xae'``),
    so that the command shows whole on one line and names the very file. A byte that is not
    UTF-8 in a file name (``surrogateescape``) is written as that byte."""
    if not any(is_hidden(ch) or 0xDC80 <= ord(ch) <= 0xDCFF for ch in text):
        return shlex.quote(text)
    parts = []
    for ch in text:
        if ch in _SHELL_ESCAPES:
            parts.append(_SHELL_ESCAPES[ch])
        elif is_hidden(ch) or 0xDC80 <= ord(ch) <= 0xDCFF:
            parts.append("".join(f"\\x{b:02x}" for b in os.fsencode(ch)))
        else:
            parts.append(ch)
    return "$'" + "".join(parts) + "'"
