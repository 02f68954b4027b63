"""Local sources: SQLite log databases (houou-logs, phoenix-logs): read-only, paged, capped,
locked and foreign ones; built in tmp_path from the repository's own fixtures (``sources_support``)."""

from __future__ import annotations

import bz2
import gzip
import inspect
import os
import random
import sqlite3

import pytest

from tenhou_tools.mjlog import parse_game
from tenhou_tools.sources import database, local
from tenhou_tools.sources.database import DbLayout, connect_readonly, detect_layout
from tenhou_tools.sources.local import ReadLimits, iter_logs

from .sources_support import (
    ID_A,
    ID_B,
    ID_C,
    ID_D,
    ID_E,
    ONE_HAND,
    ONE_HAND_GZ,
    SANMA,
    collect,
    make_houou_db,
    make_phoenix_db,
    sources,
    write,
)

# --- SQLite databases ----------------------------------------------------------------------------


def test_houou_logs_database(tmp_path):
    db = make_houou_db(
        tmp_path / "houou.db",
        [(ID_C, SANMA), (ID_A, ONE_HAND), (ID_B, None), (ID_D, ONE_HAND)],
    )
    conn = sqlite3.connect(db)  # a failed download: processed, was_error, no log
    with conn:
        conn.execute("UPDATE logs SET is_processed = 1, was_error = 1 WHERE id = ?", (ID_D,))
        conn.execute("UPDATE logs SET log = NULL WHERE id = ?", (ID_D,))
    conn.close()

    items, stats = collect([db])

    assert sources(items) == [f"{db}#{ID_A}", f"{db}#{ID_C}"]  # keyset order: by id
    assert [i.log_id for i in items] == [ID_A, ID_C]
    assert [gzip.decompress(i.data) for i in items] == [ONE_HAND, SANMA]  # gzip passed as is
    game = parse_game(items[1].data, source=items[1].source, log_id=items[1].log_id)
    assert game.header.ruleset.players == 3
    assert (stats.databases, stats.db_rows, stats.skipped_without_log) == (1, 2, 2)
    with connect_readonly(db) as conn:
        assert detect_layout(conn) == DbLayout("houou-logs", "id", "log", "id")  # WITHOUT ROWID
    conn.close()


def test_phoenix_logs_database_with_bz2_blobs(tmp_path):
    db = make_phoenix_db(
        tmp_path / "phoenix.db",
        [
            (ID_B, bz2.compress(ONE_HAND)),
            (ID_A, ""),  # not downloaded yet
            (ID_C, bz2.compress(SANMA)),
            (ID_D, b"BZh91AY&SY" + b"\x00" * 40),  # corrupt bz2
            (ID_E, bz2.compress(ONE_HAND_GZ)),  # bz2 around gzip: still bytes the parser reads
        ],
    )
    items, stats = collect([db])
    assert [(i.log_id, i.ok) for i in items] == [(ID_B, True), (ID_C, True), (ID_D, False), (ID_E, True)]
    assert [items[0].data, items[1].data, items[3].data] == [ONE_HAND, SANMA, ONE_HAND_GZ]
    assert items[2].error.startswith("bz2 data is corrupt") and items[2].source == f"{db}#{ID_D}"
    assert parse_game(items[3].data).header.ruleset.players == 4
    assert (stats.db_rows, stats.skipped_without_log, stats.errors) == (4, 1, 1)
    conn = connect_readonly(db)
    assert detect_layout(conn) == DbLayout("phoenix-logs", "log_id", "log_content", "rowid")
    conn.close()


def test_bz2_bomb_is_capped(tmp_path):
    limits = ReadLimits(log_bytes=5000)
    bomb = bz2.compress(b"<mjloggm>" + b" " * 1_000_000)
    db = make_phoenix_db(tmp_path / "p.db", [(ID_A, bomb), (ID_B, bz2.compress(SANMA))])
    items, _ = collect([db], limits=limits)
    assert [(i.log_id, i.ok) for i in items] == [(ID_A, False), (ID_B, True)]
    assert items[0].error == "decompressed size exceeds the 5000-byte limit"


def test_stored_blob_over_the_cap_is_never_loaded(tmp_path):
    incompressible = ONE_HAND + random.Random(0).randbytes(3000)
    db = make_houou_db(tmp_path / "h.db", [(ID_A, incompressible), (ID_B, SANMA)])
    assert len(gzip.compress(SANMA)) < 1000 < len(gzip.compress(incompressible))
    limits = ReadLimits(log_bytes=1000)
    items, _ = collect([db], limits=limits)
    assert [(i.log_id, i.ok) for i in items] == [(ID_A, False), (ID_B, True)]
    assert items[0].error.startswith("stored log is ") and "over the 1000-byte limit" in items[0].error


