"""Which files a command reads: is an output file one of its inputs?

A command that writes a file (``-o``, ``--html``, ``convert --out``) must never replace a log,
an archive, a database or a list it reads. ``inputs_among`` answers that for a few would-be
output files, by identity (the device and inode ``os.stat`` gives), so the same file reached
through a symlink, a second name (a hard link) or another spelling of its path is the same.

The inputs are what the command line names, read as ``local.iter_logs`` reads them: a file
named directly (or matched by a glob) is an input whatever its name; a file in a folder is one
when the walk reads it (named like a log, or an archive or a database by its first bytes:
``files.folder_items``); an ``@FILE`` list is an input itself. Standard input is not a file.
Files that do not exist are nobody's input; a path that does not exist is left to the command
(it reports missing inputs itself).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator

from .files import GLOB_MAGIC, Glob, walk_folder
from .items import HEAD_BYTES, container
from .lists import LIST_PREFIX, STDIN
from .reads import open_input, read_upto

__all__ = ["inputs_among"]

Identity = tuple[int, int]


def _identity(path: str) -> Identity | None:
    """``(st_dev, st_ino)`` of the regular file at ``path`` (symlinks followed), else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return st.st_dev, st.st_ino


def inputs_among(targets: Iterable[str], sources: Iterable[str],
                 suffixes: Iterable[str] | None = None) -> dict[str, str]:
    """``{target: input}`` for each of ``targets`` that is the same file as an input of
    ``sources`` (command-line arguments: paths, folders, globs, ``@FILE``, ``-``), ``input``
    being the path under which the command would read it. ``suffixes``: the names a folder's
    files are read by (``local.DEFAULT_SUFFIXES`` when None).

    Cheap when no target exists (nothing is walked); otherwise each folder named is walked once.
    """
    wanted: dict[Identity, str] = {}
    for target in targets:
        key = _identity(target)
        if key is not None:
            wanted.setdefault(key, target)
    if not wanted:
        return {}
    if suffixes is None:
        from .local import DEFAULT_SUFFIXES

        suffixes = DEFAULT_SUFFIXES
    names = tuple(s.lower() for s in suffixes)
    found: dict[str, str] = {}
    for path, named in _candidates(sources):
        key = _identity(path)
        if key is None or key not in wanted or wanted[key] in found:
            continue
        if named or os.path.basename(path).lower().endswith(names) or _is_container(path):
            found[wanted[key]] = path
            if len(found) == len(wanted):
                break
    return found


def _candidates(sources: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """``(path, named)`` for every file the sources may read; ``named``: read whatever its name
    (named on the command line, matched by a glob, or an ``@FILE`` list)."""
    for arg in sources:
        if arg == STDIN:
            continue
        if arg.startswith(LIST_PREFIX) and len(arg) > len(LIST_PREFIX):
            if arg[len(LIST_PREFIX):] != STDIN:
                yield arg[len(LIST_PREFIX):], True
            continue
        yield from _of_path(arg)


def _of_path(arg: str) -> Iterator[tuple[str, bool]]:
    if os.path.isdir(arg):
        yield from _of_folder(arg)
    elif os.path.exists(arg):
        yield arg, True
    elif GLOB_MAGIC.search(arg):
        for kind, path, err in Glob(arg).targets():
            if err is None and kind == "dir":
                yield from _of_folder(path)
            elif err is None:
                yield path, True


def _of_folder(top: str) -> Iterator[tuple[str, bool]]:
    for path, err in walk_folder(top):
        if err is None:
            yield path, False


def _is_container(path: str) -> bool:
    try:
        with open_input(path) as fh:
            return container(read_upto(fh, HEAD_BYTES)) is not None
    except OSError:
        return False
