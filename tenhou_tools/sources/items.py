"""What every local source yields, and what the readers of each kind of source share.

``LogItem`` is one game from some input (its bytes, or why they could not be read);
``SourceStats`` counts what a walk saw. The readers of each kind of source (``files``, ``zip``,
``tar``, ``database``, ``lists``) report through a ``Walk`` (``local._Run``), which keeps the
counts and drops duplicates, so each reader only knows its own format.

Content decides what a file is (``classify``): a SQLite header makes it a database, a zip header
an archive, a tar header (plain, or inside gzip, bz2 or xz) a tar archive, anything else is one
log (plain or gzip: the parser sniffs gzip itself), told apart as mjlog XML or tenhou.net/6 JSON
by its first bytes (``sniff_format``).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..errors import ParseError
from ..formats import LogFormat
from ..formats.sniff import BLANKS as _BLANKS
from ..formats.sniff import not_a_log
from ..ids import log_id_from_name, seed_key
from ..mjlog.read import MAX_BYTES, decompress_prefix
from .reads import read_upto

__all__ = [
    "DEFAULT_LIMITS",
    "HEAD_BYTES",
    "MAX_DUPLICATE_EXAMPLES",
    "Container",
    "LogFormat",
    "LogItem",
    "ReadLimits",
    "SourceStats",
    "Unreadable",
    "Walk",
    "classify",
    "container",
    "content_digest",
    "member_base",
    "found_not_a_log",
    "not_a_log",
    "os_message",
    "peek",
    "printable",
    "read_upto",
    "sniff_format",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")  # a local file header; the end record of an empty zip
GZIP_MAGIC = b"\x1f\x8b"
BZ2_MAGIC = b"BZh"
XZ_MAGIC = b"\xfd7zXZ\x00"
TAR_MAGIC_AT, TAR_MAGIC = 257, b"ustar"  # POSIX ustar, GNU and pax headers all carry it
HEAD_BYTES = 2048
"""Bytes read from the start of a file to tell what it is (its container, or the log format)."""
MAX_DUPLICATE_EXAMPLES = 100
"""How many duplicates ``SourceStats.duplicate_examples`` keeps (the count is always exact); as
many files that are not logs (``SourceStats.not_log_examples``)."""
PEEK_BYTES = 512
"""Content looked at to tell a log from a file that is not one (``not_a_log``)."""

Container = Literal["sqlite", "zip", "tar", "compressed"]
"""What a file holds when it is not one log: a database, a zip archive, a tar archive (plain or
gzip-compressed), or bz2 or xz-compressed data (a tar archive, or nothing we read)."""


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The read limits: how much a walk over the inputs reads at most, so that no input (a
    bomb, a hostile database) can exhaust memory. Passed to ``iter_logs`` and ``survey_inputs``;
    the defaults are the ones every command uses."""

    log_bytes: int = MAX_BYTES
    """One log: a file, an archive member or a database row (after bz2 is undone); a larger one
    is an error item. The parser caps what gzip decompresses to at the same size by default."""
    db_value_bytes: int = 64 * 1024 * 1024
    """SQLite's limit on one string or blob of a log database (its ``SQLITE_LIMIT_LENGTH``): far
    above the logs we read, far below SQLite's own 1 GB default."""
    db_page_rows: int = 256
    """Rows of a log database read at a time (a keyset page)."""
    db_page_bytes: int = 16 * 1024 * 1024
    """A page also ends once the logs read reach this many bytes, so huge rows cannot pile up."""


DEFAULT_LIMITS = ReadLimits()
"""The read limits every command uses."""


@dataclass(frozen=True, slots=True)
class LogItem:
    """One game from some input: its bytes, or the reason they could not be read.

    ``source`` is for people (``logs/a.mjlog``, ``archive.zip:2014/x.mjlog``, ``db.sqlite#<id>``);
    ``data`` is the raw log as stored (plain or gzip XML; bz2 is already undone), for
    ``formats.load_game``. Exactly one of ``data`` and ``error`` is set. ``kind`` is the log
    format: ``"tenhou6"`` for tenhou.net/6 JSON, which the mjlog parser does not read.
    """

    source: str
    log_id: str | None
    data: bytes | None
    error: str | None = None
    kind: LogFormat = "mjlog"

    def __post_init__(self) -> None:
        if (self.data is None) == (self.error is None):
            raise ValueError("a LogItem carries either data or an error")

    @property
    def ok(self) -> bool:
        return self.error is None

    def __reduce__(self) -> tuple[type[LogItem], tuple[Any, ...]]:
        """Pickled as a call of the class with its fields: every item goes to a pool worker so.
        Pickling 1,000 corpus logs in batches took ``validate``'s process 29.2 M instructions with
        the dataclass's own ``__getstate__`` (``fields()``, then a list of them), 16.1 M so."""
        return LogItem, (self.source, self.log_id, self.data, self.error, self.kind)


