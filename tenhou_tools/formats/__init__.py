"""Log formats besides mjlog XML: tenhou.net/6 JSON (read and write) and mjai JSON lines (write,
and read back). ``load_game`` is the one entry point every command reads a log through: it
decides by content (after undoing gzip) whether the bytes are mjlog XML or tenhou.net/6 JSON.
"""

from __future__ import annotations

import zlib
from typing import Literal

from ..errors import ParseError
from ..events import Game
from ..mjlog import parse_game
from ..mjlog.read import MAX_BYTES
from .sniff import not_a_log

LogFormat = Literal["mjlog", "tenhou6"]
"""The two log formats read: mjlog XML and tenhou.net/6 JSON."""

__all__ = ["SUFFIXES", "LogFormat", "Target", "detect_format", "dumps", "load_game"]


def detect_format(data: bytes, *, source: str = "<bytes>") -> LogFormat:
    """``"tenhou6"`` when the (gunzipped) data is a JSON object, ``"mjlog"`` otherwise.

    An mjai JSON-lines file is JSON too but not a log this package validates: it is refused
    with a ``ParseError`` that says so.
    """
    return _format_of(_head(data), source)


def _format_of(head: bytes, source: str) -> LogFormat:
    """``detect_format`` of a log's first bytes (gunzipped)."""
    if not head.lstrip(b" \t\r\n\xef\xbb\xbf").startswith(b"{"):
        return "mjlog"
    from .mjai import looks_like_mjai

    if looks_like_mjai(head):
        raise ParseError("mjai JSON lines: tenhou-tools writes mjai (convert --to mjai) but reads "
                         "only mjlog XML and tenhou.net/6 JSON as logs", source=source)
    return "tenhou6"


def _head(data: bytes, size: int = 256) -> bytes:
    """The first bytes of the data, gunzipped if need be (a corrupt gzip gives ``b""``: the
    parser then reports it)."""
    if not data.startswith(b"\x1f\x8b"):
        return data[:size]
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, size)
    except zlib.error:
        return b""


def load_game(data: bytes, *, source: str = "<bytes>", log_id: str | None = None,
              log_format: LogFormat | None = None, require_complete: bool = True,
              max_bytes: int = MAX_BYTES) -> Game:
    """Parse one log of either format into a ``Game`` (``ParseError`` when it cannot be read).

    ``log_format`` forces the format; by default the content decides (JSON starts with ``{``).
    ``require_complete=False`` reads an mjlog that stops early up to where it stops
    (``mjlog.parse_game``); a tenhou.net/6 log is read as it is either way. ``max_bytes`` caps
    the bytes, before and after gunzip (the read limit).
    """
    head = _head(data, 512)  # gunzipped once, for both questions
    if log_format is None:
        log_format = _format_of(head, source)  # mjai JSON lines: said so
    what = not_a_log(head)
    if what is not None:  # said as the folder walk says it (``sources``)
        raise ParseError(f"not a Tenhou log ({what})", source=source)
    if log_format == "tenhou6":
        from .tenhou6 import read_tenhou6

        return read_tenhou6(data, source=source, log_id=log_id, max_bytes=max_bytes)
    return parse_game(data, source=source, log_id=log_id, require_complete=require_complete, max_bytes=max_bytes)


Target = Literal["mjai", "tenhou6"]
SUFFIXES: dict[str, str] = {"tenhou6": ".json", "mjai": ".mjson"}
"""File name endings ``convert --out`` uses: tenhou.net/6 JSON, mjai JSON lines (gimite's
``.mjson``)."""


def dumps(game: Game, to: Target) -> str:
    """The game as text in the ``to`` format: tenhou.net/6 JSON on one line (compact, as Tenhou
    writes it), or mjai with one event per line; both end with a newline."""
    from ..serialize import json_text

    if to == "tenhou6":
        from .tenhou6 import write_tenhou6

        return json_text(write_tenhou6(game), separators=(",", ":")) + "\n"
    if to == "mjai":
        from .mjai import write_mjai

        return "".join(json_text(e, separators=(",", ":")) + "\n"
                       for e in write_mjai(game))
    raise ValueError(f"unknown format {to!r}")
