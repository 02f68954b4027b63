"""Fuzzing of the I/O edges, beyond one log's bytes (``fuzz.py``): the containers logs come in,
the downloader and the ``stats --db`` store. Every input must end in game records with findings
or a one-line error with a documented exit code: never an exception escaping, a hang or
unbounded memory.

- ``zip`` and ``sqlite`` (``fuzz_containers``): zip archives written by our own small zip writer
  (full control over every header field) and houou-logs (gzip blobs) / phoenix-logs (bz2 blobs)
  SQLite databases, built from seed logs and then damaged: byte flips, truncation, header fields
  set to edge values, huge declared sizes, zip64 records that lie, zip bombs and overlapping
  members, bogus member names (``../x``, absolute paths, control characters, invalid UTF-8),
  corrupt gzip / bz2 blobs and bombs, odd column values, wrong table layouts (views, missing
  columns, composite keys, generated columns, a view over an endless recursive query). Each file
  goes through ``sources.local.count_inputs`` and ``iter_logs`` and every item through
  ``validate``'s and ``stats``' work (``batch.check_item``, ``stats.records.stats_item``); now
  and then through the ``validate`` command itself. Nothing may be written beside the file.
- ``download`` (``fuzz_downloads``): ``sources.http.LogFetcher`` against a loopback server on
  127.0.0.1 that answers at random: any status, mutated or garbage bodies (gzip that is not,
  bodies of another game, HTML), wrong ``Content-Length`` and ``Content-Type``, unknown
  ``Content-Encoding``, garbage ``Retry-After`` and ``Location``, bodies cut short, trickled or
  stalled past the read timeout. Each fetch must return a cached log that is a complete game of
  the id's type, or raise a one-line ``DownloadError``; the cache never holds anything else.
- ``store`` (``fuzz_store``): ``stats --db FILE`` on a damaged database (truncated, bytes flipped
  or overwritten, another SQLite schema, missing or altered tables, bad counters, not SQLite at
  all): a one-line error and exit 2, or a report (exit 0/1); the file is changed only by a run
  that succeeded, and never when the command fails.

Used by ``tests/test_fuzz_io.py`` (bounded runs in CI) and ``scripts/fuzz.py`` (long runs).
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import json
import os
import random
import shutil
import sqlite3
import struct
import tempfile
import threading
import time
import traceback
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .findings import FindingCode
from .fuzz import MUTATIONS, FuzzReport, spent

IO_PATHS: tuple[str, ...] = ("zip", "sqlite", "download", "store")
"""What ``scripts/fuzz.py --paths`` can drive besides ``fuzz.PATHS``."""

MAX_ITEMS = 20_000
"""A container that yields more items than this is a failure (nothing we build comes close)."""


class _Failure(Exception):
    """A check of the fuzzer failed (not an exception of the code under test)."""


def _one_line(message: str, what: str) -> None:
    if not message or "\n" in message or "\r" in message:
        raise _Failure(f"{what} is not one line: {message!r}")


@contextlib.contextmanager
def _attempt(report: FuzzReport, path: str, mutation: str, data: bytes, limit_s: float, *,
             where: Callable[[], str] = lambda: "", what: str = "") -> Iterator[None]:
    """One fuzz input: a ``_Failure`` or any other exception (the traceback kept) becomes one of
    ``report``'s failures, tagged ``[path]`` and followed by ``where()``; the time it took is
    recorded for ``path``, and taking longer than ``limit_s`` is a failure too."""
    t0 = time.monotonic()
    try:
        yield
    except _Failure as failure:
        report.failures.append((mutation, f"[{path}] {failure}{where()}", data))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - that is exactly what we are looking for
        report.failures.append((mutation, f"[{path}] {type(exc).__name__}: {exc}{where()}\n"
                                + traceback.format_exc(), data))
    elapsed = time.monotonic() - t0
    report.slowest_s = max(report.slowest_s, elapsed)
    report.slowest_by_path[path] = max(report.slowest_by_path.get(path, 0.0), elapsed)
    if elapsed > limit_s:
        report.failures.append((mutation, f"[{path}] {what}took {elapsed:.1f} s", data))


def peak_rss_bytes() -> int:
    """The peak resident set size of this process so far (``ru_maxrss``)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def rss_bytes() -> int:
    """The current resident set size of this process (Linux ``/proc``; else the peak)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return peak_rss_bytes()


# === containers ==================================================================================

# --- a zip writer with every field under control ----------------------------------------------

_STORED, _DEFLATED, _BZIP2 = 0, 8, 12


@dataclass
class ZipEntry:
    """One member as the writer lays it out. ``None`` fields take their true value."""

    name: bytes
    data: bytes
    method: int = _DEFLATED
    flags: int = 0x800  # names are UTF-8
    size: int | None = None
    """The uncompressed size the headers declare."""
    csize: int | None = None
    crc: int | None = None
    zip64: bool = False
    """Sizes and offset as 0xFFFFFFFF, the real values in a zip64 extra field."""
    zip64_values: tuple[int | None, int | None, int | None] | None = None
    """(size, csize, offset) written in the zip64 extra field instead of the true ones (None:
    the true one)."""
    local_name: bytes | None = None
    offset: int | None = None
    """Where the central directory says the local header is."""
    comment: bytes = b""


def _compress(data: bytes, method: int) -> bytes:
    if method == _DEFLATED:
        c = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        return c.compress(data) + c.flush()
    if method == _BZIP2:
        return bz2.compress(data, 9)
    return data


def build_zip(entries: Sequence[ZipEntry], *, comment: bytes = b"", zip64_end: bool = False,
              entry_count: int | None = None, cd_offset: int | None = None,
              cd_size: int | None = None, payloads: dict[int, bytes] | None = None) -> bytes:
    """An archive of ``entries`` (PKWARE APPNOTE 4.3), with whatever the entries declare.

    ``payloads`` gives already compressed data for some entries (by index), for bombs.
    """
    out = bytearray()
    central = bytearray()
    for i, e in enumerate(entries):
        packed = payloads[i] if payloads and i in payloads else _compress(e.data, e.method)
        size = len(e.data) if e.size is None else e.size
        csize = len(packed) if e.csize is None else e.csize
        crc = zlib.crc32(e.data) if e.crc is None else e.crc
        offset = len(out)
        local_name = e.name if e.local_name is None else e.local_name
        out += struct.pack("<4s2B4H3L2H", b"PK\x03\x04", 20, 0, e.flags & 0xFFFF, e.method & 0xFFFF,
                           0, 0x21, crc & 0xFFFFFFFF, csize & 0xFFFFFFFF, size & 0xFFFFFFFF,
                           len(local_name), 0)
        out += local_name + packed
        declared_offset = offset if e.offset is None else e.offset
        extra = b""
        fields = (size, csize, declared_offset)
        if e.zip64:
            values = tuple(f if v is None else v for v, f in zip(e.zip64_values or fields, fields))
            extra = struct.pack("<2H3Q", 1, 24, *(v & 0xFFFFFFFFFFFFFFFF for v in values))
            fields = (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
        central += struct.pack("<4s4B4H3L5H2L", b"PK\x01\x02", 20, 3, 20, 0, e.flags & 0xFFFF,
                               e.method & 0xFFFF, 0, 0x21, crc & 0xFFFFFFFF, fields[1] & 0xFFFFFFFF,
                               fields[0] & 0xFFFFFFFF, len(e.name), len(extra), len(e.comment), 0, 0,
                               0, fields[2] & 0xFFFFFFFF)
        central += e.name + extra + e.comment
    start = len(out)
    out += central
    count = len(entries) if entry_count is None else entry_count
    offset = start if cd_offset is None else cd_offset
    size = len(central) if cd_size is None else cd_size
    if zip64_end:
        at = len(out)
        out += struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0,
                           count & 0xFFFFFFFFFFFFFFFF, count & 0xFFFFFFFFFFFFFFFF,
                           size & 0xFFFFFFFFFFFFFFFF, offset & 0xFFFFFFFFFFFFFFFF)
        out += struct.pack("<4sLQL", b"PK\x06\x07", 0, at, 1)
        count16, size32, offset32 = 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    else:
        count16, size32, offset32 = count & 0xFFFF, size & 0xFFFFFFFF, offset & 0xFFFFFFFF
    out += struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count16, count16, size32, offset32,
                       len(comment) & 0xFFFF)
    out += comment
    return bytes(out)


@lru_cache(maxsize=4)
def _bomb(method: int, megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, compressed (deflate: about 1/1000 of that; bz2: far less)."""
    zeros = b"\0" * (1 << 20)
    if method == _BZIP2:
        c = bz2.BZ2Compressor(9)
    else:
        c = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    parts = [c.compress(zeros) for _ in range(megabytes)]
    parts.append(c.flush())
    return b"".join(parts)


