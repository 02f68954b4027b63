"""Tar archives (``.tar``, ``.tar.gz``/``.tgz``, ``.tar.bz2``, ``.tar.xz``), read as a stream.

The standard ``tarfile`` module in stream mode (``r|*``) reads one member at a time and extracts
nothing to disk; its list of the members passed is emptied as it goes, so memory stays flat.
Members named like logs are read, each capped at ``ReadLimits.log_bytes`` by its declared size;
in a compressed archive a member over the cap ends the archive (passing it would mean
decompressing it: a bomb would take hours to skip).
"""

from __future__ import annotations

import lzma
import os
import tarfile
import zlib
from collections.abc import Iterator

from ..ids import log_id_from_name
from .items import Container, LogItem, Walk, member_base, printable

__all__ = ["tar_items"]


def tar_items(walk: Walk, path: str, container: Container) -> Iterator[LogItem]:
    """Members of a (compressed) tar archive, read as a stream: one member at a time, each
    capped by its declared size; ``tarfile`` never extracts anything to disk here."""
    walk.stats.tar_archives += 1
    try:
        archive = tarfile.open(path, mode="r|*")  # noqa: SIM115 - closed by the `with` below
    except _TAR_ERRORS as exc:
        if container == "compressed":  # bz2 or xz, and not a tar inside
            yield walk.error(path, log_id_from_name(os.path.basename(path)),
                             "bz2 or xz-compressed data that is not a tar archive: logs are "
                             "read plain or gzip-compressed")
        else:
            yield walk.error(path, None, f"not a readable tar archive: {_tar_message(exc)}")
        return
    # Passing a member means reading through its data: in a compressed archive, decompressing
    # it. A member over the cap there ends the archive (a bomb would take hours to skip).
    compressed = getattr(archive.fileobj, "comptype", "tar") != "tar"
    with archive:
        while True:
            try:
                member = archive.next()
            except _TAR_ERRORS as exc:
                yield walk.error(path, None, f"not a readable tar archive: {_tar_message(exc)}")
                return
            if member is None:
                return
            # A stream needs no index of what it has passed (typeshed does not know ``members``).
            archive.members.clear()  # type: ignore[attr-defined]
            if not member.isfile():
                continue
            cap = walk.limits.log_bytes
            base = member_base(member.name)
            named_like_a_log = base is not None and base.lower().endswith(walk.suffixes)
            source = f"{path}:{printable(member.name)}"
            if member.size > cap and compressed:
                yield walk.error(source, log_id_from_name(base) if base else None,
                                 f"member is {member.size} bytes, over the {cap}-byte limit: the "
                                 "compressed archive is not read past it")
                return
            if base is None:
                continue
            if not named_like_a_log:
                walk.stats.ignored += 1
                continue
            log_id = log_id_from_name(base)
            walk.stats.tar_members += 1
            if walk.duplicate(log_id, source):
                continue
            if member.size > cap:
                yield walk.error(source, log_id, f"member is {member.size} bytes, over the {cap}-byte limit")
                continue
            try:
                handle = archive.extractfile(member)
                data = handle.read(cap + 1) if handle is not None else b""
            except _TAR_ERRORS as exc:
                yield walk.error(source, log_id, f"cannot read tar member: {_tar_message(exc)}")
                return  # the stream cannot go on past a member it could not read
            if len(data) != member.size:
                yield walk.error(source, log_id, "cannot read tar member: the archive is truncated")
                return
            yield from walk.ok(source, log_id, data, base, found=True)


_TAR_ERRORS = (tarfile.TarError, OSError, EOFError, zlib.error, ValueError, lzma.LZMAError)


def _tar_message(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return printable(text[:200])
