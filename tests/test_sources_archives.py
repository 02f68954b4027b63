"""Local sources: zip and tar archives (streamed, capped, one member at a time), archives and
databases found in folders, standard input, the survey; built in tmp_path from the repository's
own fixtures (``sources_support``)."""

from __future__ import annotations

import bz2
import gzip
import io
import re
import shutil
import struct
import subprocess
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from tenhou_tools.sources import local
from tenhou_tools.sources import zip as zip_source
from tenhou_tools.sources.local import ReadLimits, count_inputs, iter_logs, resolve_inputs

from .sources_support import (
    ID_A,
    ID_B,
    ID_C,
    ID_D,
    ONE_HAND,
    ONE_HAND_GZ,
    SANMA,
    TENHOU6,
    collect,
    make_houou_db,
    make_tar,
    make_zip,
    sources,
    write,
)

# --- zip archives --------------------------------------------------------------------------------


def test_zip_members_nested_and_zip_slip_names_are_only_shown(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # if anything extracted "../evil.xml", it would land in tmp_path
    archive = make_zip(
        tmp_path / "archive.zip",
        {
            "2014/": b"",
            f"2014/01/{ID_A}.mjlog": ONE_HAND_GZ,
            "../evil.xml": ONE_HAND,
            "/abs/evil2.xml": SANMA,
            "readme.txt": b"hello",
            "__MACOSX/2014/._x.xml": b"\x00\x05\x16\x07",
            "2014/.hidden.xml": ONE_HAND,
            "game.json": TENHOU6,
            "bad\x1b[2Jname.xml": SANMA,  # a terminal escape in a name: shown escaped
        },
    )
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))

    items, stats = collect([archive], dedupe=False)

    assert sources(items) == [
        f"{archive}:2014/01/{ID_A}.mjlog",
        f"{archive}:../evil.xml",
        f"{archive}:/abs/evil2.xml",
        f"{archive}:game.json",
        f"{archive}:bad\\x1b[2Jname.xml",
    ]
    assert [i.data for i in items[:3]] == [ONE_HAND_GZ, ONE_HAND, SANMA]
    assert [i.log_id for i in items] == [ID_A, None, None, None, None]
    assert [i.kind for i in items] == ["mjlog", "mjlog", "mjlog", "tenhou6", "mjlog"]
    assert (stats.zip_archives, stats.zip_members, stats.ignored) == (1, 5, 1)
    # nothing was written anywhere
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert not (tmp_path / "evil.xml").exists() and not Path("/abs/evil2.xml").exists()


def test_zip_member_over_the_cap_is_an_error_item(tmp_path):
    limits = ReadLimits(log_bytes=500)
    archive = make_zip(
        tmp_path / "a.zip", {f"{ID_A}.xml": ONE_HAND, f"{ID_B}.mjlog": ONE_HAND_GZ}  # 740, 456 bytes
    )
    items, stats = collect([archive], limits=limits)
    assert [(i.log_id, i.ok) for i in items] == [(ID_A, False), (ID_B, True)]
    assert items[0].error == "member is 740 bytes uncompressed, over the 500-byte limit"
    assert stats.errors == 1


def test_zip_member_whose_header_lies_about_its_size(tmp_path):
    """The declared size is under the cap but the data is not: the cap is enforced while
    inflating, and the member becomes an error item."""
    limits = ReadLimits(log_bytes=500)
    archive = make_zip(tmp_path / "lies.zip", {f"{ID_A}.xml": ONE_HAND, f"{ID_B}.mjlog": ONE_HAND_GZ})
    raw = bytearray(archive.read_bytes())
    struct.pack_into("<I", raw, raw.index(b"PK\x03\x04") + 22, 400)  # local header: size
    struct.pack_into("<I", raw, raw.index(b"PK\x01\x02") + 24, 400)  # central directory: size
    archive.write_bytes(bytes(raw))

    items, _ = collect([archive], limits=limits)
    assert [(i.log_id, i.ok) for i in items] == [(ID_A, False), (ID_B, True)]
    assert items[0].error == "member is over the 500-byte limit"


def test_zip_bomb_cannot_exhaust_memory(tmp_path):
    limits = ReadLimits(log_bytes=64 * 1024)
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open(f"{ID_A}.xml", "w") as member:
            for _ in range(200):
                member.write(b"\0" * 1_000_000)
        zf.writestr("ok.xml", SANMA)
    raw = bytearray(archive.read_bytes())
    assert len(raw) < 300_000  # 200 MB inflated
    struct.pack_into("<I", raw, raw.index(b"PK\x01\x02") + 24, 1000)  # claims 1000 bytes
    archive.write_bytes(bytes(raw))

    tracemalloc.start()
    try:
        items, _ = collect([archive], limits=limits)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [i.ok for i in items] == [False, True]
    assert items[0].error == f"member is over the {64 * 1024}-byte limit"
    assert peak < 2_000_000


