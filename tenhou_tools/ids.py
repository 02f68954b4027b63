"""Game ids: the grammar, the file-name rule and the date. The one place that knows them.

Pure functions, no I/O. What the user typed is a Tenhou game id, a tenhou.net viewer URL, or
neither (then a path). Every id is checked against a strict, ASCII-only pattern *before* it can
reach a URL or a file name, so what comes out of here is safe to put in both: digits, lower-case
hex letters, ``g``, ``m`` and ``-`` only (no ``/``, ``..``, ``?``, ``&``, ``%``, spaces or
newlines).

The id format (MJLOG.md §1.3): ``YYYYMMDDHHgm-TTTT-LLLL-KKKKKKKK``

- ``YYYYMMDDHH``: the date and hour (Japan time) the game started; a few old ids (the yakuman
  lists) carry only ``YYYYMMDD``. ``game_start`` is the one reading of it: the engine (the rules
  in force that day), the replay view, the statistics' ``--since``/``--until`` and the
  downloader all ask it.
- ``TTTT``: the ``GO type`` value as 4 hex digits (``00a9`` = 169, 4-player Houou East-South).
- ``LLLL``: the lobby number, 4 or 5 decimal digits (``0000`` for the ranked lobbies).
- ``KKKKKKKK``: 8 hex digits, the game's key; or, in ids copied from a player's client history,
  an obfuscated key ``x`` + 12 hex digits, which :func:`decode_obfuscated` turns into the real
  one with the algorithm published by Tenhou log tools (NegativeMjark ``tenhou-download-game-xml.py``).

The file-name rule: a log file is named after its game (``<id>.mjlog``, ``<id>.xml.gz``...), so
the id of a file, an archive member or a database row named that way is its name up to the
first dot (:func:`log_id_from_name`); the download cache and ``download --out`` write
``<id>.mjlog`` (:func:`log_file_name`).

A viewer URL (MJLOG.md §1.2, §1.4) looks like ``https://tenhou.net/0/?log=ID&tw=2`` (also
``/3/``, ``/4/``, ``/5/``, ``/6/``); ``tw`` is the seat (0-3) shown at the bottom, seat 0 being
East in East-1 (the first dealer, 起家).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit

from .errors import InputError

__all__ = [
    "JST",
    "LOG_SUFFIX",
    "announced_table",
    "GameRef",
    "decode_obfuscated",
    "game_start",
    "is_log_id",
    "log_file_name",
    "log_id_from_name",
    "parse_log_id",
    "parse_ref",
    "parse_viewer_url",
    "require_ref",
    "validate_log_id",
]

JST = timezone(timedelta(hours=9), "JST")
"""Tenhou's ids carry Japan Standard Time."""

LOG_SUFFIX = ".mjlog"
"""The ending of the log files this package writes (gzip-compressed mjlog XML)."""

_START = re.compile(r"([0-9]{4})([0-9]{2})([0-9]{2})([0-9]{2})?")
"""The id's leading ``YYYYMMDD[HH]`` (``[0-9]``: ``\\d`` also matches non-ASCII digits). A few old
ids (the yakuman lists) carry no hour."""


def game_start(log_id: str | None) -> datetime | None:
    """When the game started (Japan time): the date and hour at the start of its id (hour 0 for
    an 8-digit date); ``None`` without an id, or when the id does not start with a possible
    date."""
    if not log_id:
        return None
    m = _START.match(log_id)
    if m is None:
        return None
    year, month, day, hour = m.groups()
    try:
        return datetime(int(year), int(month), int(day), int(hour or 0), tzinfo=JST)
    except ValueError:
        return None


_ID_RE = re.compile(
    r"(?P<date>[0-9]{8}(?:[0-9]{2})?)gm-(?P<type>[0-9a-f]{4})-(?P<lobby>[0-9]{4,5})-"
    r"(?P<key>[0-9a-f]{8}|x[0-9a-f]{12})"
)
"""The whole id (used with ``fullmatch``; ``[0-9]`` because ``\\d`` also matches non-ASCII digits)."""

