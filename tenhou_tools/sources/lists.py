"""Standard input and list files: ``-`` (one log on standard input) and ``@FILE`` (a list of
paths or game ids, one a line; ``@-`` reads the list from standard input). One reader of list
files, ``list_lines``, for every command; ``read_list`` and ``read_id_list`` read its lines as
entries or as game ids. Every read goes through ``reads`` (a Ctrl-C ends any wait).

Problems are ``InputError``\\ s with one line that says what is wrong (the CLI: exit 2).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import InputError
from ..mjlog.read import MAX_BYTES
from .items import HEAD_BYTES, container
from .reads import open_input, read_stdin_bytes, read_upto

__all__ = [
    "LIST_PREFIX", "STDIN", "STDIN_SOURCE", "id_entries", "list_lines", "read_id_list", "read_list", "read_stdin",
]

STDIN = "-"
"""The input that stands for standard input (one log)."""
STDIN_SOURCE = "<stdin>"
"""How items read from standard input are named."""
LIST_PREFIX = "@"
"""``@FILE`` stands for the entries listed in FILE, one a line (``@-``: the list on stdin)."""


def read_stdin(*, max_bytes: int = MAX_BYTES) -> bytes:
    """One log from standard input, at most ``max_bytes``; ``InputError`` when it cannot be
    read, is too large, or holds an archive or a database (those are read by path). Read
    through ``reads.read_stdin_bytes``: a Ctrl-C ends the wait for a writer that sends nothing."""
    cap = max_bytes
    try:
        data = read_stdin_bytes(cap + 1)
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


def list_lines(name: str, *, label: str | None = None) -> list[tuple[str, str]]:
    """``(where, line)`` for every line of the list file ``name`` (``-``: standard input), where
    ``where`` is ``FILE:LINE`` (``<stdin>:LINE``). The one reader of list files: ``@FILE`` and
    ``@-`` of every command, ``download``'s ``-`` and ``--from-file``. The file is read through
    ``reads`` (a FIFO or a pipe: a Ctrl-C ends the wait) and decoded as UTF-8, bytes that are not
    kept as surrogates. ``InputError`` naming ``label`` (``@FILE`` unless told) when it cannot be
    read."""
    label = label if label is not None else f"{LIST_PREFIX}{name}"
    shown = STDIN_SOURCE if name == STDIN else name
    try:
        if name == STDIN:
            data = read_stdin_bytes()
        else:
            with open_input(name) as fh:
                data = read_upto(fh, None)
    except FileNotFoundError:
        raise InputError(f"{label}: no such list file") from None
    except IsADirectoryError:
        hint = f" (give the folder without {LIST_PREFIX})" if label.startswith(LIST_PREFIX) else ""
        raise InputError(f"{label}: a folder, not a list file{hint}") from None
    except (OSError, ValueError, AttributeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InputError(f"{label}: cannot read the list: {reason}") from None
    text = data.decode("utf-8", "surrogateescape")
    return [(f"{shown}:{number}", line) for number, line in enumerate(text.splitlines(), 1)]


def read_list(name: str) -> list[tuple[str, str]]:
    """``(where, entry)`` for each entry of the list file ``name`` (``-``: standard input;
    ``list_lines``). Surrounding blanks are stripped; blank lines and lines starting with ``#``
    are skipped."""
    entries = []
    for where, line in list_lines(name):
        entry = line.strip()
        if entry and not entry.startswith("#"):
            entries.append((where, entry))
    return entries


def id_entries(lines: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(where, id)`` for the ids of a list of game ids (``download``), from ``list_lines``:
    one a line, ``#`` starts a comment, and only each line's first field counts (blank- or
    comma-separated), so the output of ``index`` can be piped in."""
    items = []
    for where, line in lines:
        text = line.split("#", 1)[0].strip()
        if text:
            items.append((where, text.split()[0].split(",")[0]))
    return items


def read_id_list(name: str, *, label: str | None = None) -> list[tuple[str, str]]:
    """``id_entries`` of the list file ``name`` (``-``: standard input), read by ``list_lines``
    (``InputError`` naming ``label`` when it cannot be read)."""
    return id_entries(list_lines(name, label=label))
