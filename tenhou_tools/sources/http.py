"""Downloading mjlogs from tenhou.net, politely, into the cache (ECOSYSTEM.md §5).

One ``requests.Session`` per :class:`LogFetcher`; every request has explicit connect and read
timeouts; connection errors, timeouts, 429 and 5xx are retried a bounded number of times with
exponential backoff (a ``Retry-After`` is honoured up to a cap, and beyond it the run stops),
except that a refused connection or a host name that does not resolve (nobody is there) is
retried once only, after about a second, and then stops the run (``StopDownloads``);
requests go strictly one at a time with a minimum delay between them; and an exclusive lock
file in the cache directory keeps two runs from downloading at once (Tenhou allows one download
session at a time). What comes back is checked — status, empty body, HTML page, size, a
complete mjlog of the kind the id announces — before anything is written to the cache, so a
cached file is always a complete log.

Time is injected (``sleep``, ``clock``, ``random``) so tests need not wait.
"""

from __future__ import annotations

import email.utils
import http.client
import os
import random as _random
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from typing import Self
from urllib.parse import urlsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter

from .. import __version__
from ..errors import DownloadError, InputError, ParseError
from ..ids import GameRef, validate_log_id
from ..mjlog import parse_game
from ..mjlog.read import GZIP_MAGIC, MAX_BYTES
from .cache import LockTimeout, LogCache
from .server import BASE_URL_ENV, DEFAULT_BASE_URL, DEFAULT_JITTER, DEFAULT_MIN_INTERVAL

LOG_PATH = "/0/log/?"
"""``{base}/0/log/?{id}`` serves the raw mjlog XML (MJLOG.md §1.2)."""

DEFAULT_TIMEOUT = (5.0, 30.0)
"""(connect, read) seconds; requests applies no timeout unless given one."""
DEFAULT_RETRIES = 3
"""Retries after the first attempt, for connection errors, timeouts, 429 and 5xx."""
DEFAULT_BACKOFF = 2.0
"""Pause before retry n: ``backoff * 2 ** (n - 1)`` seconds (2, 4, 8), capped by ``BACKOFF_MAX``."""
BACKOFF_MAX = 60.0
REFUSED_RETRIES = 1
"""Retries (at most) after a refused connection or an unknown host name: nobody is listening, and
waiting 2 + 4 + 8 s is unlikely to change that. With the polite pause the whole failure takes
about 1-1.5 s, and the run stops (the other ids would fail the same way)."""
REFUSED_BACKOFF = 1.0
"""Pause in seconds before retrying a refused connection (the polite interval applies as well)."""
MAX_RETRY_AFTER = 120.0
"""A ``Retry-After`` up to this is waited out; a longer one stops the run (we will not wait hours)."""
DEFAULT_LOCK_TIMEOUT = 60.0
"""How long a second run waits for the first to release the download lock."""
MAX_RESPONSE_SECONDS = 120.0
"""A response that trickles in for longer than this is abandoned (read timeouts are per read)."""

_CHUNK = 64 * 1024
_RETRY_AFTER_SECONDS = re.compile(r"[0-9]{1,10}")


@dataclass(frozen=True, slots=True)
class Fetched:
    """Where a log is now, and whether this call downloaded it (False: it was in the cache)."""

    log_id: str
    path: Path
    downloaded: bool


class NotFound(DownloadError):
    """The server answered 404 for this file or log."""


class NotServed(NotFound):
    """A 404 for a game of the years tenhou.net no longer serves (``NOT_SERVED_YEARS``: since
    about 2026-04 it answers 404 for most games of 2010-2025, houou-logs#26). Retrying will not
    help."""


class BadLog(DownloadError):
    """The server answered 200 with something that is not the complete log of the game."""


NOT_SERVED_YEARS = range(2010, 2026)
"""The years of the games tenhou.net answers 404 for since about 2026-04 (2010-2025, Japan time):
a 404 for one of them means "no longer served"."""
RUNNING_FOR = 24 * 3600.0
"""A game that started less than this long ago (seconds) may still be running: a 404 for it may
only mean that its log is not written yet."""