_ID_SHAPE_RE = re.compile(r"[0-9]{6,}gm-", re.IGNORECASE)
"""Text that starts like an id: a malformed one is an error, not a path."""

_OBFUSCATION_TABLE = (
    22136, 52719, 55146, 42104, 59591, 46934, 9248, 28891, 49597, 52974, 62844, 4015,
    18311, 50730, 43056, 17939, 64838, 38145, 27008, 39128, 35652, 63407, 65535, 23473,
    35164, 55230, 27536, 4386, 64920, 29075, 42617, 17294, 18868, 2081,
)  # fmt: skip
"""The fixed 34-entry table of the published de-obfuscation algorithm (MJLOG.md §1.3)."""

_VIEWER_HOSTS = frozenset({"tenhou.net", "www.tenhou.net"})
_VIEWER_PATHS = frozenset({"/0/", "/3/", "/4/", "/5/", "/6/", "/0", "/3", "/4", "/5", "/6"})
_MAX_INPUT = 2048
_SEATS = range(4)


@dataclass(frozen=True, slots=True)
class GameRef:
    """A game on tenhou.net: its (real, de-obfuscated) id and, from a viewer URL, a seat.

    ``seat`` is the ``tw`` of the URL: the absolute mjlog seat (0 = East in East-1), or
    ``None`` when the user gave no seat.
    """

    log_id: str
    seat: int | None = None

    def __post_init__(self) -> None:
        validate_log_id(self.log_id)
        if self.seat is not None and self.seat not in _SEATS:
            raise InputError(f"seat {self.seat!r} is not 0-3")

    @property
    def date(self) -> datetime:
        """When the game started (Japan time, from ``YYYYMMDDHH``; hour 0 for 8-digit ids)."""
        start = game_start(self.log_id)
        assert start is not None  # checked by validate_log_id
        return start

    @property
    def type_code(self) -> int:
        """The ``GO type`` the id announces (the ``TTTT`` part, hexadecimal)."""
        return int(self.log_id.split("-")[1], 16)

    @property
    def lobby(self) -> int:
        """The lobby number (the ``LLLL`` part; 0 for the ranked lobbies)."""
        return int(self.log_id.split("-")[2])


def announced_table(log_id: str | None) -> tuple[int, int] | None:
    """The ``GO type`` and lobby number a whole game id announces (its ``TTTT`` and ``LLLL``), or
    ``None`` when ``log_id`` is not a whole id (no id, a name that only starts like one)."""
    if not log_id:
        return None
    m = _ID_RE.fullmatch(log_id)
    if m is None:
        return None
    return int(m["type"], 16), int(m["lobby"])


def validate_log_id(log_id: str) -> str:
    """Return ``log_id`` unchanged if it is a canonical (real, lower-case) id, else raise.

    This is the gate before an id goes into a URL or a file name; it accepts no obfuscated ids
    (decode them first with :func:`parse_log_id`).
    """
    if not isinstance(log_id, str) or not _ID_RE.fullmatch(log_id) or "x" in log_id:
        raise InputError(f"not a canonical Tenhou game id: {_show(log_id)}")
    _check_date(log_id)
    return log_id


def is_log_id(text: str) -> bool:
    """Whether ``text`` is a game id this module accepts (obfuscated or not), as typed."""
    try:
        parse_log_id(text)
    except InputError:
        return False
    return True


def parse_log_id(text: str) -> str:
    """The canonical id for a typed id: stripped, lower-cased, an ``x`` key decoded.

    Raises ``InputError`` with a one-line message that says what is wrong.
    """
    if not isinstance(text, str):
        raise InputError(f"not a Tenhou game id: {_show(text)}")
    raw = text.strip()
    candidate = raw.lower()
    if len(candidate) > 64 or not _ID_RE.fullmatch(candidate):
        raise InputError(f"not a Tenhou game id: {_show(raw)} ({_what_is_wrong(candidate)})")
    _check_date(candidate)
    if candidate.split("-")[3].startswith("x"):
        return decode_obfuscated(candidate)
    return candidate