def zip_oracle(path: Path) -> list[tuple[str, bytes]]:
    """What the standard library reads from an archive (files only)."""
    with zipfile.ZipFile(path) as zf:
        return [(i.filename, zf.read(i)) for i in zf.infolist() if not i.is_dir()]


@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])
def test_streamed_zip_reader_agrees_with_zipfile(tmp_path, compression):
    members = {
        "dir/": b"",
        f"2014/{ID_A}.mjlog": ONE_HAND_GZ,
        "日本語/牌譜.xml": SANMA,  # UTF-8 name
        "big.xml": ONE_HAND * 200,
        "empty.xml": b"",
    }
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", compression) as zf:
        zf.comment = b"archive comment"
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = compression
            info.comment = b"member comment"
            zf.writestr(info, data)
    items, _ = collect([archive])
    expected = zip_oracle(archive)
    assert [(i.source.split(":", 1)[1], i.data) for i in items] == expected
    assert len(expected) == 4


def test_archive_comment_holding_the_end_signature(tmp_path):
    """zipfile gives up on this archive ("Bad offset for central directory"); we do not."""
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.comment = b"PK\x05\x06" + b"\0" * 30
        zf.writestr(f"{ID_A}.xml", ONE_HAND)
    items, _ = collect([archive])
    assert [(i.log_id, i.data) for i in items] == [(ID_A, ONE_HAND)]


def test_streamed_zip_reader_reads_zip64_and_data_descriptors(tmp_path, monkeypatch):
    # zip64 records everywhere (sizes, offsets, end of central directory), written by zipfile
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", 10)
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 1)
    zip64 = make_zip(
        tmp_path / "z64.zip", {f"{ID_A}.xml": ONE_HAND, f"{ID_B}.xml": SANMA, "c.mjlog": ONE_HAND_GZ}
    )
    monkeypatch.undo()
    assert b"PK\x06\x06" in zip64.read_bytes() and b"PK\x06\x07" in zip64.read_bytes()

    # written to a stream that cannot seek: sizes only in data descriptors after each member
    class Unseekable(io.RawIOBase):
        def __init__(self):
            self.buf = bytearray()

        def writable(self):
            return True

        def write(self, b):
            self.buf += b
            return len(b)

    sink = Unseekable()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{ID_C}.xml", ONE_HAND)
        zf.writestr(f"{ID_D}.xml", SANMA)
    streamed = write(tmp_path / "streamed.zip", bytes(sink.buf))
    assert struct.unpack_from("<H", streamed.read_bytes(), 6)[0] & 0x8  # data descriptor flag

    for archive in (zip64, streamed):
        items, _ = collect([archive])
        assert [(i.source.split(":", 1)[1], i.data) for i in items] == zip_oracle(archive)
        assert all(i.ok for i in items) and len(items) in (2, 3)


@pytest.mark.skipif(shutil.which("zip") is None, reason="Info-ZIP `zip` not installed")
def test_streamed_zip_reader_reads_info_zip_archives(tmp_path):
    src = tmp_path / "src"
    write(src / "a" / f"{ID_A}.xml", ONE_HAND)
    write(src / "b.mjlog", ONE_HAND_GZ)
    write(src / "c.xml", SANMA)
    archive = tmp_path / "info.zip"
    subprocess.run(["zip", "-q", "-r", "-X", str(archive), "."], cwd=src, check=True)
    described = tmp_path / "described.zip"  # -fd: sizes in data descriptors after the data
    subprocess.run(["zip", "-q", "-fd", str(described), "c.xml"], cwd=src, check=True)
    assert struct.unpack_from("<H", described.read_bytes(), 6)[0] & 0x8
    for path in (archive, described):
        items, _ = collect([path])
        assert [(i.source.split(":", 1)[1], i.data) for i in items] == zip_oracle(path)


