"""A zip writer with every field under control (PKWARE APPNOTE 4.3): the archives the container
fuzzer (``containers``) damages, written with whatever sizes, offsets, CRCs, methods, flags,
names and zip64 records a test asks for, and compressed bombs."""

from __future__ import annotations

import bz2
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

STORED, DEFLATED, BZIP2 = 0, 8, 12


@dataclass
class ZipEntry:
    """One member as the writer lays it out. ``None`` fields take their true value."""

    name: bytes
    data: bytes
    method: int = DEFLATED
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
    if method == DEFLATED:
        c = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        return c.compress(data) + c.flush()
    if method == BZIP2:
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
def bomb_payload(method: int, megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, compressed (deflate: about 1/1000 of that; bz2: far less)."""
    zeros = b"\0" * (1 << 20)
    if method == BZIP2:
        c = bz2.BZ2Compressor(9)
    else:
        c = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    parts = [c.compress(zeros) for _ in range(megabytes)]
    parts.append(c.flush())
    return b"".join(parts)