def decode_obfuscated(log_id: str) -> str:
    """The real id of an obfuscated one (key ``x`` + 12 hex digits), as published (MJLOG §1.3).

    1. the 12 hex digits are three big-endian 16-bit words ``a, b, c``;
    2. the table index ``i`` is 0 for games up to ``2010041111gm``, otherwise
       ``int("3" + MMDDHH) % (33 - last digit of the hour)``;
    3. the key is ``a ^ b ^ T[i]`` and ``b ^ c ^ T[i] ^ T[i+1]`` as 4 hex digits each.

    An id without an ``x`` key is returned unchanged.
    """
    m = _ID_RE.fullmatch(log_id)
    if m is None:
        raise InputError(f"not a Tenhou game id: {_show(log_id)}")
    key = m["key"]
    if not key.startswith("x"):
        return log_id
    date = m["date"]
    if len(date) != 10:
        raise InputError(
            f"obfuscated game id {_show(log_id)} needs a 10-digit date (YYYYMMDDHH) to be decoded"
        )
    a, b, c = (int(key[i : i + 4], 16) for i in (1, 5, 9))
    index = 0
    if log_id[:12] > "2010041111gm":
        index = int("3" + date[4:10]) % (33 - int(date[9]))
    table = _OBFUSCATION_TABLE
    first = (a ^ b ^ table[index]) & 0xFFFF
    second = (b ^ c ^ table[index] ^ table[index + 1]) & 0xFFFF
    return f"{date}gm-{m['type']}-{m['lobby']}-{first:04x}{second:04x}"


def _check_date(log_id: str) -> None:
    """``InputError`` when an id (matched by ``_ID_RE``) names a day or hour that never was."""
    if game_start(log_id) is None:
        date = log_id.split("gm", 1)[0]
        raise InputError(
            f"game id {_show(log_id)} has an impossible date {date[0:4]}-{date[4:6]}-{date[6:8]}"
            + (f" {date[8:10]}h" if len(date) == 10 else "")
        )


def parse_viewer_url(text: str) -> GameRef:
    """The game and seat of a tenhou.net viewer URL (``https://tenhou.net/0/?log=ID&tw=2``)."""
    raw = text.strip()
    if len(raw) > _MAX_INPUT or any(ch.isspace() or ord(ch) < 0x20 for ch in raw):
        raise InputError(f"not a tenhou.net viewer URL: {_show(raw)}")
    try:
        parts = urlsplit(raw)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise InputError(f"not a tenhou.net viewer URL: {_show(raw)}") from None
    if (
        parts.scheme.lower() not in ("http", "https")
        or host not in _VIEWER_HOSTS
        or port is not None
        or parts.username is not None
        or parts.password is not None
        or parts.path not in _VIEWER_PATHS
    ):
        raise InputError(
            f"not a tenhou.net viewer URL: {_show(raw)} "
            "(expected https://tenhou.net/0/?log=ID&tw=SEAT, or /3/, /6/)"
        )
    try:
        query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=False,
                         max_num_fields=20)  # fmt: skip
    except ValueError:
        raise InputError(f"tenhou.net URL has too many parameters: {_show(raw)}") from None
    logs = query.get("log", [])
    if len(logs) != 1:
        what = "no log= parameter" if not logs else "more than one log= parameter"
        raise InputError(f"tenhou.net URL has {what}: {_show(raw)}")
    if logs[0] != logs[0].strip():
        raise InputError(f"not a Tenhou game id: {_show(logs[0])} (in the URL's log= parameter)")
    log_id = parse_log_id(logs[0])
    seats = query.get("tw", [])
    if len(seats) > 1:
        raise InputError(f"tenhou.net URL has more than one tw= parameter: {_show(raw)}")
    seat = None
    if seats:
        if seats[0] not in ("0", "1", "2", "3"):
            raise InputError(f"tw={_show(seats[0])} in the URL is not a seat 0-3")
        seat = int(seats[0])
    return GameRef(log_id, seat)