@dataclass(slots=True)
class SourceStats:
    """Counters filled in while ``iter_logs`` runs (read them once the stream is exhausted).

    ``files``, ``zip_members`` and ``db_rows`` count the entries that hold (or claim to hold) a
    log, duplicates included; ``items`` counts what was yielded, ``errors`` the items among them
    that carry an error instead of bytes.
    """

    inputs: int = 0
    files: int = 0
    zip_archives: int = 0
    zip_members: int = 0
    databases: int = 0
    db_rows: int = 0
    skipped_without_log: int = 0
    """Database rows whose log column is NULL or empty (not downloaded yet, or a failed download)."""
    tar_archives: int = 0
    tar_members: int = 0
    ignored: int = 0
    """Files in folders, zip and tar members skipped because of their name or content (not
    hidden ones)."""
    duplicates: int = 0
    duplicate_examples: list[tuple[str, str]] = field(default_factory=list)
    """``(source, log_id)`` of the first ``MAX_DUPLICATE_EXAMPLES`` duplicates skipped (for a log
    without an id, ``sha256:`` and the first 16 hex digits of its content's digest)."""
    not_logs: int = 0
    """Files in folders and archive members named like logs whose content is not a Tenhou log (an
    HTML page, other XML, JSON that is not a tenhou.net/6 log: ``not_a_log``), skipped."""
    not_log_examples: list[tuple[str, str]] = field(default_factory=list)
    """``(source, what it is)`` of the first ``MAX_DUPLICATE_EXAMPLES`` of them."""
    errors: int = 0
    items: int = 0


class Unreadable(Exception):
    """One entry cannot be read; the message becomes the item's ``error``."""


class Walk(Protocol):
    """What a reader of one kind of source reports to (``local._Run``): it counts, drops
    duplicates and makes the ``LogItem``\\ s."""

    stats: SourceStats
    suffixes: tuple[str, ...]
    """Names (lower case) taken as logs in folders and archives."""
    limits: ReadLimits
    """How much is read at most (a larger log is an error item)."""

    def ok(self, source: str, log_id: str | None, data: bytes, name: str,
           start: bytes | None = None, *, found: bool = False) -> Iterator[LogItem]:
        """The item of a log read (nothing when it is a copy of one yielded before). ``found``: in
        a folder or an archive, not named by the user: content that is not a log is skipped."""
        ...

    def error(self, source: str, log_id: str | None, message: str) -> LogItem:
        """The item of an entry that could not be read."""
        ...

    def duplicate(self, log_id: str | None, source: str) -> bool:
        """Whether a game of this id was yielded before (then it is counted as a duplicate)."""
        ...


# --- what a file is ------------------------------------------------------------------------------


def container(head: bytes) -> Container | None:
    """What the first bytes of a file say it is, or None (a log, or something that is not one:
    the parser tells)."""
    return classify(head)[0]


def classify(head: bytes) -> tuple[Container | None, bytes]:
    """``container`` and the first bytes of the content (for ``sniff_format``), gunzipped once.

    A log starts with ``<`` or ``{`` (after blanks), a tar archive with a member's name: only
    content that does not start like a log is gunzipped further, to the tar header's magic."""
    if head.startswith(SQLITE_MAGIC):
        return "sqlite", b""
    if head.startswith(ZIP_MAGICS):
        return "zip", b""
    if head.startswith((BZ2_MAGIC, XZ_MAGIC)):
        return "compressed", b""
    start = _peek(head, PEEK_BYTES)  # enough for ``not_a_log`` and ``game_keys`` too: gunzipped once
    if start.lstrip(_BLANKS).startswith((b"<", b"{", b"[")):
        return None, start
    return ("tar" if _is_tar_header(start) else None), start


def _peek(head: bytes, size: int = 512) -> bytes:
    """The first ``size`` bytes of the content: gunzipped when it is gzip (a corrupt or short
    gzip gives what could be decompressed)."""
    if not head.startswith(GZIP_MAGIC):
        return head[:size]
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, size)
    except zlib.error:
        return b""


def _is_tar_header(block: bytes) -> bool:
    return block[TAR_MAGIC_AT:TAR_MAGIC_AT + len(TAR_MAGIC)] == TAR_MAGIC


def peek(data: bytes) -> bytes:
    """The first ``PEEK_BYTES`` of a log's content (gunzipped when it is gzip)."""
    return _peek(data[:HEAD_BYTES], PEEK_BYTES)