EVIL_NAMES: tuple[bytes, ...] = (
    b"../x.xml", b"../../../../../../tmp/x.xml", b"/abs/x.xml", b"/etc/passwd.xml",
    b"..\\..\\x.xml", b"C:\\Windows\\x.xml", b"C:/x.xml", b"a/../../b.xml", b"./././c.xml",
    b"x\x00y.xml", b"\x1b[2J\x1b[31mred.xml", b"line\nbreak.xml", b"tab\tname.xml", b"",
    b"/", b"..", b".", b"\xff\xfe\x80.xml", b"\xc3.xml", b"dir/", b".hidden.xml",
    b"__MACOSX/._x.xml", b"2014/01/2014010100gm-00a9-0000-aaaaaaaa.mjlog",
    b"2014010100gm-00a9-0000-aaaaaaaa.mjlog", b"2014010100gm-00a9-0000-aaaaaaaa.xml",
    b"../2014010100gm-00a9-0000-aaaaaaaa.mjlog", b"a" * 4000 + b".xml", b"\xe2\x80\xae.xml",
    b"con.xml", b"game.json", b"x.json.gz", b"x.XML", b"x.txt", b"no_suffix",
)

_GAME_IDS = ("2014010100gm-00a9-0000-aaaaaaaa", "2014010101gm-00a9-0000-bbbbbbbb",
             "2014010102gm-00b9-0000-cccccccc", "2014010103gm-00a9-0000-dddddddd")


def _member_name(rng: random.Random, i: int) -> bytes:
    r = rng.random()
    if r < 0.15:
        return rng.choice(EVIL_NAMES)
    if r < 0.45:
        return f"{rng.choice(['', '2014/', '2014/01/'])}{rng.choice(_GAME_IDS)}{rng.choice(['.mjlog', '.xml', '.xml.gz'])}".encode()
    return f"{rng.choice(['', 'logs/', 'a/b/'])}{i}_{rng.choice(['game', 'log', '牌譜'])}{rng.choice(['.xml', '.mjlog', '.gz', '.json'])}".encode()


def _member_data(seeds: Sequence[bytes], rng: random.Random) -> bytes:
    data = rng.choice(seeds)
    r = rng.random()
    if r < 0.15 and not data.startswith(b"{"):
        data = rng.choice(list(MUTATIONS.values()))(data, rng)
    elif r < 0.35 and not data.startswith(b"\x1f\x8b"):
        data = gzip.compress(data, mtime=0)
    return data


def _flip(data: bytes, rng: random.Random, n: int | None = None, lo: int = 0, hi: int | None = None) -> bytes:
    if not data:
        return data
    hi = len(data) if hi is None else min(hi, len(data))
    if hi <= lo:
        return data
    out = bytearray(data)
    for _ in range(n or rng.randint(1, 8)):
        at = rng.randrange(lo, hi)
        if rng.random() < 0.5:
            out[at] ^= 1 << rng.randrange(8)
        else:
            out[at] = rng.randrange(256)
    return bytes(out)


def _positions(data: bytes, sig: bytes) -> list[int]:
    out, at = [], data.find(sig)
    while at >= 0:
        out.append(at)
        at = data.find(sig, at + 1)
    return out


_EDGE_VALUES = (0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF, 0x7FFFFFFF, 0x80000000,
                0xFFFFFFFE, 0xFFFFFFFF)
# (signature, {field: (offset, size)}) of the three kinds of zip header
_ZIP_FIELDS = {
    b"PK\x03\x04": {"flags": (6, 2), "method": (8, 2), "crc": (14, 4), "csize": (18, 4),
                    "size": (22, 4), "name_len": (26, 2), "extra_len": (28, 2)},
    b"PK\x01\x02": {"flags": (8, 2), "method": (10, 2), "crc": (16, 4), "csize": (20, 4),
                    "size": (24, 4), "name_len": (28, 2), "extra_len": (30, 2),
                    "comment_len": (32, 2), "disk": (34, 2), "offset": (42, 4)},
    b"PK\x05\x06": {"disk": (4, 2), "cd_disk": (6, 2), "n_here": (8, 2), "entries": (10, 2),
                    "cd_size": (12, 4), "cd_offset": (16, 4), "comment_len": (20, 2)},
    b"PK\x06\x06": {"entries": (32, 8), "cd_size": (40, 8), "cd_offset": (48, 8)},
    b"PK\x06\x07": {"disk": (4, 4), "eocd64": (8, 8), "disks": (16, 4)},
}


def _patch_field(data: bytes, rng: random.Random) -> bytes:
    """A header field (of a local header, a central entry, an end record) set to an edge value."""
    sigs = [s for s in _ZIP_FIELDS if s in data]
    if not sigs:
        return _flip(data, rng)
    sig = rng.choice(sigs)
    at = rng.choice(_positions(data, sig))
    name, (off, size) = rng.choice(list(_ZIP_FIELDS[sig].items()))
    if at + off + size > len(data):
        return data
    old = int.from_bytes(data[at + off: at + off + size], "little")
    limit = (1 << (8 * size)) - 1
    value = rng.choice([*(_EDGE_VALUES if size <= 4 else (0, 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1)),
                        old + 1, old - 1, old * 2, rng.randrange(limit + 1)]) & limit
    return data[: at + off] + value.to_bytes(size, "little") + data[at + off + size:]


@dataclass
class Case:
    """One generated container: what was done to it, its bytes and the file suffix to use."""

    mutation: str
    data: bytes
    suffix: str


