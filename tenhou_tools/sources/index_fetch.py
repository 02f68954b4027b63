"""Fetching Tenhou's public index politely, caching it, and reading the yearly archives.

The index files live in the download cache, beside the logs::

    <cache>/index/state.json     when each list was fetched, and the size of each day file kept
    <cache>/index/list.js        the last list.cgi (the last seven days)
    <cache>/index/list-old.js    the last list.cgi?old (this year until then)
    <cache>/index/dat/<name>     the day files as served (``2024/scc20240101.html.gz``)

The rules, after houou-logs and tenhou.net/sc/raw/: a list is fetched at most once per run and
reused for ``LIST_REUSE_SECONDS`` (Tenhou updates it every 20 minutes); a day file is fetched
only when the list gives it a size other than the one kept, so a later run fetches only what
changed; only the files that can hold selected games are fetched (their kind and day), and a day
the archives given already hold is not fetched. All requests go through one ``LogFetcher``: one
at a time, with its pauses, retries and the download lock (one session across processes).
Every file is written atomically, and ``state.json`` after each file, so Ctrl-C leaves the cache
consistent. A truncated file is read as far as it goes but not kept, so the next run fetches it
again.
"""

from __future__ import annotations

import json
import os
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from ..errors import DownloadError, InputError
from ..ids import JST
from .cache import TEMP_SUFFIX, default_cache_dir, write_atomic
from .http import LogFetcher, NotFound, StopDownloads
from .index import (
    DayFile,
    FileIndex,
    IndexedGame,
    IndexFormatError,
    Selection,
    merge_games,
    parse_day_file_name,
    parse_file_index,
    prefer_daily,
    read_day_file,
)

LIST_PATH = "sc/raw/list.cgi"
OLD_LIST_PATH = "sc/raw/list.cgi?old"
DAT_PATH = "sc/raw/dat/"
LIST_REUSE_SECONDS = 20 * 60.0
"""A list fetched less than this long ago is reused (tenhou.net updates it every 20 minutes)."""
RECENT_DAYS = 8
"""``list.cgi`` covers the last seven days; a day older than this (and before this year) is in
neither list, only in the yearly archives."""
MAX_MEMBER_BYTES = 256 * 1024 * 1024
"""The largest archive member read (a year's biggest day file is a few megabytes)."""
STATE_VERSION = 1
_LISTS = {"recent": (LIST_PATH, "list.js"), "old": (OLD_LIST_PATH, "list-old.js")}


def _now() -> float:
    """The wall clock (tests replace it to age the cached lists)."""
    return time.time()


# --- the cache -----------------------------------------------------------------------------------


