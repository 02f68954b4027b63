"""One log in, one ``StatsRecord`` out (the unit of work ``stats`` runs in worker processes), and
the game filters of the ``stats`` command (lobby, date).

``stats_item`` never raises for a bad log: an unreadable one becomes a record with ``error`` set.
A record carries what the report and the SQLite store need and nothing else: the game's key (its
log id; for a log without id its shuffle seed, ``ids.seed_key``, else ``sha256:<hex>`` of the
decompressed XML), the table (players, ``GO type``, lobby number), the day from the id, and the
counters per player.
"""

from __future__ import annotations

import hashlib
import traceback
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from ..batch import Work
from ..errors import ParseError
from ..events import Room, Ruleset
from ..formats import load_game
from ..ids import game_start, seed_key
from ..mjlog import ruleset_from_type
from ..mjlog.read import decompress
from ..sources.local import LogItem
from .counters import INT_FIELDS, PlayerCounters, PlayerKey, _get_ints, game_counters
from .games import GameEntry, game_entries
from .quality import NotJudged, game_quality, quality_counters

__all__ = ["STATS_QUALITY_WORK", "STATS_WORK", "GameFilter", "LobbySpec", "StatsRecord", "stats_item",
           "stats_item_quality"]


@dataclass(frozen=True, slots=True)
class StatsRecord:
    """The statistics of one log, or why there are none (``error``)."""

    source: str
    log_id: str | None
    key: str | None
    """Log id, else ``seed:...`` (``ids.seed_key``), else ``sha256:<hex>`` of the XML; ``None``
    when the log could not be read."""
    players: int = 0
    type_code: int = 0
    lobby: int = 0
    day: date | None = None
    counters: tuple[tuple[PlayerKey, PlayerCounters], ...] = ()
    entries: tuple[tuple[PlayerKey, GameEntry], ...] = ()
    """Each seat's ``GameEntry`` (placement, dan, rate, dan points), keyed like ``counters``."""
    error: str | None = None
    not_judged: str | None = None
    """With ``--quality``: why the game's play quality is not counted (``quality.NotJudged``);
    its other counters are."""

    @property
    def ok(self) -> bool:
        return self.error is None


def stats_item(item: LogItem, quality: bool = False) -> StatsRecord:
    """Parse one log and count it (with ``quality``, also judge every discard: slow). Never
    raises an ``Exception``."""
    if item.data is None:  # then the item carries its error
        return StatsRecord(item.source, item.log_id, None, error=item.error)
    try:
        game = load_game(item.data, source=item.source, log_id=item.log_id, log_format=item.kind)
        counters = game_counters(game)
        not_judged = None
        if quality:
            try:
                counters = _with_quality(game, counters)
            except NotJudged as exc:
                not_judged = f"{item.source}: {exc}"
    except ParseError as exc:
        return StatsRecord(item.source, item.log_id, None, error=str(exc))
    except ValueError as exc:
        return StatsRecord(item.source, item.log_id, None, error=f"{item.source}: {exc}")
    except Exception as exc:  # noqa: BLE001 - a bug on one log must not stop a batch
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return StatsRecord(item.source, item.log_id, None,
                           error=f"{item.source}: internal error: {type(exc).__name__}: {exc} "
                                 f"({last.filename.rsplit('/', 1)[-1]}:{last.lineno})")
    too_big = _too_big(counters.values())
    if too_big is not None:
        return StatsRecord(item.source, item.log_id, None,
                           error=f"{item.source}: {too_big} is beyond any real game: not counted")
    log_id = game.log_id or item.log_id
    if log_id:
        key = log_id
    elif game.header.shuffle is not None and game.header.shuffle.seed:
        key = seed_key(game.header.shuffle.seed)
    else:
        key = "sha256:" + hashlib.sha256(decompress(item.data, source=item.source)).hexdigest()
    header = game.header
    day = start.date() if (start := game_start(log_id)) is not None else None
    n = header.ruleset.players
    return StatsRecord(
        item.source, log_id, key,
        players=n,
        type_code=header.ruleset.type_code,
        lobby=header.lobby or 0,
        day=day,
        counters=tuple(counters.items()),
        entries=tuple(((name, n), entry) for name, entry in game_entries(game, key, day)),
        not_judged=not_judged,
    )


def stats_item_quality(item: LogItem) -> StatsRecord:
    """``stats_item`` with the play quality (``stats --quality``)."""
    return stats_item(item, quality=True)


