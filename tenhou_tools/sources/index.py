"""Tenhou's public game index, read: the FileIndex (``list.cgi``) and the day files it names.

Pure functions on bytes and text; fetching and caching are in ``index_fetch``. The formats, each
with its public source, are in the shared docs (``spec/TENHOU_INDEX.md``):

- **The FileIndex** ``https://tenhou.net/sc/raw/list.cgi`` (the last seven days) and
  ``list.cgi?old`` (this year until then) is a JavaScript call, one entry a line::

      list([
      {file:'scc2024071500.html.gz',size:8695},
      {file:'2024/scc20240101.html.gz',size:40758}
      ]);

  Each ``file`` is fetched from ``sc/raw/dat/`` + ``file``; ``size`` is its byte size, so a file
  whose size did not change need not be fetched again.
- **Day files** ``sc{a-f}YYYYMMDD[HH].{log,html}[.gz]``: ``scc`` holds the Houou table (鳳凰卓)
  with log links, ``sce`` the skill and amber tables (技能戦, 琥珀卓) with links, ``scf`` the
  official tournaments (公式大会) with links; ``sca``, ``scb``, ``scd`` carry results only. The
  yearly archives ``scrawYYYY.zip`` hold the same files in a year folder (plain before 2013,
  gzip from 2013).
- **A line** of a day file, fields separated by `` | `` (one line in the file, cut in two here)::

      23:00 | 30 | 四鳳南喰赤－ | <a href="http://tenhou.net/0/?log=2018092823gm-00a9-0000-445a08e4">牌譜</a> |
      =Jam(+59.0) とびまこ(+11.0) アル中@テンパ(-14.0) mineral2(-56.0)<br>

  an optional lobby (``L1001``, ``C0431``), the start time (JST), an optional duration in
  minutes, the rule (四鳳南喰赤－: players, table, length, 喰, 赤, 祝, chips), an optional link,
  then the players in placement order with their game points (``name(+59.0)``, or
  ``name(+70.0,+5枚)`` with chips). The ``.html`` files escape ``&``, ``<`` and ``>``.

Nothing from the index is trusted: a file name must match the strict pattern above before it can
become a URL or a path, a game id must be canonical (``ids.validate_log_id``), and a line that
cannot be read is counted and described, never fatal.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from ..errors import InputError
from ..events import Room, Ruleset
from ..ids import JST, GameRef, validate_log_id
from ..mjlog import ruleset_from_type

KINDS_WITH_LOGS: tuple[str, ...] = ("scc", "sce", "scf")
"""The day-file kinds whose lines link to the game logs (the others carry results only)."""

KIND_NAMES = {
    "sca": "private lobbies (個室), results only",
    "scb": "ranked lobbies (段位戦), results only",
    "scc": "the Houou table (鳳凰卓), with log links",
    "scd": "雀荘戦, results only",
    "sce": "the skill and amber tables (技能戦, 琥珀卓), with log links",
    "scf": "official tournaments (公式大会), with log links",
}

MAX_DAY_FILE_BYTES = 64 * 1024 * 1024
"""The most a day file may decompress to (a busy day's scc file is a few megabytes)."""

MAX_BAD_EXAMPLES = 3
"""How many unreadable lines a ``DayFileContent`` describes (it counts all of them)."""

_NAME_RE = re.compile(
    r"(?:(?P<folder>[0-9]{4})/)?(?P<kind>sc[a-f])(?P<date>[0-9]{8})(?P<hour>[0-9]{2})?"
    r"\.(?P<ext>log|html)(?P<gz>\.gz)?"
)
_INDEX_RE = re.compile(r"\s*list\s*\(\s*(?:\[(?P<body>.*)\])?\s*\)\s*;?\s*", re.DOTALL)
_ENTRY_RE = re.compile(r"\{\s*file\s*:\s*'(?P<file>[^']*)'\s*,\s*size\s*:\s*(?P<size>[0-9]{1,12})\s*\}")
_LOBBY_RE = re.compile(r"[A-Z][0-9]{4}")
_TIME_RE = re.compile(r"([0-9]{2}):([0-9]{2})")
_MINUTES_RE = re.compile(r"[0-9]{1,3}")
_LINK_RE = re.compile(r"log=([0-9A-Za-z-]+)")
_PLAYER_RE = re.compile(
    r"(?P<name>.*?)\((?P<points>[+-]?[0-9]{1,6}(?:\.[0-9]{1,3})?)(?:,(?P<chips>[+-]?[0-9]{1,4})枚)?\)(?: |$)"
)
_RULE_FIRST = "三四"
_CHUNK = 64 * 1024


class IndexFormatError(ValueError):
    """A body that is not a Tenhou FileIndex (an error page, a changed site): ``str()`` says why."""


# --- the FileIndex -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DayFile:
    """One file of the index: ``name`` as the index writes it (``2024/scc20240101.html.gz``,
    ``scc2024071500.html.gz``), its kind, the day (JST) and, for the hourly files of the last
    days, the hour; ``size`` in bytes as ``list.cgi`` states it (None for archive members)."""

    name: str
    kind: str
    day: date
    hour: int | None = None
    size: int | None = None

    @property
    def has_logs(self) -> bool:
        """Whether its lines link to the game logs (``scc``, ``sce``, ``scf``)."""
        return self.kind in KINDS_WITH_LOGS

    @property
    def html(self) -> bool:
        """``.html`` files escape ``&``, ``<`` and ``>`` and end lines with ``<br>``."""
        return ".html" in self.name


@dataclass(frozen=True, slots=True)
class FileIndex:
    """What a ``list.cgi`` body names: the usable entries, and the names refused (never used)."""

    files: tuple[DayFile, ...]
    refused: tuple[str, ...] = ()


def parse_day_file_name(name: str, size: int | None = None) -> DayFile | None:
    """The ``DayFile`` a name stands for, or None when it is not exactly a Tenhou day-file name.

    Accepted: ``[YYYY/]sc{a-f}YYYYMMDD[HH].{log,html}[.gz]`` with a real date, a year folder equal
    to the date's year and an hour 00-23. Nothing else (no other folder, no ``..``, no query).
    """
    m = _NAME_RE.fullmatch(name) if isinstance(name, str) else None
    if m is None:
        return None
    digits = m["date"]
    try:
        day = date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        return None
    if m["folder"] is not None and int(m["folder"]) != day.year:
        return None
    hour = int(m["hour"]) if m["hour"] is not None else None
    if hour is not None and hour > 23:
        return None
    return DayFile(name, m["kind"], day, hour, size)


def parse_file_index(text: str) -> FileIndex:
    """The entries of a ``list.cgi`` / ``list.cgi?old`` body (``IndexFormatError`` if it is none).

    ``list();`` and ``list([]);`` are empty indexes. Every entry must be ``{file:'…',size:N}``;
    an entry whose name is not a day-file name is put in ``refused``.
    """
    m = _INDEX_RE.fullmatch(text)
    if m is None:
        start = " ".join(text.strip().split())[:60]
        raise IndexFormatError(f"not a Tenhou file index (expected list([...]); it starts {start!r})")
    body = m["body"] or ""
    files: list[DayFile] = []
    refused: list[str] = []
    position = 0
    for entry in _ENTRY_RE.finditer(body):
        between = body[position : entry.start()]
        if between.strip(" \t\r\n,"):
            raise IndexFormatError(f"not a Tenhou file index (unexpected {between.strip()[:40]!r})")
        position = entry.end()
        parsed = parse_day_file_name(entry["file"], int(entry["size"]))
        if parsed is None:
            refused.append(entry["file"])
        else:
            files.append(parsed)
    if body[position:].strip(" \t\r\n,"):
        raise IndexFormatError(f"not a Tenhou file index (unexpected {body[position:].strip()[:40]!r})")
    return FileIndex(tuple(files), tuple(refused))


def prefer_daily(files: Iterable[DayFile]) -> list[DayFile]:
    """The files without the hourly ones of a (kind, day) that also has a daily file.

    When a day moves from the recent list (hourly files) to ``list.cgi?old`` (one file a day),
    both may name it for a while; the daily file holds all of that day's games.
    """
    files = list(files)
    daily = {(f.kind, f.day) for f in files if f.hour is None}
    return [f for f in files if f.hour is None or (f.kind, f.day) not in daily]


# --- games ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """One player's result in a game, as the index gives it."""

    name: str
    points: float
    """Game points after return, oka and uma (``+59.0``); whole numbers in the 2009 files."""
    chips: int | None = None
    """Chip (shuugi) count on chip tables (``+5枚``), else None."""


@dataclass(frozen=True, slots=True)
class IndexedGame:
    """A game the index lists: its id, when it started, its rule and its result."""

    log_id: str
    start: datetime
    """The start (JST): the id's date with the line's ``HH:MM``."""
    rule: str
    """The rule as the index writes it, e.g. ``四鳳南喰赤－``."""
    results: tuple[Placement, ...]
    """The players in placement order (first place first)."""
    minutes: int | None = None
    """How long the game took, where the file says (``scc``, ``sce``)."""
    source: str = ""
    """Where it was read: ``dat/2024/scc20240101.html.gz`` or ``scraw2019.zip:2019/scc20190101.html``."""

    @property
    def type_code(self) -> int:
        """The ``GO type`` (the id's ``TTTT`` part)."""
        return int(self.log_id.split("-")[1], 16)

    @property
    def lobby(self) -> int:
        """The lobby number (the id's ``LLLL`` part; 0 for the ranked lobbies)."""
        return int(self.log_id.split("-")[2])

    @property
    def ruleset(self) -> Ruleset:
        return _ruleset(self.type_code)

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def is_tonpu(self) -> bool:
        """Tonpuusen (東風戦, East only) rather than hanchan (East-South)."""
        return not self.ruleset.east_south

    @property
    def day(self) -> date:
        return self.start.date()

    @property
    def rule_en(self) -> str:
        """The rule in words, from the id's ``GO type`` (``Houou 4-player East-South, red fives, open tanyao``)."""
        return self.ruleset.name_en()

    @property
    def rule_short(self) -> str:
        """The table in a few words: ``Houou 4-player East-South``."""
        rules = self.ruleset
        length = "East-South" if rules.east_south else "East-only"
        return f"{rules.room.name.capitalize()} {rules.players}-player {length}"

    def to_json(self) -> dict[str, Any]:
        """The game as ``index --format ndjson`` writes it (README, "index")."""
        rules = self.ruleset
        results = []
        for p in self.results:
            entry: dict[str, Any] = {"name": p.name, "points": p.points}
            if p.chips is not None:
                entry["chips"] = p.chips
            results.append(entry)
        return {
            "id": self.log_id,
            "start": self.start.isoformat(timespec="minutes"),
            "minutes": self.minutes,
            "rule": self.rule,
            "rule_en": self.rule_en,
            "players": rules.players,
            "length": "south" if rules.east_south else "east",
            "room": rules.room.value,
            "lobby": self.lobby,
            "results": results,
            "source": self.source,
        }

    def to_row(self) -> list[Any]:
        """The game as a row of ``CSV_COLUMNS`` (``index --format csv``; empty cells for what is
        not known)."""
        doc = self.to_json()
        row = [doc[k] for k in ("id", "start", "minutes", "rule", "rule_en", "players", "length", "room", "lobby")]
        row = ["" if v is None else v for v in row]
        for n in range(4):
            if n < len(self.results):
                p = self.results[n]
                row += [p.name, p.points, "" if p.chips is None else p.chips]
            else:
                row += ["", "", ""]
        return [*row, self.source]


CSV_COLUMNS = (
    ["id", "start", "minutes", "rule", "rule_en", "players", "length", "room", "lobby"]
    + [f"{field}{n}" for n in range(1, 5) for field in ("name", "points", "chips")]
    + ["source"]
)
"""The columns of ``IndexedGame.to_row``."""


@lru_cache(maxsize=1024)
def _ruleset(type_code: int) -> Ruleset:
    return ruleset_from_type(type_code)


class LineError(ValueError):
    """One line of a day file cannot be read: ``str()`` says why."""


def parse_line(line: str, *, html: bool, source: str = "") -> IndexedGame | None:
    """The game on one line of a day file; None for a line without a log link (``sca``/``scb``
    lines, or a line of a kind with links that has none). ``LineError`` when it cannot be read.

    ``html``: the line is from an ``.html`` file (entities ``&amp; &lt; &gt;`` undone, the
    trailing ``<br>`` dropped).
    """
    text = line.rstrip("\r\n")
    complete = True
    if html:
        complete = text.rstrip().endswith("<br>")
        text = text.rstrip().removesuffix("<br>").rstrip()
    fields = text.split(" | ")
    i = 0
    if i < len(fields) and _LOBBY_RE.fullmatch(fields[i]):
        i += 1
    if i >= len(fields) or (clock := _TIME_RE.fullmatch(fields[i])) is None:
        raise LineError("no start time (HH:MM)")
    hour, minute = int(clock[1]), int(clock[2])
    if hour > 23 or minute > 59:
        raise LineError(f"impossible start time {fields[i]}")
    i += 1
    minutes = None
    if i < len(fields) and _MINUTES_RE.fullmatch(fields[i]):
        minutes = int(fields[i])
        i += 1
    if i >= len(fields) or not fields[i] or fields[i][0] not in _RULE_FIRST:
        raise LineError("no rule (such as 四鳳南喰赤－)")
    rule = fields[i]
    i += 1
    log_id = None
    if i < len(fields) and "log=" in fields[i] and ("<a " in fields[i] or "href" in fields[i]):
        link = _LINK_RE.search(fields[i])
        if link is None:
            raise LineError("a log link without a game id")
        try:
            log_id = validate_log_id(link[1])
        except InputError as exc:
            raise LineError(str(exc)) from None
        i += 1
    if not complete:
        raise LineError("no <br> at the end (the line is cut short)")
    if i >= len(fields):
        raise LineError("no players")
    players_text = " | ".join(fields[i:])
    if log_id is None:
        return None
    ref = GameRef(log_id)
    results = _parse_players(players_text, html)
    expected = _ruleset(ref.type_code).players
    if len(results) != expected:
        raise LineError(f"{len(results)} players, but the game id is a {expected}-player game")
    day = ref.date
    start = datetime(day.year, day.month, day.day, hour, minute, tzinfo=JST)
    return IndexedGame(log_id, start, rule, results, minutes, source)


def _parse_players(text: str, html: bool) -> tuple[Placement, ...]:
    results: list[Placement] = []
    position = 0
    while position < len(text):
        m = _PLAYER_RE.match(text, position)
        if m is None or m.end() == position:
            raise LineError(f"cannot read the players from {text[position:position + 40]!r}")
        name = _unescape(m["name"]) if html else m["name"]
        chips = int(m["chips"]) if m["chips"] is not None else None
        results.append(Placement(name, float(m["points"]), chips))
        position = m.end()
    if not results:
        raise LineError("no players")
    return tuple(results)


def _unescape(text: str) -> str:
    """Undo the escaping of the ``.html`` day files: only ``&lt; &gt; &amp;`` (a name may contain
    other text that looks like an entity, such as ``&quot;``: it stays as it is)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


@dataclass(frozen=True, slots=True)
class DayFileContent:
    """What one day file holds."""

    games: tuple[IndexedGame, ...]
    lines: int
    """Non-empty lines read."""
    without_log: int
    """Lines of games without a log link."""
    bad_lines: int
    """Lines that could not be read."""
    bad_examples: tuple[str, ...] = ()
    """The first ``MAX_BAD_EXAMPLES`` of them: ``line N: why``."""
    truncated: str | None = None
    """Why the file is incomplete (a gzip stream that ends early, a last line cut short), or None."""

    @property
    def complete(self) -> bool:
        return self.truncated is None


def decompress_day_file(data: bytes, *, max_bytes: int = MAX_DAY_FILE_BYTES) -> tuple[bytes, str | None]:
    """The plain bytes of a day file (gzip or not, by its magic bytes), and why it is incomplete.

    A truncated or corrupt gzip stream gives what could be decompressed before the damage, with
    the reason; so does a file over ``max_bytes`` (cut there).
    """
    if not data.startswith(b"\x1f\x8b"):
        if len(data) > max_bytes:
            return data[:max_bytes], f"larger than {max_bytes} bytes"
        return data, None
    out = bytearray()
    pos = 0
    while pos < len(data):  # one gzip member after another
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            while not d.eof and pos < len(data):
                chunk = data[pos : pos + _CHUNK]
                pos += len(chunk)
                out += d.decompress(chunk, max_bytes + 1 - len(out))
                if len(out) > max_bytes or d.unconsumed_tail:
                    return bytes(out[:max_bytes]), f"it decompresses to more than {max_bytes} bytes"
        except zlib.error as exc:
            return bytes(out), f"the gzip data is corrupt ({exc})"
        if not d.eof:
            return bytes(out), "the gzip data ends early (truncated)"
        pos -= len(d.unused_data)
        if not data.startswith(b"\x1f\x8b", pos):
            break  # padding after the last member
    return bytes(out), None


def read_day_file(data: bytes, file: DayFile, *, source: str = "") -> DayFileContent:
    """Every game with a log link in a day file (plain or gzip; CRLF or LF lines).

    A truncated file gives the games of its complete lines and says why it is incomplete.
    """
    plain, truncated = decompress_day_file(data)
    text = plain.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if truncated is not None and lines:
        lines = lines[:-1]  # the last line may be cut anywhere
    games: list[IndexedGame] = []
    count = without = bad = 0
    examples: list[str] = []
    last = len(lines) - 1
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        count += 1
        try:
            game = parse_line(line, html=file.html, source=source)
        except LineError as exc:
            if number - 1 == last and truncated is None and not text.endswith("\n"):
                truncated = f"the last line is cut short ({exc})"
                count -= 1
                continue
            bad += 1
            if len(examples) < MAX_BAD_EXAMPLES:
                examples.append(f"line {number}: {exc}")
            continue
        if game is None:
            without += 1
        else:
            games.append(game)
    return DayFileContent(tuple(games), count, without, bad, tuple(examples), truncated)


# --- selecting -----------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A player name for matching: NFKC (full-width letters become ASCII) and case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


@dataclass(frozen=True, slots=True)
class Selection:
    """Which games to list: every condition given must hold.

    ``since``/``until``: the start day (JST), inclusive. ``lobbies``: predicates on
    ``(type_code, lobby)``, any of which must match (the CLI builds them from ``--lobby``).
    ``kinds``: the day-file kinds to read.
    """

    since: date | None = None
    until: date | None = None
    players: int | None = None
    length: str | None = None
    """``east`` (tonpuusen) or ``south`` (hanchan)."""
    player_names: tuple[str, ...] = ()
    lobbies: tuple[Callable[[int, int], bool], ...] = field(default=(), compare=False)
    kinds: tuple[str, ...] = KINDS_WITH_LOGS

    def __post_init__(self) -> None:
        if self.players not in (None, 3, 4):
            raise InputError(f"players must be 3 or 4, not {self.players!r}")
        if self.length not in (None, "east", "south"):
            raise InputError(f"length must be east or south, not {self.length!r}")
        if self.since is not None and self.until is not None and self.since > self.until:
            raise InputError(f"--since {self.since} is after --until {self.until}")
        unknown = [k for k in self.kinds if k not in KINDS_WITH_LOGS]
        if unknown:
            raise InputError(f"day-file kinds with log links are {', '.join(KINDS_WITH_LOGS)}, not {unknown[0]}")

    def wants_day(self, day: date) -> bool:
        return (self.since is None or day >= self.since) and (self.until is None or day <= self.until)

    def wants_file(self, file: DayFile) -> bool:
        """Whether the file may hold selected games (its kind and day)."""
        return file.kind in self.kinds and self.wants_day(file.day)

    def matches(self, game: IndexedGame) -> bool:
        if not self.wants_day(game.day):
            return False
        rules = game.ruleset
        if self.players is not None and rules.players != self.players:
            return False
        if self.length is not None and (self.length == "south") != rules.east_south:
            return False
        if self.lobbies and not any(match(game.type_code, game.lobby) for match in self.lobbies):
            return False
        if self.player_names:
            wanted = {name_key(n) for n in self.player_names}
            if not any(name_key(p.name) in wanted for p in game.results):
                return False
        return True


def merge_games(groups: Iterable[Iterable[IndexedGame]]) -> tuple[list[IndexedGame], int]:
    """All games once each (the first copy of an id wins), by start time then id; and how many
    duplicates were dropped."""
    seen: dict[str, IndexedGame] = {}
    duplicates = 0
    for group in groups:
        for game in group:
            if game.log_id in seen:
                duplicates += 1
            else:
                seen[game.log_id] = game
    return sorted(seen.values(), key=lambda g: (g.start, g.log_id)), duplicates


def houou_only(type_codes: Iterable[int]) -> bool:
    """Whether every one of these ``GO type`` codes is a Houou-table game (scc files only)."""
    codes = list(type_codes)
    return bool(codes) and all(
        _ruleset(c).room is Room.HOUOU and not _ruleset(c).chips for c in codes
    )
