"""The download run: game ids -> logs in the cache (and a folder) or a houou-logs database.

``DownloadRun(log_ids, fetcher, ...)`` is the run behind ``tenhou-tools download``, for the CLI
and for scripts: iterating it fetches the ids one at a time through ``http.LogFetcher``
(sequential, polite, atomic; the fetcher holds the cache's lock) and yields one ``Fetch`` per
id, in order, saying what became of it; ``run.tally`` adds them up as it goes (it stays right
when the run is stopped by Ctrl-C or an error). Nothing here prints.

What the cache or the database already holds is not fetched again, so a run that was stopped
resumes where it stopped. A 404 for a game of the years tenhou.net no longer serves
(``http.NOT_SERVED_YEARS``) is recorded, keyed by the server asked (``logstore.NotServedRecord``;
with the default server also as houou-logs' ``was_error`` in the database), and that server is
not asked for it again unless ``retry_not_served``; another server is asked all the same.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import DownloadError, InputError
from .cache import ExportConflict, export_log, gzip_bytes
from .http import (
    DEFAULT_BASE_URL,
    BadLog,
    LogFetcher,
    NotFound,
    NotServed,
    StopDownloads,
    not_found_error,
    resolve_base_url,
)
from .logstore import LogDatabase, LogRow, NotServedRecord

__all__ = ["DownloadRun", "DownloadTally", "Fetch", "Outcome"]


class Outcome(Enum):
    """What became of one id."""

    DOWNLOADED = "downloaded"
    """Downloaded (into the cache, or the database)."""
    CACHED = "cached"
    """The cache held it already (with a database: it is stored from the cache)."""
    STORED = "stored"
    """The database holds its log already: nothing was done."""
    NOT_SERVED = "not_served"
    """The server answered 404 for a game of the years tenhou.net no longer serves: recorded."""
    KNOWN_NOT_SERVED = "known_not_served"
    """Recorded as not served by this server in an earlier run: not asked again."""
    FAILED = "failed"
    """Not fetched (``Fetch.reason`` says why, ``Fetch.message`` in full)."""
    NOT_ATTEMPTED = "not_attempted"
    """Not asked for: an earlier answer stopped the downloads (``Fetch.stops``)."""


@dataclass(frozen=True, slots=True)
class Fetch:
    """What became of one id."""

    log_id: str
    outcome: Outcome
    path: Path | None = None
    """Where the log is now (the cache, or the ``out_dir`` copy); None with a database."""
    message: str | None = None
    """One line, for ``NOT_SERVED`` and ``FAILED``: the error as the fetcher or the store gave it."""
    reason: str | None = None
    """``FAILED``: the word the tally counts it under (``not found``, ``not a valid log``,
    ``stopped``, ``not in the cache``, ``network or server error``, ``could not be stored``)."""
    recorded: str | None = None
    """``KNOWN_NOT_SERVED``: the day it was recorded (``YYYY-MM-DD``); None when the database
    records it (houou-logs' ``was_error``)."""
    stops: bool = False
    """``FAILED``: the server refused or rate-limited the run, or another run holds the lock: the
    ids not in the cache are not attempted."""


@dataclass
class DownloadTally:
    """The counts of a run so far."""

    total: int
    """The ids the run was given."""
    downloaded: int = 0
    cached: int = 0
    """Already there: in the cache, or (with a database) in the database."""
    not_served: int = 0
    """No longer served (``NOT_SERVED`` and ``KNOWN_NOT_SERVED``)."""
    not_served_known: int = 0
    """Of ``not_served``, the ids recorded in an earlier run (not asked)."""
    failed: Counter = field(default_factory=Counter)
    """Failures by ``Fetch.reason``."""
    not_attempted: int = 0
    copied: int = 0
    """Logs copied to ``out_dir`` (an identical file already there is not counted)."""
    stopped: bool = False
    """An answer stopped the downloads."""

    @property
    def complete(self) -> bool:
        """Every id is there now (downloaded or already there)."""
        return not (self.failed or self.not_attempted or self.not_served)

    def add(self, fetch: Fetch) -> None:
        kind = fetch.outcome
        if kind is Outcome.DOWNLOADED:
            self.downloaded += 1
        elif kind in (Outcome.CACHED, Outcome.STORED):
            self.cached += 1
        elif kind is Outcome.NOT_SERVED:
            self.not_served += 1
        elif kind is Outcome.KNOWN_NOT_SERVED:
            self.not_served += 1
            self.not_served_known += 1
        elif kind is Outcome.NOT_ATTEMPTED:
            self.not_attempted += 1
        else:
            self.failed[fetch.reason or "failed"] += 1
            self.stopped = self.stopped or fetch.stops


class DownloadRun:
    """Fetch each id into the cache (and ``out_dir``) or into ``db``: iterate it for a ``Fetch``
    per id; ``tally`` counts them.

    ``starts``: the start time of each game the index gave (the database's ``date`` column);
    ``listed``: the ids come from the index, so their games are finished (a 404 is not "still
    running"); ``retry_not_served``: ask again for the games recorded as not served. ``on_start``
    is told each id before it is fetched (a progress display). ``InputError`` (a cache directory
    that cannot be created) ends the iteration; so does Ctrl-C, the tally counting what was done.
    """

    def __init__(self, log_ids: Iterable[str], fetcher: LogFetcher, *, db: LogDatabase | None = None,
                 out_dir: Path | None = None, starts: dict[str, datetime] | None = None, listed: bool = False,
                 retry_not_served: bool = False, on_start: Callable[[str], None] | None = None):
        self.log_ids = list(log_ids)
        self.fetcher = fetcher
        self.db = db
        self.out_dir = out_dir
        self.starts = starts or {}
        self.listed = listed
        self.retry_not_served = retry_not_served
        self.on_start = on_start
        self.tally = DownloadTally(total=len(self.log_ids))
        self.server = fetcher.base_url or resolve_base_url(None)
        """The server asked (a base URL): what the not-served record is keyed by."""
        self.record = NotServedRecord(fetcher.cache_dir)
        self.trust_db = db is not None and self.server == DEFAULT_BASE_URL
        """The database's ``was_error`` rows are tenhou.net's (houou-logs downloads from there):
        they count as not served, and are written, only when tenhou.net is the server."""

    def __iter__(self) -> Iterator[Fetch]:
        known = {} if self.retry_not_served else self.record.load(self.server)
        stored = self.db.status(self.log_ids) if self.db is not None else {}
        for log_id in self.log_ids:
            if self.on_start is not None:
                self.on_start(log_id)
            fetch = self._one(log_id, known, stored.get(log_id))
            self.tally.add(fetch)
            yield fetch

    def _one(self, log_id: str, known: dict[str, str], state: str | None) -> Fetch:
        fetcher, db = self.fetcher, self.db
        if state == "stored" and not fetcher.refresh:
            return Fetch(log_id, Outcome.STORED)
        cached = fetcher.cached(log_id) if not fetcher.refresh else None
        if cached is None:
            if log_id in known:
                return Fetch(log_id, Outcome.KNOWN_NOT_SERVED, recorded=known[log_id])
            if state == "failed" and self.trust_db and not self.retry_not_served:
                return Fetch(log_id, Outcome.KNOWN_NOT_SERVED)
            if self.tally.stopped:
                return Fetch(log_id, Outcome.NOT_ATTEMPTED)
        row = LogRow.of(log_id, self.starts.get(log_id))
        path: Path | None = None
        try:
            if db is not None:
                if cached is not None:
                    data, from_cache = fetcher.cached_bytes(log_id), True
                elif fetcher.offline:
                    raise DownloadError(
                        f"{log_id}: not in the cache ({fetcher.cache_dir}) and offline mode does not download"
                    )
                else:
                    data, from_cache = fetcher.download(log_id), False
                db.store(row, gzip_bytes(data))
            else:
                result = fetcher.fetch_result(log_id)
                path, from_cache = result.path, not result.downloaded
        except NotServed as exc:
            if self.trust_db:
                assert db is not None
                db.record_not_served(row)
            self.record.add(log_id, self.server)
            return Fetch(log_id, Outcome.NOT_SERVED, message=str(exc))
        except DownloadError as exc:
            message = str(exc)
            if isinstance(exc, NotFound) and self.listed:  # the index lists it: it is not running
                message = str(not_found_error(log_id, urlsplit(self.server).netloc, listed=True))
            return Fetch(log_id, Outcome.FAILED, message=message, reason=self._reason(exc),
                         stops=isinstance(exc, StopDownloads))
        except OSError as exc:
            return Fetch(log_id, Outcome.FAILED, message=f"{log_id}: cannot read the cached log: {exc.strerror or exc}",
                         reason="could not be stored")
        except sqlite3.Error as exc:
            where = db.path if db is not None else "the database"
            return Fetch(log_id, Outcome.FAILED, message=f"{log_id}: cannot store it in {where}: {exc}",
                         reason="could not be stored")
        if self.out_dir is not None and path is not None:
            try:
                path, copied = export_log(path, self.out_dir)
            except (ExportConflict, InputError) as exc:
                return Fetch(log_id, Outcome.FAILED, message=f"{log_id}: {exc}", reason="could not be stored")
            self.tally.copied += copied
        return Fetch(log_id, Outcome.CACHED if from_cache else Outcome.DOWNLOADED, path=path)

    def _reason(self, exc: DownloadError) -> str:
        """The tally's word for a failure."""
        if isinstance(exc, NotFound):
            return "not found"
        if isinstance(exc, BadLog):
            return "not a valid log"
        if isinstance(exc, StopDownloads):
            return "stopped"
        if self.fetcher.offline:
            return "not in the cache"
        return "network or server error"
