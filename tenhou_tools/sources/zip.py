"""Zip archives, streamed: one central directory entry and one member at a time.

Members are read one at a time and capped at ``ReadLimits.log_bytes``, both by the size the
archive declares and while decompressing; a member named like a log (``DEFAULT_SUFFIXES``) is
read, others are counted as ignored. Member names are only ever shown, never used as file
system paths, so a ``../evil.xml`` member is harmless.

Why not ``zipfile`` (measured on Python 3.11, docs/development.md):

- ``zipfile.ZipFile`` reads the whole central directory into ``ZipInfo`` objects when it opens
  an archive: 117 MiB for an archive of 200,000 logs (about 600 bytes a member), held for the
  whole run; this reader holds one entry (0.1 MiB at its peak for the same archive), and lists
  it as fast (1.2 s against 1.5 s).
- ``ZipExtFile.read`` caps deflate output, but decompresses bz2 and lzma members without a
  limit: 306 bytes of bz2 declared as 1,000 bytes made ``read(65537)`` allocate 811 MiB. Here
  every method stops at the cap (``_inflate``).
- ``zipfile`` gives up on an archive whose comment holds the end record's signature ("Bad
  offset for central directory"), which this reader reads.

The layout follows PKWARE's APPNOTE.TXT (sections 4.3.7, 4.3.12, 4.3.14-16, 4.5.3); the tests
hold the reader to ``zipfile``'s answers on ordinary archives (stored, deflate and bz2 members,
zip64 records, data descriptors, Info-ZIP's ``zip``) and to the caps on hostile ones.
"""

from __future__ import annotations

import bz2
import os
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..ids import log_id_from_name
from .items import LogItem, Unreadable, Walk, member_base, os_message, printable

__all__ = ["ZipReader", "count_zip", "zip_items"]


def zip_items(walk: Walk, path: str) -> Iterator[LogItem]:
    """The logs of a zip archive; a broken archive ends in one error item."""
    walk.stats.zip_archives += 1
    try:
        archive = ZipReader(path)
    except (Unreadable, OSError) as exc:
        msg = str(exc) if isinstance(exc, Unreadable) else os_message(exc)
        yield walk.error(path, None, f"not a readable zip archive: {msg}")
        return
    with archive:
        members = archive.members()
        while True:
            try:
                member = next(members, None)
            except (Unreadable, OSError) as exc:
                msg = str(exc) if isinstance(exc, Unreadable) else os_message(exc)
                yield walk.error(path, None, f"not a readable zip archive: {msg}")
                return
            if member is None:
                return
            base = member_base(member.name)
            if base is None:
                continue
            if not base.lower().endswith(walk.suffixes):
                walk.stats.ignored += 1
                continue
            source = f"{path}:{printable(member.name)}"
            log_id = log_id_from_name(base)
            walk.stats.zip_members += 1
            if walk.duplicate(log_id, source):
                continue
            try:
                data = archive.read(member, walk.limits.log_bytes)
            except Unreadable as exc:
                yield walk.error(source, log_id, str(exc))
                continue
            except OSError as exc:
                yield walk.error(source, log_id, os_message(exc))
                continue
            yield from walk.ok(source, log_id, data, base, found=True)


def count_zip(path: str, suffixes: tuple[str, ...]) -> tuple[int, int]:
    """``(logs, ignored)``: the members named like logs, and the others, by the central
    directory alone (nothing is decompressed). Raises ``Unreadable`` or ``OSError``."""
    logs = ignored = 0
    with ZipReader(path) as archive:
        for m in archive.members():
            base = member_base(m.name)
            if base is None:
                continue
            if base.lower().endswith(suffixes):
                logs += 1
            else:
                ignored += 1
    return logs, ignored


_EOCD = struct.Struct("<4s4H2LH")  # end of central directory record, 22 bytes
_EOCD64_LOCATOR = struct.Struct("<4sLQL")  # zip64 end of central directory locator, 20 bytes
_EOCD64 = struct.Struct("<4sQ2H2L4Q")  # zip64 end of central directory record, 56 bytes
_CENTRAL = struct.Struct("<4s4B4H3L5H2L")  # central directory file header, 46 bytes
_LOCAL = struct.Struct("<4s2B4H3L2H")  # local file header, 30 bytes
_EOCD_SIG, _EOCD64_LOCATOR_SIG, _EOCD64_SIG = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"
_CENTRAL_SIG, _LOCAL_SIG = b"PK\x01\x02", b"PK\x03\x04"
_STORED, _DEFLATED, _BZIP2 = 0, 8, 12
_CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class _Member:
    name: str
    flags: int
    method: int
    crc: int
    compressed_size: int
    size: int
    offset: int