class IndexCache:
    """The index files kept in ``<cache>/index``."""

    def __init__(self, cache_dir: str | os.PathLike[str] | None = None):
        base = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
        self.root = base / "index"
        self._state: dict | None = None
        self._ready = False

    # state.json: {"version": 1, "lists": {"recent": epoch, "old": epoch}, "files": {name: size}}

    @property
    def state(self) -> dict:
        if self._state is None:
            self._state = {"version": STATE_VERSION, "lists": {}, "files": {}}
            try:
                loaded = json.loads((self.root / "state.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = None  # absent or damaged: start afresh (files are fetched again)
            if isinstance(loaded, dict) and loaded.get("version") == STATE_VERSION:
                lists, files = loaded.get("lists"), loaded.get("files")
                if isinstance(lists, dict):
                    self._state["lists"] = {
                        k: float(v) for k, v in lists.items() if k in _LISTS and isinstance(v, (int, float))
                    }
                if isinstance(files, dict):
                    self._state["files"] = {
                        k: v for k, v in files.items()
                        if isinstance(v, int) and parse_day_file_name(k) is not None
                    }  # fmt: skip
        return self._state

    def _save(self) -> None:
        self._ensure()
        data = json.dumps(self.state, sort_keys=True, indent=0).encode()
        write_atomic(self.root / "state.json", data)

    def _ensure(self) -> None:
        if self._ready:
            return
        try:
            (self.root / "dat").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the index cache {self.root}: {exc.strerror or exc}") from None
        # temporary files a killed run left (we write only while holding the download lock)
        for folder in (self.root, self.root / "dat", *(self.root / "dat").glob("[0-9][0-9][0-9][0-9]")):
            for temp in folder.glob(".*" + TEMP_SUFFIX):
                temp.unlink(missing_ok=True)
        self._ready = True

    def list_age(self, which: str) -> float | None:
        """Seconds since the list was fetched, or None when it is not kept."""
        when = self.state["lists"].get(which)
        if when is None or not (self.root / _LISTS[which][1]).is_file():
            return None
        return max(0.0, _now() - when)

    def read_list(self, which: str) -> str | None:
        try:
            return (self.root / _LISTS[which][1]).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            return None

    def put_list(self, which: str, body: bytes) -> None:
        self._ensure()
        write_atomic(self.root / _LISTS[which][1], body)
        self.state["lists"][which] = _now()
        self._save()

    def path_of(self, file: DayFile) -> Path:
        # the name passed parse_day_file_name: [YYYY/]scXYYYYMMDD[HH].ext[.gz], nothing else
        return self.root / "dat" / file.name

    def kept(self, file: DayFile) -> bytes | None:
        """The kept copy of a day file when the index gives it the size kept, else None."""
        if file.size is None or self.state["files"].get(file.name) != file.size:
            return None
        try:
            return self.path_of(file).read_bytes()
        except OSError:
            return None

    def any_copy(self, file: DayFile) -> bytes | None:
        """The kept copy whatever its size (offline use)."""
        if file.name not in self.state["files"]:
            return None
        try:
            return self.path_of(file).read_bytes()
        except OSError:
            return None

    def put(self, file: DayFile, body: bytes) -> None:
        path = self.path_of(file)
        self._ensure()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, body)
        self.state["files"][file.name] = file.size
        self._save()

    def forget(self, file: DayFile) -> None:
        if self.state["files"].pop(file.name, None) is not None:
            self._save()


# --- the result ----------------------------------------------------------------------------------


@dataclass
class IndexReport:
    """What ``collect_index`` found, and how."""

    games: list[IndexedGame] = field(default_factory=list)
    lists_fetched: int = 0
    lists_reused: int = 0
    files_fetched: int = 0
    files_unchanged: int = 0
    files_from_archives: int = 0
    archives: int = 0
    duplicates: int = 0
    problems: list[str] = field(default_factory=list)
    """One line each: a file missing, truncated or unreadable, a list that could not be had."""
    notes: list[str] = field(default_factory=list)
    """One line each, not problems: what the lists and archives do not cover."""
    stopped: bool = False
    """The server refused us (403, 429, the lock): the index is incomplete."""

    @property
    def complete(self) -> bool:
        return not self.problems and not self.stopped


class _Stop(Exception):
    pass


# --- collecting ----------------------------------------------------------------------------------


def collect_index(
    selection: Selection,
    *,
    fetcher: LogFetcher | None,
    cache: IndexCache,
    archives: Iterable[str | os.PathLike[str]] = (),
    use_lists: bool = True,
    on_file: Callable[[str, int, int], None] | None = None,
) -> IndexReport:
    """The games of ``selection`` in the archives and in tenhou.net's lists.

    ``fetcher`` None (or offline) uses the cached index only. ``use_lists`` False reads the
    archives alone. ``on_file(name, done, total)`` is told before each day file is read.
    """
    report = IndexReport()
    groups: list[list[IndexedGame]] = []
    covered: set[tuple[str, date]] = set()
    for path in archives:
        groups.append(_read_archive(Path(path), selection, report, covered))
        report.archives += 1

    if use_lists and not _lists_may_cover(selection) and not report.archives:
        report.notes.append(
            f"tenhou.net's lists name this year and the last seven days only: the games up to "
            f"{selection.until} are in the yearly archives (scrawYYYY.zip from "
            "https://tenhou.net/sc/raw/; read them with --archive)"
        )
    if use_lists and _lists_may_cover(selection):
        try:
            files = _listed_files(selection, fetcher, cache, report, report.archives > 0)
        except _Stop:
            files = []
        files = [f for f in files if (f.kind, f.day) not in covered]
        total = len(files)
        for done, file in enumerate(files):
            if on_file is not None:
                on_file(file.name, done, total)
            try:
                games = _read_listed(file, fetcher, cache, report)
            except _Stop:
                break
            groups.append([g for g in games if selection.matches(g)])
    report.games, report.duplicates = merge_games(groups)
    return report


def _lists_may_cover(selection: Selection) -> bool:
    """False when the selection ends before anything ``list.cgi`` or ``list.cgi?old`` names
    (they cover this year and the last seven days): then only archives hold it."""
    if selection.until is None:
        return True
    today = datetime.fromtimestamp(_now(), JST).date()
    first_listed = min(date(today.year, 1, 1), today - timedelta(days=RECENT_DAYS))
    return selection.until >= first_listed


def _get_list(which: str, fetcher: LogFetcher | None, cache: IndexCache, report: IndexReport) -> FileIndex | None:
    """A list: the kept copy while it is fresh (or offline), else fetched once and kept."""
    path = _LISTS[which][0]
    offline = fetcher is None or fetcher.offline
    age = cache.list_age(which)
    text = cache.read_list(which) if age is not None and (age < LIST_REUSE_SECONDS or offline) else None
    where = f"{path} (cached)"
    if text is not None:
        report.lists_reused += 1
    elif offline:
        report.problems.append(f"{path}: not in the cache, and offline mode does not download")
        return None
    else:
        assert fetcher is not None
        try:
            raw = fetcher.fetch_file(path)
        except StopDownloads as exc:
            report.problems.append(str(exc))
            report.stopped = True
            raise _Stop from None
        except DownloadError as exc:
            report.problems.append(str(exc))
            return None
        report.lists_fetched += 1
        text, where = raw.decode("utf-8", errors="replace"), path
    try:
        index = parse_file_index(text)
    except IndexFormatError as exc:
        report.problems.append(f"{where}: {exc}")
        return None
    if where == path:
        cache.put_list(which, raw)
    for name in index.refused[:3]:
        report.problems.append(f"{path} names a file that is not a Tenhou day file, ignored: {name[:80]!r}")
    if len(index.refused) > 3:
        report.problems.append(f"{path}: {len(index.refused) - 3} more such names ignored")
    return index


def _listed_files(
    selection: Selection, fetcher: LogFetcher | None, cache: IndexCache, report: IndexReport,
    has_archives: bool,
) -> list[DayFile]:
    """The day files of the lists that can hold selected games (hourly ones dropped for a day
    that has its daily file). ``list.cgi?old`` is fetched only when the selection reaches back
    before the first day of ``list.cgi``."""
    recent = _get_list("recent", fetcher, cache, report)
    files = list(recent.files) if recent is not None else []
    first_recent = min((f.day for f in files), default=None)
    reaches_back = selection.since is not None or selection.until is not None
    if reaches_back and (first_recent is None or selection.since is None or selection.since < first_recent):
        old = _get_list("old", fetcher, cache, report)
        if old is not None:
            files = list(old.files) + files
    first = min((f.day for f in files), default=None)
    if selection.since is not None and first is not None and selection.since < first and not has_archives:
        report.notes.append(
            f"tenhou.net's lists start on {first}: the games from {selection.since} to "
            f"{first - timedelta(days=1)} are in the yearly archives (scrawYYYY.zip from "
            "https://tenhou.net/sc/raw/; read them with --archive)"
        )
    wanted = [f for f in files if selection.wants_file(f)]
    seen: set[str] = set()
    unique = []
    for f in wanted:  # the first file of each name
        if f.name not in seen:
            seen.add(f.name)
            unique.append(f)
    return sorted(prefer_daily(unique), key=lambda f: (f.day, f.hour or 0, f.kind, f.name))


def _read_listed(file: DayFile, fetcher: LogFetcher | None, cache: IndexCache,
                 report: IndexReport) -> list[IndexedGame]:
    source = f"dat/{file.name}"
    body = cache.kept(file)
    fetched = False
    if body is not None:
        report.files_unchanged += 1
    elif fetcher is None or fetcher.offline:
        body = cache.any_copy(file)
        if body is None:
            report.problems.append(f"{source}: not in the cache, and offline mode does not download")
            return []
        report.files_unchanged += 1
    else:
        try:
            body = fetcher.fetch_file(DAT_PATH + file.name)
        except StopDownloads as exc:
            report.problems.append(str(exc))
            report.stopped = True
            raise _Stop from None
        except NotFound:
            report.problems.append(f"{source}: listed by tenhou.net's index, but the server answers 404")
            return []
        except DownloadError as exc:
            report.problems.append(str(exc))
            return []
        report.files_fetched += 1
        fetched = True
    content = read_day_file(body, file, source=source)
    if content.bad_lines:
        report.problems.append(
            f"{source}: {content.bad_lines} line(s) could not be read ({'; '.join(content.bad_examples)})"
        )
    if not content.complete:
        report.problems.append(
            f"{source}: incomplete, {content.truncated}; {len(content.games)} games read from its "
            "complete lines (it is fetched again next time)"
        )
        if fetched:
            cache.forget(file)
    elif fetched:
        cache.put(file, body)
    return list(content.games)


def _read_archive(
    path: Path, selection: Selection, report: IndexReport, covered: set[tuple[str, date]]
) -> list[IndexedGame]:
    """The selected games of a ``scrawYYYY.zip`` (day files in a year folder, plain or gzip)."""
    if not path.is_file():
        raise InputError(f"no such archive: {str(path)!r}")
    games: list[IndexedGame] = []
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(f"{path}: not a readable zip archive ({exc})") from None
    with archive:
        members = []
        for info in archive.infolist():
            if info.is_dir():
                continue
            parts = info.filename.replace("\\", "/").split("/")
            name = "/".join(parts[-2:]) if len(parts) >= 2 else parts[-1]
            file = parse_day_file_name(name) or parse_day_file_name(parts[-1])
            if file is None or not selection.wants_file(file):
                continue
            members.append((info, file))
        members.sort(key=lambda pair: (pair[1].day, pair[1].hour or 0, pair[1].kind, pair[0].filename))
        for info, file in members:
            source = f"{path.name}:{info.filename}"
            if info.file_size > MAX_MEMBER_BYTES:
                report.problems.append(f"{source}: larger than {MAX_MEMBER_BYTES} bytes, skipped")
                continue
            try:
                with archive.open(info) as fh:
                    data = fh.read(MAX_MEMBER_BYTES + 1)
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError) as exc:
                report.problems.append(f"{source}: cannot be read ({exc})")
                continue
            content = read_day_file(data, file, source=source)
            report.files_from_archives += 1
            if content.bad_lines:
                report.problems.append(
                    f"{source}: {content.bad_lines} line(s) could not be read ({'; '.join(content.bad_examples)})"
                )
            if not content.complete:
                report.problems.append(f"{source}: incomplete, {content.truncated}; {len(content.games)} games read")
            else:
                covered.add((file.kind, file.day))
            games.extend(g for g in content.games if selection.matches(g))
    return games
