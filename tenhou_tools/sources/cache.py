"""The download cache: immutable logs keyed by game id, atomic writes, one downloader at a time.

Layout of a cache directory (``$XDG_CACHE_HOME/tenhou-tools`` or ``~/.cache/tenhou-tools`` unless
told otherwise)::

    <id>.mjlog        the log as downloaded, gzip-compressed (the parser sniffs gzip)
    download.lock     the inter-process lock (fcntl.flock) held by the one downloading run

A log is immutable once Tenhou publishes it, so a cached id is never downloaded again unless the
caller asks to refresh. Every file is written to a temporary file in the same directory, synced,
then renamed over its final name (``os.replace``): a reader sees the old file or the new one,
never a partial one, also when the writer is interrupted. Temporary names start with ``.`` and end
with ``.tmp`` so they can never be mistaken for a log.
"""

from __future__ import annotations

import errno
import fcntl
import gzip
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

from ..errors import DownloadError, InputError, ParseError, TenhouToolsError
from ..ids import log_file_name
from ..mjlog.read import MAX_BYTES, decompress

CACHE_DIR_ENV = "TENHOU_TOOLS_CACHE_DIR"
"""Overrides the cache directory (the ``--cache-dir`` option wins over it)."""

LOCK_NAME = "download.lock"
TEMP_SUFFIX = ".tmp"
_GZIP_MAGIC = b"\x1f\x8b"


class ExportConflict(TenhouToolsError):
    """The destination already holds a different file of the same name; it is left alone."""


def default_cache_dir(environ: dict[str, str] | None = None) -> Path:
    """``$TENHOU_TOOLS_CACHE_DIR``, else ``$XDG_CACHE_HOME/tenhou-tools``, else ``~/.cache/tenhou-tools``.

    A relative ``XDG_CACHE_HOME`` is ignored, as the XDG Base Directory spec requires.
    """
    env = os.environ if environ is None else environ
    explicit = env.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "tenhou-tools"
    return Path.home() / ".cache" / "tenhou-tools"


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzip-compressed, unless it already is (deterministic: no name, mtime 0)."""
    if data.startswith(_GZIP_MAGIC):
        return data
    return gzip.compress(data, compresslevel=9, mtime=0)


def write_atomic(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either absent/old or complete, never partial.

    A temporary file in the same directory is written, flushed and fsynced, then renamed over
    ``path``; the directory is fsynced so the rename survives a crash. On any exception
    (``KeyboardInterrupt`` included) the temporary file is removed.
    """
    tmp = _temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(path.parent)


def write_new(path: Path, data: bytes, *, mode: int = 0o644) -> bool:
    """Atomically create ``path`` with ``data`` unless a file is already there (no overwrite).

    Returns True when the file was written, False when an identical file was already there.
    Raises ``ExportConflict`` when a *different* file is there. Uses a hard link, which fails
    atomically if the name exists; where links are unsupported, falls back to check-and-rename.
    """
    if path.exists() or path.is_symlink():
        return _same_or_conflict(path, data)
    tmp = _temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return _same_or_conflict(path, data)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            if path.exists() or path.is_symlink():
                return _same_or_conflict(path, data)
            os.replace(tmp, path)
    finally:
        _unlink_quietly(tmp)
    _fsync_dir(path.parent)
    return True


class LogCache:
    """A directory of immutable, gzip-compressed logs named ``<id>.mjlog``."""

    def __init__(self, root: str | os.PathLike[str] | None = None):
        self.root = Path(root).expanduser() if root is not None else default_cache_dir()

    def __repr__(self) -> str:
        return f"LogCache({str(self.root)!r})"

    def path_for(self, log_id: str) -> Path:
        """Where the log of ``log_id`` lives (whether or not it is there). Validates the id."""
        return self.root / log_file_name(log_id)

    def get(self, log_id: str) -> Path | None:
        """The cached file of ``log_id``, or None."""
        path = self.path_for(log_id)
        return path if path.is_file() else None

    def put(self, log_id: str, data: bytes) -> Path:
        """Store a (validated) log, gzip-compressed, atomically; replaces an older copy."""
        path = self.path_for(log_id)
        self.ensure_dir()
        write_atomic(path, gzip_bytes(data))
        return path

    def ensure_dir(self) -> None:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the cache directory {self.root}: {exc.strerror or exc}") from None
        if not self.root.is_dir():
            raise InputError(f"the cache directory {self.root} is not a directory")

    def remove_stale_temps(self) -> int:
        """Delete temporary files left by a killed writer. Call only while holding the lock."""
        removed = 0
        try:
            entries = list(os.scandir(self.root))
        except OSError:
            return 0
        for entry in entries:
            if entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX) and entry.is_file():
                _unlink_quietly(Path(entry.path))
                removed += 1
        return removed

    def lock(
        self,
        *,
        timeout: float,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        poll: float = 0.1,
        on_wait: Callable[[str], None] | None = None,
    ) -> CacheLock:
        """The exclusive download lock of this cache (acquire it with ``acquire()`` or ``with``)."""
        return CacheLock(
            self.root / LOCK_NAME, timeout=timeout, sleep=sleep, clock=clock, poll=poll, on_wait=on_wait
        )