def found_not_a_log(data: bytes, start: bytes | None = None) -> str | None:
    """``not_a_log`` of a log's bytes; ``start``, the content's first bytes when the caller has
    them (``peek``), spares gunzipping them again."""
    if start is None:
        start = peek(data)
    if start.lstrip(_BLANKS).startswith(b"<mjloggm"):
        return None
    return not_a_log(start)


def sniff_format(data: bytes, name: str, start: bytes | None = None) -> LogFormat:
    """``tenhou6`` for JSON, ``mjlog`` otherwise: by content when it says, else by name.
    ``start`` is the content's first bytes when the caller has them (``classify``)."""
    if start is None:
        start = peek(data)
    start = start[:64].lstrip(_BLANKS)
    if start.startswith(b"{"):
        return "tenhou6"
    if start.startswith(b"<"):
        return "mjlog"
    return "tenhou6" if name.lower().endswith((".json", ".json.gz")) else "mjlog"


_SEED = re.compile(rb'<SHUFFLE\s[^>]*?seed="([^"]{16,})')
_HAND_SEED = re.compile(rb'<INIT\s[^>]*?shuffle="([^"]{16,})')
"""The first hand's own seed in a log of 2009's first months (``INIT shuffle``: Tenhou seeded each
hand then, and wrote no ``SHUFFLE``)."""
HAND_SEED_BYTES = 4096
"""Content looked at for the first hand's seed: the header (the names, percent-encoded) and the
first ``INIT`` end well within it."""
_MJLOG_HEAD = re.compile(rb'(?:<\?xml[^>]*\?>)?\s*<mjloggm[\s>]')
"""How an mjlog starts: its root element (after an XML declaration, if any)."""
_REF = re.compile(rb'"ref"\s*:\s*"([^"]{1,80})"')


def game_keys(data: bytes, log_id: str | None, start: bytes | None = None) -> tuple[str, ...]:
    """What makes a log's game that game, for telling copies apart whatever their names and
    formats: its game id (from the file name, viewer suffix dropped, or a tenhou.net/6 log's
    ``ref``), its shuffle seed (unique to the game; read from the content's first bytes, plain
    or gzip), and, when it has neither, the digest of its content (gunzipped: a plain and a
    compressed copy are one game). A log is a copy of another when any key is shared. A log of
    2009's first months has no shuffle seed but a seed for each hand: its first hand's (``INIT
    shuffle``, in the content's first ``HAND_SEED_BYTES``) names the game the same way, and
    spares gunzipping and hashing the whole log (a fifth of the corpus's logs).
    ``start``: the content's first bytes (``peek``) when the caller has them (``classify``): a
    gzip log is not gunzipped a second time for them."""
    keys = []
    if log_id is not None:
        keys.append("id:" + log_id)
    if start is None:
        start = peek(data)
    # the seed names the game only in a log that starts as one: a copy whose root element is
    # damaged is not that game (it fails to parse), so it neither hides a good copy nor is hidden
    seed = None
    if _MJLOG_HEAD.match(start.lstrip(_BLANKS)):
        seed = _SEED.search(start) or _HAND_SEED.search(_peek(data, HAND_SEED_BYTES))
    if seed is not None:
        keys.append(seed_key(seed.group(1).decode("ascii", "replace")))
        return tuple(dict.fromkeys(keys))
    # the whole content is gunzipped only when it is asked: for a tenhou.net/6 log's ``ref``, or
    # for the digest of a log with no other key (a log with its id in the file name and no seed
    # in its first bytes, a fifth of the corpus, needs neither)
    content = None
    if start.lstrip(_BLANKS).startswith(b"{"):
        content = _content(data)
        ref = _REF.search(content)
        found = log_id_from_name(ref.group(1).decode("ascii", "replace")) if ref is not None else None
        if found is not None:
            keys.append("id:" + found)
    if not keys:
        keys.append("sha256:" + content_digest(_content(data) if content is None else content).hex())
    return tuple(dict.fromkeys(keys))


def _content(data: bytes) -> bytes:
    """A log's content, gunzipped (``mjlog.read.decompress_prefix``); its bytes as stored when
    they do not gunzip (the parser reports that)."""
    try:
        return decompress_prefix(data)[0]
    except ParseError:
        return data


def content_digest(data: bytes) -> bytes:
    """SHA-256 of a log's bytes."""
    return hashlib.sha256(data).digest()


# --- names and messages --------------------------------------------------------------------------


def os_message(exc: OSError) -> str:
    return f"cannot read: {exc.strerror or exc}"


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def printable(text: str) -> str:
    """Names from archives and databases are untrusted: escape control characters for display."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


def member_base(name: str) -> str | None:
    """The last part of an archive member's name; None for folders and hidden or ``__MACOSX``
    entries."""
    if name.endswith(("/", "\\")):
        return None
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    if not parts or any(hidden(p) or p == "__MACOSX" for p in parts):
        return None
    return parts[-1]