def parse_ref(text: str) -> GameRef | None:
    """A game id or a viewer URL as typed; ``None`` when it is neither (the caller's path).

    Text that *looks like* an id (starts with digits then ``gm-``, no ``/`` or ``.``) or a URL
    (contains ``://``, or starts with ``tenhou.net/``) must be valid: a malformed one raises
    ``InputError`` rather than being taken for a file name.
    """
    if not isinstance(text, str):
        raise InputError(f"not a game id, URL or path: {_show(text)}")
    raw = text.strip()
    lowered = raw.lower()
    if "://" in lowered:
        return parse_viewer_url(raw)
    if lowered.startswith(("tenhou.net/", "www.tenhou.net/")):
        return parse_viewer_url("https://" + raw)
    if _ID_SHAPE_RE.match(raw) and "/" not in raw and "\\" not in raw and "." not in raw:
        return GameRef(parse_log_id(raw))
    return None


def require_ref(text: str) -> GameRef:
    """Like :func:`parse_ref`, but neither an id nor a URL is an ``InputError`` too."""
    ref = parse_ref(text)
    if ref is None:
        raise InputError(
            f"not a Tenhou game id or viewer URL: {_show(text)} "
            "(expected e.g. 2014102312gm-00c1-0000-afb21fa5 or https://tenhou.net/0/?log=ID&tw=0)"
        )
    return ref


_VIEWER_SUFFIX = re.compile(r"[_&]tw=[0-3]$")
"""What some tools append to a game id in a file name: the viewer's seat (``ID_tw=3.xml.gz``)."""


def log_id_from_name(name: str) -> str | None:
    """The game id at the start of a file name (``2014...gm-00a9-0000-xxxxxxxx.xml.gz``): the name
    up to its first dot, less a viewer seat suffix (``_tw=3``), when it starts with a ten-digit
    date and ``gm``; else None. Only the shape is looked at (not the whole grammar): the id names
    the game for deduplication and messages, and is checked (``validate_log_id``) before it goes
    into a URL or a file name."""
    stem = _VIEWER_SUFFIX.sub("", name.split(".", 1)[0])
    if len(stem) >= 14 and stem[:10].isdigit() and stem[10:12] == "gm":
        return stem
    return None


SEED_KEY_CHARS = 96
"""How much of a shuffle seed names its game: Tenhou's seeds are 1,500-odd characters of base64
drawn at random, so their first 96 (the generator's name and some 50 random characters) tell
any two games apart."""


def seed_key(seed: str) -> str:
    """The key that names a game by its shuffle seed (``SHUFFLE seed``), for a log without a game
    id: copies of one game under other names, plain or compressed, share it."""
    return "seed:" + seed[:SEED_KEY_CHARS]


def log_file_name(log_id: str) -> str:
    """The name of a log file this package writes for a game: ``<id>.mjlog`` (the id is checked)."""
    return f"{validate_log_id(log_id)}{LOG_SUFFIX}"


def _what_is_wrong(text: str) -> str:
    """A short hint for a malformed id (the message, not the validation)."""
    head, sep, rest = text.partition("gm-")
    if not sep:
        return "expected YYYYMMDDHHgm-TTTT-LLLL-KKKKKKKK"
    if not re.fullmatch(r"[0-9]{8}(?:[0-9]{2})?", head):
        return "the date must be YYYYMMDDHH (or YYYYMMDD)"
    parts = rest.split("-")
    if len(parts) != 3:
        return "expected three parts after gm-: TTTT-LLLL-KKKKKKKK"
    type_, lobby, _key = parts
    if not re.fullmatch(r"[0-9a-f]{4}", type_):
        return "the type TTTT must be 4 hex digits"
    if not re.fullmatch(r"[0-9]{4,5}", lobby):
        return "the lobby LLLL must be 4 or 5 digits"
    return "the key must be 8 hex digits, or x and 12 hex digits"


def _show(value: object, limit: int = 80) -> str:
    """A safe, short, one-line rendering of untrusted input for an error message."""
    text = value if isinstance(value, str) else repr(value)
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return repr(text[:limit] + ("..." if len(text) > limit else ""))