class ZipReader:
    """Members of a zip archive, read lazily. Raises ``Unreadable`` for a broken archive."""

    def __init__(self, path: str):
        self._cd = open(path, "rb")  # noqa: SIM115 - closed in __exit__; walks the central directory
        self._data: BinaryIO | None = None  # a second handle for member data, opened on first read
        self._path = path
        try:
            self._entries, self._cd_offset, self._cd_size = self._end_record()
        except BaseException:
            self._cd.close()
            raise

    def __enter__(self) -> ZipReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self._cd.close()
        if self._data is not None:
            self._data.close()

    def _end_record(self) -> tuple[int, int, int]:
        fh = self._cd
        size = fh.seek(0, os.SEEK_END)
        tail_start = max(0, size - _EOCD.size - 0xFFFF)
        fh.seek(tail_start)
        tail = fh.read()
        at = _find_end_record(tail)
        if at is None:
            raise Unreadable("no end of central directory record (truncated or not a zip)")
        _sig, disk, cd_disk, _n_here, entries, cd_size, cd_offset, _comment = _EOCD.unpack_from(tail, at)
        eocd_at = tail_start + at
        if eocd_at >= _EOCD64_LOCATOR.size:  # a zip64 archive has a locator just before
            fh.seek(eocd_at - _EOCD64_LOCATOR.size)
            loc = fh.read(_EOCD64_LOCATOR.size)
            if loc[:4] == _EOCD64_LOCATOR_SIG:
                _sig, _disk, eocd64_at, disks = _EOCD64_LOCATOR.unpack(loc)
                if eocd64_at > eocd_at - _EOCD64_LOCATOR.size - _EOCD64.size:  # not before the locator
                    raise Unreadable("corrupt zip64 end of central directory locator")
                fh.seek(eocd64_at)
                rec = fh.read(_EOCD64.size)
                if len(rec) != _EOCD64.size or rec[:4] != _EOCD64_SIG:
                    raise Unreadable("corrupt zip64 end of central directory record")
                (_sig, _len, _made, _need, disk, cd_disk, _n_here, entries, cd_size,
                 cd_offset) = _EOCD64.unpack(rec)
                if disks > 1:
                    disk = disks
        if disk or cd_disk:
            raise Unreadable("multi-disk (spanned) zip archives are not supported")
        if cd_offset + cd_size > eocd_at:
            raise Unreadable("central directory lies outside the archive (truncated?)")
        return entries, cd_offset, cd_size

    def members(self) -> Iterator[_Member]:
        """Central directory entries in archive order, one at a time."""
        fh = self._cd
        fh.seek(self._cd_offset)
        for index in range(self._entries):
            head = fh.read(_CENTRAL.size)
            if len(head) != _CENTRAL.size or head[:4] != _CENTRAL_SIG:
                raise Unreadable(f"corrupt central directory at entry {index + 1}")
            (_sig, _made, _system, _need, _sys2, flags, method, _time, _date, crc, csize, size,
             name_len, extra_len, comment_len, _disk, _iattr, _eattr, offset) = _CENTRAL.unpack(head)
            raw_name = fh.read(name_len)
            extra = fh.read(extra_len)
            if comment_len:
                fh.seek(comment_len, os.SEEK_CUR)
            if len(raw_name) != name_len or len(extra) != extra_len:
                raise Unreadable(f"corrupt central directory at entry {index + 1}")
            if 0xFFFFFFFF in (size, csize, offset):
                size, csize, offset = _zip64_extra(extra, size, csize, offset)
            name = raw_name.decode("utf-8" if flags & 0x800 else "cp437", "replace")
            yield _Member(name, flags, method, crc, csize, size, offset)

    def read(self, m: _Member, cap: int) -> bytes:
        """One member's bytes, never more than ``cap`` of them, checked against size and CRC."""
        if m.size > cap:
            raise Unreadable(f"member is {m.size} bytes uncompressed, over the {cap}-byte limit")
        if m.flags & 0x1:
            raise Unreadable("cannot read zip member: it is encrypted")
        if m.method not in (_STORED, _DEFLATED, _BZIP2):
            raise Unreadable(f"cannot read zip member: compression method {m.method} is not supported")
        if m.offset > self._cd_offset - _LOCAL.size:  # (a 64-bit offset may not even be seekable)
            raise Unreadable("cannot read zip member: its local header lies outside the archive's data")
        if self._data is None:
            self._data = open(self._path, "rb")  # noqa: SIM115 - closed in __exit__
        fh = self._data
        fh.seek(m.offset)
        head = fh.read(_LOCAL.size)
        if len(head) != _LOCAL.size or head[:4] != _LOCAL_SIG:
            raise Unreadable("cannot read zip member: bad local file header")
        name_len, extra_len = _LOCAL.unpack(head)[-2:]
        fh.seek(m.offset + _LOCAL.size + name_len + extra_len)
        out = _inflate(fh, m, cap)
        if len(out) > cap:
            raise Unreadable(f"member is over the {cap}-byte limit")
        if len(out) != m.size:
            raise Unreadable(f"cannot read zip member: {len(out)} bytes, the archive says {m.size}")
        if zlib.crc32(out) != m.crc:
            raise Unreadable("cannot read zip member: bad CRC-32")
        return bytes(out)