def test_unsupported_and_encrypted_members_are_error_items(tmp_path):
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{ID_A}.xml", ONE_HAND, compress_type=zipfile.ZIP_LZMA)
        zf.writestr(f"{ID_B}.xml", SANMA, compress_type=zipfile.ZIP_DEFLATED)
        zf.writestr(f"{ID_C}.xml", SANMA, compress_type=zipfile.ZIP_STORED)
    raw = bytearray(archive.read_bytes())
    # mark the third member encrypted, in its central directory entry
    central = [m.start() for m in re.finditer(b"PK\x01\x02", raw)]
    flags = struct.unpack_from("<H", raw, central[2] + 8)[0]
    struct.pack_into("<H", raw, central[2] + 8, flags | 0x1)
    archive.write_bytes(bytes(raw))

    items, stats = collect([archive])
    assert [(i.log_id, i.ok) for i in items] == [(ID_A, False), (ID_B, True), (ID_C, False)]
    assert items[0].error == "cannot read zip member: compression method 14 is not supported"
    assert items[2].error == "cannot read zip member: it is encrypted"
    assert stats.errors == 2


def test_corrupt_central_directory_entry_ends_the_archive_with_an_error(tmp_path):
    archive = make_zip(tmp_path / "a.zip", {f"{ID_A}.xml": ONE_HAND, f"{ID_B}.xml": SANMA})
    after = write(tmp_path / f"{ID_C}.xml", SANMA)
    raw = bytearray(archive.read_bytes())
    second = [m.start() for m in re.finditer(b"PK\x01\x02", raw)][1]
    raw[second : second + 4] = b"XXXX"
    archive.write_bytes(bytes(raw))
    items, _ = collect([archive, after])
    assert [(i.source, i.ok) for i in items] == [
        (f"{archive}:{ID_A}.xml", True), (str(archive), False), (str(after), True),
    ]
    assert items[1].error == "not a readable zip archive: corrupt central directory at entry 2"


def test_corrupt_zip_is_an_error_item_and_the_stream_goes_on(tmp_path):
    good = make_zip(tmp_path / "good.zip", {f"{ID_A}.mjlog": ONE_HAND_GZ})
    corrupt = write(tmp_path / "corrupt.zip", good.read_bytes()[:40])  # local header, no directory
    items, stats = collect([corrupt, good])
    assert [(i.source, i.ok) for i in items] == [(str(corrupt), False), (f"{good}:{ID_A}.mjlog", True)]
    assert items[0].error.startswith("not a readable zip archive")
    assert stats.errors == 1


def test_corrupt_zip_member_is_an_error_item(tmp_path):
    archive = make_zip(tmp_path / "a.zip", {f"{ID_A}.xml": ONE_HAND * 3, f"{ID_B}.xml": SANMA})
    raw = bytearray(archive.read_bytes())
    start = raw.index(b"PK\x03\x04") + 30 + len(f"{ID_A}.xml")  # first member's deflate stream
    raw[start : start + 20] = b"\xff" * 20
    archive.write_bytes(bytes(raw))
    items, _ = collect([archive])
    assert [(i.log_id, i.ok) for i in items] == [(ID_A, False), (ID_B, True)]
    assert items[0].error.startswith("cannot read zip member")


def test_zip_members_are_read_one_at_a_time(tmp_path, monkeypatch):
    archive = make_zip(tmp_path / "a.zip", {f"{n}.xml": ONE_HAND for n in (ID_A, ID_B, ID_C)})
    read: list[str] = []
    real_read = zip_source.ZipReader.read

    def spy(self, member, cap):
        read.append(member.name)
        return real_read(self, member, cap)

    monkeypatch.setattr(zip_source.ZipReader, "read", spy)
    stream = iter_logs([archive])
    assert read == []  # nothing is read before the first item is asked for
    first = next(stream)
    assert first.log_id == ID_A and read == [f"{ID_A}.xml"]
    assert [i.log_id for i in stream] == [ID_B, ID_C]
    assert len(read) == 3


# --- archives and databases in folders, tar archives, standard input, the survey -----------------


