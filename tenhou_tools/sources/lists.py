"""Standard input and list files: ``-`` (one log on standard input) and ``@FILE`` (a list of
paths or game ids, one a line; ``@-`` reads the list from standard input).

Problems are ``InputError``\\ s with one line that says what is wrong (the CLI: exit 2).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ..errors import InputError
from ..mjlog.read import MAX_BYTES
from .items import HEAD_BYTES, container

__all__ = ["LIST_PREFIX", "STDIN", "STDIN_SOURCE", "id_lines", "read_id_list", "read_list", "read_stdin"]

STDIN = "-"
"""The input that stands for standard input (one log)."""
STDIN_SOURCE = "<stdin>"
"""How items read from standard input are named."""
LIST_PREFIX = "@"
"""``@FILE`` stands for the entries listed in FILE, one a line (``@-``: the list on stdin)."""


def read_stdin(*, max_bytes: int = MAX_BYTES) -> bytes:
    """One log from standard input, at most ``max_bytes``; ``InputError`` when it cannot be
    read, is too large, or holds an archive or a database (those are read by path)."""
    cap = max_bytes
    try:
        data = sys.stdin.buffer.read(cap + 1)
    except (OSError, AttributeError, ValueError) as exc:
        raise InputError(f"cannot read standard input: {exc}") from None
    if len(data) > cap:
        raise InputError(f"standard input holds over {cap} bytes, over the limit for one log")
    what = container(data[:HEAD_BYTES])
    if what is not None:
        shown = {"sqlite": "a SQLite database", "zip": "a zip archive"}.get(
            what, "a tar archive or compressed data")
        raise InputError(f"standard input holds {shown}: give its path instead (`-` reads one log)")
    return data


def read_list(name: str) -> list[tuple[str, str]]:
    """``(where, entry)`` for each entry of the list file ``name`` (``-``: standard input);
    ``where`` is ``FILE:LINE``. Surrounding blanks are stripped; blank lines and lines starting
    with ``#`` are skipped."""
    shown = "<stdin>" if name == STDIN else name
    try:
        if name == STDIN:
            text = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
        else:
            with open(name, encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise InputError(f"{LIST_PREFIX}{name}: no such list file") from None
    except IsADirectoryError:
        raise InputError(f"{LIST_PREFIX}{name}: a folder, not a list file (give the folder "
                         f"without {LIST_PREFIX})") from None
    except (OSError, ValueError, AttributeError) as exc:
        hint = getattr(exc, "strerror", None) or exc
        raise InputError(f"{LIST_PREFIX}{name}: cannot read the list: {hint}") from None
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if entry and not entry.startswith("#"):
            entries.append((f"{shown}:{number}", entry))
    return entries


def id_lines(name: str, lines: Iterable[str]) -> list[tuple[str, str]]:
    """``(where, id)`` for the ids of a list of game ids (``download``): one a line, ``#``
    starts a comment, and only each line's first field counts (blank- or comma-separated), so
    the output of ``index`` can be piped in."""
    items = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            items.append((f"{name}:{number}", text.split()[0].split(",")[0]))
    return items


def read_id_list(name: str) -> list[tuple[str, str]]:
    """``id_lines`` of the file ``name`` (``-``: standard input); ``InputError`` when it cannot
    be read."""
    try:
        if name == STDIN:
            return id_lines("<stdin>", sys.stdin)
        with open(name, encoding="utf-8") as fh:
            return id_lines(name, fh)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {getattr(exc, 'filename', None) or 'the list'}: {exc}") from None