def not_found_error(log_id: str, host: str, *, now: float | None = None, listed: bool = False) -> NotFound:
    """The error for a 404 on a log: ``NotServed`` for a game of ``NOT_SERVED_YEARS`` (whatever the
    server: its answer is the one tenhou.net gives for them), else ``NotFound``: the game may still
    be running (it started less than a day ago and the index does not list it as finished), or
    the server does not have it."""
    started = GameRef(log_id).date
    if started.year in NOT_SERVED_YEARS:
        return NotServed(
            f"{log_id}: no longer served by tenhou.net (HTTP 404 from {host}; since about "
            "2026-04 it answers 404 for most games of 2010-2025)"
        )
    if not listed and (time.time() if now is None else now) - started.timestamp() < RUNNING_FOR:
        return NotFound(
            f"{log_id}: not found on {host} (HTTP 404): the game may still be in progress, or the id is wrong"
        )
    return NotFound(f"{log_id}: not found on {host} (HTTP 404)")


class StopDownloads(DownloadError):
    """Going on with other ids would be impolite or pointless: the server refused us (403),
    keeps rate-limiting (429), asks us to wait longer than we will, or another run holds the lock."""


def default_user_agent() -> str:
    """An honest User-Agent: who we are and what we do; no project URL exists to point to."""
    return (
        f"tenhou-tools/{__version__} (command-line reader of Tenhou mahjong game logs; "
        f"one request at a time) python-requests/{requests.__version__}"
    )