def test_folders_take_archives_and_databases_by_content_and_skip_other_files(tmp_path):
    root = tmp_path / "logs"
    write(root / "a.xml", SANMA)
    make_zip(root / "scraw2014.zip", {f"{ID_A}.mjlog": ONE_HAND_GZ, "readme.txt": b"x"})
    (root / "db").mkdir(parents=True)
    make_houou_db(root / "db" / "houou.sqlite", [(ID_B, ONE_HAND), (ID_C, None)])
    make_tar(root / "more.tgz", {f"x/{ID_D}.xml": ONE_HAND}, "w:gz")
    write(root / "notes.txt", b"not a log")
    write(root / "empty", b"")

    items, stats = collect([root])

    assert sources(items) == [
        str(root / "a.xml"), f"{root}/db/houou.sqlite#{ID_B}", f"{root}/more.tgz:x/{ID_D}.xml",
        f"{root}/scraw2014.zip:{ID_A}.mjlog",
    ]
    assert all(i.ok for i in items)
    assert (stats.zip_archives, stats.databases, stats.tar_archives, stats.tar_members) == (1, 1, 1, 1)
    assert (stats.ignored, stats.skipped_without_log) == (3, 1)  # notes.txt, empty, readme.txt
    survey = local.survey_inputs([root])
    assert (survey.total, survey.ignored, survey.rows_without_log) == (4, 3, 1)


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_tar_members_are_read_one_at_a_time_and_named_like_zip_members(tmp_path, mode, monkeypatch):
    limits = ReadLimits(log_bytes=730)  # SANMA is 725 bytes, ONE_HAND 740
    archive = make_tar(tmp_path / "a.tar", {
        "2014/": b"", f"2014/{ID_A}.mjlog": ONE_HAND_GZ, "../evil.xml": SANMA, "big.xml": ONE_HAND,
        "readme.md": b"#", f"copy/{ID_A}.xml": ONE_HAND, ".hidden.xml": SANMA,
    }, mode)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    items, stats = collect([archive], limits=limits)
    assert [(i.source, i.log_id, i.ok) for i in items] == [
        (f"{archive}:2014/{ID_A}.mjlog", ID_A, True),
        (f"{archive}:../evil.xml", None, True),
        (f"{archive}:big.xml", None, False),
    ]
    assert items[0].data == ONE_HAND_GZ and items[1].data == SANMA
    if mode == "w":
        assert items[2].error == "member is 740 bytes, over the 730-byte limit"
        assert (stats.tar_members, stats.duplicates, stats.ignored) == (4, 1, 1)
    else:  # skipping a member of a compressed archive means decompressing it: a bomb would be slow
        assert items[2].error == ("member is 740 bytes, over the 730-byte limit: the compressed "
                                  "archive is not read past it")
    assert not (tmp_path / "evil.xml").exists() and list(work.iterdir()) == []


def test_a_truncated_or_corrupt_tar_is_an_error_item(tmp_path):
    whole = make_tar(tmp_path / "a.tar", {"one.xml": ONE_HAND, "two.xml": SANMA}).read_bytes()
    cut = write(tmp_path / "cut.tar", whole[:2300])  # 512 + 1024 for one.xml, 512 + 252 of two.xml
    assert [(i.source.rsplit(":", 1)[1], i.ok, i.error) for i in iter_logs([cut])] == [
        ("one.xml", True, None), ("two.xml", False, "cannot read tar member: unexpected end of data")]
    gz = gzip.compress(whole, mtime=0)
    cut_gz = write(tmp_path / "cut.tar.gz", gz[: len(gz) // 2])
    assert [(i.source.rsplit(":", 1)[1], i.ok, i.error) for i in iter_logs([cut_gz])] == [
        ("one.xml", False, "cannot read tar member: unexpected end of data")]
    bad_sum = write(tmp_path / "bad.tar", whole[:148] + b"9999999\x00" + whole[156:])  # header checksum
    (item,) = iter_logs([bad_sum])
    assert (item.source, item.error) == (str(bad_sum), "not a readable tar archive: invalid header")
    plain = write(tmp_path / "x.bz2", bz2.compress(ONE_HAND))
    (item,) = iter_logs([plain])
    assert item.error == ("bz2 or xz-compressed data that is not a tar archive: logs are read plain or "
                          "gzip-compressed")


def test_dash_is_one_log_from_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(ONE_HAND_GZ)))
    assert resolve_inputs(["-"]) == [local.ResolvedInput("-", "stdin")]
    assert count_inputs(["-"]) == 1  # counted without being read
    (item,) = iter_logs(["-"])
    assert (item.source, item.log_id, item.data, item.kind) == ("<stdin>", None, ONE_HAND_GZ, "mjlog")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(make_zip_bytes({"a.xml": ONE_HAND}))))
    (item,) = iter_logs(["-"])
    assert item.error == "standard input holds a zip archive: give its path instead (`-` reads one log)"


def make_zip_bytes(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_survey_is_zero_exactly_when_nothing_is_yielded(tmp_path):
    (tmp_path / "empty").mkdir()
    write(tmp_path / "junk" / "a.txt", b"x")
    make_zip(tmp_path / "junk" / "z.zip", {"readme.txt": b"x"})
    make_houou_db(tmp_path / "junk" / "h.db", [(ID_A, None)])
    for inputs in ([tmp_path / "empty"], [tmp_path / "junk"], [tmp_path / "junk" / "z.zip"]):
        assert local.survey_inputs(inputs).total == 0
        assert list(iter_logs(inputs)) == []
    assert local.survey_inputs([tmp_path / "junk"]) == local.InputSurvey(0, 2, 1)