def test_database_is_opened_read_only(tmp_path):
    folder = tmp_path / "odd name #1?%20"
    folder.mkdir()
    db = make_houou_db(folder / "houou.db", [(ID_A, ONE_HAND), (ID_B, SANMA)])
    os.utime(db, ns=(1_000_000_000, 1_000_000_000))
    before = (db.read_bytes(), db.stat().st_mtime_ns, sorted(os.listdir(folder)))

    items, _ = collect([db])

    assert [i.log_id for i in items] == [ID_A, ID_B]
    assert (db.read_bytes(), db.stat().st_mtime_ns, sorted(os.listdir(folder))) == before
    conn = connect_readonly(db)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO logs VALUES ('x', 'd', 4, 0, 0, 0, NULL)")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("PRAGMA query_only = OFF")  # still mode=ro underneath
            conn.execute("DELETE FROM logs")
        assert conn.execute("SELECT COUNT(*) FROM logs").fetchone() == (2,)
    finally:
        conn.close()
    assert db.read_bytes() == before[0]


def traced_statements(monkeypatch) -> list[str]:
    """The SQL statements every database connection the reader opens runs, as they run."""
    statements: list[str] = []
    real_connect = database.connect_readonly

    def traced(path, **kw):
        conn = real_connect(path, **kw)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(database, "connect_readonly", traced)
    return statements


def test_database_is_paged_and_read_lazily(tmp_path, monkeypatch):
    ids = (ID_A, ID_B, ID_C, ID_D, ID_E)
    db = make_phoenix_db(tmp_path / "p.db", [(i, bz2.compress(ONE_HAND)) for i in ids])
    statements = traced_statements(monkeypatch)
    pages = lambda: [s for s in statements if s.startswith('SELECT "rowid"')]  # noqa: E731

    stream = iter_logs([db], limits=ReadLimits(db_page_rows=2))
    assert inspect.isgenerator(stream) and statements == []
    assert next(stream).log_id == ID_A
    assert len(pages()) == 1 and "LIMIT 2" in pages()[0] and "WHERE" not in pages()[0]
    assert [i.log_id for i in stream] == [ID_B, ID_C, ID_D, ID_E]
    assert len(pages()) == 4  # 2 + 2 + 1 rows, then an empty page
    assert all('WHERE "rowid" > ' in s for s in pages()[1:])


def test_database_page_is_bounded_in_bytes(tmp_path, monkeypatch):
    db = make_houou_db(tmp_path / "h.db", [(i, ONE_HAND) for i in (ID_A, ID_B, ID_C)])
    statements = traced_statements(monkeypatch)
    one_row = ReadLimits(db_page_bytes=1)  # every row fills a page
    assert [i.log_id for i in iter_logs([db], limits=one_row)] == [ID_A, ID_B, ID_C]
    assert len([s for s in statements if s.startswith('SELECT "id"')]) == 4


def test_locked_database_is_an_error_item_and_the_stream_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(database, "DB_TIMEOUT", 0.05)
    db = make_houou_db(tmp_path / "h.db", [(ID_A, ONE_HAND)])
    after = write(tmp_path / f"{ID_B}.xml", SANMA)
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        items, stats = collect([db, after])
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert [(i.source, i.ok) for i in items] == [(str(db), False), (str(after), True)]
    assert "locked" in items[0].error
    assert stats.errors == 1


def test_corrupt_and_foreign_databases_are_error_items(tmp_path):
    corrupt = write(tmp_path / "corrupt.db", local.SQLITE_MAGIC + b"\xff" * 200)
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE games (id TEXT, blob BLOB)")
    conn.commit()
    conn.close()
    no_log_col = tmp_path / "nolog.db"
    conn = sqlite3.connect(no_log_col)
    conn.execute("CREATE TABLE logs (id TEXT PRIMARY KEY, date TEXT)")
    conn.commit()
    conn.close()
    good = make_houou_db(tmp_path / "good.db", [(ID_A, ONE_HAND)])

    items, stats = collect([corrupt, foreign, no_log_col, good])

    assert [(i.source, i.ok) for i in items] == [
        (str(corrupt), False), (str(foreign), False), (str(no_log_col), False), (f"{good}#{ID_A}", True),
    ]
    assert items[0].error.startswith("cannot read SQLite database")
    assert "no `logs` table" in items[1].error
    assert "no log column (id, date)" in items[2].error
    assert (stats.databases, stats.errors) == (4, 3)