class CacheLock:
    """An exclusive ``fcntl.flock`` on ``download.lock``: one downloading run per cache.

    The lock belongs to the open file, so it also excludes other threads of the same process that
    open their own ``CacheLock``; the kernel releases it when the process dies. The holder writes
    its process id into the file, which only serves the error message of a run that waits.
    """

    def __init__(
        self,
        path: Path,
        *,
        timeout: float,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        poll: float = 0.1,
        on_wait: Callable[[str], None] | None = None,
    ):
        """``on_wait`` is told once, in one line, when the lock is taken and this run must wait."""
        self.path = path
        self.on_wait = on_wait
        self.timeout = timeout
        self._sleep = sleep
        self._clock = clock
        self._poll = poll
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, waiting up to ``timeout`` seconds; ``DownloadError`` when it stays taken."""
        if self._fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            deadline = self._clock() + self.timeout
            told = False
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    now = self._clock()
                    holder = _read_holder(fd)
                    who = f" (process {holder})" if holder else ""
                    busy = f"another tenhou-tools download{who} is using the cache {self.path.parent}"
                    if now >= deadline:
                        raise LockTimeout(
                            f"{busy}; gave up after waiting {self.timeout:g} s (Tenhou allows one "
                            "download session at a time)"
                        ) from None
                    if not told and self.on_wait is not None:
                        self.on_wait(f"{busy}; waiting up to {self.timeout:g} s")
                    told = True
                    self._sleep(min(self._poll, max(deadline - now, 0.0)))
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.ftruncate(fd, 0)
            except OSError:  # pragma: no cover - best effort
                pass
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class LockTimeout(DownloadError):
    """Another run holds the download lock of this cache directory."""


def export_log(src: Path, dest_dir: str | os.PathLike[str], name: str | None = None) -> tuple[Path, bool]:
    """Copy a cached log into ``dest_dir`` atomically, never overwriting a different file.

    Returns ``(destination, copied)``; ``copied`` is False when an identical file was already
    there. Raises ``ExportConflict`` when a different file has the name, ``InputError`` when the
    directory cannot be created or written.
    """
    dest_root = Path(dest_dir).expanduser()
    try:
        dest_root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the output directory {dest_root}: {exc.strerror or exc}") from None
    dest = dest_root / (name or src.name)
    try:
        data = src.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {src}: {exc.strerror or exc}") from None
    try:
        copied = write_new(dest, data)
    except OSError as exc:
        raise InputError(f"cannot write {dest}: {exc.strerror or exc}") from None
    return dest, copied


# -- helpers ------------------------------------------------------------------------------------


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{secrets.token_hex(6)}{TEMP_SUFFIX}")


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError:  # pragma: no cover - best effort cleanup
        pass


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:  # pragma: no cover - some filesystems cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _same_or_conflict(path: Path, data: bytes) -> bool:
    """False when ``path`` holds the same log as ``data`` (byte-equal or equal once gunzipped)."""
    existing = None
    try:
        if path.is_file() and path.stat().st_size <= MAX_BYTES:
            existing = path.read_bytes()
    except OSError:
        pass
    if existing is not None and (existing == data or _plain(existing) == _plain(data)):
        return False
    raise ExportConflict(f"{path} already exists with different content; not overwritten")


def _plain(data: bytes) -> bytes | None:
    """The uncompressed bytes (bounded, bomb-safe), or None when they cannot be read."""
    try:
        return decompress(data)
    except ParseError:
        return None


def _read_holder(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
