"""What the tests of local sources share (``test_sources_files.py``, ``test_sources_archives.py``,
``test_sources_databases.py``): the fixtures' logs and ids, and small builders of folders, zip
archives and log databases in ``tmp_path`` from the repository's own fixtures (never corpus files)."""

from __future__ import annotations

import gzip
import io
import sqlite3
import tarfile
import zipfile
from pathlib import Path

from tenhou_tools.sources.local import LogItem, SourceStats, iter_logs

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ONE_HAND = (FIXTURES / "one_hand.xml").read_bytes()
SANMA = (FIXTURES / "sanma_kita.xml").read_bytes()
ONE_HAND_GZ = (FIXTURES / "one_hand.mjlog").read_bytes()
TRUNCATED = (FIXTURES / "truncated.mjlog").read_bytes()
TENHOU6 = b'{"title": ["", ""], "name": ["A", "B", "C", "D"], "rule": {"aka": 1}, "log": []}'

ID_A = "2014010100gm-00a9-0000-aaaaaaaa"
ID_B = "2014010101gm-00a9-0000-bbbbbbbb"
ID_C = "2014010102gm-00b9-0000-cccccccc"
ID_D = "2014010103gm-00a9-0000-dddddddd"
ID_E = "2014010104gm-00a9-0000-eeeeeeee"

HOUOU_SCHEMA = """
CREATE TABLE logs (
    id TEXT PRIMARY KEY,
    date TEXT NOT NULL,
    num_players INTEGER NOT NULL CHECK(num_players IN (4, 3)),
    is_tonpu INTEGER NOT NULL CHECK(is_tonpu IN (0, 1)),
    is_processed INTEGER NOT NULL CHECK(is_processed IN (0, 1)),
    was_error INTEGER NOT NULL CHECK(was_error IN (0, 1)),
    log BLOB
) WITHOUT ROWID;
CREATE INDEX idx_logs_status_filter ON logs(is_processed, was_error, num_players, is_tonpu, id);
CREATE TABLE file_index (file TEXT PRIMARY KEY, size INTEGER NOT NULL CHECK(size > 0)) WITHOUT ROWID;
"""

PHOENIX_SCHEMA = """
CREATE TABLE logs(
    log_id text primary key,
    date text,
    is_tonpusen int,
    is_sanma int,
    is_processed int,
    was_error int,
    log_content text,
    log_hash text
);
CREATE INDEX is_processed_index ON logs (is_processed);
CREATE TABLE last_downloads(name text, date int);
"""


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def make_zip(path: Path, members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in members.items():
            if name.endswith("/"):
                zf.writestr(zipfile.ZipInfo(name), b"")
            else:
                zf.writestr(name, data)
    return path


def make_tar(path: Path, members: dict[str, bytes], mode: str = "w") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, mode) as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def make_houou_db(path: Path, rows: list[tuple[str, bytes | None]]) -> Path:
    """houou-logs' own schema: id, flags, ``log`` a gzip BLOB of the mjlog XML or NULL."""
    conn = sqlite3.connect(path)
    with conn:
        conn.executescript(HOUOU_SCHEMA)
        for log_id, raw in rows:
            processed = int(raw is not None)
            conn.execute(
                "INSERT INTO logs VALUES (?, '2014-01-01T00:00', 4, 0, ?, 0, ?)",
                (log_id, processed, None if raw is None else gzip.compress(raw)),
            )
    conn.close()
    return path


def make_phoenix_db(path: Path, rows: list[tuple[str, bytes | str]]) -> Path:
    """phoenix-logs' schema: ``log_content`` holds bz2 bytes, or ``""`` before download/on error."""
    conn = sqlite3.connect(path)
    with conn:
        conn.executescript(PHOENIX_SCHEMA)
        for log_id, content in rows:
            conn.execute(
                "INSERT INTO logs VALUES (?, '2014-01-01 00:00', 0, 0, ?, 0, ?, '')",
                (log_id, int(content != ""), content),
            )
    conn.close()
    return path


def collect(paths, **kw) -> tuple[list[LogItem], SourceStats]:
    stats = SourceStats()
    items = list(iter_logs(paths, stats=stats, **kw))
    return items, stats


def sources(items: list[LogItem]) -> list[str]:
    return [item.source for item in items]