def _find_end_record(tail: bytes) -> int | None:
    """Where the end of central directory record starts in the last 64 KiB of the archive.

    The record is followed only by the archive comment, so prefer the candidate whose comment
    length reaches exactly the end of the file (a comment may itself contain the signature);
    else take the last complete one.
    """
    fallback = None
    at = tail.rfind(_EOCD_SIG)
    while at >= 0:
        if at + _EOCD.size <= len(tail):
            (comment_len,) = struct.unpack_from("<H", tail, at + _EOCD.size - 2)
            if at + _EOCD.size + comment_len == len(tail):
                return at
            if fallback is None:
                fallback = at
        at = tail.rfind(_EOCD_SIG, 0, at)
    return fallback


def _zip64_extra(extra: bytes, size: int, csize: int, offset: int) -> tuple[int, int, int]:
    """The 64-bit values of the fields set to 0xFFFFFFFF, from the zip64 extra field (id 1)."""
    at = 0
    while at + 4 <= len(extra):
        kind, length = struct.unpack_from("<2H", extra, at)
        body = extra[at + 4 : at + 4 + length]
        if kind == 0x0001:
            values = [v for (v,) in struct.iter_unpack("<Q", body[: len(body) // 8 * 8])]
            try:
                if size == 0xFFFFFFFF:
                    size = values.pop(0)
                if csize == 0xFFFFFFFF:
                    csize = values.pop(0)
                if offset == 0xFFFFFFFF:
                    offset = values.pop(0)
            except IndexError:
                raise Unreadable("corrupt zip64 extra field") from None
            return size, csize, offset
        at += 4 + length
    raise Unreadable("zip64 sizes are missing their extra field")


def _inflate(fh: BinaryIO, m: _Member, cap: int) -> bytearray:
    """Read ``m.compressed_size`` bytes and decompress them, stopping past ``cap`` bytes of output."""
    limit = cap + 1
    out = bytearray()
    left = m.compressed_size
    if m.method == _STORED:
        data = fh.read(min(left, limit))
        if len(data) < min(left, limit):
            raise Unreadable("cannot read zip member: the archive is truncated")
        return bytearray(data)
    d = zlib.decompressobj(-zlib.MAX_WBITS) if m.method == _DEFLATED else bz2.BZ2Decompressor()
    try:
        while left > 0 and not d.eof and len(out) < limit:
            chunk = fh.read(min(left, _CHUNK))
            if not chunk:
                raise Unreadable("cannot read zip member: the archive is truncated")
            left -= len(chunk)
            # max_length bounds each step's output: a bomb stops at cap + 1 bytes.
            out += d.decompress(chunk, limit - len(out))
            if isinstance(d, bz2.BZ2Decompressor):
                while not d.eof and not d.needs_input and len(out) < limit:
                    out += d.decompress(b"", limit - len(out))
    except (zlib.error, OSError, EOFError, ValueError) as exc:
        raise Unreadable(f"cannot read zip member: corrupt compressed data ({exc})") from None
    if len(out) < limit and not d.eof:
        raise Unreadable("cannot read zip member: compressed data ends early")
    return out