def _with_quality(game, counters: dict[PlayerKey, PlayerCounters]) -> dict[PlayerKey, PlayerCounters]:
    """The counters with each seat's play quality added (``quality.game_quality``; seats sharing
    a name add up, as in ``game_counters``)."""
    n = game.header.ruleset.players
    out = dict(counters)
    for seat, summary in enumerate(game_quality(game)):
        key = (game.header.players[seat].name, n)
        out[key] = out[key] + quality_counters(summary)
    return out


MAX_GAME_COUNT = 10**15
"""No counter of one game may go beyond this (real games stay below 10**12, the square of a hand's
score change included): a log that claims a score of 10**30 parses, but would make the report's
floats overflow and a database row hold more than SQLite's integers."""


def _too_big(counters) -> str | None:
    for c in counters:
        for name, value in zip(INT_FIELDS, _get_ints(c)):
            if not -MAX_GAME_COUNT <= value <= MAX_GAME_COUNT:
                return f"{name} of about {'-' if value < 0 else ''}10**{len(str(abs(value))) - 1}"
    return None


def stats_failed(item: LogItem, message: str) -> StatsRecord:
    """The record of a log whose worker died (or whose Dask task failed) on it."""
    return StatsRecord(item.source, item.log_id, None, error=f"{item.source}: {message}")


STATS_WORK = Work(stats_item, stats_failed)
"""What ``batch`` runs on each log for ``stats``."""
STATS_QUALITY_WORK = Work(stats_item_quality, stats_failed)
"""The same with the play quality (``stats --quality``)."""


# --- filters -------------------------------------------------------------------------------------


_ROOM_NAMES = {
    "ippan": Room.IPPAN, "general": Room.IPPAN, "般": Room.IPPAN,
    "joukyuu": Room.JOUKYUU, "upper": Room.JOUKYUU, "上": Room.JOUKYUU,
    "tokujou": Room.TOKUJOU, "special": Room.TOKUJOU, "特": Room.TOKUJOU,
    "houou": Room.HOUOU, "phoenix": Room.HOUOU, "鳳": Room.HOUOU,
}


@dataclass(frozen=True, slots=True)
class LobbySpec:
    """One ``--lobby`` value: a ``GO type`` code (``169``, ``0xa9``), a room name (``houou``,
    ``tokujou``, ``joukyuu``, ``ippan``), Tenhou's name of a lobby (``四鳳南喰赤``) or a lobby
    number (``L1234``)."""

    kind: str
    """``type``, ``room``, ``name`` or ``lobby``."""
    value: int | str | Room
    text: str

    @classmethod
    def parse(cls, text: str) -> LobbySpec:
        raw = text.strip()
        low = raw.lower()
        try:
            if low.startswith("0x"):
                return cls("type", int(low, 16), raw)
            if low.isdigit():
                return cls("type", int(low), raw)
            if low[:1] == "l" and low[1:].isdigit():
                return cls("lobby", int(low[1:]), raw)
        except ValueError:
            pass
        if low in _ROOM_NAMES:
            return cls("room", _ROOM_NAMES[low], raw)
        if raw and raw[0] in "三四":
            return cls("name", raw, raw)
        raise ValueError(f"unknown lobby {text!r}: give a GO type code (169 or 0xa9), a room "
                         "(ippan, joukyuu, tokujou, houou), a lobby name (四鳳南喰赤) or L<number>")

    def matches(self, type_code: int, lobby: int) -> bool:
        if self.kind == "type":
            return type_code == self.value
        if self.kind == "lobby":
            return lobby == self.value
        rules = _ruleset(type_code)
        if self.kind == "room":
            return rules.room is self.value and not rules.chips
        return rules.name_ja() == self.value


@lru_cache(maxsize=4096)
def _ruleset(type_code: int) -> Ruleset:
    return ruleset_from_type(type_code)


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games a report covers: any of ``lobbies`` (none: all), and the day of the game id
    between ``since`` and ``until`` (inclusive). With a date bound, games without a dated id are
    left out."""

    lobbies: tuple[LobbySpec, ...] = ()
    since: date | None = None
    until: date | None = None

    @property
    def active(self) -> bool:
        return bool(self.lobbies) or self.since is not None or self.until is not None

    def matches(self, type_code: int, lobby: int, day: date | None) -> bool:
        if self.lobbies and not any(spec.matches(type_code, lobby) for spec in self.lobbies):
            return False
        if self.since is not None or self.until is not None:
            if day is None:
                return False
            if self.since is not None and day < self.since:
                return False
            if self.until is not None and day > self.until:
                return False
        return True

    def matches_record(self, record: StatsRecord) -> bool:
        return self.matches(record.type_code, record.lobby, record.day)