def zip_case(seeds: Sequence[bytes], rng: random.Random) -> Case:
    """A zip archive of seed logs, then damaged one way (sometimes two)."""
    n = rng.randint(1, 6)
    entries = [ZipEntry(_member_name(rng, i), _member_data(seeds, rng),
                        method=rng.choice([_DEFLATED, _DEFLATED, _STORED, _BZIP2])) for i in range(n)]
    kind = rng.choice(["flip_bytes", "flip_headers", "patch_field", "patch_field", "truncate",
                       "evil_names", "huge_sizes", "zip64", "bomb", "overlap", "many_members",
                       "bad_crc", "bad_method", "comment", "nested", "data_descriptor", "clean"])
    kw: dict[str, Any] = {}
    payloads: dict[int, bytes] = {}
    if kind == "evil_names":
        for e in entries:
            e.name = rng.choice(EVIL_NAMES)
            if rng.random() < 0.3:
                e.flags &= ~0x800  # cp437
            if rng.random() < 0.2:
                e.local_name = rng.choice(EVIL_NAMES)
    elif kind == "huge_sizes":
        e = rng.choice(entries)
        if rng.random() < 0.5:
            e.size = rng.choice([0xFFFFFFFE, 0x7FFFFFFF, 5 << 20, len(e.data) - 1, len(e.data) + 1, 0])
        else:
            e.csize = rng.choice([0xFFFFFFFE, 0x7FFFFFFF, 5 << 20, 0])
    elif kind == "zip64":
        kw["zip64_end"] = rng.random() < 0.7
        for e in entries:
            if rng.random() < 0.7:
                e.zip64 = True
        e = rng.choice(entries)
        if rng.random() < 0.5:
            big = rng.choice([2**32, 2**40, 2**63 - 1, 2**63, 2**64 - 1, 5 << 20])
            which = rng.randrange(3)
            e.zip64 = True
            e.zip64_values = tuple(big if j == which else None for j in range(3))  # type: ignore[assignment]
        if rng.random() < 0.3:
            kw["entry_count"] = rng.choice([2**32, 2**63, 2**64 - 1, n + 1])
        if rng.random() < 0.3:
            kw["cd_offset"] = rng.choice([2**63, 2**64 - 1, 2**40])
    elif kind == "bomb":
        method = rng.choice([_DEFLATED, _BZIP2])
        mib = 64 if method == _DEFLATED else 16
        bomb = ZipEntry(rng.choice([b"bomb.xml", f"{_GAME_IDS[0]}.mjlog".encode()]), b"", method=method)
        bomb.size = rng.choice([mib << 20, 1000, len(seeds[0]), 4 << 20])
        bomb.crc = 0
        entries.insert(rng.randrange(len(entries) + 1), bomb)
        payloads[entries.index(bomb)] = _bomb(method, mib)
    elif kind == "overlap":
        # many central entries naming the same local data (a quoted-overlap bomb, simplified)
        first = entries[0]
        first.data = rng.choice(seeds)
        copies = rng.randint(2, 200)
        data = build_zip(entries)
        cd = data.index(b"PK\x01\x02")
        end = data.index(b"PK\x05\x06", cd)
        one = data[cd: cd + 46 + len(first.name)]
        central = one * copies + data[cd:end]
        count = copies + len(entries)
        tail = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count & 0xFFFF, count & 0xFFFF,
                           len(central), cd, 0)
        return Case("zip:overlap", data[:cd] + central + tail, ".zip")
    elif kind == "many_members":
        entries = [ZipEntry(f"{i}.xml".encode(), b"" if rng.random() < 0.8 else rng.choice(seeds),
                            method=_STORED) for i in range(rng.randint(100, 2000))]
    elif kind == "bad_crc":
        rng.choice(entries).crc = rng.randrange(2**32)
    elif kind == "bad_method":
        e = rng.choice(entries)
        e.method = rng.choice([1, 6, 9, 14, 93, 95, 98, 99, 0xFFFF])
        if rng.random() < 0.5:
            e.flags |= rng.choice([0x1, 0x40, 0x2000])
    elif kind == "comment":
        kw["comment"] = rng.choice([b"PK\x05\x06" + bytes(30), b"PK\x05\x06" * 20,
                                    bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))),
                                    b"x" * 65535])
    elif kind == "nested":
        inner = build_zip([ZipEntry(b"inner.xml", rng.choice(seeds))])
        entries.append(ZipEntry(rng.choice([b"nested.xml", b"nested.zip.xml", b"n.mjlog"]), inner))
    elif kind == "data_descriptor":
        for e in entries:
            e.flags |= 0x8
    data = build_zip(entries, payloads=payloads, **kw)
    if kind == "flip_bytes":
        data = _flip(data, rng)
    elif kind == "flip_headers":
        sig = rng.choice([b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"])
        at = rng.choice(_positions(data, sig) or [0])
        data = _flip(data, rng, rng.randint(1, 3), at, at + 46)
    elif kind == "patch_field":
        data = _patch_field(data, rng)
    elif kind == "truncate":
        data = data[: rng.randrange(len(data))]
    if rng.random() < 0.2 and kind not in ("truncate", "bomb"):  # and a second blow
        second = rng.choice(["flip_bytes", "patch_field", "truncate"])
        data = (_flip(data, rng) if second == "flip_bytes" else _patch_field(data, rng)
                if second == "patch_field" else data[: rng.randrange(max(len(data), 1))])
        kind = f"{kind}+{second}"
    return Case(f"zip:{kind}", data, rng.choice([".zip", ".zip", ".ZIP", ".xml", ""]))


# --- SQLite databases -----------------------------------------------------------------------------

HOUOU_SCHEMA = """CREATE TABLE logs (
    id TEXT PRIMARY KEY, date TEXT NOT NULL, num_players INTEGER NOT NULL, is_tonpu INTEGER NOT NULL,
    is_processed INTEGER NOT NULL, was_error INTEGER NOT NULL, log BLOB) WITHOUT ROWID;
CREATE INDEX idx_logs_status_filter ON logs(is_processed, was_error, num_players, is_tonpu, id);
CREATE TABLE file_index (file TEXT PRIMARY KEY, size INTEGER NOT NULL) WITHOUT ROWID;"""
PHOENIX_SCHEMA = """CREATE TABLE logs(log_id text primary key, date text, is_tonpusen int,
    is_sanma int, is_processed int, was_error int, log_content text, log_hash text);
CREATE INDEX is_processed_index ON logs (is_processed);
CREATE TABLE last_downloads(name text, date int);"""

# Other layouts of a `logs` table (or none), to be refused or read: (schema, id column, log column)
_ODD_LAYOUTS: tuple[tuple[str, str | None, str | None], ...] = (
    ("CREATE TABLE logs(id, log)", "id", "log"),
    ("CREATE TABLE logs(id INTEGER PRIMARY KEY, log BLOB)", "id", "log"),
    ("CREATE TABLE logs(log_id BLOB PRIMARY KEY, log_content BLOB) WITHOUT ROWID", "log_id", "log_content"),
    ("CREATE TABLE logs(a, b, PRIMARY KEY (a, b)) WITHOUT ROWID", None, None),
    ("CREATE TABLE logs(id TEXT, log BLOB, k1, k2, PRIMARY KEY (k1, k2)) WITHOUT ROWID", "id", "log"),
    ("CREATE TABLE logs(rowid TEXT, _rowid_ TEXT, oid TEXT, id TEXT, log BLOB)", "id", "log"),
    ("CREATE TABLE LOGS(ID TEXT PRIMARY KEY, LOG BLOB)", "ID", "LOG"),
    ('CREATE TABLE logs("id" TEXT, "log" BLOB, "x""y" TEXT)', "id", "log"),
    ("CREATE TABLE logs(id TEXT PRIMARY KEY COLLATE NOCASE, log BLOB) WITHOUT ROWID", "id", "log"),
    ("CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB GENERATED ALWAYS AS (zeroblob(200000000)) VIRTUAL)", "id", None),
    ("CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB GENERATED ALWAYS AS (printf('%.*c', 100000, 'x')) VIRTUAL)", "id", None),
    ("CREATE TABLE logs(id TEXT PRIMARY KEY, raw BLOB, log BLOB GENERATED ALWAYS AS (raw || raw) STORED)", "id", "raw"),
    ("CREATE TABLE logs(id TEXT)", "id", None),
    ("CREATE TABLE logs(log BLOB)", None, "log"),
    ("CREATE TABLE other(id, log)", None, None),
    ("CREATE TABLE t(id TEXT PRIMARY KEY, log BLOB); CREATE VIEW logs AS SELECT id, log FROM t", "t.id", "t.log"),
    ("CREATE VIEW logs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
     "SELECT x AS id, x'3c' AS log FROM c", None, None),
    ("CREATE VIEW logs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
     "SELECT x AS rowid, x AS id, x'3c' AS log FROM c", None, None),
    ("CREATE TABLE t(x); CREATE VIEW logs(id, log) AS SELECT 1, zeroblob(10)", None, None),
    ("CREATE VIRTUAL TABLE logs USING fts5(id, log)", "id", "log"),
    ("CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB); CREATE TRIGGER t AFTER INSERT ON logs "
     "BEGIN SELECT 1; END", "id", "log"),
    ("", None, None),
)


def _blob(data: bytes, codec: str, rng: random.Random) -> Any:
    if codec == "gzip":
        return gzip.compress(data, mtime=0)
    if codec == "bz2":
        return bz2.compress(data)
    if codec == "text":
        return data.decode("utf-8", "replace")
    return data


def _corrupt_blob(blob: Any, rng: random.Random) -> Any:
    kind = rng.choice(["flip", "truncate", "wrong_magic", "gzip_bomb", "bz2_bomb", "double",
                       "int", "float", "null", "empty", "text", "bad_utf8", "huge_int"])
    raw = blob if isinstance(blob, bytes) else str(blob).encode()
    if kind == "flip":
        return _flip(raw, rng)
    if kind == "truncate":
        return raw[: rng.randrange(max(len(raw), 1))]
    if kind == "wrong_magic":
        return rng.choice([b"BZh", b"\x1f\x8b", b"PK\x03\x04", b"SQLite format 3\x00"]) + raw
    if kind == "gzip_bomb":
        return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + _bomb(_DEFLATED, 64)
    if kind == "bz2_bomb":
        return _bomb(_BZIP2, 16)
    if kind == "double":
        return raw + raw
    if kind == "int":
        return rng.choice([0, 1, -1, 2**63 - 1])
    if kind == "float":
        return rng.choice([0.5, float("inf"), -1e308])
    if kind == "null":
        return None
    if kind == "empty":
        return rng.choice([b"", ""])
    if kind == "text":
        return raw.decode("latin-1")
    if kind == "huge_int":
        return str(10**30)
    return ("bad_utf8", raw[:50])  # inserted as CAST(x'..' AS TEXT): text that is not UTF-8


def _insert(conn: sqlite3.Connection, table: str, columns: Sequence[str], values: Sequence[Any]) -> None:
    parts, args = [], []
    for v in values:
        if isinstance(v, tuple) and v and v[0] == "bad_utf8":
            hexed = (b"\xff" + v[1]).hex()
            parts.append(f"CAST(x'{hexed}' AS TEXT)")
        else:
            parts.append("?")
            args.append(v)
    cols = ", ".join(f'"{c}"' for c in columns)
    conn.execute(f"INSERT INTO {table}({cols}) VALUES ({', '.join(parts)})", args)


def _odd_id(rng: random.Random, i: int) -> Any:
    return rng.choice([None, i, -i, 1.5, b"\x00\x01", "", "../../x", "\x1b[2Jid", "a" * 5000,
                       ("bad_utf8", b"id"), _GAME_IDS[i % len(_GAME_IDS)], str(i)])


def sqlite_case(seeds: Sequence[bytes], rng: random.Random) -> Case:
    """A houou-logs or phoenix-logs database (or one of another layout) of seed logs, damaged."""
    layout = rng.choice(["houou", "houou", "phoenix", "phoenix", "odd"])
    kind = rng.choice(["flip_bytes", "flip_bytes", "truncate", "zero_page", "header_field",
                       "corrupt_blob", "corrupt_blob", "odd_values", "random_after_magic", "clean"])
    if layout == "odd":
        kind = rng.choice(["clean", "corrupt_blob", "odd_values", "flip_bytes"])
    fd, db_path = tempfile.mkstemp(prefix="tenhou-fuzz-", suffix=".sqlite")
    os.close(fd)
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA journal_mode = MEMORY")
        if rng.random() < 0.2:
            conn.execute(f"PRAGMA page_size = {rng.choice([512, 1024, 65536])}")
        if rng.random() < 0.1:
            conn.execute("PRAGMA encoding = 'UTF-16le'")
        n = rng.randint(1, 12)
        if layout == "odd":
            schema, id_col, log_col = rng.choice(_ODD_LAYOUTS)
            if schema:
                conn.executescript(schema)
            table = "t" if id_col and id_col.startswith("t.") else "logs"
            id_col = id_col.split(".")[-1] if id_col else None
            log_col = log_col.split(".")[-1] if log_col else None
            cols = [c for c in (id_col, log_col) if c]
            if cols and "VIEW logs AS WITH" not in schema:
                for i in range(n):
                    values = []
                    if id_col:
                        values.append(_GAME_IDS[i % 4] + f"-{i}" if rng.random() < 0.7 else _odd_id(rng, i))
                    if log_col:
                        values.append(_blob(rng.choice(seeds), rng.choice(["gzip", "bz2", "raw"]), rng))
                    if "k1" in schema:
                        cols2, values = [*cols, "k1", "k2"], [*values, i, -i]
                    else:
                        cols2 = cols
                    with contextlib.suppress(sqlite3.Error):
                        _insert(conn, table, cols2, values)
            name = "odd"
        else:
            conn.executescript(HOUOU_SCHEMA if layout == "houou" else PHOENIX_SCHEMA)
            for i in range(n):
                log_id = f"{rng.choice(_GAME_IDS)[:-8]}{i:08x}" if rng.random() < 0.8 else _GAME_IDS[i % 4]
                data = rng.choice(seeds)
                codec = "gzip" if layout == "houou" else "bz2"
                if rng.random() < 0.15:
                    codec = rng.choice(["gzip", "bz2", "raw", "text"])
                value: Any = _blob(data, codec, rng) if rng.random() > 0.1 else (None if layout == "houou" else "")
                if kind == "corrupt_blob" and rng.random() < 0.5:
                    value = _corrupt_blob(value if value is not None else b"", rng)
                if kind == "odd_values" and rng.random() < 0.5:
                    log_id = _odd_id(rng, i)
                    if rng.random() < 0.5:
                        value = _corrupt_blob(value if value is not None else b"", rng)
                if layout == "houou":
                    cols = ["id", "date", "num_players", "is_tonpu", "is_processed", "was_error", "log"]
                    row = [log_id, "2014-01-01T00:00", 4, 0, 1, 0, value]
                else:
                    cols = ["log_id", "date", "is_tonpusen", "is_sanma", "is_processed", "was_error",
                            "log_content", "log_hash"]
                    row = [log_id, "2014-01-01 00:00", 0, 0, 1, 0, value, ""]
                with contextlib.suppress(sqlite3.Error):
                    _insert(conn, "logs", cols, row)
            name = layout
        conn.commit()
    finally:
        conn.close()
    try:
        data = Path(db_path).read_bytes()
    finally:
        os.unlink(db_path)
    page = int.from_bytes(data[16:18], "big") or 65536
    if kind == "flip_bytes":
        data = _flip(data, rng, lo=rng.choice([0, 100, page]))
    elif kind == "truncate":
        data = data[: rng.choice([rng.randrange(len(data)), page * rng.randrange(max(len(data) // page, 1)),
                                  100, 16])]
    elif kind == "zero_page":
        p = rng.randrange(max(len(data) // page, 1))
        data = data[: p * page] + bytes(page) + data[(p + 1) * page:]
    elif kind == "header_field":
        # page size, write/read versions, reserved bytes, payload fractions, page count, freelist,
        # schema cookie and format, cache size, text encoding, user/app ids, version number
        off, size = rng.choice([(16, 2), (18, 1), (19, 1), (20, 1), (21, 1), (22, 1), (23, 1),
                                (28, 4), (32, 4), (36, 4), (40, 4), (44, 4), (48, 4), (52, 4),
                                (56, 4), (64, 4), (96, 4)])
        value = rng.choice([0, 1, 2, 3, 4, 255, 256, 65535, 2**31, 2**32 - 1, rng.randrange(2**32)])
        data = data[:off] + (value & ((1 << 8 * size) - 1)).to_bytes(size, "big") + data[off + size:]
    elif kind == "random_after_magic":
        cut = rng.choice([16, 100, page])
        data = data[:cut] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 4096)))
    return Case(f"sqlite:{name}:{kind}", data, rng.choice([".sqlite", ".db", ".xml", ""]))


# --- running a container ----------------------------------------------------------------------


def check_container(path: Path, *, cli: bool = False) -> dict[str, int]:
    """Read a container the way ``validate`` and ``stats`` do; raise ``_Failure`` on anything
    but records and one-line errors. Returns counts of what came out."""
    from .batch import check_item
    from .sources.local import SourceStats, count_inputs, iter_logs
    from .stats.records import stats_item

    folder = path.parent
    before = sorted(os.listdir(folder))
    counts = {"items": 0, "error_items": 0, "records_with_hands": 0}
    total = count_inputs([str(path)])
    if not isinstance(total, int) or total < 0:
        raise _Failure(f"count_inputs gave {total!r}")
    stats = SourceStats()
    for item in iter_logs([str(path)], stats=stats, dedupe=True):
        counts["items"] += 1
        if counts["items"] > MAX_ITEMS:
            raise _Failure(f"more than {MAX_ITEMS} items from one container")
        _one_line(item.source, "an item's source")
        if item.error is not None:
            counts["error_items"] += 1
            _one_line(item.error, "an error item's message")
        record = check_item(item)
        crash = [f for f in record.findings if f.code is FindingCode.INTERNAL_ERROR]
        if crash:
            raise _Failure(f"INTERNAL_ERROR on {item.source}: {crash[0].message}\n{crash[0].detail or ''}")
        for f in record.findings:
            if f.code is FindingCode.PARSE_ERROR:
                _one_line(f.message, "a PARSE_ERROR message")
        if record.hands:
            counts["records_with_hands"] += 1
        srec = stats_item(item)
        if srec.error is not None:
            _one_line(srec.error, "a stats error")
            if "internal error" in srec.error:
                raise _Failure(f"stats: {srec.error}")
    if cli:
        _check_validate_command(path)
    changed = set(os.listdir(folder)) ^ set(before)
    if _is_wal(path):  # SQLite's reader of a WAL database makes its -wal and -shm files
        changed -= {f"{path.name}-wal", f"{path.name}-shm"}
    if changed:
        raise _Failure(f"files appeared or vanished beside the container: {sorted(changed)}")
    return counts


def _is_wal(path: Path) -> bool:
    with open(path, "rb") as fh:
        head = fh.read(20)
    return head.startswith(b"SQLite format 3\x00") and 2 in head[18:20]


def _check_validate_command(path: Path) -> None:
    from click.testing import CliRunner

    from .cli import cli

    result = CliRunner().invoke(cli, ["validate", str(path), "--jobs", "1", "--no-progress",
                                      "--format", "ndjson"])
    if result.exit_code not in (0, 1):
        raise _Failure(f"validate exited {result.exit_code}: {result.output[-500:]}")
    if "Traceback" in result.output or result.exception and not isinstance(result.exception, SystemExit):
        raise _Failure(f"validate raised {result.exception!r}")
    lines = result.stdout.splitlines()
    docs = [json.loads(line) for line in lines]
    if not docs or docs[-1].get("type") != "summary" or any(d.get("type") != "game" for d in docs[:-1]):
        raise _Failure("validate's NDJSON is not game lines and a summary")


CONTAINER_KINDS: dict[str, Callable[[Sequence[bytes], random.Random], Case]] = {
    "zip": zip_case,
    "sqlite": sqlite_case,
}


def fuzz_containers(seeds: Sequence[bytes], *, iterations: int | None = None,
                    seconds: float | None = None, rng: random.Random | None = None,
                    kinds: Sequence[str] = ("zip", "sqlite"), per_input_limit_s: float = 10.0,
                    cli_every: int = 0, report: FuzzReport | None = None) -> FuzzReport:
    """Build damaged containers of ``seeds`` (log bytes) and read each one (``check_container``).

    ``cli_every``: every that many inputs, also run the ``validate`` command on the file. Stops
    after ``iterations`` containers or ``seconds``, whichever comes first.
    """
    rng = rng or random.Random(0)
    report = report or FuzzReport()
    start = time.monotonic()
    n = 0
    with tempfile.TemporaryDirectory(prefix="tenhou-fuzz-") as tmp:
        while not spent(n, iterations, start, seconds):
            n += 1
            kind = kinds[n % len(kinds)] if len(kinds) > 1 else kinds[0]
            case = CONTAINER_KINDS[kind](seeds, rng)
            report.tried += 1
            report.by_path[kind] = report.by_path.get(kind, 0) + 1
            report.by_mutation[case.mutation] = report.by_mutation.get(case.mutation, 0) + 1
            folder = Path(tmp, f"c{n}")
            folder.mkdir()
            path = folder / f"input{case.suffix}"
            path.write_bytes(case.data)
            with _attempt(report, kind, case.mutation, case.data, per_input_limit_s):
                counts = check_container(path, cli=bool(cli_every) and n % cli_every == 0)
                for key, value in counts.items():
                    report.outcomes[f"{kind}:{key}"] = report.outcomes.get(f"{kind}:{key}", 0) + value
            shutil.rmtree(folder, ignore_errors=True)
    return report


# === the downloader ==============================================================================


def fuzz_game_id(n: int, sanma: bool = False, type_code: int | None = None) -> str:
    """A game id whose type part matches the log served for it (by default the fixtures': 169 =
    0x00a9, or 185 = 0x00b9 for three-player)."""
    if type_code is None:
        type_code = 185 if sanma else 169
    return f"2014102312gm-{type_code:04x}-0000-{n:08x}"


def typed_logs(logs: Sequence[bytes]) -> list[tuple[int, bytes]]:
    """``(GO type, log)`` of each log that parses (what a download of its id must be)."""
    from .errors import ParseError
    from .mjlog import parse_game

    out = []
    for data in logs:
        try:
            out.append((parse_game(data).header.ruleset.type_code, data))
        except ParseError:
            continue
    return out


_STATUSES = (200,) * 12 + (100, 103, 201, 204, 206, 301, 302, 304, 307, 400, 401, 403, 404, 410,
                           418, 429, 451, 500, 502, 503, 504, 520, 599, 600, 999)
_CONTENT_TYPES = ("text/xml", "application/xml", "text/html; charset=utf-8", "text/plain",
                  "application/octet-stream", "application/json", "image/png", "", "text/xml; charset=\xff",
                  "multipart/x-mixed-replace; boundary=x")


@dataclass
class Plan:
    """What the server does for one request (chosen at random, recorded for failures)."""

    status: int = 200
    body: str = "log"
    length: str = "exact"
    content_type: str = "text/xml"
    encoding: str | None = None
    chunked: bool = False
    delivery: str = "all"
    extra: list[tuple[str, str]] = field(default_factory=list)
    raw_head: bytes | None = None
    """Sent instead of the status line and headers (a response that is not HTTP at all)."""
    close: bool | None = None
    """Hang up after the response (``None``: one time in five, or when the length is missing)."""

    def describe(self) -> str:
        parts = [f"HTTP {self.status}", f"body={self.body}", f"length={self.length}",
                 f"type={self.content_type!r}", f"delivery={self.delivery}"]
        if self.encoding:
            parts.append(f"encoding={self.encoding}")
        if self.chunked:
            parts.append("chunked")
        if self.extra:
            parts.append(f"headers={self.extra}")
        if self.raw_head is not None:
            parts.append(f"raw head {self.raw_head[:40]!r}")
        return " ".join(parts)


def random_plan(rng: random.Random) -> Plan:
    plan = Plan()
    if rng.random() < 0.3:  # a good answer now and then, so that logs do get cached
        plan.body = rng.choice(["log", "log_gzip"])
        if rng.random() < 0.3:
            plan.content_type = rng.choice(_CONTENT_TYPES)
        return plan
    plan.status = rng.choice(_STATUSES)
    plan.body = rng.choice(["log", "log", "log_gzip", "mutated", "mutated_gzip", "other_game",
                            "garbage_gzip", "truncated_gzip", "html", "empty", "random", "huge",
                            "json", "gzip_bomb", "encoded_bomb"])
    plan.length = rng.choice(["exact", "exact", "exact", "none", "short", "long", "garbage", "two"])
    plan.content_type = rng.choice(_CONTENT_TYPES)
    if rng.random() < 0.25:
        plan.encoding = rng.choice(["gzip", "deflate", "br", "x-unknown", "gzip, gzip", "identity", "GZIP"])
    plan.chunked = rng.random() < 0.15
    plan.delivery = rng.choice(["all"] * 6 + ["trickle", "stall", "cut"])
    if rng.random() < 0.3:
        plan.extra.append(("Retry-After", rng.choice(["0", "1", "5", "999999", "-1", "soon", "1.5",
                                                      "Wed, 21 Oct 2015 07:28:00 GMT", "", "9" * 30])))
    if rng.random() < 0.2:
        plan.extra.append(("Location", rng.choice(["http://example.invalid/x", "/0/log/?x", "",
                                                   "javascript:alert(1)", "\u00ff" * 300])))
    if rng.random() < 0.1:
        plan.extra.append(("Connection", rng.choice(["close", "keep-alive", "upgrade"])))
    if plan.body == "encoded_bomb":  # HTTP compression that inflates to 64 MiB
        plan.encoding = "gzip"
    if rng.random() < 0.03:
        plan.raw_head = rng.choice([b"NOT HTTP\r\n\r\n", b"HTTP/1.1 200\r\n" + b"X: " + b"a" * 70000 + b"\r\n\r\n",
                                    b"HTTP/1.1 abc OK\r\n\r\n", b"\r\n\r\n", b"ICY 200 OK\r\n\r\n"])
    return plan


class FuzzServer:
    """A loopback HTTP server on 127.0.0.1 (an ephemeral port, daemon threads) that answers each
    ``GET /0/log/?ID`` by a random ``Plan``. ``logs`` maps an id to the log it should serve.

    The responses are written byte by byte by hand, so anything can be wrong in them; a watchdog
    stops the server after ``lifetime`` seconds at the latest."""

    def __init__(self, logs: dict[str, bytes], other: bytes, rng: random.Random, *,
                 stall_s: float = 0.6, lifetime: float = 3600.0, script: Sequence[Plan] = ()):
        self.script = list(script)
        """Plans to follow in order instead of random ones (the last one repeats)."""
        self.logs = logs
        self.other = other
        self.rng = rng
        self.stall_s = stall_s
        self.lifetime = lifetime
        self.plans: list[tuple[str, Plan]] = []
        self.guard = threading.Lock()
        self.stopping = threading.Event()
        self.httpd: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}"

    def __enter__(self) -> FuzzServer:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        app = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = 5

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                log_id = self.path.partition("?")[2]
                with app.guard:
                    if app.script:
                        plan = app.script[min(len(app.plans), len(app.script) - 1)]
                    else:
                        plan = random_plan(app.rng)
                    mutate_rng = random.Random(app.rng.random())
                    app.plans.append((log_id, plan))
                app.respond(self, log_id, plan, mutate_rng)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that hung up: expected here

        self.httpd = Server(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                  daemon=True)
        thread.start()
        self.watchdog = threading.Timer(self.lifetime, self.stop)
        self.watchdog.daemon = True
        self.watchdog.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    def __exit__(self, *exc: object) -> None:
        self.watchdog.cancel()
        self.stop()

    def body(self, log_id: str, plan: Plan, rng: random.Random) -> bytes:
        log = self.logs.get(log_id, b"")
        kind = plan.body
        if kind == "log":
            return log
        if kind == "log_gzip":
            return gzip.compress(log, mtime=0)
        if kind in ("mutated", "mutated_gzip"):
            data = rng.choice(list(MUTATIONS.values()))(log, rng)
            return gzip.compress(data, mtime=0) if kind == "mutated_gzip" else data
        if kind == "other_game":
            return self.other
        if kind == "garbage_gzip":
            return b"\x1f\x8b\x08\x00" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
        if kind == "truncated_gzip":
            data = gzip.compress(log, mtime=0)
            return data[: rng.randrange(max(len(data), 1))]
        if kind == "html":
            return b"<!DOCTYPE html><html><body>" + log[:100] + b"</body></html>"
        if kind == "random":
            return bytes(rng.randrange(256) for _ in range(rng.randint(1, 2000)))
        if kind == "huge":
            from .mjlog.read import MAX_BYTES

            return log + b" " * (MAX_BYTES + 1 - len(log)) if rng.random() < 0.3 else log * 40
        if kind == "json":
            return b'{"title": ["", ""], "name": ["A", "B", "C", "D"], "log": []}'
        if kind in ("gzip_bomb", "encoded_bomb"):
            return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + _bomb(_DEFLATED, 64)
        return b""

    def respond(self, handler: Any, log_id: str, plan: Plan, rng: random.Random) -> None:
        body = self.body(log_id, plan, rng)
        if plan.body == "encoded_bomb":
            pass  # the bomb itself is the encoded body
        elif plan.encoding in ("gzip", "GZIP") and rng.random() < 0.7:
            body = gzip.compress(body, mtime=0)
        elif plan.encoding == "deflate" and rng.random() < 0.7:
            body = zlib.compress(body)
        reason = {200: "OK", 404: "Not Found"}.get(plan.status, "Whatever")
        head = [f"HTTP/1.1 {plan.status} {reason}"]
        if plan.content_type:
            head.append(f"Content-Type: {plan.content_type}")
        if plan.encoding:
            head.append(f"Content-Encoding: {plan.encoding}")
        close = plan.length == "none" or rng.random() < 0.2 if plan.close is None else plan.close
        if plan.chunked:
            head.append("Transfer-Encoding: chunked")
        elif plan.length == "exact":
            head.append(f"Content-Length: {len(body)}")
        elif plan.length == "short":
            head.append(f"Content-Length: {max(len(body) - rng.randint(1, 50), 0)}")
        elif plan.length == "long":
            head.append(f"Content-Length: {len(body) + rng.randint(1, 5000)}")
        elif plan.length == "garbage":
            head.append(f"Content-Length: {rng.choice(['abc', '-1', '1e3', '', '0x10', '99999999999999999999'])}")
        elif plan.length == "two":
            head.append(f"Content-Length: {len(body)}")
            head.append(f"Content-Length: {len(body) // 2}")
        for key, value in plan.extra:
            head.append(f"{key}: {value}")
        if close:
            head.append("Connection: close")
        raw = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1", "replace")
        if plan.raw_head is not None:
            raw, close = plan.raw_head, True
        if plan.chunked:
            payload = bytearray()
            for at in range(0, len(body), 997):
                piece = body[at: at + 997]
                payload += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
            if rng.random() < 0.7:
                payload += b"0\r\n\r\n"
            else:  # a broken chunk size, or none at the end
                payload += rng.choice([b"zz\r\n", b"ffffffff\r\nabc", b""])
            body = bytes(payload)
        wfile = handler.wfile
        try:
            if plan.delivery == "all":
                wfile.write(raw + body)
            elif plan.delivery == "trickle":
                wfile.write(raw)
                step = max(len(body) // 5, 1)
                for at in range(0, len(body), step):
                    wfile.write(body[at: at + step])
                    wfile.flush()
                    if self.stopping.wait(0.01):
                        break
            elif plan.delivery == "stall":  # half the body, then silence past the read timeout
                wfile.write(raw + body[: len(body) // 2])
                wfile.flush()
                self.stopping.wait(self.stall_s)
                close = True
            else:  # "cut": part of the body, then hang up
                wfile.write(raw + body[: rng.randrange(len(body) + 1)])
                close = True
            wfile.flush()
        except OSError:
            close = True
        handler.close_connection = close


def check_cache(cache_dir: Path) -> int:
    """Every file in the cache is a complete log of the type its id names (or the lock); no
    temporary file is left. Returns how many logs it holds."""
    from .mjlog import parse_game
    from .sources.ids import GameRef

    if not cache_dir.exists():
        return 0
    logs = 0
    for name in sorted(os.listdir(cache_dir)):
        if name == "download.lock":
            continue
        if not name.endswith(".mjlog") or name.startswith("."):
            raise _Failure(f"the cache holds {name!r}")
        data = (cache_dir / name).read_bytes()
        if not data.startswith(b"\x1f\x8b"):
            raise _Failure(f"cached {name} is not gzip")
        log_id = name[: -len(".mjlog")]
        try:
            game = parse_game(data, source=name, log_id=log_id)
        except Exception as exc:  # noqa: BLE001 - a cached file must be a complete game
            raise _Failure(f"cached {name} is not a complete game: {exc}") from None
        if game.header.ruleset.type_code != GameRef(log_id).type_code:
            raise _Failure(f"cached {name} is a game of another type")
        logs += 1
    return logs


def fuzz_downloads(logs: Sequence[bytes], *, iterations: int | None = None,
                   seconds: float | None = None, rng: random.Random | None = None,
                   read_timeout: float = 0.3, per_input_limit_s: float = 30.0,
                   cli_every: int = 0, report: FuzzReport | None = None) -> FuzzReport:
    """Fetch ids from a ``FuzzServer`` with ``LogFetcher`` (fake sleep: backoff and polite pauses
    cost nothing; read timeouts are real). ``logs`` are mjlog XML; each id asked for names the
    ``GO type`` of the log served for it, and "another game" is a log of another type if there is
    one.

    Each fetch must give a cached complete log of the id's type, or a one-line ``DownloadError``;
    the cache must never hold anything else, and a failed ``refresh`` keeps the old copy. Every
    ``cli_every`` sessions the ``download`` command itself runs against the server instead.
    """
    from .errors import DownloadError
    from .sources.http import LogFetcher

    rng = rng or random.Random(0)
    report = report or FuzzReport()
    start = time.monotonic()
    typed = typed_logs(logs)
    if not typed:
        raise ValueError("fuzz_downloads needs at least one log that parses")
    first_type = typed[0][0]
    other = next((log for code, log in typed if code != first_type), typed[0][1])
    served: dict[str, bytes] = {}
    n = 0
    with tempfile.TemporaryDirectory(prefix="tenhou-fuzz-dl-") as tmp, \
            FuzzServer(served, other, random.Random(rng.random()), stall_s=read_timeout * 2) as server:
        cache_dir = Path(tmp, "cache")
        sessions = tried = 0
        while not spent(tried, iterations, start, seconds):
            sessions += 1
            ids = []
            for _ in range(rng.randint(1, 4)):
                n += 1
                type_code, log = rng.choice(typed)
                log_id = fuzz_game_id(n, type_code=type_code)
                served[log_id] = log
                ids.append(log_id)
            if rng.random() < 0.2 and check_cache(cache_dir):  # a cached one again (refresh or not)
                ids.append(_cached_id(cache_dir, rng))
            use_cli = bool(cli_every) and sessions % cli_every == 0
            first = len(server.plans)

            def served_plans(first: int = first) -> str:
                return " (server: " + "; ".join(f"{i}: {p.describe()}" for i, p in server.plans[first:]) + ")"

            with _attempt(report, "download", "download", b"", per_input_limit_s, where=served_plans,
                          what=f"{len(ids)} ids "):
                if use_cli:
                    outcome = _download_command(ids, server.url, cache_dir, read_timeout)
                    report.outcomes[f"download:cli_exit_{outcome}"] = report.outcomes.get(
                        f"download:cli_exit_{outcome}", 0) + 1
                else:
                    refresh = rng.random() < 0.2
                    before = {i: _read_or_none(cache_dir / f"{i}.mjlog") for i in ids}
                    fake = _FakeClock()
                    with LogFetcher(cache_dir, server.url, refresh=refresh,
                                    timeout=(read_timeout, read_timeout), min_interval=0.0, jitter=0.0,
                                    retries=rng.choice([0, 1, 2]), lock_timeout=1.0,
                                    sleep=fake.sleep, clock=fake.clock) as fetcher:
                        for log_id in ids:
                            try:
                                result = fetcher.fetch_result(log_id)
                                key = "downloaded" if result.downloaded else "cached"
                                if result.path != cache_dir / f"{log_id}.mjlog" or not result.path.is_file():
                                    raise _Failure(f"fetch gave {result.path}")
                            except DownloadError as exc:
                                message = str(exc)
                                _one_line(message, "a download error")
                                if log_id not in message:
                                    raise _Failure(f"a download error that does not name the id: {message}")
                                key = "stopped" if type(exc).__name__ == "StopDownloads" else "refused"
                                if before[log_id] is not None and _read_or_none(
                                        cache_dir / f"{log_id}.mjlog") != before[log_id]:
                                    raise _Failure("a failed refresh changed the cached copy")
                            report.outcomes[f"download:{key}"] = report.outcomes.get(f"download:{key}", 0) + 1
                check_cache(cache_dir)
            tried += len(ids)
            report.tried += len(ids)
            report.by_path["download"] = report.by_path.get("download", 0) + len(ids)
            for _, plan in server.plans[first:]:
                name = f"download:{plan.body}:{plan.delivery}"
                report.by_mutation[name] = report.by_mutation.get(name, 0) + 1
        report.outcomes["download:requests"] = report.outcomes.get("download:requests", 0) + len(server.plans)
        server.plans.clear()
    return report


def _cached_id(cache_dir: Path, rng: random.Random) -> str:
    names = sorted(n for n in os.listdir(cache_dir) if n.endswith(".mjlog"))
    return rng.choice(names)[: -len(".mjlog")]


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


class _FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def clock(self) -> float:
        return self.now


def _download_command(ids: list[str], url: str, cache_dir: Path, read_timeout: float) -> int:
    """``tenhou-tools download IDS`` against the server: exit 0 or 1, one line per message."""
    import functools

    from click.testing import CliRunner

    from .cli import cli, download_cmd
    from .sources.http import LogFetcher

    fake = _FakeClock()
    factory = functools.partial(LogFetcher, timeout=(read_timeout, read_timeout), min_interval=0.0,
                                jitter=0.0, retries=1, lock_timeout=1.0, sleep=fake.sleep, clock=fake.clock)
    real = download_cmd.LogFetcher
    download_cmd.LogFetcher = factory  # type: ignore[misc]
    try:
        result = CliRunner().invoke(cli, ["download", *ids, "--base-url", url, "--cache-dir",
                                          str(cache_dir), "--no-progress"])
    finally:
        download_cmd.LogFetcher = real  # type: ignore[misc]
    if result.exit_code not in (0, 1) or (result.exception and not isinstance(result.exception, SystemExit)):
        raise _Failure(f"download exited {result.exit_code} ({result.exception!r}): {result.stderr[-400:]}")
    if "Traceback" in result.output:
        raise _Failure("download printed a traceback")
    lines = result.stderr.splitlines()
    if not lines or not lines[-1].startswith(f"{len(set(ids))} id"):
        raise _Failure(f"download's stderr does not end with its summary: {result.stderr[-400:]}")
    for line in lines[:-1]:
        if not (line.startswith(("Error: ", "Stopped downloading: ")) or any(line.startswith(f"{i}: ") for i in ids)):
            raise _Failure(f"download printed an unexpected line: {line!r}")
    stdout = result.stdout.splitlines()
    for line in stdout:
        if not Path(line).is_file():
            raise _Failure(f"download printed {line!r}, which is not a file")
    return result.exit_code


# === the stats store =============================================================================


def stats_database(seeds: Sequence[bytes], path: Path) -> int:
    """A good ``stats --db`` file at ``path``, of the seed logs that count (each under a few game
    ids, on a few days). Returns the number of games in it."""
    from .sources.local import LogItem
    from .stats.records import stats_item
    from .stats.store import StatsStore

    records = []
    for i, data in enumerate(seeds):
        for day in (1, 2, 3):
            three = b'type="185"' in data
            log_id = f"201401{day:02d}{i % 24:02d}gm-{'00b9' if three else '00a9'}-0000-{i * 7 + day:08x}"
            record = stats_item(LogItem(f"seed{i}", log_id, data))
            if record.key is not None:
                records.append(record)
    with StatsStore(path) as store:
        store.add(records)
    return len(records)


def _sql_edit(path: Path, rng: random.Random) -> str:
    """Change a good stats database in one of the ways a user, another program or a bad disk
    might; returns what was done."""
    edits = [
        ("drop_games", "DROP TABLE games"),
        ("drop_counters", "DROP TABLE counters"),
        ("drop_meta", "DROP TABLE meta"),
        ("meta_other_columns", "DROP TABLE meta; CREATE TABLE meta(k, v); INSERT INTO meta VALUES ('application', 'tenhou-tools stats')"),
        ("meta_no_rows", "DELETE FROM meta"),
        ("meta_other_app", "UPDATE meta SET value = 'something else' WHERE key = 'application'"),
        ("meta_other_schema", "UPDATE meta SET value = '2' WHERE key = 'schema'"),
        ("meta_empty", "UPDATE meta SET value = '' WHERE key = 'schema'"),
        ("meta_blob", "UPDATE meta SET value = x'ff00' WHERE key = 'application'"),
        ("counters_bad_json", "UPDATE counters SET data = '{\"games\": 1,' WHERE name IN (SELECT name FROM counters LIMIT 1)"),
        ("counters_not_object", "UPDATE counters SET data = '[1, 2, 3]'"),
        ("counters_unknown_key", "UPDATE counters SET data = json_set(data, '$.bogus', 1)"),
        ("counters_string_value", "UPDATE counters SET data = json_set(data, '$.games', 'x')"),
        ("counters_huge_value", "UPDATE counters SET data = json_set(data, '$.games', 1e300)"),
        ("counters_do_not_add_up", "UPDATE counters SET data = json_set(data, '$.wins', json_extract(data, '$.hands') + 5)"),
        ("counters_negative", "UPDATE counters SET data = json_set(data, '$.hands', -3)"),
        ("counters_negative_wins", "UPDATE counters SET data = json_set(data, '$.wins', -2)"),
        ("counters_bad_yaku", "UPDATE counters SET data = json_set(data, '$.yaku', json('{\"x\": \"y\"}'))"),
        ("counters_empty_data", "UPDATE counters SET data = ''"),
        ("counters_blob_data", "UPDATE counters SET data = x'ff7b7d'"),
        ("counters_text_numbers", "UPDATE counters SET players = players || 'p', games = 'many'"),
        ("games_bad_day", "UPDATE games SET day = 'yesterday'"),
        ("games_blob_day", "UPDATE games SET day = x'ff'"),
        ("games_text_type", "UPDATE games SET type_code = 'houou', lobby = x'00'"),
        ("counters_bad_day", "UPDATE counters SET day = day || '-13-45'"),
        ("extra_column", "ALTER TABLE games ADD COLUMN extra TEXT"),
        ("renamed_column", "ALTER TABLE counters RENAME COLUMN data TO payload"),
        ("extra_table", "CREATE TABLE mine(x); INSERT INTO mine VALUES (1)"),
        ("trigger", "CREATE TRIGGER t BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no'); END"),
        ("trigger_delete", "CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM counters; END"),
        ("view", "CREATE VIEW v AS SELECT * FROM games"),
        ("index", "CREATE INDEX i ON games(day)"),
        ("wal", "PRAGMA journal_mode = WAL"),
        ("empty_tables", "DELETE FROM games; DELETE FROM counters"),
    ]
    name, sql = rng.choice(edits)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.executescript(sql)
    finally:
        conn.close()
    return name


def store_case(good: bytes, seeds: Sequence[bytes], rng: random.Random, tmp: Path) -> Case:
    """A damaged stats database: its bytes changed, its tables changed, or not one at all."""
    kind = rng.choice(["flip_bytes", "flip_bytes", "truncate", "zero_page", "header_field",
                       "random_after_magic", "sql_edit", "sql_edit", "sql_edit", "other_sqlite",
                       "not_sqlite", "clean"])
    data = good
    page = int.from_bytes(good[16:18], "big") or 65536
    if kind == "flip_bytes":
        data = _flip(good, rng, lo=rng.choice([0, 100, page]))
    elif kind == "truncate":
        data = good[: rng.choice([rng.randrange(len(good)), page * rng.randrange(max(len(good) // page, 1)), 100])]
    elif kind == "zero_page":
        p = rng.randrange(max(len(good) // page, 1))
        data = good[: p * page] + bytes(page) + good[(p + 1) * page:]
    elif kind == "header_field":
        off, size = rng.choice([(16, 2), (18, 1), (19, 1), (20, 1), (28, 4), (32, 4), (36, 4),
                                (40, 4), (44, 4), (52, 4), (56, 4), (64, 4), (96, 4)])
        value = rng.choice([0, 1, 2, 3, 255, 65535, 2**31, 2**32 - 1, rng.randrange(2**32)])
        data = good[:off] + (value & ((1 << 8 * size) - 1)).to_bytes(size, "big") + good[off + size:]
    elif kind == "random_after_magic":
        data = good[:rng.choice([16, 100])] + bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))
    elif kind == "sql_edit":
        path = tmp / "edit.sqlite"
        path.write_bytes(good)
        kind = f"sql_edit:{_sql_edit(path, rng)}"
        data = path.read_bytes()
        path.unlink()
    elif kind == "other_sqlite":
        other = sqlite_case(seeds, rng)  # a log database, or another layout
        data = other.data
    elif kind == "not_sqlite":
        data = rng.choice([b"", b"hello\n", gzip.compress(good[:1000]), build_zip([ZipEntry(b"a.xml", good[:100])]),
                           bytes(rng.randrange(256) for _ in range(rng.randint(1, 5000))),
                           b"SQLite format 3", b"SQLite format 3\x00"])
        kind = f"not_sqlite:{min(len(data), 100)}"
    return Case(f"store:{kind}", data, ".sqlite")


def check_store_run(path: Path, logs_dir: Path | None, extra: Sequence[str] = ()) -> str:
    """``stats [LOGS] --db FILE`` on a (damaged) database: exit 0/1 with a report, or exit 2 with
    one line; the file is unchanged unless the run succeeded in adding logs, and then it is a
    consistent stats database. Returns how it ended."""
    from click.testing import CliRunner

    from .cli import cli
    from .stats.store import StatsStore, StoreError

    folder = path.parent
    before = path.read_bytes()
    output = folder.parent / f"{folder.name}-report.json"  # (beside the folder, which is checked)
    others = sorted(set(os.listdir(folder)) - {path.name})
    args = ["stats", *([str(logs_dir)] if logs_dir else []), "--db", str(path), "--jobs", "1",
            "--no-progress", "--format", "json", "-o", str(output), *extra]
    # (the report goes to a file: click's test runner keeps every run's output alive)
    result = CliRunner().invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise _Failure(f"stats raised {type(result.exception).__name__}: {result.exception}")
    if "Traceback" in result.output or "Internal error" in result.output:
        raise _Failure(f"stats printed an internal error: {result.stderr[-400:]}")
    after = path.read_bytes() if path.exists() else None
    if after is None:
        raise _Failure("the database file is gone")
    left = sorted(set(os.listdir(folder)) - {path.name} - set(others))
    if left and not (left == [f"{path.name}-shm", f"{path.name}-wal"] and _is_wal(path)):
        raise _Failure(f"stats left files beside the database: {left}")
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("Error: "):
            raise _Failure(f"exit 2 without one error line: {result.stderr[-400:]!r}")
        if after != before:
            raise _Failure(f"a failed run changed the database ({lines[0]})")
        if output.exists():
            raise _Failure("a failed run wrote a report")
        return "refused"
    if result.exit_code not in (0, 1):
        raise _Failure(f"stats exited {result.exit_code}: {result.stderr[-400:]}")
    try:
        json.loads(output.read_text(encoding="utf-8"))
        output.unlink()
    except (OSError, ValueError):
        raise _Failure("stats exited 0/1 without a JSON report") from None
    if logs_dir is None and after != before:
        raise _Failure("a report from the database alone changed it")
    if after != before:  # logs were added: it must still be a store
        try:
            with StatsStore(path, create=False) as store:
                store.totals()
                store.game_count()
        except StoreError as exc:
            raise _Failure(f"a run that succeeded left a database that does not open: {exc}") from None
        return "added"
    return "reported"


def fuzz_store(seeds: Sequence[bytes], *, iterations: int | None = None, seconds: float | None = None,
               rng: random.Random | None = None, per_input_limit_s: float = 10.0,
               report: FuzzReport | None = None) -> FuzzReport:
    """``stats --db FILE`` on damaged databases (``store_case``), alone or adding seed logs."""
    rng = rng or random.Random(0)
    report = report or FuzzReport()
    start = time.monotonic()
    n = 0
    with tempfile.TemporaryDirectory(prefix="tenhou-fuzz-store-") as tmp:
        root = Path(tmp)
        stats_database(seeds, root / "good.sqlite")
        good = (root / "good.sqlite").read_bytes()
        logs_dir = root / "logs"
        logs_dir.mkdir()
        for i, data in enumerate(seeds):  # some games already in the database, some new
            (logs_dir / f"2014010{1 + i % 3}{i % 24:02d}gm-00a9-0000-{i * 7 + 1:08x}.xml").write_bytes(data)
            (logs_dir / f"new{i}.xml").write_bytes(data)
        while not spent(n, iterations, start, seconds):
            n += 1
            case = store_case(good, seeds, rng, root)
            folder = root / f"s{n}"
            folder.mkdir()
            path = folder / "stats.sqlite"
            path.write_bytes(case.data)
            with_logs = rng.random() < 0.6
            extra = rng.choice([(), (), ("--player", "Alice"), ("--lobby", "houou"),
                                ("--since", "2014-01-02"), ("--min-games", "2")])
            report.tried += 1
            report.by_path["store"] = report.by_path.get("store", 0) + 1
            report.by_mutation[case.mutation] = report.by_mutation.get(case.mutation, 0) + 1
            with _attempt(report, "store", case.mutation, case.data, per_input_limit_s,
                          where=lambda: f" (with logs: {with_logs}, {' '.join(extra)})"):
                outcome = check_store_run(path, logs_dir if with_logs else None, extra)
                report.outcomes[f"store:{outcome}"] = report.outcomes.get(f"store:{outcome}", 0) + 1
            shutil.rmtree(folder, ignore_errors=True)
    return report
