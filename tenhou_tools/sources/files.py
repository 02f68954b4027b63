"""Files, folders and globs: a file of any name is what its content says (``items.classify``).

- a **file** named on the command line (or matched by a glob) is always read: a database, a zip
  or tar archive, else one log (at most ``max_bytes``: ``mjlog.read.MAX_BYTES`` unless told);
- a **folder** is searched recursively, depth first, names sorted (``walk_folder``). Names
  ending in ``DEFAULT_SUFFIXES`` are read as logs (or as an archive, when their content says
  so); any other file is opened only to look at its first bytes, and taken when it is a zip or
  tar archive or a SQLite database (``scraw2014.zip``, ``houou.db``), else skipped and counted
  in ``SourceStats.ignored``. Hidden files and folders are skipped and symlinked folders are not
  followed (no loops);
- a **glob** given as a literal string (``"logs/**/*.gz"``, ``**`` is recursive, ``Glob``): a
  matched file counts as named on the command line, a matched folder is searched like a folder.

The glob is matched while walking the tree in sorted order, with ``fnmatch`` on each name. Not
``glob.iglob``: its ``**`` follows symlinked folders, so two links to a parent folder make it
walk 2**40 paths (measured: no result in 20 s). Not ``pathlib.Path.glob`` either (its ``**``
does not follow links, but it matches hidden names, yields in directory order, keeps a set of
every match, and lists the corpus 2.5 times slower: 49 ms against 19 ms for 4,150 logs).
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat as _stat
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from ..errors import ParseError
from ..events import Game
from ..formats import load_game
from ..ids import log_id_from_name
from ..mjlog.read import MAX_BYTES
from .items import HEAD_BYTES, LogItem, Unreadable, Walk, classify, hidden, os_message
from .reads import open_input, read_upto

__all__ = ["GLOB_MAGIC", "Glob", "file_items", "folder_items", "read_game", "read_log_file", "walk_folder"]


def read_log_file(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES) -> bytes:
    """The raw bytes of one log file (plain or gzip, whatever its name), refusing files larger
    than ``max_bytes``; ``ParseError`` (one line) when it cannot be read."""
    cap = max_bytes
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > cap:
            raise ParseError(f"file is {size} bytes, larger than the {cap}-byte limit", source=str(p))
        with open_input(p) as fh:
            return read_upto(fh, cap + 1)
    except IsADirectoryError:
        raise ParseError("is a directory, not a log file", source=str(p)) from None
    except FileNotFoundError:
        raise ParseError("no such file", source=str(p)) from None
    except PermissionError:
        raise ParseError("permission denied", source=str(p)) from None
    except OSError as exc:
        raise ParseError(f"cannot read: {exc.strerror or exc}", source=str(p)) from None


def read_game(path: str | os.PathLike[str], *, require_complete: bool = True,
              max_bytes: int = MAX_BYTES) -> Game:
    """The game in one log file: mjlog XML or tenhou.net/6 JSON, plain or gzip (its content
    decides), its id from the file name (``ids.log_id_from_name``). ``require_complete=False``
    reads a log that stops early up to where it stops (``mjlog.parse_game``). ``ParseError``
    (one line) when the file cannot be read or parsed; ``max_bytes`` caps the file and what it
    decompresses to."""
    p = Path(path)
    return load_game(read_log_file(p, max_bytes=max_bytes), source=str(p), log_id=log_id_from_name(p.name),
                     require_complete=require_complete, max_bytes=max_bytes)


def file_items(walk: Walk, path: str, *, only_containers: bool = False, found: bool = False) -> Iterator[LogItem]:
    """A file of any name: a database, a zip or tar archive, or one log. With
    ``only_containers`` (a file in a folder whose name is not a log's) only an archive or a
    database is taken; anything else, or a file that cannot be opened, is skipped. ``found``: in
    a folder, not named by the user: content that is not a log is skipped (``Walk.ok``)."""
    name = os.path.basename(path)
    log_id = log_id_from_name(name)
    cap = walk.limits.log_bytes
    data = b""
    counted = False
    try:
        with open_input(path) as fh:
            st = os.fstat(fh.fileno())
            regular = _stat.S_ISREG(st.st_mode)
            head = read_upto(fh, HEAD_BYTES, regular=regular)
            container, start = classify(head)
            if container is None:
                if only_containers:
                    walk.stats.ignored += 1
                    return
                walk.stats.files += 1
                counted = True
                if walk.duplicate(log_id, path):
                    return
                want = cap + 1  # for a pipe or a device; read(n) allocates n bytes up front
                if regular:
                    if st.st_size > cap:
                        raise Unreadable(f"file is {st.st_size} bytes, over the {cap}-byte limit")
                    want = st.st_size + 1
                data = head + read_upto(fh, max(want - len(head), 1), regular=regular)
                if len(data) >= want and want <= cap:  # the file grew while being read
                    data += read_upto(fh, cap + 1 - len(data), regular=regular)
                if len(data) > cap:
                    raise Unreadable(f"file is over the {cap}-byte limit")
    except Unreadable as exc:
        yield walk.error(path, log_id, str(exc))
        return
    except OSError as exc:
        if only_containers:
            walk.stats.ignored += 1
            return
        if not counted:
            walk.stats.files += 1
        yield walk.error(path, log_id, os_message(exc))
        return
    # the readers of databases and archives are imported when one is found: a run over plain logs
    # never loads them, nor sqlite3 and tarfile (about 4 ms of each start, ``-X importtime``)
    if container == "sqlite":
        from .database import database_items

        yield from database_items(walk, path)
    elif container == "zip":
        from .zip import zip_items

        yield from zip_items(walk, path)
    elif container is not None:
        from .tar import tar_items

        yield from tar_items(walk, path, container)
    else:
        yield from walk.ok(path, log_id, data, name, start, found=found)


def folder_items(walk: Walk, top: str) -> Iterator[LogItem]:
    """Every log under a folder (``walk_folder``): files named like logs, and archives and
    databases of any name."""
    for path, err in walk_folder(top):
        if err is not None:
            yield walk.error(path, None, err)
        elif os.path.basename(path).lower().endswith(walk.suffixes):
            yield from file_items(walk, path, found=True)
        else:
            yield from file_items(walk, path, only_containers=True)


def walk_folder(top: str) -> Iterator[tuple[str, str | None]]:
    """``(path, None)`` for every file under ``top``, or ``(folder, error)`` for an unreadable one.

    Depth first, names sorted; hidden files and folders are skipped, symlinked folders are not
    followed (no loops), symlinked files are taken.
    """
    try:
        entries = _list_folder(top, follow_dirs=False, keep_hidden=False)
    except OSError as exc:
        yield top, f"cannot list folder: {exc.strerror or exc}"
        return
    for name, kind in entries:
        path = os.path.join(top, name)
        if kind == _DIR:
            yield from walk_folder(path)
        else:
            yield path, None


_FILE, _DIR, _DIR_LINK = 1, 2, 3


def _list_folder(folder: str, *, follow_dirs: bool, keep_hidden: bool) -> list[tuple[str, int]]:
    """``(name, kind)`` of a folder's files and folders, sorted by name.

    Only names and a small int are kept (not ``os.DirEntry`` objects), so a folder of a million
    logs costs about 150 bytes a name while it is being walked. Symlinked folders are ``_DIR_LINK``
    when ``follow_dirs``, else left out; other kinds of entries (sockets, broken links) are left out.
    """
    kept: list[tuple[str, int]] = []
    with os.scandir(folder) as it:
        for entry in it:
            if not keep_hidden and hidden(entry.name):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    kept.append((entry.name, _DIR))
                elif entry.is_file():
                    kept.append((entry.name, _FILE))
                elif follow_dirs and entry.is_dir():
                    kept.append((entry.name, _DIR_LINK))
            except OSError:
                continue
    kept.sort()
    return kept


# --- globs ---------------------------------------------------------------------------------------

GLOB_MAGIC = re.compile(r"[*?[]")


class Glob:
    """A shell glob matched while walking the tree in sorted order (no list of all matches).

    Follows ``glob.glob(pattern, recursive=True)``: ``**`` as a whole component spans any number
    of folders, wildcards do not match names starting with ``.`` unless the pattern component
    does, and ``**`` does not enter hidden folders. A trailing separator matches folders only.
    """

    def __init__(self, pattern: str):
        seps = "/" + (os.sep if os.sep != "/" else "") + (os.altsep or "")
        parts = re.split(f"[{re.escape(seps)}]+", pattern)
        i = 0
        while i < len(parts) and not GLOB_MAGIC.search(parts[i]):
            i += 1
        self.root = "/".join(parts[:i]) or ("/" if i else "")  # ["", "abs"] -> "/abs", [""] -> "/"
        self.dirs_only = pattern.endswith(tuple(seps))
        self.pattern: tuple[tuple[str, re.Pattern[str] | None], ...] = tuple(
            (p, None if p == "**" else re.compile(fnmatch.translate(p))) for p in parts[i:] if p
        )

    def _component(self, pat: tuple[str, re.Pattern[str] | None], name: str) -> bool:
        text, regex = pat
        if hidden(name) and not text.startswith("."):
            return False
        return regex is not None and regex.match(name) is not None

    def _match(self, pat: tuple, parts: tuple[str, ...]) -> bool:
        if not pat:
            return not parts
        if pat[0][1] is None:  # **
            if self._match(pat[1:], parts):
                return True
            return bool(parts) and not hidden(parts[0]) and self._match(pat, parts[1:])
        return bool(parts) and self._component(pat[0], parts[0]) and self._match(pat[1:], parts[1:])

    def _may_contain(self, pat: tuple, parts: tuple[str, ...]) -> bool:
        """Could something below the folder ``parts`` match?"""
        if not parts:
            return bool(pat)
        if not pat:
            return False
        if pat[0][1] is None:
            if self._may_contain(pat[1:], parts):
                return True
            return not hidden(parts[0]) and self._may_contain(pat, parts[1:])
        return self._component(pat[0], parts[0]) and self._may_contain(pat[1:], parts[1:])

    def _display(self, parts: tuple[str, ...]) -> str:
        return os.path.join(self.root, *parts) if self.root else os.path.join(*parts)

    def targets(self) -> Iterator[tuple[Literal["file", "dir", "error"], str, str | None]]:
        """``("file", path, None)``, ``("dir", path, None)`` or ``("error", folder, message)``."""
        start = self.root or os.curdir
        if not os.path.isdir(start):
            return
        if self._match(self.pattern, ()):  # "logs/**" is the folder itself
            yield "dir", start, None
            return
        yield from self._walk(start, ())

    def _walk(self, folder: str, parts: tuple[str, ...]) -> Iterator[tuple]:
        try:
            entries = _list_folder(folder, follow_dirs=True, keep_hidden=True)
        except OSError as exc:
            yield "error", folder, f"cannot list folder: {exc.strerror or exc}"
            return
        for name, kind in entries:
            sub = parts + (name,)
            if kind == _FILE:
                if not self.dirs_only and self._match(self.pattern, sub):
                    yield "file", self._display(sub), None
            elif self._match(self.pattern, sub):
                yield "dir", self._display(sub), None
            elif kind == _DIR and self._may_contain(self.pattern, sub):  # never down a symlink
                yield from self._walk(os.path.join(folder, name), sub)