def normalize_base_url(url: str) -> str:
    """``scheme://host[:port][/prefix]`` without a trailing slash; ``InputError`` if unusable."""
    raw = url.strip() if isinstance(url, str) else ""
    if not raw or any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in raw):
        raise InputError(f"base URL {url!r} is not usable (expected e.g. https://tenhou.net)")
    try:
        parts = urlsplit(raw)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise InputError(f"base URL {url!r} is not a valid URL") from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise InputError(f"base URL {url!r} must start with http:// or https:// and name a host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise InputError(f"base URL {url!r} must not carry a query, a fragment or credentials")
    return f"{parts.scheme.lower()}://{parts.netloc}{parts.path.rstrip('/')}"


def resolve_base_url(url: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The given base URL, else ``$TENHOU_TOOLS_BASE_URL``, else ``https://tenhou.net``."""
    env = os.environ if environ is None else environ
    return normalize_base_url(url or env.get(BASE_URL_ENV) or DEFAULT_BASE_URL)


def log_url(base_url: str, log_id: str) -> str:
    """The download URL of a (validated, canonical) game id."""
    return f"{normalize_base_url(base_url)}{LOG_PATH}{validate_log_id(log_id)}"


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date), else None."""
    if value is None:
        return None
    text = value.strip()
    if _RETRY_AFTER_SECONDS.fullmatch(text):
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:  # pragma: no cover - older Pythons returned None
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def check_mjlog(log_id: str, body: bytes, content_type: str | None = None, *, max_bytes: int = MAX_BYTES) -> None:
    """Raise ``DownloadError`` unless ``body`` is a complete mjlog of the game ``log_id`` names.

    Refuses an empty body, an HTML page, a body over ``max_bytes`` (before or after gunzip),
    anything the parser cannot read as a complete game, and a game whose ``GO type`` differs from
    the id's ``TTTT`` part.
    """
    if not body.strip():
        raise BadLog(f"{log_id}: the server sent an empty response (is the id right?)")
    if len(body) > max_bytes:
        raise BadLog(f"{log_id}: the response is larger than the {max_bytes}-byte limit")
    if not body.startswith(GZIP_MAGIC):
        head = body[:256].lstrip().lower()
        if head.startswith((b"<!doctype html", b"<html")) or (
            content_type and "html" in content_type.lower() and b"<mjloggm" not in body[:4096]
        ):
            raise BadLog(
                f"{log_id}: the server sent an HTML page, not an mjlog "
                "(the id may be wrong, or the site has changed)"
            )
    try:
        game = parse_game(body, source=log_id, log_id=log_id, max_bytes=max_bytes)
    except ParseError as exc:
        detail = exc.message + (f" at {exc.where}" if exc.where else "")
        raise BadLog(
            f"{log_id}: the response is not a complete mjlog ({_one_line(detail)})"
        ) from None
    expected = GameRef(log_id).type_code
    actual = game.header.ruleset.type_code
    if actual != expected:
        raise BadLog(
            f"{log_id}: the server sent a different game (GO type {actual}, the id says {expected})"
        )


class LogFetcher:
    """Fetch logs by game id through a cache, downloading from tenhou.net when needed.

    ``fetch(log_id)`` returns the cached file (``<cache_dir>/<id>.mjlog``, gzip); ``fetch_bytes``
    its bytes. With ``offline`` only the cache is used; with ``refresh`` every id is downloaded
    again (the cached copy is replaced atomically only once the new one checked out). The first
    download takes the cache's lock and keeps it until :meth:`close` (or the end of a ``with``
    block), so a whole run is one download session. Not thread-safe: one fetcher, one thread.
    """

    def __init__(
        self,
        cache_dir: str | os.PathLike[str] | None = None,
        base_url: str | None = None,
        *,
        offline: bool = False,
        refresh: bool = False,
        timeout: float | tuple[float, float] = DEFAULT_TIMEOUT,
        min_interval: float = DEFAULT_MIN_INTERVAL,
        jitter: float = DEFAULT_JITTER,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        backoff_max: float = BACKOFF_MAX,
        max_retry_after: float = MAX_RETRY_AFTER,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        user_agent: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        random: Callable[[], float] = _random.random,
        on_lock_wait: Callable[[str], None] | None = None,
        max_bytes: int = MAX_BYTES,
    ):
        if offline and refresh:
            raise InputError("offline and refresh cannot be combined (refresh needs the network)")
        connect, read = (timeout, timeout) if isinstance(timeout, (int, float)) else timeout
        for name, value in (("connect timeout", connect), ("read timeout", read)):
            if not value > 0:
                raise InputError(f"the {name} must be positive, not {value!r}")
        for name, value in (
            ("min_interval", min_interval), ("jitter", jitter), ("backoff", backoff),
            ("backoff_max", backoff_max), ("max_retry_after", max_retry_after),
            ("lock_timeout", lock_timeout), ("retries", retries),
        ):  # fmt: skip
            if not value >= 0:
                raise InputError(f"{name} must not be negative, not {value!r}")
        agent = default_user_agent() if user_agent is None else user_agent
        if not agent.strip() or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in agent):
            raise InputError("the User-Agent must be one non-empty line")
        self.cache = LogCache(cache_dir)
        self.base_url = "" if offline and base_url is None else resolve_base_url(base_url)
        self.offline = offline
        self.refresh = refresh
        self.timeout = (float(connect), float(read))
        self.min_interval = float(min_interval)
        self.jitter = float(jitter)
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.backoff_max = float(backoff_max)
        self.max_retry_after = float(max_retry_after)
        self.lock_timeout = float(lock_timeout)
        self.user_agent = agent
        self.max_bytes = max_bytes
        """The largest response read (a log, an index file): the read limit."""
        self.requests_made = 0
        """How many HTTP requests this fetcher has sent (retries included)."""
        self._sleep = sleep
        self._clock = clock
        self._random = random
        self._session: requests.Session | None = None
        self.on_lock_wait = on_lock_wait
        """Told once, in one line, when another run holds the download lock and this one waits."""
        self._lock = self.cache.lock(
            timeout=self.lock_timeout, sleep=sleep, clock=clock, on_wait=self._tell_lock_wait
        )
        self._last_request_end: float | None = None
        self._busy = threading.Lock()

    # -- the public API ---------------------------------------------------------------------

    @property
    def cache_dir(self) -> Path:
        return self.cache.root

    def cached(self, log_id: str | GameRef) -> Path | None:
        """The cached file of an id, or None (never touches the network)."""
        return self.cache.get(_id_of(log_id))

    def cached_bytes(self, log_id: str | GameRef) -> bytes:
        """The bytes of the cached log of an id, as stored (gzip); ``OSError`` when there is none
        or it cannot be read (never touches the network)."""
        return self.cache.path_for(_id_of(log_id)).read_bytes()

    def fetch(self, log_id: str | GameRef) -> Path:
        """The cached file of ``log_id``, downloading it first when it is not cached."""
        return self.fetch_result(log_id).path

    def fetch_bytes(self, log_id: str | GameRef) -> bytes:
        """The bytes of the cached log (gzip-compressed; ``parse_game`` reads them as they are)."""
        path = self.fetch(log_id)
        try:
            return path.read_bytes()
        except OSError as exc:
            raise DownloadError(f"cannot read the cached log {path}: {exc.strerror or exc}") from None

    def fetch_result(self, log_id: str | GameRef) -> Fetched:
        """Like :meth:`fetch`, and says whether the log was downloaded or found in the cache."""
        log_id = _id_of(log_id)
        if not self.refresh:
            path = self.cache.get(log_id)
            if path is not None:
                return Fetched(log_id, path, downloaded=False)
        if self.offline:
            raise DownloadError(
                f"{log_id}: not in the cache ({self.cache.root}) and offline mode does not download"
            )
        with self._busy:
            self._ensure_lock()
            if not self.refresh:
                # Another run may have downloaded it while we waited for the lock.
                path = self.cache.get(log_id)
                if path is not None:
                    return Fetched(log_id, path, downloaded=False)
            body = self._download(log_id)
            try:
                path = self.cache.put(log_id, body)
            except OSError as exc:
                raise DownloadError(
                    f"{log_id}: cannot write to the cache {self.cache.root}: {exc.strerror or exc}"
                ) from None
            return Fetched(log_id, path, downloaded=True)

    def download(self, log_id: str | GameRef) -> bytes:
        """Download and check one log without caching it (the lock is taken all the same)."""
        log_id = _id_of(log_id)
        if self.offline:
            raise DownloadError(f"{log_id}: offline mode does not download")
        with self._busy:
            self._ensure_lock()
            return self._download(log_id)

    def fetch_file(self, path: str) -> bytes:
        """``GET {base_url}/{path}`` (an index file, e.g. ``sc/raw/list.cgi``) with the same lock,
        pauses, retries and timeouts as a log; the body is not checked. ``NotFound`` on a 404."""
        if self.offline:
            raise DownloadError(f"{path}: offline mode does not download")
        with self._busy:
            self._ensure_lock()
            return self._download(path, url=f"{self.base_url}/{path}", check=None)

    def close(self) -> None:
        """Release the download lock and the HTTP session."""
        self._lock.release()
        session, self._session = self._session, None
        if session is not None:
            session.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------

    @property
    def _host(self) -> str:
        return urlsplit(self.base_url).netloc or self.base_url

    def _tell_lock_wait(self, message: str) -> None:
        if self.on_lock_wait is not None:
            self.on_lock_wait(message)

    def _ensure_lock(self) -> None:
        if self._lock.held:
            return
        self.cache.ensure_dir()
        try:
            self._lock.acquire()
        except LockTimeout as exc:
            raise StopDownloads(str(exc)) from None
        except OSError as exc:
            raise DownloadError(
                f"cannot lock the cache {self.cache.root}: {exc.strerror or exc}"
            ) from None
        self.cache.remove_stale_temps()

    def _get_session(self) -> requests.Session:
        if self._session is None:
            session = requests.Session()
            session.headers.update({
                "User-Agent": self.user_agent,
                "Accept": "application/xml, text/xml;q=0.9, */*;q=0.1",
            })  # fmt: skip
            adapter = HTTPAdapter(max_retries=0, pool_connections=1, pool_maxsize=1)
            session.mount("http://", adapter)
            session.mount("https://", adapter)
            self._session = session
        return self._session

    def _pause(self, delay: float) -> None:
        """Sleep for the backoff ``delay`` and at least until the polite interval has passed."""
        need = delay
        if self._last_request_end is not None:
            gap = self.min_interval + self.jitter * self._random()
            need = max(need, gap - (self._clock() - self._last_request_end))
        if need > 0:
            self._sleep(need)

    def _backoff_delay(self, retry: int) -> float:
        delay = min(self.backoff_max, self.backoff * 2 ** (retry - 1))
        return delay + self.jitter * self._random() if delay else delay

    def _download(
        self, log_id: str, url: str | None = None,
        check: Callable[..., None] | None = check_mjlog,
    ) -> bytes:
        """The checked body of a log (or, with ``url`` and ``check=None``, of any file named
        ``log_id`` in messages), after retries."""
        url = url or log_url(self.base_url, log_id)
        attempts = self.retries + 1
        delay = 0.0
        for attempt in range(1, attempts + 1):
            self._pause(delay)
            try:
                status, headers, body = self._request(url)
            except _Refused as exc:
                if attempt >= min(attempts, REFUSED_RETRIES + 1):
                    raise StopDownloads(f"{log_id}: {exc}{_after(attempt)}: {_likely_cause(exc)}") from None
                delay = REFUSED_BACKOFF
                continue
            except _Transient as exc:
                if attempt == attempts:
                    raise DownloadError(f"{log_id}: {exc}{_after(attempts)}") from None
                delay = self._backoff_delay(attempt)
                continue
            if status == 200:
                if check is not None:
                    check(log_id, body, headers.get("Content-Type"), max_bytes=self.max_bytes)
                return body
            if status == 404:
                if check is None:
                    raise NotFound(f"{log_id}: not found on {self._host} (HTTP 404)")
                raise not_found_error(log_id, self._host)
            if status in (401, 403):
                raise StopDownloads(
                    f"{log_id}: {self._host} refused the request (HTTP {status}); "
                    "stopping the downloads"
                )
            if status == 429 or 500 <= status <= 599:
                wait = parse_retry_after(headers.get("Retry-After"))
                if wait is not None and wait > self.max_retry_after:
                    raise StopDownloads(
                        f"{log_id}: {self._host} asks to wait {wait:.0f} s before trying again "
                        f"(HTTP {status}); stopping, try again later"
                    )
                if attempt == attempts:
                    if status == 429:
                        raise StopDownloads(
                            f"{log_id}: {self._host} is rate-limiting (HTTP 429){_after(attempts)}; "
                            "stopping, try again later"
                        )
                    raise DownloadError(
                        f"{log_id}: server error HTTP {status} from {self._host}{_after(attempts)}"
                    )
                delay = max(self._backoff_delay(attempt), wait or 0.0)
                continue
            if 300 <= status < 400 and status != 304 and headers.get("Location"):
                where = _one_line(headers["Location"])[:200]
                raise DownloadError(
                    f"{log_id}: {self._host} redirected to {where} (HTTP {status}); "
                    "not followed — set the base URL if the site moved"
                )
            raise DownloadError(f"{log_id}: unexpected HTTP {status} from {self._host}")
        raise AssertionError("unreachable")  # pragma: no cover

    def _request(self, url: str) -> tuple[int, Mapping[str, str], bytes]:
        """One GET: (status, headers, body); transport failures raise ``_Transient``."""
        session = self._get_session()
        self.requests_made += 1
        started = self._clock()
        try:
            with session.get(url, timeout=self.timeout, stream=True, allow_redirects=False) as resp:
                if resp.status_code != 200:
                    return resp.status_code, resp.headers, b""
                chunks: list[bytes] = []
                size = 0
                for chunk in resp.iter_content(_CHUNK):
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise DownloadError(
                            f"{url.rsplit('?', 1)[-1]}: the response is larger than the "
                            f"{self.max_bytes}-byte limit"
                        )
                    chunks.append(chunk)
                    if self._clock() - started > MAX_RESPONSE_SECONDS:
                        raise _Transient(
                            f"the response took longer than {MAX_RESPONSE_SECONDS:g} s"
                        )
                return resp.status_code, resp.headers, b"".join(chunks)
        except requests.exceptions.RequestException as exc:
            if isinstance(exc, requests.exceptions.InvalidHeader):
                raise DownloadError(
                    f"{url.rsplit('?', 1)[-1]}: {self._host} sent a malformed response "
                    f"({_one_line(str(exc))[:160]})"
                ) from None
            reason = _describe(exc, self._host, self.timeout)
            if reason is None:
                raise DownloadError(f"{url.rsplit('?', 1)[-1]}: request failed: {_one_line(str(exc))[:200]}") from None
            if reason.startswith(_NOBODY_THERE):
                raise _Refused(reason) from None
            raise _Transient(reason) from None
        except (urllib3.exceptions.HTTPError, http.client.HTTPException) as exc:
            # Not every urllib3 error comes wrapped: to release the connection of a redirect,
            # requests reads its body, and when that fails it reads again, unguarded.
            if isinstance(exc, (urllib3.exceptions.ProtocolError, http.client.IncompleteRead)):
                raise _Transient(f"the connection to {self._host} dropped in the middle of the response") from None
            raise _Transient(f"{self._host} sent a malformed response ({type(exc).__name__})") from None
        except (UnicodeError, ValueError, LookupError) as exc:
            # requests and urllib3 decode headers themselves (a Location that is not UTF-8 fails
            # even when redirects are not followed): the response is broken, not our request.
            raise DownloadError(
                f"{url.rsplit('?', 1)[-1]}: {self._host} sent a malformed response "
                f"({type(exc).__name__}: {_one_line(str(exc))[:120]})"
            ) from None
        finally:
            self._last_request_end = self._clock()


class _Transient(Exception):
    """A failure worth retrying (connection, timeout, dropped response); ``str()`` says which."""


class _Refused(_Transient):
    """Nobody is there: the connection was refused or the host name does not resolve (retried
    ``REFUSED_RETRIES`` times at most)."""


_NOBODY_THERE = ("connection refused by ", "cannot resolve the host name ")
"""How ``_describe`` words the failures that are ``_Refused``."""


def _describe(exc: requests.exceptions.RequestException, host: str, timeout: tuple[float, float]) -> str | None:
    """A one-line reason for a transport failure worth retrying, or None if retrying is pointless."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return f"could not connect to {host} within {timeout[0]:g} s"
    if isinstance(exc, requests.exceptions.ReadTimeout):
        return f"no response from {host} within {timeout[1]:g} s (read timeout)"
    if isinstance(exc, requests.exceptions.ChunkedEncodingError):
        return f"the connection to {host} dropped in the middle of the response"
    if isinstance(exc, requests.exceptions.ContentDecodingError):
        return f"the response from {host} could not be decompressed"
    if isinstance(exc, requests.exceptions.SSLError):
        return None
    if isinstance(exc, requests.exceptions.ConnectionError):
        text = repr(exc)
        if "BadStatusLine" in text or "LineTooLong" in text or "InvalidChunkLength" in text:
            return f"{host} sent a malformed response (no valid HTTP status line or chunk)"
        if "ReadTimeoutError" in text or "timed out" in text:
            return f"the response from {host} stopped for more than {timeout[1]:g} s (read timeout)"
        if "Connection refused" in text or "ECONNREFUSED" in text:
            return f"connection refused by {host}"
        if "RemoteDisconnected" in text or "without response" in text:
            return f"{host} closed the connection without a response"
        if "Connection reset" in text:
            return f"the connection to {host} was reset"
        if "NameResolutionError" in text or "Name or service not known" in text:
            return f"cannot resolve the host name {host}"
        return f"cannot connect to {host}"
    return None


def _likely_cause(exc: Exception) -> str:
    """What a refused connection or an unknown host most likely means, for the message."""
    if str(exc).startswith("cannot resolve the host name "):
        return "is this machine offline (no network or DNS), or the base URL wrong?"
    return "is the server down, or the base URL wrong?"


def _after(attempts: int) -> str:
    return f", after {attempts} attempts" if attempts > 1 else ""


def _id_of(ref: str | GameRef) -> str:
    return validate_log_id(ref.log_id if isinstance(ref, GameRef) else ref)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
