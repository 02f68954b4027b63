"""Fuzzing of the containers logs come in: zip archives written by our own zip writer
(``zipwriter``) and houou-logs (gzip blobs) / phoenix-logs (bz2 blobs) SQLite databases, built
from seed logs and then damaged: byte flips, truncation, header fields set to edge values, huge
declared sizes, zip64 records that lie, zip bombs and overlapping members, bogus member names
(``../x``, absolute paths, control characters, invalid UTF-8), corrupt gzip / bz2 blobs and bombs,
odd column values, wrong table layouts (views, missing columns, composite keys, generated
columns, a view over an endless recursive query). Each file goes through
``sources.local.count_inputs`` and ``iter_logs`` and every item through ``validate``'s and
``stats``' work (``batch.check_item``, ``stats.records.stats_item``); now and then through the
``validate`` command itself. Nothing may be written beside the file (``fuzz_containers``;
``scripts/fuzz.py`` paths ``zip`` and ``sqlite``).
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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenhou_tools.findings import FindingCode

from .common import MAX_ITEMS, Failure, attempt, one_line
from .logs import MUTATIONS, FuzzReport, spent
from .zipwriter import BZIP2, DEFLATED, STORED, ZipEntry, bomb_payload, build_zip

# --- zip archives ---------------------------------------------------------------------------------

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
        folder = rng.choice(['', '2014/', '2014/01/'])
        return f"{folder}{rng.choice(_GAME_IDS)}{rng.choice(['.mjlog', '.xml', '.xml.gz'])}".encode()
    folder = rng.choice(['', 'logs/', 'a/b/'])
    stem = rng.choice(['game', 'log', '牌譜'])
    return f"{folder}{i}_{stem}{rng.choice(['.xml', '.mjlog', '.gz', '.json'])}".encode()


def _member_data(seeds: Sequence[bytes], rng: random.Random) -> bytes:
    data = rng.choice(seeds)
    r = rng.random()
    if r < 0.15 and not data.startswith(b"{"):
        data = rng.choice(list(MUTATIONS.values()))(data, rng)
    elif r < 0.35 and not data.startswith(b"\x1f\x8b"):
        data = gzip.compress(data, mtime=0)
    return data


def flip(data: bytes, rng: random.Random, n: int | None = None, lo: int = 0, hi: int | None = None) -> bytes:
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
        return flip(data, rng)
    sig = rng.choice(sigs)
    at = rng.choice(_positions(data, sig))
    _name, (off, size) = rng.choice(list(_ZIP_FIELDS[sig].items()))
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
                        method=rng.choice([DEFLATED, DEFLATED, STORED, BZIP2])) for i in range(n)]
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
        method = rng.choice([DEFLATED, BZIP2])
        mib = 64 if method == DEFLATED else 16
        bomb = ZipEntry(rng.choice([b"bomb.xml", f"{_GAME_IDS[0]}.mjlog".encode()]), b"", method=method)
        bomb.size = rng.choice([mib << 20, 1000, len(seeds[0]), 4 << 20])
        bomb.crc = 0
        entries.insert(rng.randrange(len(entries) + 1), bomb)
        payloads[entries.index(bomb)] = bomb_payload(method, mib)
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
                            method=STORED) for i in range(rng.randint(100, 2000))]
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
        data = flip(data, rng)
    elif kind == "flip_headers":
        sig = rng.choice([b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"])
        at = rng.choice(_positions(data, sig) or [0])
        data = flip(data, rng, rng.randint(1, 3), at, at + 46)
    elif kind == "patch_field":
        data = _patch_field(data, rng)
    elif kind == "truncate":
        data = data[: rng.randrange(len(data))]
    if rng.random() < 0.2 and kind not in ("truncate", "bomb"):  # and a second blow
        second = rng.choice(["flip_bytes", "patch_field", "truncate"])
        data = (flip(data, rng) if second == "flip_bytes" else _patch_field(data, rng)
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
    ("CREATE TABLE logs(id TEXT PRIMARY KEY, log BLOB GENERATED ALWAYS AS (printf('%.*c', 100000, 'x')) VIRTUAL)",
     "id", None),
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
        return flip(raw, rng)
    if kind == "truncate":
        return raw[: rng.randrange(max(len(raw), 1))]
    if kind == "wrong_magic":
        return rng.choice([b"BZh", b"\x1f\x8b", b"PK\x03\x04", b"SQLite format 3\x00"]) + raw
    if kind == "gzip_bomb":
        return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + bomb_payload(DEFLATED, 64)
    if kind == "bz2_bomb":
        return bomb_payload(BZIP2, 16)
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
        data = flip(data, rng, lo=rng.choice([0, 100, page]))
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


def check_container(path: Path, *, cli: bool = False, limits: Any = None) -> dict[str, int]:
    """Read a container the way ``validate`` and ``stats`` do (with these read ``limits``, a
    ``sources.local.ReadLimits``; the default ones when None); raise ``Failure`` on anything
    but records and one-line errors. Returns counts of what came out."""
    from tenhou_tools.batch import check_item
    from tenhou_tools.sources.local import ReadLimits, SourceStats, count_inputs, iter_logs
    from tenhou_tools.stats.records import stats_item

    folder = path.parent
    before = sorted(os.listdir(folder))
    counts = {"items": 0, "error_items": 0, "records_with_hands": 0}
    total = count_inputs([str(path)])
    if not isinstance(total, int) or total < 0:
        raise Failure(f"count_inputs gave {total!r}")
    stats = SourceStats()
    for item in iter_logs([str(path)], stats=stats, dedupe=True, limits=limits or ReadLimits()):
        counts["items"] += 1
        if counts["items"] > MAX_ITEMS:
            raise Failure(f"more than {MAX_ITEMS} items from one container")
        one_line(item.source, "an item's source")
        if item.error is not None:
            counts["error_items"] += 1
            one_line(item.error, "an error item's message")
        record = check_item(item)
        crash = [f for f in record.findings if f.code is FindingCode.INTERNAL_ERROR]
        if crash:
            raise Failure(f"INTERNAL_ERROR on {item.source}: {crash[0].message}\n{crash[0].detail or ''}")
        for f in record.findings:
            if f.code is FindingCode.PARSE_ERROR:
                one_line(f.message, "a PARSE_ERROR message")
        if record.hands:
            counts["records_with_hands"] += 1
        srec = stats_item(item)
        if srec.error is not None:
            one_line(srec.error, "a stats error")
            if "internal error" in srec.error:
                raise Failure(f"stats: {srec.error}")
    if cli:
        _check_validate_command(path)
    changed = set(os.listdir(folder)) ^ set(before)
    if is_wal(path):  # SQLite's reader of a WAL database makes its -wal and -shm files
        changed -= {f"{path.name}-wal", f"{path.name}-shm"}
    if changed:
        raise Failure(f"files appeared or vanished beside the container: {sorted(changed)}")
    return counts


def is_wal(path: Path) -> bool:
    with open(path, "rb") as fh:
        head = fh.read(20)
    return head.startswith(b"SQLite format 3\x00") and 2 in head[18:20]


def _check_validate_command(path: Path) -> None:
    from click.testing import CliRunner

    from tenhou_tools.cli import cli

    result = CliRunner().invoke(cli, ["validate", str(path), "--jobs", "1", "--no-progress",
                                      "--format", "ndjson"])
    if result.exit_code not in (0, 1):
        raise Failure(f"validate exited {result.exit_code}: {result.output[-500:]}")
    if "Traceback" in result.output or (result.exception and not isinstance(result.exception, SystemExit)):
        raise Failure(f"validate raised {result.exception!r}")
    lines = result.stdout.splitlines()
    docs = [json.loads(line) for line in lines]
    if not docs or docs[-1].get("type") != "summary" or any(d.get("type") != "game" for d in docs[:-1]):
        raise Failure("validate's NDJSON is not game lines and a summary")


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
            with attempt(report, kind, case.mutation, case.data, per_input_limit_s):
                counts = check_container(path, cli=bool(cli_every) and n % cli_every == 0)
                for key, value in counts.items():
                    report.outcomes[f"{kind}:{key}"] = report.outcomes.get(f"{kind}:{key}", 0) + value
            shutil.rmtree(folder, ignore_errors=True)
    return report
